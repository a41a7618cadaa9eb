/* SPDX-License-Identifier: Apache-2.0 */
/* QEMU `-machine virt` (RV64): NS16550A console, CLINT mtime timer, exit through the SiFive
 * test/finisher device. Memory map (from QEMU hw/riscv/virt.c):
 *   0x00100000  sifive_test finisher   0x5555 = pass, (code << 16) | 0x3333 = fail
 *   0x02000000  CLINT                  mtime at +0xbff8, 10 MHz
 *   0x10000000  NS16550A UART0         3.6864 MHz input clock, byte registers
 *   0x80000000  RAM                    128 MiB by default; -kernel ELF loaded here, M-mode */
#include "riscv_clint.h"
#include "sifive_test.h"
#include "uart_ns16550.h"

static struct ns16550 uart0 = {
	.con = NS16550_CONSOLE("ns16550a@0x10000000"),
	.base = 0x10000000, .io = &ns16550_mmio8, .clock_hz = 3686400, .baud = 115200,
};
static struct clint clint = {
	.timer = CLINT_TIMER("clint-mtime@0x0200bff8", 10000000), .alarm = CLINT_ALARM, .base = 0x02000000,
};
static const struct sifive_test finisher = {.dev = SIFIVE_TEST_EXIT, .base = 0x00100000};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &uart0.con,
	.timer = &clint.timer,
	.alarm = &clint.alarm,
	.exit = &finisher.dev,
};
