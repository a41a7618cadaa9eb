/* SiFive UART driver (see uart_sifive.h). Registers from the FE310-G002 manual, chapter 18:
 * txdata bit 31 = FIFO full; txctrl bit 0 = txen (QEMU prints without it, hardware does not). */
#include "uart_sifive.h"

#define REG_TXDATA 0x00
#define REG_TXCTRL 0x08
#define REG_DIV 0x18

static inline volatile uint32_t *reg(const struct sifive_uart *u, unsigned off)
{
	return (volatile uint32_t *)(u->base + off);
}

void sifive_uart_init(const struct sifive_uart *u)
{
	if (u->clock_hz && u->baud)
		*reg(u, REG_DIV) = u->clock_hz / u->baud - 1; /* baud = clk / (div + 1) */
	*reg(u, REG_TXCTRL) = 1;                             /* txen, one stop bit */
}

static void put_raw(const struct sifive_uart *u, char c)
{
	while (*reg(u, REG_TXDATA) & 0x80000000u)
		;
	*reg(u, REG_TXDATA) = (uint8_t)c;
}

void sifive_uart_putc(const struct sifive_uart *u, char c)
{
	if (c == '\n')
		put_raw(u, '\r');
	put_raw(u, c);
}
