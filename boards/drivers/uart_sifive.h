/* SiFive UART (FE310 and other SiFive SoCs): shared driver, polled, transmit only. */
#ifndef DRIVERS_UART_SIFIVE_H
#define DRIVERS_UART_SIFIVE_H

#include <stdint.h>

struct sifive_uart {
	uintptr_t base;     /** MMIO base address */
	uint32_t clock_hz;  /** tlclk feeding the UART, for the baud divisor */
	uint32_t baud;      /** e.g. 115200; always 8N1 */
};

void sifive_uart_init(const struct sifive_uart *u);
/* Blocking; sends "\r\n" for '\n'. */
void sifive_uart_putc(const struct sifive_uart *u, char c);

#endif
