/* SPDX-License-Identifier: Apache-2.0 */
/* QEMU x86_64 PC (`-machine pc`, the default): COM1 console, HPET as the board timer (the
 * core's clock estimate against it gives the TSC frequency), exit through isa-debug-exit.
 * Memory map (from QEMU hw/i386/pc.c, hw/timer/hpet.c, hw/misc/debugexit.c):
 *   0x00100000   -kernel ELF loaded here (PVH entry, see arch/x86_64/start.S)
 *   0xfed00000   HPET (QEMU's period is 10 ns: 100 MHz)
 *   port 0x3f8   COM1 (8250/16550, 1.8432 MHz input clock)
 *   port 0xf4    isa-debug-exit (-device isa-debug-exit,iobase=0xf4,iosize=0x04) */
#include "arch/devices.h"
#include "hpet.h"
#include "isa_debug_exit.h"
#include "uart_ns16550.h"

static struct ns16550 com1 = {
	.con = NS16550_CONSOLE("com1 8250@io0x3f8"),
	.base = 0x3f8, .io = &arch_pio8, .clock_hz = 1843200, .baud = 115200,
};
static struct hpet hpet = {.timer = HPET_TIMER("hpet@0xfed00000"), .base = 0xfed00000};
static const struct isa_debug_exit debug_exit = {.dev = ISA_DEBUG_EXIT, .port = 0xf4};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &com1.con,
	.timer = &hpet.timer,
	.alarm = &arch_lapic_alarm,
	.exit = &debug_exit.dev,
};
