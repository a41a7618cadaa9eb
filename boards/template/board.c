/* SPDX-License-Identifier: Apache-2.0 */
/* Template board: copy this folder to boards/<name>/ (or into a folder named in BM_BOARD_DIRS)
 * and fill in. A board is data: device instances from boards/drivers (each embeds the device core
 * sees), a memory map, and one `const struct bm_board board_desc` (core/include/bm/port.h says
 * what each field is). Keep an ASCII memory map here that says where each address comes from
 * (data sheet, QEMU source). */
#error "boards/template: fill in the devices and the memory map of your board, then delete this line"

#include "riscv_clint.h"
#include "uart_ns16550.h"

/* Memory map (source: TODO):
 *   0x........  UART0
 *   0x........  timer
 *   0x........  RAM */

static struct ns16550 uart0 = {
	.con = NS16550_CONSOLE("ns16550a@0xTODO"),
	.base = 0 /* TODO */, .io = &ns16550_mmio8, .clock_hz = 0 /* TODO */, .baud = 115200,
};
static struct clint clint = {.timer = CLINT_TIMER("clint-mtime@0xTODO", 0 /* TODO: Hz */), .base = 0};

/* TODO: how the run ends: an exit device from boards/drivers (e.g. sifive_test), or the arch's
 * semihosting (#include "arch/devices.h", .exit = &arch_semihosting). */
static const struct bm_exit exit_dev = {.name = "TODO"};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &uart0.con,
	.timer = &clint.timer,
	.exit = &exit_dev,
};
