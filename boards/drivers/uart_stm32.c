/* SPDX-License-Identifier: Apache-2.0 */
/* STM32 USART driver (see uart_stm32.h). Registers from RM0368 (STM32F401), section 19.6. */
#include "uart_stm32.h"
#include "mmio.h"

#define REG_SR 0x00
#define REG_DR 0x04
#define REG_BRR 0x08
#define REG_CR1 0x0c
#define REG_CR2 0x10
#define REG_CR3 0x14
#define SR_TXE (1u << 7)
#define SR_TC (1u << 6)
#define CR1_RE (1u << 2)
#define CR1_TE (1u << 3)
#define CR1_UE (1u << 13)
#define PUTC_SPINS 1000000u

#define UART(con) ((const struct stm32_usart *)(con)) /* con is the first member */

void stm32_usart_init(struct bm_console *con)
{
	const struct stm32_usart *u = UART(con);
	/* Let a character in flight leave before reprogramming (a bootloader may have used it). */
	for (unsigned i = 0; i < PUTC_SPINS && (*mmio32(u->base + REG_CR1) & CR1_UE) && !(*mmio32(u->base + REG_SR) & SR_TC); i++)
		;
	*mmio32(u->base + REG_CR1) = 0;
	*mmio32(u->base + REG_CR2) = 0; /* 1 stop bit */
	*mmio32(u->base + REG_CR3) = 0; /* no flow control */
	/* 16x oversampling: BRR = f / baud as 12.4 fixed point, i.e. f / baud rounded. */
	*mmio32(u->base + REG_BRR) = (u->clock_hz + u->baud / 2) / u->baud;
	*mmio32(u->base + REG_CR1) = CR1_UE | CR1_TE | CR1_RE; /* 8 data bits, no parity */
}

/* The transmitter as init left it: enabled, its baud rate unchanged (a benchmark that turned it
 * off or reprogrammed it gets it back, and is reported). */
int stm32_usart_restore(struct bm_console *con)
{
	const struct stm32_usart *u = UART(con);
	if ((*mmio32(u->base + REG_CR1) & (CR1_UE | CR1_TE)) == (CR1_UE | CR1_TE) &&
	    *mmio32(u->base + REG_BRR) == (u->clock_hz + u->baud / 2) / u->baud)
		return 0;
	stm32_usart_init(con);
	return 1;
}

/* The fault test's hook (board.cmake's BM_TEST_CONSOLE_OFF): the transmitter off (CR1.TE), as a
 * benchmark may leave it: stm32_usart_restore must notice. */
void stm32_usart_tx_off(struct bm_console *con)
{
	*mmio32(UART(con)->base + REG_CR1) &= ~CR1_TE;
}

/* A piece of the report in one call, the registers' addresses in registers (a call per byte
 * was a measurable part of a short-batched board's kit share: netduinoplus2's). TXE before each
 * byte: the USART holds one. */
void stm32_usart_write(struct bm_console *con, const char *s, size_t n)
{
	volatile uint32_t *sr = mmio32(UART(con)->base + REG_SR), *dr = mmio32(UART(con)->base + REG_DR);
	for (; n; n--) {
		for (unsigned i = 0; !(*sr & SR_TXE) && i < PUTC_SPINS; i++)
			;
		*dr = (uint8_t)*s++;
	}
}

void stm32_usart_putc(struct bm_console *con, char c)
{
	stm32_usart_write(con, &c, 1);
}
