/* SPDX-License-Identifier: Apache-2.0 */
/* STM32 general-purpose 32-bit timer (TIM2/TIM5 on the F4) as the board timer: up-counting from
 * 0 to 0xffffffff, the prescaler dividing the timer clock to `hz`, extended to 64 bits in
 * software (timer32_ext.h). The board enables the timer's clock. */
#ifndef DRIVERS_STM32_TIM_H
#define DRIVERS_STM32_TIM_H

#include "bm/port.h"
#include "timer32_ext.h"

struct stm32_tim {
	struct bm_timer timer;  /** the device core sees; hz = clock_hz / (psc + 1) */
	uintptr_t base;         /** MMIO base address (TIM2: 0x40000000) */
	uint16_t psc;           /** prescaler register value */
	struct timer32_ext ext; /** the software high word (state: the instance is not const) */
};

void stm32_tim_init(struct bm_timer *t);
uint64_t stm32_tim_read(struct bm_timer *t);

#define STM32_TIM(name_, hz_) {.name = (name_), .init = stm32_tim_init, .read = stm32_tim_read, .hz = (hz_)}

#endif
