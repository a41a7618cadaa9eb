/* SPDX-License-Identifier: Apache-2.0 */
/* CMSDK APB UART driver (see uart_cmsdk.h). Registers from the Cortex-M System Design Kit
 * Technical Reference Manual (DDI 0479), "APB UART". */
#include "uart_cmsdk.h"
#include "mmio.h"

#define REG_DATA 0x00
#define REG_STATE 0x04   /* bit 0: TX buffer full, bit 1: RX buffer full */
#define REG_CTRL 0x08    /* bit 0: TX enable, bit 1: RX enable */
#define REG_BAUDDIV 0x10 /* PCLK / baud, at least 16 */
#define STATE_TXFULL (1u << 0)
#define STATE_RXFULL (1u << 1)
#define CTRL_TXEN (1u << 0)
#define CTRL_RXEN (1u << 1)
#define PUTC_SPINS 1000000u

#define UART(con) ((const struct cmsdk_uart *)(con)) /* con is the first member */

void cmsdk_uart_init(struct bm_console *con)
{
	const struct cmsdk_uart *u = UART(con);
	if (u->clock_hz && u->baud) {
		uint32_t div = (u->clock_hz + u->baud / 2) / u->baud;
		*mmio32(u->base + REG_BAUDDIV) = div < 16 ? 16 : div;
	}
	*mmio32(u->base + REG_CTRL) = CTRL_TXEN | CTRL_RXEN;
}

/* The transmitter enabled as init left it (without CTRL.TXEN nothing is sent). */
int cmsdk_uart_restore(struct bm_console *con)
{
	const struct cmsdk_uart *u = UART(con);
	if ((*mmio32(u->base + REG_CTRL) & (CTRL_TXEN | CTRL_RXEN)) == (CTRL_TXEN | CTRL_RXEN))
		return 0;
	*mmio32(u->base + REG_CTRL) = CTRL_TXEN | CTRL_RXEN;
	return 1;
}

/* The fault test's hook (board.cmake's BM_TEST_CONSOLE_OFF): the transmitter off (CTRL.TXEN), as a
 * benchmark may leave it: cmsdk_uart_restore must notice. */
void cmsdk_uart_tx_off(struct bm_console *con)
{
	*mmio32(UART(con)->base + REG_CTRL) &= ~CTRL_TXEN;
}

void cmsdk_uart_putc(struct bm_console *con, char c)
{
	const struct cmsdk_uart *u = UART(con);
	for (unsigned i = 0; i < PUTC_SPINS && (*mmio32(u->base + REG_STATE) & STATE_TXFULL); i++)
		;
	*mmio32(u->base + REG_DATA) = (uint8_t)c;
}

/* A served image's commands (bm/port.h's getc): the byte the receiver holds, if it holds one. */
int cmsdk_uart_getc(struct bm_console *con)
{
	const struct cmsdk_uart *u = UART(con);
	return *mmio32(u->base + REG_STATE) & STATE_RXFULL ? (int)(uint8_t)*mmio32(u->base + REG_DATA) : -1;
}
