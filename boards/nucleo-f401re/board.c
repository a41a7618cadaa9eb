/* SPDX-License-Identifier: Apache-2.0 */
/* ST's Nucleo-F401RE (STM32F401RE: Cortex-M4F, 512 KiB flash, 96 KiB SRAM), hardware only: the
 * STM32F4 family's devices and set-up (boards/families/stm32f4/stm32f4.h), on this clock plan. The
 * image is NOT RUN ON HARDWARE by the kit's authors; the family's code runs in CI on
 * netduinoplus2. The Nucleo wires USART2 (PA2/PA3) to the ST-LINK's USB serial port. HSI rather
 * than the ST-LINK's 8 MHz MCO, which needs solder bridges on some board revisions. */
#include "stm32f4/stm32f4.h"

/* PLLM /8, PLLN x168 (336 MHz VCO), PLLP /4 = 84 MHz SYSCLK = HCLK = the core clock; APB1 /2 =
 * 42 MHz (USART2; TIM2 gets x2 = 84 MHz), APB2 /1, PLLQ /7 = 48 MHz; flash 2 wait states,
 * regulator scale 2. No emulator models the part: under one, no timer and no watchdog. */
const struct stm32f4_plan stm32f4_plan = {
	.pllcfgr = STM32F4_PLLCFGR_HSI(8, 168, 4, 7), .ppre = STM32F4_PPRE(2, 1),
	.flash_acr = STM32F4_FLASH_ACR(2), .vos = STM32F401_VOS_SCALE2,
};

static const struct bm_kv facts[] = {
	{"core_clock", stm32f4_clock_state},
	{"clock_tree", "HSI 16 MHz, PLL /8 x168 /4; AHB 84, APB1 42, APB2 84 MHz; flash 2 wait states"},
	{0, 0},
};

const struct bm_board board_desc = STM32F4_BOARD_DESC(facts);
