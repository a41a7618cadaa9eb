/* SPDX-License-Identifier: Apache-2.0 */
/* QEMU `-machine sifive_u` (SiFive FU540 model), run on hart 0: the E51 monitor core, RV64IMAC in
 * M-mode (harts 1-4 are U54s; the start-up parks every hart but 0). Memory map (QEMU
 * hw/riscv/sifive_u.c, FU540-C000 manual):
 *   0x02000000  CLINT                  mtime at +0xbff8, 1 MHz (the FU540's RTCCLK)
 *   0x10010000  UART0                  SiFive UART
 *   0x80000000  DDR                    -kernel ELF loaded here
 * QEMU 7.2's sifive_u has no test finisher (unlike virt), so the run ends through semihosting
 * (QEMU -semihosting). */
#include "arch/devices.h"
#include "riscv_clint.h"
#include "uart_sifive.h"

static struct sifive_uart uart0 = {
	.con = SIFIVE_UART_CONSOLE("sifive-uart0@0x10010000"),
	.base = 0x10010000,
};
static struct clint clint = {
	.timer = CLINT_TIMER("clint-mtime@0x0200bff8", 1000000), .alarm = CLINT_ALARM, .base = 0x02000000,
};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &uart0.con,
	.timer = &clint.timer,
	.alarm = &clint.alarm,
	.exit = &arch_semihosting,
};
