/* SPDX-License-Identifier: Apache-2.0 */
/* Arm CMSDK APB UART (the MPS2/MPS3 FPGA images, many Cortex-M SoCs built from the Cortex-M
 * System Design Kit): shared driver, instantiated by a board with its base address and PCLK.
 * Polled; it receives only what a served image reads (cmsdk_uart_getc). Nothing is sent until
 * CTRL.TXEN is set, which init does (and CTRL.RXEN). */
#ifndef DRIVERS_UART_CMSDK_H
#define DRIVERS_UART_CMSDK_H

#include "bm/port.h"

struct cmsdk_uart {
	struct bm_console con; /** the device core sees */
	uintptr_t base;        /** MMIO base address */
	uint32_t clock_hz;     /** PCLK, for BAUDDIV = PCLK / baud (at least 16) */
	uint32_t baud;         /** e.g. 115200; the frame is always 8N1 */
};

void cmsdk_uart_init(struct bm_console *con);
int cmsdk_uart_restore(struct bm_console *con);
void cmsdk_uart_putc(struct bm_console *con, char c);
/* The next byte received, or -1 (none): a served image's commands. */
int cmsdk_uart_getc(struct bm_console *con);
/* The fault test's hook (boards/drivers/README.md): the console's output off. */
void cmsdk_uart_tx_off(struct bm_console *con);

#define CMSDK_UART_CONSOLE(name_) \
	{.name = (name_), .init = cmsdk_uart_init, .putc = cmsdk_uart_putc, .restore = cmsdk_uart_restore, \
	 .getc = cmsdk_uart_getc}

#endif
