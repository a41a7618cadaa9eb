/* SPDX-License-Identifier: Apache-2.0 */
/* SiFive UART driver (see uart_sifive.h). Registers from the FE310-G002 manual, chapter 18:
 * txdata bit 31 = FIFO full; txctrl bit 0 = txen (QEMU prints without it, hardware does not),
 * bits 18:16 = txcnt; ip bit 0 = txwm, raised while the transmit FIFO holds fewer than txcnt. */
#include "uart_sifive.h"
#include "mmio.h"

#define REG_TXDATA 0x00
#define REG_TXCTRL 0x08
#define REG_IP 0x14
#define REG_DIV 0x18
#define TX_FIFO_BYTES 8
#define TXCTRL_TXEN 1u
#define TXCTRL_TXCNT_1 (1u << 16) /* txwm: the transmit FIFO is empty */
#define IP_TXWM (1u << 0)
#define PUTC_SPINS 1000000u

#define UART(con) ((const struct sifive_uart *)(con)) /* con is the first member */

void sifive_uart_init(struct bm_console *con)
{
	const struct sifive_uart *u = UART(con);
	if (u->clock_hz && u->baud)
		*mmio32(u->base + REG_DIV) = u->clock_hz / u->baud - 1; /* baud = clk / (div + 1) */
	*mmio32(u->base + REG_TXCTRL) = TXCTRL_TXEN | TXCTRL_TXCNT_1;  /* one stop bit */
}

/* The transmitter enabled as init left it (QEMU prints without txen; hardware goes silent). */
int sifive_uart_restore(struct bm_console *con)
{
	const struct sifive_uart *u = UART(con);
	if (*mmio32(u->base + REG_TXCTRL) == (TXCTRL_TXEN | TXCTRL_TXCNT_1))
		return 0;
	*mmio32(u->base + REG_TXCTRL) = TXCTRL_TXEN | TXCTRL_TXCNT_1;
	return 1;
}

/* The fault test's hook (board.cmake's BM_TEST_CONSOLE_OFF): the transmitter off (txctrl.txen), as
 * a benchmark may leave it: sifive_uart_restore must notice (QEMU prints anyway). */
void sifive_uart_tx_off(struct bm_console *con)
{
	*mmio32(UART(con)->base + REG_TXCTRL) &= ~TXCTRL_TXEN;
}

/* Waits for an empty FIFO, then fills it: one status read per 8 bytes instead of one per byte
 * (the report's bytes are a measurable part of a deterministic run's kit share). */
void sifive_uart_write(struct bm_console *con, const char *s, size_t n)
{
	const struct sifive_uart *u = UART(con);
	while (n) {
		for (unsigned i = 0; i < PUTC_SPINS && !(*mmio32(u->base + REG_IP) & IP_TXWM); i++)
			;
		for (unsigned k = n < TX_FIFO_BYTES ? (unsigned)n : TX_FIFO_BYTES; k; k--, n--)
			*mmio32(u->base + REG_TXDATA) = (uint8_t)*s++;
	}
}

void sifive_uart_putc(struct bm_console *con, char c)
{
	sifive_uart_write(con, &c, 1);
}
