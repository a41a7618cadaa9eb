/* NS16550A driver (see uart_ns16550.h). Register offsets from the 16550 data sheet. */
#include "uart_ns16550.h"

#define REG_THR 0 /* transmit holding (write) */
#define REG_DLL 0 /* divisor latch low (DLAB=1) */
#define REG_DLM 1 /* divisor latch high (DLAB=1) */
#define REG_FCR 2 /* FIFO control */
#define REG_LCR 3 /* line control */
#define REG_LSR 5 /* line status */
#define LSR_THRE 0x20

static inline volatile uint8_t *reg(const struct ns16550 *u, unsigned r)
{
	return (volatile uint8_t *)(u->base + ((uintptr_t)r << u->reg_shift));
}

void ns16550_init(const struct ns16550 *u)
{
	if (u->clock_hz && u->baud) {
		uint32_t div = (u->clock_hz + 8 * u->baud) / (16 * u->baud);
		*reg(u, REG_LCR) = 0x80; /* DLAB */
		*reg(u, REG_DLL) = (uint8_t)div;
		*reg(u, REG_DLM) = (uint8_t)(div >> 8);
	}
	*reg(u, REG_LCR) = 0x03; /* 8N1, DLAB off */
	*reg(u, REG_FCR) = 0x07; /* FIFOs on and cleared */
}

static void put_raw(const struct ns16550 *u, char c)
{
	while ((*reg(u, REG_LSR) & LSR_THRE) == 0)
		;
	*reg(u, REG_THR) = (uint8_t)c;
}

void ns16550_putc(const struct ns16550 *u, char c)
{
	if (c == '\n')
		put_raw(u, '\r');
	put_raw(u, c);
}
