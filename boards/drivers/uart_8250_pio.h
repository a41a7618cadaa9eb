/* 8250/16550 UART on x86 port I/O (COM1 at 0x3f8 on a PC). The memory-mapped sibling is
 * uart_ns16550.{c,h}; this one uses in/out instructions, so it is x86-only. */
#ifndef UART_8250_PIO_H
#define UART_8250_PIO_H

#include <stdint.h>

struct uart_8250_pio {
	uint16_t port;     /** I/O base port (COM1 = 0x3f8) */
	uint32_t clock_hz; /** UART input clock: 1843200 Hz on PCs (divisor 1 = 115200 baud) */
	uint32_t baud;     /** line rate; 0 = leave the line settings as firmware left them */
};

void uart_8250_pio_init(const struct uart_8250_pio *u);
void uart_8250_pio_putc(const struct uart_8250_pio *u, char c);

#endif /* UART_8250_PIO_H */
