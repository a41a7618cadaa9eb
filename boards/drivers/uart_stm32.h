/* SPDX-License-Identifier: Apache-2.0 */
/* STM32 USART (F1/F2/F4/L1 register layout: SR, DR, BRR, CR1): shared driver, instantiated by a
 * board with its base address and the clock of the bus the USART sits on. Polled, transmit
 * only, 8N1, 16x oversampling. The board enables the USART's clock and routes its pins. */
#ifndef DRIVERS_UART_STM32_H
#define DRIVERS_UART_STM32_H

#include "bm/port.h"

struct stm32_usart {
	struct bm_console con; /** the device core sees */
	uintptr_t base;        /** MMIO base address (USART2 on the F4: 0x40004400) */
	uint32_t clock_hz;     /** the APB clock it runs from, for BRR */
	uint32_t baud;         /** e.g. 115200 */
};

void stm32_usart_init(struct bm_console *con);
void stm32_usart_putc(struct bm_console *con, char c);
void stm32_usart_write(struct bm_console *con, const char *s, size_t n);
/* 1 when the USART had been turned off or reprogrammed since init (and is set up again). */
int stm32_usart_restore(struct bm_console *con);
/* The fault test's hook (boards/drivers/README.md): the console's output off. */
void stm32_usart_tx_off(struct bm_console *con);

#define STM32_USART_CONSOLE(name_)                                                                    \
	{.name = (name_), .init = stm32_usart_init, .putc = stm32_usart_putc,                         \
	 .write = stm32_usart_write, .restore = stm32_usart_restore}

#endif
