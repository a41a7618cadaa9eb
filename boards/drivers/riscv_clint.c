/* CLINT mtime (see riscv_clint.h). On a 32-bit bus the halves are read hi/lo/hi, so a carry
 * between them never gives a torn value. */
#include "riscv_clint.h"

#define MTIME 0xbff8u

uint64_t clint_mtime_read(const struct bm_timer *t)
{
	const struct clint *c = (const struct clint *)t; /* timer is the first member */
	volatile uint32_t *p = (volatile uint32_t *)(c->base + MTIME);
	if (sizeof(uintptr_t) == 8)
		return *(volatile uint64_t *)p;
	uint32_t hi, lo;
	do {
		hi = p[1];
		lo = p[0];
	} while (hi != p[1]);
	return ((uint64_t)hi << 32) | lo;
}
