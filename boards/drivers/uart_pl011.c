/* SPDX-License-Identifier: Apache-2.0 */
/* PL011 driver (see uart_pl011.h). Register offsets and bits from the PrimeCell UART (PL011)
 * Technical Reference Manual (DDI 0183). */
#include "uart_pl011.h"
#include "mmio.h"

#define REG_DR 0x00   /* data */
#define REG_FR 0x18   /* flags */
#define REG_IBRD 0x24 /* integer baud divisor */
#define REG_FBRD 0x28 /* fractional baud divisor (64ths) */
#define REG_LCRH 0x2c /* line control; writing it latches IBRD/FBRD */
#define REG_CR 0x30   /* control */
#define REG_IMSC 0x38 /* interrupt mask */
#define REG_ICR 0x44  /* interrupt clear */
#define FR_BUSY (1u << 3)
#define FR_TXFF (1u << 5)
#define FR_TXFE (1u << 7) /* FIFOs on: the transmit FIFO is empty */
#define TX_FIFO_BYTES 16  /* the PL011's transmit FIFO depth (the BCM2835's too) */
#define LCRH_FEN (1u << 4)
#define LCRH_WLEN8 (3u << 5)
#define CR_UARTEN (1u << 0)
#define CR_TXE (1u << 8)
#define CR_RXE (1u << 9)
#define ICR_ALL 0x7ffu            /* every interrupt's clear bit */
#define FBRD_BITS 6               /* the fractional divisor: 64ths */
#define PUTC_SPINS 1000000u

#define UART(con) ((const struct pl011 *)(con)) /* con is the first member */

void pl011_init(struct bm_console *con)
{
	const struct pl011 *u = UART(con);
	if (!u->clock_hz || !u->baud)
		return;
	/* The TRM's sequence: disable, let the last character drain, program, enable. */
	*mmio32(u->base + REG_CR) = 0;
	for (unsigned i = 0; i < PUTC_SPINS && (*mmio32(u->base + REG_FR) & FR_BUSY); i++)
		;
	/* Divisor in 64ths, rounded: UARTCLK / (16 * baud) = (UARTCLK * 4 / baud) / 64. */
	uint32_t div64 = (uint32_t)(((uint64_t)u->clock_hz * 4 + u->baud / 2) / u->baud);
	*mmio32(u->base + REG_IBRD) = div64 >> FBRD_BITS;
	*mmio32(u->base + REG_FBRD) = div64 & ((1u << FBRD_BITS) - 1);
	*mmio32(u->base + REG_LCRH) = LCRH_WLEN8 | LCRH_FEN; /* 8N1, FIFOs on */
	*mmio32(u->base + REG_IMSC) = 0;
	*mmio32(u->base + REG_ICR) = ICR_ALL;
	*mmio32(u->base + REG_CR) = CR_UARTEN | CR_TXE | CR_RXE;
}

/* The transmitter enabled as init left it: TXE, and UARTEN where init programmed the UART
 * (without a clock it keeps firmware's set-up, QEMU's reset value: TXE and RXE). */
int pl011_restore(struct bm_console *con)
{
	const struct pl011 *u = UART(con);
	uint32_t need = CR_TXE | (u->clock_hz && u->baud ? CR_UARTEN : 0u);
	uint32_t cr = *mmio32(u->base + REG_CR);
	if ((cr & need) == need)
		return 0;
	*mmio32(u->base + REG_CR) = cr | need;
	return 1;
}

/* The fault test's hook (board.cmake's BM_TEST_CONSOLE_OFF): the transmitter off (CR.TXE), as a
 * benchmark may leave it: pl011_restore must notice. */
void pl011_tx_off(struct bm_console *con)
{
	*mmio32(UART(con)->base + REG_CR) &= ~CR_TXE;
}

/* With the FIFOs on (FEN, as pl011_init sets it; firmware may have left them off), waits for an
 * empty FIFO and fills it: one flag read per 16 bytes instead of one per byte (the report's bytes
 * are a measurable part of a deterministic run's kit share). */
void pl011_write(struct bm_console *con, const char *s, size_t n)
{
	const struct pl011 *u = UART(con);
	if (*mmio32(u->base + REG_LCRH) & LCRH_FEN) {
		while (n) {
			for (unsigned i = 0; i < PUTC_SPINS && !(*mmio32(u->base + REG_FR) & FR_TXFE); i++)
				;
			for (unsigned k = n < TX_FIFO_BYTES ? (unsigned)n : TX_FIFO_BYTES; k; k--, n--)
				*mmio32(u->base + REG_DR) = (uint8_t)*s++;
		}
		return;
	}
	for (; n; n--) {
		for (unsigned i = 0; i < PUTC_SPINS && (*mmio32(u->base + REG_FR) & FR_TXFF); i++)
			;
		*mmio32(u->base + REG_DR) = (uint8_t)*s++;
	}
}

void pl011_putc(struct bm_console *con, char c)
{
	pl011_write(con, &c, 1);
}
