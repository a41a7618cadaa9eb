/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted archs' event snapshots (bm/port.h, events; arch/hosted/events.c): one read() of the
 * run's perf_event_open group, OUTSIDE the cycle reads (before the start's, after the end's), so
 * the cycles window is the plain snapshot's and the events window holds it. Included by each
 * hosted arch's arch.h after its arch_snap_begin/end. */
#ifndef ARCH_HOSTED_EVENTS_H
#define ARCH_HOSTED_EVENTS_H

#include <stdint.h>

#include "bm/event_slots.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads the group into slots[0..BM_EVENT_SLOTS-1] (an event that did not open: 0); a failed read
 * ends the run (status 3). */
void arch_host_events_read(uint64_t *slots);
/* The board fact "perf_events": how the group counts (what it excludes), set by arch_events_setup. */
extern char arch_host_events_fact[200];

/* The operating system's events (page faults, context switches) are perf's too (core/bm_events.c). */
#define ARCH_COUNTS_OS_EVENTS 1

#if BM_EVENT_SLOTS
#define ARCH_EVENT_MASK 0xffffffffffffffffull /* perf counts are 64 bits */
/* (the empty asm: the call stays on its side of the cycle read) */
static inline __attribute__((always_inline)) void arch_snap_begin_ev(struct arch_snap *s)
{
	arch_host_events_read(s->ev);
	__asm__ volatile("" ::: "memory");
	arch_snap_begin(s);
}
static inline __attribute__((always_inline)) void arch_snap_end_ev(struct arch_snap *s)
{
	arch_snap_end(s);
	__asm__ volatile("" ::: "memory");
	arch_host_events_read(s->ev);
}
#endif

#ifdef __cplusplus
}
#endif

#endif
