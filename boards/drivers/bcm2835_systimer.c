/* SPDX-License-Identifier: Apache-2.0 */
/* BCM2835 system timer (see bcm2835_systimer.h): CHI, CLO, CHI again; if CHI changed, CLO
 * wrapped in between, so read again. */
#include "bcm2835_systimer.h"
#include "mmio.h"

#define SYSTIMER_CLO 0x04u
#define SYSTIMER_CHI 0x08u

uint64_t bcm2835_systimer_read(struct bm_timer *t)
{
	const struct bcm2835_systimer *s = (const struct bcm2835_systimer *)t;
	volatile uint32_t *clo = mmio32(s->base + SYSTIMER_CLO);
	volatile uint32_t *chi = clo + (SYSTIMER_CHI - SYSTIMER_CLO) / 4;
	uint32_t hi, lo;
	do {
		hi = *chi;
		lo = *clo;
	} while (hi != *chi);
	return ((uint64_t)hi << 32) | lo;
}
