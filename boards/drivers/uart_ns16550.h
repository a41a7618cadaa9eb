/* SPDX-License-Identifier: Apache-2.0 */
/* NS16550A-compatible UART (QEMU virt, PC COM ports, many SoCs): one driver for every bus the
 * chip sits on, picked by the board through `io` (8-bit or 32-bit MMIO, x86 port I/O). Polled;
 * it receives only what a served image reads (ns16550_getc). The board declares an instance and
 * points board_desc.console at `con`. */
#ifndef DRIVERS_UART_NS16550_H
#define DRIVERS_UART_NS16550_H

#include "bm/port.h"

struct ns16550 {
	struct bm_console con;    /** the device core sees (name, init, putc) */
	uintptr_t base;           /** MMIO address or I/O port of register 0 */
	uint8_t reg_shift;        /** register stride is 1 << reg_shift bytes (or ports) */
	const struct bm_io8 *io;  /** &ns16550_mmio8, &ns16550_mmio32, or the arch's port I/O */
	uint32_t clock_hz;        /** UART input clock, for the divisor (0: keep firmware's setting) */
	uint32_t baud;            /** e.g. 115200; always 8N1 */
	uint8_t tx_burst;         /* set by ns16550_init: bytes written per THRE (16 with a working
	                           * FIFO, 1 on a FIFO-less 8250/16450); leave 0 */
};

extern const struct bm_io8 ns16550_mmio8, ns16550_mmio32;

void ns16550_init(struct bm_console *con);
int ns16550_restore(struct bm_console *con);
/* Blocking, but bounded: a missing UART (reads of all ones or zeros) must not hang the run. */
void ns16550_putc(struct bm_console *con, char c);
void ns16550_write(struct bm_console *con, const char *s, size_t n);
/* The next byte received, or -1 (none): a served image's commands. */
int ns16550_getc(struct bm_console *con);
/* The fault test's hook (boards/drivers/README.md): the console's output off. */
void ns16550_tx_off(struct bm_console *con);

/* Initialiser of the embedded console: .con = NS16550_CONSOLE("ns16550a@0x10000000"). */
#define NS16550_CONSOLE(name_)                                                                      \
	{.name = (name_), .init = ns16550_init, .putc = ns16550_putc, .write = ns16550_write,            \
	 .restore = ns16550_restore, .getc = ns16550_getc}

#endif
