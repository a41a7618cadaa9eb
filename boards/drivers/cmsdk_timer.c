/* SPDX-License-Identifier: Apache-2.0 */
/* CMSDK APB timer driver (see cmsdk_timer.h). Registers from the Cortex-M System Design Kit
 * TRM (DDI 0479), "APB timer": it counts down from RELOAD to 0 and reloads. */
#include "cmsdk_timer.h"
#include "mmio.h"

#define REG_CTRL 0x00   /* bit 3, the interrupt enable, stays off */
#define REG_VALUE 0x04
#define REG_RELOAD 0x08
#define CTRL_ENABLE (1u << 0)

void cmsdk_timer_init(struct bm_timer *t)
{
	struct cmsdk_timer *c = (struct cmsdk_timer *)t; /* timer is the first member */
	*mmio32(c->base + REG_CTRL) = 0;
	*mmio32(c->base + REG_RELOAD) = UINT32_MAX;
	*mmio32(c->base + REG_VALUE) = UINT32_MAX;
	*mmio32(c->base + REG_CTRL) = CTRL_ENABLE;
	c->ext.last = 0;
	c->ext.high = 0;
}

uint64_t cmsdk_timer_read(struct bm_timer *t)
{
	struct cmsdk_timer *c = (struct cmsdk_timer *)t; /* the instance holds the extension state */
	return timer32_extend(&c->ext, ~*mmio32(c->base + REG_VALUE));
}
