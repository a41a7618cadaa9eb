/* SPDX-License-Identifier: Apache-2.0 */
/* The Netduino Plus 2 (STM32F405RG: Cortex-M4F at 168 MHz) as QEMU models it
 * (`qemu-system-arm -machine netduinoplus2`): the STM32F4 family's devices and set-up
 * (boards/families/stm32f4/stm32f4.h), on this clock plan; the family's code that
 * nucleo-f401re runs on hardware, run here in CI. USART2 is QEMU's second serial port. */
#include "stm32f4/stm32f4.h"

/* PLLM /8, PLLN x168, PLLP /2 = 168 MHz; APB1 /4 = 42 MHz (TIM2: 84 MHz), APB2 /2 = 84 MHz; flash
 * 5 wait states, scale 1. Under QEMU the RCC is a placeholder reading 0: the set-up is skipped
 * and QEMU's clocks hold (SYSCLK 168 MHz, hw/arm/netduinoplus2.c; timers 1 GHz / (PSC + 1)). */
const struct stm32f4_plan stm32f4_plan = {
	.pllcfgr = STM32F4_PLLCFGR_HSI(8, 168, 2, 7), .ppre = STM32F4_PPRE(4, 2),
	.flash_acr = STM32F4_FLASH_ACR(5), .vos = STM32F405_VOS_SCALE1,
	.model_core_hz = 168000000u, .model_apb1_tim_hz = 1000000000u,
};

static const struct bm_kv facts[] = {
	{"core_clock", stm32f4_clock_state},
	{"clock_tree", "HSI 16 MHz, PLL /8 x168 /2; AHB 168, APB1 42, APB2 84 MHz; flash 5 wait states"},
	{0, 0},
};

const struct bm_board board_desc = STM32F4_BOARD_DESC(facts);
