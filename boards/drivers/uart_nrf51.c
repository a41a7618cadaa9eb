/* SPDX-License-Identifier: Apache-2.0 */
/* nRF51 UART driver (see uart_nrf51.h). Registers from the nRF51 Series Reference Manual v3.0,
 * chapter 29 (UART). QEMU's model (hw/char/nrf51_uart.c) sends only after ENABLE = 4 and
 * STARTTX, as the chip does. */
#include "uart_nrf51.h"
#include "mmio.h"

#define TASKS_STARTTX 0x008
#define EVENTS_TXDRDY 0x11c
#define REG_ENABLE 0x500
#define REG_PSELTXD 0x50c
#define REG_PSELRXD 0x514
#define REG_TXD 0x51c
#define REG_BAUDRATE 0x524
#define REG_CONFIG 0x56c /* no parity, no flow control: 0 */
#define ENABLE_UART 4u
#define PUTC_SPINS 1000000u

#define UART(con) ((struct nrf51_uart *)(con)) /* con is the first member */

void nrf51_uart_init(struct bm_console *con)
{
	struct nrf51_uart *u = UART(con);
	*mmio32(u->base + REG_ENABLE) = 0;
	*mmio32(u->base + REG_PSELTXD) = u->txd_pin;
	*mmio32(u->base + REG_PSELRXD) = u->rxd_pin;
	*mmio32(u->base + REG_BAUDRATE) = u->baudrate;
	*mmio32(u->base + REG_CONFIG) = 0;
	*mmio32(u->base + REG_ENABLE) = ENABLE_UART;
	*mmio32(u->base + EVENTS_TXDRDY) = 0;
	*mmio32(u->base + TASKS_STARTTX) = 1;
	u->enable_read = *mmio32(u->base + REG_ENABLE);
}

/* The UART enabled as init left it (STARTTX again after a re-enable). Where ENABLE does not read
 * back (QEMU's model reads 0), a disabled UART cannot be told from an enabled one: it is set up
 * again after every benchmark, unreported. */
int nrf51_uart_restore(struct bm_console *con)
{
	struct nrf51_uart *u = UART(con);
	if (u->enable_read != ENABLE_UART) {
		nrf51_uart_init(con);
		return 0;
	}
	if (*mmio32(u->base + REG_ENABLE) == ENABLE_UART)
		return 0;
	nrf51_uart_init(con);
	return 1;
}

void nrf51_uart_putc(struct bm_console *con, char c)
{
	const struct nrf51_uart *u = UART(con);
	*mmio32(u->base + REG_TXD) = (uint8_t)c;
	for (unsigned i = 0; i < PUTC_SPINS && !*mmio32(u->base + EVENTS_TXDRDY); i++)
		;
	*mmio32(u->base + EVENTS_TXDRDY) = 0;
}
