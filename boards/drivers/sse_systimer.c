/* SPDX-License-Identifier: Apache-2.0 */
/* Arm SSE-300 system timer driver (see sse_systimer.h). Registers from the Arm Corstone SSE-300
 * TRM (101773), "System counter and timers": the Armv8-M system timer frame and the generic
 * counter's control frame. */
#include "sse_systimer.h"
#include "mmio.h"

#define CNTCR 0x000        /* control frame: counter control */
#define CNTCR_EN (1u << 0) /* the counter counts */
#define CNTPCT_LO 0x000    /* timer frame: the counter's value, two 32-bit halves */
#define CNTPCT_HI 0x004

void sse_systimer_init(struct bm_timer *t)
{
	const struct sse_systimer *s = (const struct sse_systimer *)t; /* timer is the first member */
	*mmio32(s->counter + CNTCR) |= CNTCR_EN; /* (a count already running goes on: no reset) */
}

uint64_t sse_systimer_read(struct bm_timer *t)
{
	const struct sse_systimer *s = (const struct sse_systimer *)t;
	uint32_t hi, lo;
	/* The halves are read one at a time: again if the high one moved in between. */
	do {
		hi = *mmio32(s->base + CNTPCT_HI);
		lo = *mmio32(s->base + CNTPCT_LO);
	} while (*mmio32(s->base + CNTPCT_HI) != hi);
	return ((uint64_t)hi << 32) | lo;
}
