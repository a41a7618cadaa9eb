/* Arm PL011 UART (QEMU virt, Raspberry Pi UART0, many Arm SoCs): shared driver, instantiated by a
 * board with its base address and input clock. Polled, transmit only. */
#ifndef DRIVERS_UART_PL011_H
#define DRIVERS_UART_PL011_H

#include <stdint.h>

struct pl011 {
	uintptr_t base;    /** MMIO base address */
	uint32_t clock_hz; /** UARTCLK, for the baud divisor (0: leave the UART as firmware set it) */
	uint32_t baud;     /** e.g. 115200; always 8N1 */
};

void pl011_init(const struct pl011 *u);
/* Blocking; sends "\r\n" for '\n' so a serial terminal shows lines. */
void pl011_putc(const struct pl011 *u, char c);

#endif
