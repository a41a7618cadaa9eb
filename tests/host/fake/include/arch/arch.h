/* SPDX-License-Identifier: Apache-2.0 */
/* Fake architecture for host unit tests: counters come from a scripted clock, so tests can
 * assert exact overhead subtraction, calibration and warm-up decisions. */
#ifndef ARCH_FAKE_ARCH_H
#define ARCH_FAKE_ARCH_H

#include <stdint.h>

#include "bm/event_slots.h"

/* The host compiler has a count-leading-zeros builtin. */
#define ARCH_HAS_CLZ64 1

struct arch_snap {
	uint64_t cycles;
	uint64_t instret;
#if BM_EVENT_SLOTS
	uint64_t ev[BM_EVENT_SLOTS];
#endif
};

/* The scripted clock (tests/host/fake/fake_arch.c). */
extern uint64_t fake_cycles, fake_instret;
extern uint64_t fake_read_cost_cycles;   /* each counter read advances the clock by this */
extern uint64_t fake_read_cost_instret;

static inline void arch_snap_begin(struct arch_snap *s)
{
	s->instret = fake_instret;
	s->cycles = fake_cycles;
	fake_cycles += fake_read_cost_cycles;
	fake_instret += fake_read_cost_instret;
}

static inline void arch_snap_end(struct arch_snap *s)
{
	s->cycles = fake_cycles;
	s->instret = fake_instret;
	fake_cycles += fake_read_cost_cycles;
	fake_instret += fake_read_cost_instret;
}

/* Scripted event counters (tests/host/test_events.c): each read of the snapshot's event copy
 * counts fake_ev_read_cost on every slot, as a PMU counts the reads' own events. */
#if BM_EVENT_SLOTS
#define ARCH_EVENT_MASK 0xffffffffffffffffull
extern uint64_t fake_ev[BM_EVENT_SLOTS], fake_ev_read_cost, fake_ev_snaps;
static inline void arch_snap_begin_ev(struct arch_snap *s)
{
	for (int i = 0; i < BM_EVENT_SLOTS; i++)
		s->ev[i] = fake_ev[i] += fake_ev_read_cost;
	arch_snap_begin(s);
	fake_ev_snaps++;
}
static inline void arch_snap_end_ev(struct arch_snap *s)
{
	arch_snap_end(s);
	for (int i = 0; i < BM_EVENT_SLOTS; i++)
		s->ev[i] = fake_ev[i] += fake_ev_read_cost;
}
#endif

/* Simulated work inside a benchmark body. */
static inline void fake_work(uint64_t cycles, uint64_t instret)
{
	fake_cycles += cycles;
	fake_instret += instret;
}

#define ARCH_KNOWN_LOOP_INSNS 2001u
static inline void arch_known_loop(void)
{
	fake_work(2001, 2001);
}

#endif
