/* NS16550A-compatible UART (QEMU virt, many SoCs): shared driver, instantiated by a board with
 * its base address, register stride and input clock. Polled, transmit only. */
#ifndef DRIVERS_UART_NS16550_H
#define DRIVERS_UART_NS16550_H

#include <stdint.h>

struct ns16550 {
	uintptr_t base;     /** MMIO base address */
	uint8_t reg_shift;  /** register stride is 1 << reg_shift bytes */
	uint32_t clock_hz;  /** UART input clock, for the baud divisor (0: leave as firmware set it) */
	uint32_t baud;      /** e.g. 115200; always 8N1 */
};

void ns16550_init(const struct ns16550 *u);
/* Blocking; sends "\r\n" for '\n' so a serial terminal shows lines. */
void ns16550_putc(const struct ns16550 *u, char c);

#endif
