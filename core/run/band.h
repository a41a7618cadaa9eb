/* SPDX-License-Identifier: Apache-2.0 */
/* The band above a benchmark's frames, and what the kit's two ways of calling its code share: on
 * the kit's stack (bm_band.c) and, where the arch isolates benchmark code, on its own stack with
 * the call's job (bm_user.c). Core-private. */
#ifndef BM_RUN_BAND_H
#define BM_RUN_BAND_H

#include "run/run.h"

#define CALL_BAND_BYTES 32u
#define CALL_BAND_WORDS (CALL_BAND_BYTES / sizeof(uintptr_t))

/* A write found in the band above the frames of the code entered at entry (addr: the lowest word
 * written): the benchmark ends as a trap, or, the kit's state gone too, the run. */
__attribute__((noreturn)) void bm_band_written(uintptr_t addr, uintptr_t entry);

/* One batch as the benchmark's code runs it: between its setup_each and teardown_each when it
 * has them (outside the batch's counter reads). Non-zero: its setup_each failed (no batch). */
static inline __attribute__((always_inline)) int bm_each_batch(const struct bm_bench *b, int each, int ev,
                                                               uint32_t iters, struct bm_delta *d)
{
	if (each && b->setup_each && b->setup_each() != 0)
		return 1;
	bm_batch_of(b, ev)(iters, d);
	if (each && b->teardown_each)
		b->teardown_each();
	return 0;
}

static inline uintptr_t bm_band_entry(const struct bm_bench *b, uint32_t which)
{
	return (uintptr_t)(which == BM_USER_SETUP ? (void *)b->setup : which == BM_USER_VERIFY ? (void *)b->verify
	                   : which == BM_USER_TEARDOWN ? (void *)b->teardown : (void *)b->batch);
}

/* bm_band_call's isolated half (bm_user.c): `which` of b as unprivileged code, on its own stack. */
int bm_user_call(const struct bm_bench *b, enum bm_user_fn which, uint32_t iters, struct bm_delta *d,
                 uint64_t *user_cycles, const struct bm_overhead *oh);

#endif
