/* HPET main counter (see hpet.h). Registers from the IA-PC HPET specification 1.0a: general
 * capabilities at +0x000 (counter period in fs in bits 63:32), configuration at +0x010 (bit 0
 * ENABLE_CNF), main counter at +0x0f0. */
#include "hpet.h"

#define CAP 0x000u
#define CONFIG 0x010u
#define COUNTER 0x0f0u
#define FS_PER_S 1000000000000000ull

static volatile uint64_t *reg(const struct hpet *h, unsigned off)
{
	return (volatile uint64_t *)(h->base + off);
}

void hpet_init(struct bm_timer *t)
{
	struct hpet *h = (struct hpet *)t;
	uint32_t period_fs = (uint32_t)(*reg(h, CAP) >> 32);
	/* A valid HPET has a non-zero period of at most 100 ns (the spec's limit, 10^8 fs). */
	if (period_fs == 0 || period_fs > 100000000u) {
		t->hz = 0;
		return;
	}
	t->hz = (FS_PER_S + period_fs / 2) / period_fs;
	*reg(h, CONFIG) |= 1u; /* ENABLE_CNF: the main counter runs */
}

uint64_t hpet_read(struct bm_timer *t)
{
	return *reg((const struct hpet *)t, COUNTER);
}
