/* SPDX-License-Identifier: Apache-2.0 */
/* Arm PL011 UART (QEMU virt, Raspberry Pi UART0, many Arm SoCs): shared driver, instantiated by a
 * board with its base address and input clock. Polled, transmit only. */
#ifndef DRIVERS_UART_PL011_H
#define DRIVERS_UART_PL011_H

#include "bm/port.h"

struct pl011 {
	struct bm_console con; /** the device core sees */
	uintptr_t base;        /** MMIO base address */
	uint32_t clock_hz;     /** UARTCLK, for the baud divisor (0: leave the UART as firmware set it) */
	uint32_t baud;         /** e.g. 115200; always 8N1 */
};

void pl011_init(struct bm_console *con);
int pl011_restore(struct bm_console *con);
void pl011_putc(struct bm_console *con, char c);
void pl011_write(struct bm_console *con, const char *s, size_t n);
/* The fault test's hook (boards/drivers/README.md): the console's output off. */
void pl011_tx_off(struct bm_console *con);

#define PL011_CONSOLE(name_)                                                                        \
	{.name = (name_), .init = pl011_init, .putc = pl011_putc, .write = pl011_write,                  \
	 .restore = pl011_restore}

#endif
