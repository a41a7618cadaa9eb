/* SPDX-License-Identifier: Apache-2.0 */
/* STM32 TIM2/TIM5 driver (see stm32_tim.h). Registers from RM0368 (STM32F401), section 13.4. */
#include "stm32_tim.h"
#include "mmio.h"

#define REG_CR1 0x00
#define REG_EGR 0x14
#define REG_CNT 0x24
#define REG_PSC 0x28
#define REG_ARR 0x2c
#define CR1_CEN (1u << 0)
#define EGR_UG (1u << 0)

void stm32_tim_init(struct bm_timer *t)
{
	struct stm32_tim *s = (struct stm32_tim *)t; /* timer is the first member */
	*mmio32(s->base + REG_CR1) = 0;
	*mmio32(s->base + REG_PSC) = s->psc;
	*mmio32(s->base + REG_ARR) = UINT32_MAX;
	*mmio32(s->base + REG_EGR) = EGR_UG; /* load the prescaler now, count from 0 */
	*mmio32(s->base + REG_CR1) = CR1_CEN;
	s->ext.last = 0;
	s->ext.high = 0;
}

uint64_t stm32_tim_read(struct bm_timer *t)
{
	struct stm32_tim *s = (struct stm32_tim *)t; /* the instance holds the extension state */
	return timer32_extend(&s->ext, *mmio32(s->base + REG_CNT));
}
