/* SPDX-License-Identifier: Apache-2.0 */
/* Nordic nRF51 UART (micro:bit v1, nRF51-DK): shared driver, instantiated by a board with its base
 * address, its pins and the BAUDRATE register value. Polled, transmit only: a byte goes to TXD,
 * then the TXDRDY event says it left. (The nRF51 has no TX FIFO and no "busy" flag to poll.) */
#ifndef DRIVERS_UART_NRF51_H
#define DRIVERS_UART_NRF51_H

#include "bm/port.h"

#define NRF51_UART_BAUD_115200 0x01d7e000u /* BAUDRATE register value (nRF51 RM, UART) */

struct nrf51_uart {
	struct bm_console con; /** the device core sees */
	uintptr_t base;        /** MMIO base address (UART0: 0x40002000) */
	uint8_t txd_pin;       /** GPIO pin of TXD (the board configures it as an output) */
	uint8_t rxd_pin;       /** GPIO pin of RXD */
	uint32_t baudrate;     /** BAUDRATE register value, e.g. NRF51_UART_BAUD_115200; always 8N1 */
	uint32_t enable_read;  /* (the driver's) ENABLE as read back after init: QEMU's model reads 0 */
};

void nrf51_uart_init(struct bm_console *con);
int nrf51_uart_restore(struct bm_console *con);
void nrf51_uart_putc(struct bm_console *con, char c);

#define NRF51_UART_CONSOLE(name_) \
	{.name = (name_), .init = nrf51_uart_init, .putc = nrf51_uart_putc, .restore = nrf51_uart_restore}

#endif
