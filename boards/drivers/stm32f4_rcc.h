/* STM32F4 clock set-up (RCC, with PWR's regulator scale and FLASH's wait states) and the pins of
 * the devices a board uses, described by the board as data; shared by the STM32F4 boards
 * (nucleo-f401re, netduinoplus2). The plan: HSI 16 MHz through the main PLL. Every wait for a
 * ready bit is bounded, and what happened is reported, never hidden: where the PLL does not lock
 * the core stays on HSI, and the clocks below are HSI's. Where the RCC reads 0 (no STM32 can:
 * the clock it runs on is always ready) it is an emulator's placeholder (QEMU's STM32F405 model):
 * the set-up is skipped and the model's fixed clocks, from the board, are used. The devices the
 * clocks feed get them here: the console's baud divider, the timer's prescaler, the core clock
 * for the board's SysTick watchdog. */
#ifndef DRIVERS_STM32F4_RCC_H
#define DRIVERS_STM32F4_RCC_H

#include "bm/port.h"
#include "stm32_tim.h"
#include "uart_stm32.h"

/* A pin routed to an alternate function (a USART's TX, RX). */
struct stm32f4_pin {
	uintptr_t port;  /** GPIOx base, e.g. GPIOA 0x40020000 */
	uint8_t pin;     /** 0..15 */
	uint8_t af;      /** the alternate function number (USART2: 7) */
	uint8_t pull_up; /** 1: pull-up (an RX line) */
};

struct stm32f4_rcc {
	/* The plan (data). */
	uint32_t pllcfgr;        /** PLLCFGR: M, N, P, Q, source HSI (bit 22 clear) */
	uint32_t ppre;           /** CFGR's APB prescalers PPRE1 (12:10), PPRE2 (15:13); AHB /1 */
	uint32_t flash_acr;      /** FLASH_ACR: wait states for the PLL's clock, prefetch, caches */
	uint32_t vos;            /** PWR_CR.VOS (bits 15:14 on the F401, 14 on the F405): the scale the clock needs */
	uint32_t ahb1enr;        /** RCC_AHB1ENR: the GPIO ports of the pins */
	uint32_t apb1enr;        /** RCC_APB1ENR: the devices on APB1 (USART2, TIM2) */
	const struct stm32f4_pin *pins;
	unsigned n_pins;
	/** An emulator's fixed core and APB1 timer clocks, used where the RCC reads 0; 0: unknown
	 *  (then no timer rate and no watchdog rather than wrong ones). */
	uint32_t model_core_hz, model_apb1_tim_hz;
	/* The devices on APB1 whose setting follows the clocks. */
	struct stm32_usart *usart;
	struct stm32_tim *tim;
	/* Results of stm32f4_rcc_init. */
	uint32_t core_hz;        /** SysTick's and DWT_CYCCNT's rate; 0: unknown */
	char state[128];         /** the core clock and how it came about, for board_facts */
};

void stm32f4_rcc_init(struct stm32f4_rcc *r);

/* PLLCFGR: HSI (16 MHz) / m * n / p = the core clock; q: the 48 MHz domain's divider. */
#define STM32F4_PLLCFGR_HSI(m, n, p, q) \
	((uint32_t)(m) | ((uint32_t)(n) << 6) | ((uint32_t)((p) / 2 - 1) << 16) | ((uint32_t)(q) << 24))
/* CFGR's APB prescalers from the dividers (1, 2, 4, 8 or 16). */
#define STM32F4_PPRE_FIELD(div) ((div) == 1 ? 0u : (div) == 2 ? 4u : (div) == 4 ? 5u : (div) == 8 ? 6u : 7u)
#define STM32F4_PPRE(apb1_div, apb2_div) ((STM32F4_PPRE_FIELD(apb1_div) << 10) | (STM32F4_PPRE_FIELD(apb2_div) << 13))
/* FLASH_ACR: wait states, with prefetch, instruction and data caches on. */
#define STM32F4_FLASH_ACR(ws) ((uint32_t)(ws) | (1u << 8) | (1u << 9) | (1u << 10))
#define STM32F405_VOS_SCALE1 (1u << 14) /* RM0090: bit 14 (bit 15 reserved); up to 168 MHz */
#define STM32F401_VOS_SCALE2 (2u << 14) /* RM0368: bits 15:14; up to 84 MHz */
#define STM32F4_GPIOA 0x40020000u
#define STM32F4_AHB1ENR_GPIOA (1u << 0)
#define STM32F4_APB1ENR_TIM2 (1u << 0)
#define STM32F4_APB1ENR_USART2 (1u << 17)

#endif
