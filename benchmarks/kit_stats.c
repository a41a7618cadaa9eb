/* The kit measuring itself: the cost of one bm_stats_add() (every sample of every benchmark
 * goes through it), for random, ascending and outlier-heavy input, and for far outliers (more
 * than K of them over 13 octaves above the bulk, which then leaves the fast path). Each sample is exactly one
 * insert (max_iters = 1), so under deterministic QEMU p50 is the typical and max the worst
 * instruction count per insert. `stats_fetch_only` times the input fetch alone, to subtract. */
#include "bm/bench.h"
#include "bm/stats.h"

#define KIT_VALUES 256u
#define KIT_SCRATCH (sizeof(struct bm_stats) + KIT_VALUES * 8 + 16)

static struct bm_stats *kit_st;
static uint64_t *kit_vals;
static uint32_t kit_idx;
static uint64_t kit_sink;

enum kit_shape { SHAPE_RANDOM, SHAPE_ASCENDING, SHAPE_OUTLIERS, SHAPE_FAR };

static int kit_setup(enum kit_shape shape)
{
	kit_st = bm_scratch_alloc(sizeof *kit_st, 8);
	kit_vals = bm_scratch_alloc(KIT_VALUES * sizeof *kit_vals, 8);
	if (!kit_st || !kit_vals)
		return -1;
	bm_stats_init(kit_st);
	kit_idx = 0;
	uint32_t x = bm_seed(2463534242u);
	for (uint32_t i = 0; i < KIT_VALUES; i++) {
		x ^= x << 13; /* xorshift32 */
		x ^= x >> 17;
		x ^= x << 5;
		switch (shape) {
		case SHAPE_RANDOM: /* cycle counts between 1,000 and ~100,000 */
			kit_vals[i] = 1000 + x % 99000;
			break;
		case SHAPE_ASCENDING:
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
static int setup_outliers(void)
{
	return kit_setup(SHAPE_OUTLIERS);
}
static int setup_far(void)
{
	return kit_setup(SHAPE_FAR);
}

/* Every insert counted, and the extremes are values that were inserted. */
static int kit_verify(void)
{
	if (bm_stats_count(kit_st) != kit_idx)
		return -1;
	uint64_t lo = UINT64_MAX, hi = 0;
	uint32_t seen = kit_idx < KIT_VALUES ? kit_idx : KIT_VALUES;
	for (uint32_t i = 0; i < seen; i++) {
		lo = kit_vals[i] < lo ? kit_vals[i] : lo;
		hi = kit_vals[i] > hi ? kit_vals[i] : hi;
	}
	return kit_idx == 0 || (kit_st->min == lo && kit_st->max == hi) ? 0 : -1;
}

static int fetch_verify(void)
{
	return kit_idx > 0 ? 0 : -1;
}

BM_SCRATCH(stats_add_random, KIT_SCRATCH);
BM_BENCHMARK(stats_add_random, kit_verify, .setup = setup_random, .max_iters = 1)
{
	bm_stats_add(kit_st, kit_vals[kit_idx++ % KIT_VALUES]);
}

BM_SCRATCH(stats_add_ascending, KIT_SCRATCH);
BM_BENCHMARK(stats_add_ascending, kit_verify, .setup = setup_ascending, .max_iters = 1)
{
	bm_stats_add(kit_st, kit_vals[kit_idx++ % KIT_VALUES]);
}

BM_SCRATCH(stats_add_outliers, KIT_SCRATCH);
BM_BENCHMARK(stats_add_outliers, kit_verify, .setup = setup_outliers, .max_iters = 1)
{
	bm_stats_add(kit_st, kit_vals[kit_idx++ % KIT_VALUES]);
}

BM_SCRATCH(stats_add_far_outliers, KIT_SCRATCH);
BM_BENCHMARK(stats_add_far_outliers, kit_verify, .setup = setup_far, .max_iters = 1)
{
	bm_stats_add(kit_st, kit_vals[kit_idx++ % KIT_VALUES]);
}

BM_SCRATCH(stats_fetch_only, KIT_SCRATCH);
BM_BENCHMARK(stats_fetch_only, fetch_verify, .setup = setup_random, .max_iters = 1)
{
	kit_sink = kit_vals[kit_idx++ % KIT_VALUES];
	bm_do_not_optimize(kit_sink);
}
