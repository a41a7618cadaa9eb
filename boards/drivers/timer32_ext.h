/* SPDX-License-Identifier: Apache-2.0 */
/* A 32-bit hardware count extended to 64 bits in software, for timer drivers whose counter is
 * 32 bits wide (CMSDK, nRF51, STM32 TIM2/TIM5): a reading below the previous one means the
 * count wrapped once in between. Exact as long as two readings are less than one wrap apart
 * (2^32 ticks: 171 s at 25 MHz, 268 s at 16 MHz, 71 min at 1 MHz), which holds between the
 * two readings of every interval the kit measures. Not for use from interrupt handlers. */
#ifndef DRIVERS_TIMER32_EXT_H
#define DRIVERS_TIMER32_EXT_H

#include <stdint.h>

struct timer32_ext {
	uint32_t last; /** the previous 32-bit reading */
	uint32_t high; /** wraps seen so far */
};

static inline uint64_t timer32_extend(struct timer32_ext *e, uint32_t now)
{
	if (now < e->last)
		e->high++;
	e->last = now;
	return ((uint64_t)e->high << 32) | now;
}

#endif
