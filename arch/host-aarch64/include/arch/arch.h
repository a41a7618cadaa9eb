/* SPDX-License-Identifier: Apache-2.0 */
/* Hosted AArch64 hot path (a Linux process): CNTVCT_EL0 (the generic timer, readable from EL0 on
 * Linux) around timed regions, ISB before and after so the read neither moves up into earlier
 * code nor lets the body start late. No instructions-retired figure, events with BM_EVENTS (see
 * host-x86_64). */
#ifndef ARCH_HOST_AARCH64_ARCH_H
#define ARCH_HOST_AARCH64_ARCH_H

#include <stdint.h>

#include "bm/event_slots.h"

#include "arch/a64.h" /* system registers, the known loop, ARCH_HAS_CLZ64 */

struct arch_snap {
	uint64_t cycles;  /* generic-timer ticks */
	uint64_t instret; /* always 0 */
#if BM_EVENT_SLOTS
	uint64_t ev[BM_EVENT_SLOTS]; /* the perf group's counts (arch/hosted_events.h) */
#endif
};

static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	uint64_t t;
	__asm__ volatile("isb\n\tmrs %[t], cntvct_el0\n\tstr %[t], %[c]\n\tstr xzr, %[i]\n\t"
	                 : [c] "=m"(s->cycles), [i] "=m"(s->instret), [t] "=&r"(t));
}

static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	uint64_t t;
	__asm__ volatile("isb\n\tmrs %[t], cntvct_el0\n\tisb\n\tstr %[t], %[c]\n\tstr xzr, %[i]\n\t"
	                 : [c] "=m"(s->cycles), [i] "=m"(s->instret), [t] "=&r"(t));
}

#include "arch/hosted_events.h" /* arch_snap_begin_ev/end_ev: the perf group read around them */

#endif /* ARCH_HOST_AARCH64_ARCH_H */
