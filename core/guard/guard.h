/* SPDX-License-Identifier: Apache-2.0 */
/* The guard layer (core/guard/): what keeps a corrupted number from being reported as good. The
 * recovery point a fault comes back to (bm_recover.c), the stack's paint and the kit's guard
 * words (bm_guard.c), the scratch allocator and its canaries (bm_scratch.c). Core-private: for
 * the run layer (core/run/) and the host unit tests. */
#ifndef BM_GUARD_H
#define BM_GUARD_H

#include <stddef.h>
#include <stdint.h>

#include "bm/port.h"
#include "bm/shared.h"
#include "bm/stats.h"

/* ---- recovery (bm_recover.c) ---- */

/* The recovery point: the harness calls BM_RECOVERY_POINT() in the frame that must survive a
 * fault; it is 0 when set and 1 when a fault came back to it (bm_recover). */
void **bm_recover_jmpbuf(void);
#define BM_RECOVERY_POINT() __builtin_setjmp(bm_recover_jmpbuf())
void bm_recover_arm(void);
void bm_recover_disarm(void);
/* The phase the benchmark is in (BM_PHASE_*, bm/shared.h): a failure is reported in it. */
void bm_recover_phase(const char *phase);
const char *bm_recover_current_phase(void);
const struct bm_fault *bm_recover_taken(void);
/* Three pointers the harness needs after a fault came back (registers are gone by then); kept in
 * the recovery's guarded state, so they are checked before they are used. */
void bm_recover_set(void *a, void *b, void *c);
void *bm_recover_get(unsigned i);
int bm_recover_state_intact(void);

/* ---- the kit's state between guard words (bm_guard.c) ---- */

/* The kit's own state, between guard words, checked after every benchmark before anything else
 * reads it: the statistics state here, the scratch allocator's and the recovery's in their
 * modules, and on bare metal all of the kit's .bss (linker/common.ld). */
#define BM_KIT_GUARD 0x6b69745f67756172ull /* "kit_guar" */
/* The statistics state between guard words of the core's word size: the timed samples check
 * both after every batch, and on a 32-bit core a 64-bit word took twice the instructions. */
#define BM_KIT_GUARD_WORD ((uintptr_t)BM_KIT_GUARD)
struct bm_kit_state {
	uintptr_t head;
	struct bm_stats stats;
#if BM_EVENT_SLOTS
	struct bm_stats ev[BM_EVENT_SLOTS]; /* each event slot's samples, net of its overhead */
	uint64_t ev_oh[BM_EVENT_SLOTS];     /* what the read pair counts of each (subtracted) */
	uint32_t ev_below[BM_EVENT_SLOTS];  /* samples under it (counted as 0) */
	uint32_t ev_live;                   /* the batches read the slots (bm_events_live) */
#endif
	uintptr_t tail;
	uintptr_t sealed;     /* bm_guard_stats_seal's hash of stats, from the last sample on */
};
void bm_guard_kit_init(struct bm_kit_state *k);
/* All of the kit's guard words (these, .bss's, the scratch's and the recovery's) as set. */
int bm_guard_kit_intact(const struct bm_kit_state *k);
/* The statistics state is final after the last sample; what runs after it (the benchmark's
 * verify and teardown) must not change it. Seal hashes it, sealed says whether it is unchanged:
 * a stray write between the guard words would otherwise be reported as the benchmark's figures. */
void bm_guard_stats_seal(struct bm_kit_state *k);
int bm_guard_stats_sealed(const struct bm_kit_state *k);
/* A detector of stray writes over `bytes` of words (whole words only): the same hash as the
 * statistics' seal, for the run's own state (bm_run.c, bm_clock.c). */
uintptr_t bm_guard_hash(const void *words, size_t bytes);

/* ---- the stacks (bm_guard.c) ----
 * user 0: the kit's stack (bm_rt_stack), where privileged benchmarks and every benchmark of an
 * arch that does not isolate them run; 1: the benchmarks' own (bm_rt_user_stack), where the arch
 * runs their code unprivileged. */

/* Paints the free stack (the kit's: below the caller's frame), before a benchmark. */
void bm_guard_stack_paint(int user);
/* The stack's high-water mark since the paint; *band_touched when the bottom band was used. */
size_t bm_guard_stack_check(int user, int *band_touched);
/* The kit's stack's high-water mark over the whole run: bytes below the top that no longer hold
 * the start-up's paint; *size is the stack's size (0, and 0 returned, when the runtime does not
 * paint its stack, as a hosted one). */
size_t bm_guard_stack_mark(size_t *size);
/* Whether a fault's address or stack pointer says the stack ran past its bottom. */
int bm_guard_stack_fault(const struct bm_fault *f, int user);

/* Word fill and scan for the stack's paint, the scratch's canaries and the call band, four words
 * a pass (they run around every benchmark). Inline: the scratch must not pull the stack guard
 * (and the runtime's stack facts) into a link, e.g. the Google Benchmark comparison's. */
static inline void bm_guard_fill(volatile uintptr_t *p, const volatile uintptr_t *end, uintptr_t w)
{
	for (; p + 4 <= end; p += 4) {
		p[0] = w;
		p[1] = w;
		p[2] = w;
		p[3] = w;
	}
	for (; p < end; p++)
		*p = w;
}

/* The first word in [p, end) that is not w, or end. */
static inline const volatile uintptr_t *bm_guard_first_unlike(const volatile uintptr_t *p,
                                                              const volatile uintptr_t *end, uintptr_t w)
{
	while (p + 4 <= end && ((p[0] ^ w) | (p[1] ^ w) | (p[2] ^ w) | (p[3] ^ w)) == 0)
		p += 4;
	while (p < end && *p == w)
		p++;
	return p;
}

/* ---- scratch (bm_scratch.c; the benchmarks' side is bm/bench.h) ---- */

/* Before each benchmark: nothing allocated, and `declared` bytes (its BM_SCRATCH; 0: none) the
 * most its allocations and their alignment may take. */
void bm_scratch_reset(size_t declared);
/* Why the last bm_scratch_alloc returned NULL (NULL: none did since the reset). */
const char *bm_scratch_refusal(void);
/* After setup: fills the scratch nothing allocated with a pattern; bm_scratch_intact() then says
 * whether the benchmark wrote only inside its allocations (and the canary after each). */
void bm_scratch_seal(void);
int bm_scratch_intact(void);
int bm_scratch_state_intact(void);

#endif /* BM_GUARD_H */
