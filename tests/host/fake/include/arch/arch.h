/* Fake architecture for host unit tests: counters come from a scripted clock, so tests can
 * assert exact overhead subtraction, calibration and warm-up decisions. */
#ifndef ARCH_FAKE_ARCH_H
#define ARCH_FAKE_ARCH_H

#include <stdint.h>

/* The host compiler has a count-leading-zeros builtin. */
#define ARCH_HAS_CLZ64 1

struct arch_snap {
	uint64_t cycles;
	uint64_t instret;
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
