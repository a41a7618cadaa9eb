/* SPDX-License-Identifier: Apache-2.0 */
/* HPET main counter (see hpet.h). Registers from the IA-PC HPET specification 1.0a: general
 * capabilities at +0x000 (counter period in fs in bits 63:32), configuration at +0x010 (bit 0
 * ENABLE_CNF), main counter at +0x0f0. */
#include "hpet.h"
#include "mmio.h"

#define CAP 0x000u
#define CAP_PERIOD_SHIFT 32 /* the counter's period in fs: bits 63:32 */
#define CONFIG 0x010u
#define CONFIG_ENABLE (1u << 0) /* ENABLE_CNF: the main counter runs */
#define COUNTER 0x0f0u
#define PERIOD_MAX_FS 100000000u /* the spec's limit: 100 ns */
#define FS_PER_S 1000000000000000ull

void hpet_init(struct bm_timer *t)
{
	struct hpet *h = (struct hpet *)t;
	uint32_t period_fs = (uint32_t)(*mmio64(h->base + CAP) >> CAP_PERIOD_SHIFT);
	/* A valid HPET has a non-zero period within the spec's limit. */
	if (period_fs == 0 || period_fs > PERIOD_MAX_FS) {
		t->hz = 0;
		return;
	}
	t->hz = (FS_PER_S + period_fs / 2) / period_fs;
	*mmio64(h->base + CONFIG) |= CONFIG_ENABLE;
}

uint64_t hpet_read(struct bm_timer *t)
{
	const struct hpet *h = (const struct hpet *)t;
	return *mmio64(h->base + COUNTER);
}
