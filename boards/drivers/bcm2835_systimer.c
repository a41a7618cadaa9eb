/* BCM2835 system timer (see bcm2835_systimer.h): CHI, CLO, CHI again; if CHI changed, CLO
 * wrapped in between, so read again. */
#include "bcm2835_systimer.h"

uint64_t bcm2835_systimer_read(struct bm_timer *t)
{
	const struct bcm2835_systimer *s = (const struct bcm2835_systimer *)t;
	volatile uint32_t *clo = (volatile uint32_t *)(s->base + 0x04), *chi = clo + 1;
	uint32_t hi, lo;
	do {
		hi = *chi;
		lo = *clo;
	} while (hi != *chi);
	return ((uint64_t)hi << 32) | lo;
}
