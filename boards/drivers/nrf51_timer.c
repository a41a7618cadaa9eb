/* SPDX-License-Identifier: Apache-2.0 */
/* nRF51 TIMER driver (see nrf51_timer.h). Registers from the nRF51 Series Reference Manual v3.0,
 * chapter 18 (TIMER). */
#include "nrf51_timer.h"
#include "mmio.h"

#define TASKS_START 0x000
#define TASKS_STOP 0x004
#define TASKS_CLEAR 0x00c
#define TASKS_CAPTURE3 0x04c
#define REG_MODE 0x504
#define MODE_TIMER 0
#define REG_BITMODE 0x508
#define BITMODE_32 3
#define REG_PRESCALER 0x510
#define REG_CC3 0x54c

void nrf51_timer_init(struct bm_timer *t)
{
	struct nrf51_timer *n = (struct nrf51_timer *)t; /* timer is the first member */
	*mmio32(n->base + TASKS_STOP) = 1;
	*mmio32(n->base + REG_MODE) = MODE_TIMER;
	*mmio32(n->base + REG_BITMODE) = BITMODE_32;
	*mmio32(n->base + REG_PRESCALER) = n->prescaler;
	*mmio32(n->base + TASKS_CLEAR) = 1;
	*mmio32(n->base + TASKS_START) = 1;
	n->ext.last = 0;
	n->ext.high = 0;
}

uint64_t nrf51_timer_read(struct bm_timer *t)
{
	struct nrf51_timer *n = (struct nrf51_timer *)t; /* the instance holds the extension state */
	*mmio32(n->base + TASKS_CAPTURE3) = 1;
	return timer32_extend(&n->ext, *mmio32(n->base + REG_CC3));
}
