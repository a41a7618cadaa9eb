/* SPDX-License-Identifier: Apache-2.0 */
/* The STM32F4 family (boards nucleo-f401re and netduinoplus2): the clock set-up and the devices
 * the kit uses on every STM32F4 board here, driven by a clock plan each board gives as data
 * (stm32f4_plan, in its board.c), with stm32f4_init as the board's init:
 * - Clocks: HSI 16 MHz through the main PLL (RCC, with PWR's regulator scale and FLASH's wait
 *   states), not a crystal: HSI exists on every board. Every wait for a ready bit is bounded, and
 *   what happened is reported, never hidden: where the PLL does not lock the core stays on HSI,
 *   and the devices get HSI's clocks. Where the RCC reads 0 (no STM32 can: the clock it runs on
 *   is always ready) it is an emulator's placeholder (QEMU's STM32F405 model): the set-up is
 *   skipped and the plan's model clocks are used.
 * - USART2 on PA2 (TX) / PA3 (RX), alternate function 7, as the console (115200 8N1); TIM2 at
 *   1 MHz as the board timer (its prescaler from the clocks); SysTick at the core clock as the
 *   watchdog; semihosting as the exit (QEMU -semihosting, openocd's `arm semihosting enable`;
 *   without a debugger the kit halts after the end record).
 * Memory map (RM0368 / RM0090 section 2.3; QEMU hw/arm/stm32f405_soc.c; sizes: memory.ld):
 *   0x08000000  flash           code, read-only data, the .data image (aliased at 0 at boot)
 *   0x1fff0000  system memory   ST's bootloader (in the stack guard's MPU region: never touched)
 *   0x20000000  SRAM            stacks, data, bss, scratch
 *   0x40000000  TIM2            the board timer: 32 bits, 1 MHz
 *   0x40004400  USART2          the console
 *   0x40007000  PWR             the regulator scale the clock needs
 *   0x40020000  GPIOA           PA2/PA3
 *   0x40023800  RCC             clocks
 *   0x40023c00  FLASH           wait states, prefetch and caches on */
#ifndef FAMILIES_STM32F4_H
#define FAMILIES_STM32F4_H

#include "arch/devices.h"
#include "stm32_tim.h"
#include "uart_stm32.h"

/* A board's clock plan: its registers' values (the macros below write them). */
struct stm32f4_plan {
	uint32_t pllcfgr;   /** PLLCFGR: M, N, P, Q, source HSI (bit 22 clear) */
	uint32_t ppre;      /** CFGR's APB prescalers PPRE1 (12:10), PPRE2 (15:13); AHB /1 */
	uint32_t flash_acr; /** FLASH_ACR: wait states for the PLL's clock, prefetch, caches */
	uint32_t vos;       /** PWR_CR.VOS (bits 15:14 on the F401, 14 on the F405): the scale the clock needs */
	/** An emulator's fixed core and APB1 timer clocks, used where the RCC reads 0; 0: unknown
	 *  (then no timer rate and no watchdog rather than wrong ones). */
	uint32_t model_core_hz, model_apb1_tim_hz;
};

/* The board's plan (its board.c defines it). */
extern const struct stm32f4_plan stm32f4_plan;

/* The family's devices, for the board's board_desc (STM32F4_BOARD_DESC). */
extern struct stm32_usart stm32f4_usart2;
extern struct stm32_tim stm32f4_tim2;
extern struct armv7m_systick_alarm stm32f4_watchdog;
/* The core clock and how it came about, in words, for the board's facts (core_clock). */
extern char stm32f4_clock_state[128];

/* The board's init: the clocks from the plan; the devices' clocks on, their pins routed, their
 * rates set (the USART's baud divider, TIM2's prescaler, SysTick's rate for the watchdog). */
void stm32f4_init(void);

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

/* An STM32F4 board's board_desc: the family's devices and init, the board's facts. */
#define STM32F4_BOARD_DESC(facts_)                                                                 \
	{.name = BM_BOARD_NAME, .console = &stm32f4_usart2.con, .timer = &stm32f4_tim2.timer,          \
	 .alarm = &stm32f4_watchdog.alarm, .exit = &arch_semihosting, .init = stm32f4_init,           \
	 .facts = (facts_)}

#endif
