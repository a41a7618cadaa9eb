/* SiFive UART driver (see uart_sifive.h). Registers from the FE310-G002 manual, chapter 18:
 * txdata bit 31 = FIFO full; txctrl bit 0 = txen (QEMU prints without it, hardware does not). */
#include "uart_sifive.h"

#define REG_TXDATA 0x00
#define REG_TXCTRL 0x08
#define REG_DIV 0x18
#define PUTC_SPINS 1000000u

#define UART(con) ((const struct sifive_uart *)(con)) /* con is the first member */

static inline volatile uint32_t *reg(const struct sifive_uart *u, unsigned off)
{
	return (volatile uint32_t *)(u->base + off);
}

void sifive_uart_init(struct bm_console *con)
{
	const struct sifive_uart *u = UART(con);
	if (u->clock_hz && u->baud)
		*reg(u, REG_DIV) = u->clock_hz / u->baud - 1; /* baud = clk / (div + 1) */
	*reg(u, REG_TXCTRL) = 1;                             /* txen, one stop bit */
}

void sifive_uart_write(struct bm_console *con, const char *s, size_t n)
{
	const struct sifive_uart *u = UART(con);
	for (; n; n--) {
		for (unsigned i = 0; i < PUTC_SPINS && (*reg(u, REG_TXDATA) & 0x80000000u); i++)
			;
		*reg(u, REG_TXDATA) = (uint8_t)*s++;
	}
}

void sifive_uart_putc(struct bm_console *con, char c)
{
	sifive_uart_write(con, &c, 1);
}
