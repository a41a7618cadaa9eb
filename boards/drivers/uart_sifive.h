/* SPDX-License-Identifier: Apache-2.0 */
/* SiFive UART (FE310, FU540 and other SiFive SoCs): shared driver, polled, transmit only. */
#ifndef DRIVERS_UART_SIFIVE_H
#define DRIVERS_UART_SIFIVE_H

#include "bm/port.h"

struct sifive_uart {
	struct bm_console con; /** the device core sees */
	uintptr_t base;        /** MMIO base address */
	uint32_t clock_hz;     /** tlclk feeding the UART, for the baud divisor (0: keep it) */
	uint32_t baud;         /** e.g. 115200; always 8N1 */
};

void sifive_uart_init(struct bm_console *con);
int sifive_uart_restore(struct bm_console *con);
void sifive_uart_putc(struct bm_console *con, char c);
void sifive_uart_write(struct bm_console *con, const char *s, size_t n);
/* The fault test's hook (boards/drivers/README.md): the console's output off. */
void sifive_uart_tx_off(struct bm_console *con);

#define SIFIVE_UART_CONSOLE(name_)                                                                  \
	{.name = (name_), .init = sifive_uart_init, .putc = sifive_uart_putc, .write = sifive_uart_write, \
	 .restore = sifive_uart_restore}

#endif
