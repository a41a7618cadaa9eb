/* SPDX-License-Identifier: Apache-2.0 */
/* CLINT mtime and mtimecmp (see riscv_clint.h). On a 32-bit bus the halves are read hi/lo/hi, so
 * a carry between them never gives a torn value, and mtimecmp is written so that no intermediate
 * value lies in the past (the RISC-V privileged spec's sequence). */
#include <stddef.h>

#include "arch/riscv.h"
#include "mmio.h"
#include "riscv_clint.h"

#define MTIME 0xbff8u
#define MTIMECMP0 0x4000u /* hart 0's */

uint64_t clint_mtime_read(struct bm_timer *t)
{
	const struct clint *c = (const struct clint *)t; /* timer is the first member */
	volatile uint32_t *p = mmio32(c->base + MTIME);
	if (sizeof(uintptr_t) == 8)
		return *mmio64(c->base + MTIME);
	uint32_t hi, lo;
	do {
		hi = p[1];
		lo = p[0];
	} while (hi != p[1]);
	return ((uint64_t)hi << 32) | lo;
}

static struct clint *of_alarm(struct bm_alarm *a)
{
	return (struct clint *)((char *)a - offsetof(struct clint, alarm));
}

static void mtimecmp_write(const struct clint *c, uint64_t v)
{
	volatile uint32_t *p = mmio32(c->base + MTIMECMP0);
	if (sizeof(uintptr_t) == 8) {
		*mmio64(c->base + MTIMECMP0) = v;
		return;
	}
	p[1] = UINT32_MAX; /* no earlier deadline while the halves change */
	p[0] = (uint32_t)v;
	p[1] = (uint32_t)(v >> 32);
}

void clint_alarm_arm(struct bm_alarm *a, uint32_t ms)
{
	struct clint *c = of_alarm(a);
	uint64_t hz = c->timer.hz ? c->timer.hz : 1000000u;
	mtimecmp_write(c, clint_mtime_read(&c->timer) + (uint64_t)ms * hz / 1000u);
	arch_mie_set(MIE_MTIE);
	arch_mstatus_set(MSTATUS_MIE);
}

void clint_alarm_disarm(struct bm_alarm *a)
{
	/* Every enable off, not only the timer's: the kit polls everything else, so a source a
	 * benchmark enabled (a software or external interrupt, left pending by its teardown) would
	 * otherwise be taken in the next benchmark, blamed on it. */
	arch_mie_write(0);
	mtimecmp_write(of_alarm(a), UINT64_MAX);
}
