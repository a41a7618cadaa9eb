/* SPDX-License-Identifier: Apache-2.0 */
/* The kit measuring itself: the cost of one bm_stats_add() (every sample of every benchmark goes
 * through it), one benchmark per input shape, each named for what it feeds:
 *   random        1,000 .. 100,000, uniform (the typical insert)
 *   ascending     strictly increasing over every insert of the run (each one a new maximum: it
 *                 enters the exact tail and pushes the tail's minimum into the histogram)
 *   descending    strictly decreasing over every insert (each one a new minimum)
 *   sawtooth      1,000 + 37 i, i = 0..KIT_VALUES-1 (256; 64 on small boards), repeated
 *   outliers      1 in 8 is an interrupt-sized spike, 2x .. 2048x the bulk
 *   far_outliers  1 in 8 is anywhere up to 2^63 (more than K of them over 13 octaves above the
 *                 bulk, which then leaves the fast path: the adversarial case)
 * Each sample is exactly one insert (max_iters = 1), so under deterministic QEMU p50 is the
 * typical and max the worst instruction count per insert, and the mean the amortised one. Each
 * insert goes into the state the earlier ones filled, as the harness's own do, so the first
 * costs other than the later ones: what they measure, declared (.carries_state). Every
 * benchmark fetches its input the same way, value = table[i % KIT_VALUES] + step * (i / KIT_VALUES), so
 * `stats_fetch_only` (the same fetch, no insert) is what to subtract from each. */
#include "bm/bench.h"
#include "bm/stats.h"

/* The input table: 256 values, 64 on a small board (BM_SUITE_SMALL: 16 KiB of RAM, where 2 KiB of
 * table would be most of what the kit leaves a user). The periodic shapes repeat with it. */
#if BM_SUITE_SMALL
#define KIT_VALUES 64u
#else
#define KIT_VALUES 256u
#endif
/* the state and the value table, each 8-byte aligned */
#define KIT_SCRATCH (sizeof(struct bm_stats) + KIT_VALUES * 8 + 16)

static struct bm_stats *kit_st;
static uint64_t *kit_vals;
static uint64_t kit_step; /* added once per KIT_VALUES inserts: 0 for the periodic shapes */
static uint32_t kit_idx;
static uint64_t kit_sink;

enum kit_shape { SHAPE_RANDOM, SHAPE_ASCENDING, SHAPE_DESCENDING, SHAPE_SAWTOOTH, SHAPE_OUTLIERS, SHAPE_FAR };

/* The one input fetch of every benchmark here (and of stats_fetch_only). */
static inline __attribute__((always_inline)) uint64_t kit_next(void)
{
	uint32_t i = kit_idx++;
	return kit_vals[i % KIT_VALUES] + kit_step * (i / KIT_VALUES);
}

static int kit_setup(enum kit_shape shape)
{
	kit_st = bm_scratch_alloc(sizeof *kit_st, 8);
	kit_vals = bm_scratch_alloc(KIT_VALUES * sizeof *kit_vals, 8);
	if (!kit_st || !kit_vals)
		return -1;
	bm_stats_init(kit_st);
	kit_idx = 0;
	kit_step = 0;
	uint32_t x = bm_seed(2463534242u);
	for (uint32_t i = 0; i < KIT_VALUES; i++) {
		x ^= x << 13; /* xorshift32 */
		x ^= x >> 17;
		x ^= x << 5;
		switch (shape) {
		case SHAPE_RANDOM: /* cycle counts between 1,000 and ~100,000 */
			kit_vals[i] = 1000 + x % 99000;
			break;
		case SHAPE_ASCENDING: /* 1000 + 37 k for the k-th insert, k = 0, 1, 2, ... */
			kit_vals[i] = 1000 + (uint64_t)i * 37;
			kit_step = 37 * KIT_VALUES;
			break;
		case SHAPE_DESCENDING: /* 10^9 - 37 k: stays positive for 27 million inserts */
			kit_vals[i] = 1000000000 - (uint64_t)i * 37;
			kit_step = 0 - (uint64_t)(37 * KIT_VALUES);
			break;
		case SHAPE_SAWTOOTH:
			kit_vals[i] = 1000 + (uint64_t)i * 37;
			break;
		case SHAPE_OUTLIERS: /* 1 in 8 is an interrupt-sized spike: 2x to 2048x the bulk */
			kit_vals[i] = (1000 + (x & 63)) << ((x & 7) == 0 ? 1 + (x >> 8) % 11 : 0);
			break;
		case SHAPE_FAR: /* 1 in 8 is anywhere up to 2^63 */
			kit_vals[i] = (x & 7) == 0 ? ((uint64_t)(x | 1) << ((x >> 8) & 31)) : 1000 + (x & 63);
			break;
		}
	}
	return 0;
}

static int setup_random(void)
{
	return kit_setup(SHAPE_RANDOM);
}
static int setup_ascending(void)
{
	return kit_setup(SHAPE_ASCENDING);
}
static int setup_descending(void)
{
	return kit_setup(SHAPE_DESCENDING);
}
static int setup_sawtooth(void)
{
	return kit_setup(SHAPE_SAWTOOTH);
}
static int setup_outliers(void)
{
	return kit_setup(SHAPE_OUTLIERS);
}
static int setup_far(void)
{
	return kit_setup(SHAPE_FAR);
}

/* Every insert counted, and the extremes are exactly those of the values fed. */
static int kit_verify(void)
{
	uint32_t n = kit_idx;
	if (bm_stats_count(kit_st) != n)
		return -1;
	if (n == 0)
		return 0;
	uint64_t lo = UINT64_MAX, hi = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t v = kit_vals[i % KIT_VALUES] + kit_step * (i / KIT_VALUES);
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	struct bm_quantile qmin, qmax;
	bm_stats_quantile(kit_st, 1, n, 1, &qmin); /* rank 1 and rank n: exact */
	bm_stats_quantile(kit_st, 1, 1, 1, &qmax);
	return qmin.exact && qmax.exact && qmin.raw == lo && qmax.raw == hi ? 0 : -1;
}

static int fetch_verify(void)
{
	return kit_idx > 0 ? 0 : -1;
}

BM_SCRATCH(stats_add_random, KIT_SCRATCH);
BM_BENCHMARK(stats_add_random, kit_verify, .setup = setup_random, .max_iters = 1, .carries_state = 1)
{
	bm_stats_add(kit_st, kit_next());
}

BM_SCRATCH(stats_add_ascending, KIT_SCRATCH);
BM_BENCHMARK(stats_add_ascending, kit_verify, .setup = setup_ascending, .max_iters = 1, .carries_state = 1)
{
	bm_stats_add(kit_st, kit_next());
}

BM_SCRATCH(stats_add_descending, KIT_SCRATCH);
BM_BENCHMARK(stats_add_descending, kit_verify, .setup = setup_descending, .max_iters = 1, .carries_state = 1)
{
	bm_stats_add(kit_st, kit_next());
}

BM_SCRATCH(stats_add_sawtooth, KIT_SCRATCH);
BM_BENCHMARK(stats_add_sawtooth, kit_verify, .setup = setup_sawtooth, .max_iters = 1, .carries_state = 1)
{
	bm_stats_add(kit_st, kit_next());
}

BM_SCRATCH(stats_add_outliers, KIT_SCRATCH);
BM_BENCHMARK(stats_add_outliers, kit_verify, .setup = setup_outliers, .max_iters = 1, .carries_state = 1)
{
	bm_stats_add(kit_st, kit_next());
}

BM_SCRATCH(stats_add_far_outliers, KIT_SCRATCH);
BM_BENCHMARK(stats_add_far_outliers, kit_verify, .setup = setup_far, .max_iters = 1, .carries_state = 1)
{
	bm_stats_add(kit_st, kit_next());
}

BM_SCRATCH(stats_fetch_only, KIT_SCRATCH);
BM_BENCHMARK(stats_fetch_only, fetch_verify, .setup = setup_random, .max_iters = 1)
{
	kit_sink = kit_next();
	bm_do_not_optimize(kit_sink);
}
