/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit set up of the core that benchmark code can change, as an arch's table of registers
 * (bm/port.h, struct bm_state_reg): saved once with a sealed copy, compared after every benchmark,
 * whatever differs put back and the first of them named as the benchmark's failure. */
#include "bm/port.h"

/* The copy holds every byte inverted: a write over both with the same value shows. */
static void bm_state_seal(const void *state, void *copy, size_t bytes)
{
	const volatile uint8_t *s = (const volatile uint8_t *)state;
	volatile uint8_t *c = (volatile uint8_t *)copy;
	for (size_t i = 0; i < bytes; i++)
		c[i] = (uint8_t)~s[i];
}

static int bm_state_intact(const void *state, const void *copy, size_t bytes)
{
	const volatile uint8_t *s = (const volatile uint8_t *)state, *c = (const volatile uint8_t *)copy;
	uint8_t x = 0;
	for (size_t i = 0; i < bytes; i++)
		x |= (uint8_t)(s[i] ^ (uint8_t)~c[i]);
	return x == 0;
}

/* The words bm_state_seal covers: the present mask and the n values. */
#define STATE_BYTES(n) (BM_STATE_WORDS(n) * sizeof(uintptr_t))

void bm_state_save(const struct bm_state_reg *regs, unsigned n, uintptr_t *kit, uintptr_t *copy)
{
	kit[0] = 0;
	for (unsigned i = 0; i < n; i++) {
		uintptr_t v = 0;
		int present = BM_PROBE(v = regs[i].read(&regs[i]));
		kit[0] |= (uintptr_t)present << i;
		kit[1 + i] = present ? v & regs[i].mask : 0;
	}
	bm_state_seal(kit, copy, STATE_BYTES(n));
}

const char *bm_state_restore(const struct bm_state_reg *regs, unsigned n, const uintptr_t *kit, const uintptr_t *copy)
{
	const char *first = 0;
	if (!bm_state_intact(kit, copy, STATE_BYTES(n)))
		return bm_state_lost;
	for (unsigned i = 0; i < n; i++) {
		if (!(kit[0] >> i & 1))
			continue;
		uintptr_t now = regs[i].read(&regs[i]) & regs[i].mask;
		if (now == kit[1 + i])
			continue;
		first = first ? first : regs[i].reason;
		regs[i].write(&regs[i], kit[1 + i], now);
	}
	return first;
}
