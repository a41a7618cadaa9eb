/* 8250/16550 UART over port I/O: 8N1 at the requested baud, FIFOs on, interrupts off, and a
 * blocking putc. QEMU prints without any set-up; real PCs need the divisor. */
#include "uart_8250_pio.h"

#include "arch/pio.h"

#define RBR_THR 0
#define IER 1
#define FCR 2
#define LCR 3
#define MCR 4
#define LSR 5
#define LCR_DLAB 0x80
#define LCR_8N1 0x03
#define LSR_THRE 0x20

void uart_8250_pio_init(const struct uart_8250_pio *u)
{
	if (!u->baud)
		return;
	uint32_t div = u->clock_hz / (16u * u->baud);
	arch_outb((uint16_t)(u->port + IER), 0); /* polled: no interrupts */
	arch_outb((uint16_t)(u->port + LCR), LCR_DLAB);
	arch_outb((uint16_t)(u->port + 0), (uint8_t)div);
	arch_outb((uint16_t)(u->port + 1), (uint8_t)(div >> 8));
	arch_outb((uint16_t)(u->port + LCR), LCR_8N1);
	arch_outb((uint16_t)(u->port + FCR), 0x07); /* enable and clear FIFOs */
	arch_outb((uint16_t)(u->port + MCR), 0x03); /* DTR, RTS */
}

void uart_8250_pio_putc(const struct uart_8250_pio *u, char c)
{
	/* Bounded wait: a missing UART (all-ones or all-zeros reads) must not hang the run. */
	for (uint32_t spins = 0; !(arch_inb((uint16_t)(u->port + LSR)) & LSR_THRE); spins++)
		if (spins > 1000000u)
			break;
	arch_outb((uint16_t)(u->port + RBR_THR), (uint8_t)c);
}
