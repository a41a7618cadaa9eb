/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics core tests: every distribution of the list at many N, against an exact sort-based
 * nearest-rank reference (quantile bounds, exact tail, exact moments, Tukey counts, order
 * independence, merge), plus unit checks of the wide arithmetic and the geometry. */
#include <stdlib.h>
#include <string.h>

#include "bm_test.h"
#include "stats_ref.h"
#include "../../core/stats/bm_stats_internal.h"

static const size_t sizes[] = {1, 2, 3, 5, 10, 100, 6399, 6400, 63999, 64000, 100000};

static void run_dist(size_t d)
{
	for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
		size_t n = sizes[k];
		uint64_t *x = malloc(n * sizeof *x);
		stats_dists[d].gen(x, n, 1000 + d * 77 + n);
		struct case_result res;
		ref_check_case(stats_dists[d].name, x, n, &res, 1);
		free(x);
	}
}

#define DIST_TEST(i) static void t_dist_##i(void) { if (i < stats_n_dists) run_dist(i); }
DIST_TEST(0) DIST_TEST(1) DIST_TEST(2) DIST_TEST(3) DIST_TEST(4) DIST_TEST(5) DIST_TEST(6)
DIST_TEST(7) DIST_TEST(8) DIST_TEST(9) DIST_TEST(10) DIST_TEST(11) DIST_TEST(12) DIST_TEST(13)
DIST_TEST(14) DIST_TEST(15) DIST_TEST(16) DIST_TEST(17) DIST_TEST(18) DIST_TEST(19)
DIST_TEST(20) DIST_TEST(21) DIST_TEST(22) DIST_TEST(23) DIST_TEST(24)

/* One million samples for the distributions that stress range and tail. */
static void t_million(void)
{
	static const char *const names[] = {"lognormal-s2", "pareto-a1.1", "spikes-1%", "spikes-0.1%",
	                                    "uniform-32bit", "normal-narrow", "one-outlier-2^63"};
	size_t n = 1000000;
	uint64_t *x = malloc(n * sizeof *x);
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		for (size_t d = 0; d < stats_n_dists; d++)
			if (!strcmp(stats_dists[d].name, names[i])) {
				stats_dists[d].gen(x, n, 99 + d);
				struct case_result res;
				ref_check_case(names[i], x, n, &res, 1);
			}
	free(x);
}

/* Zeros past the 16-bit layout's limit (an empty body measured 0 on every sample: the zero short
 * path, its count carry, and the switch to 32-bit counts), with a few other values about, and
 * zeros arriving after the histogram's minimum was already above 0. */
static void t_zeros_wide(void)
{
	size_t n = BM_STATS_U16_MAX_N + 200000;
	uint64_t *x = malloc(n * sizeof *x), st = 17;
	for (size_t i = 0; i < n; i++)
		x[i] = i < 500 ? 1000 + ref_rng(&st) % 100 : ref_rng(&st) % 1000 == 0 ? 5 + ref_rng(&st) % 3000 : 0;
	struct case_result res;
	ref_check_case("zeros-past-u16", x, n, &res, 1);
	free(x);
}

/* bm_stats_add_n's square sum m v^2 (up to 2^80, from two 48-bit partial products) where the
 * low partial products carry into the high word, which random runs almost never do: the state
 * must be byte for byte that of m single adds. v near 2^32 in the fast window: a tail of 64
 * larger values, then v itself into the histogram. */
static void t_add_n_square_carry(void)
{
	static struct bm_stats a, b;
	unsigned found = 0;
	for (uint64_t v = (1ull << 32) - 100; v > (1ull << 31) && found < 3; v--) {
		uint64_t sq = v * v, m = 65535 - (v & 1023);
		uint64_t lo_p = (sq & UINT32_MAX) * m, hi_p = (sq >> 32) * m;
		if (lo_p + (hi_p << 32) >= lo_p)
			continue; /* no carry out of the low word for this (v, m) */
		found++;
		bm_stats_init(&a);
		for (int i = 0; i < 64; i++) /* K distinct values: v, the next, is past the exact mode */
			bm_stats_add(&a, UINT32_MAX - (uint64_t)i);
		bm_stats_add(&a, v);
		BM_CHECK(a.tail_len == BM_STATS_TOPK);
		memcpy(&b, &a, sizeof a);
		bm_stats_add_n(&a, v, m);
		for (uint64_t i = 0; i < m; i++)
			bm_stats_add(&b, v);
		BM_CHECK(memcmp(&a, &b, sizeof a) == 0);
		BM_CHECK(a.fast_span != 0); /* v took the bulk path, not single adds */
	}
	BM_CHECK(found == 3);
}

static void t_empty(void)
{
	struct bm_stats s;
	struct bm_stats_report r;
	bm_stats_init(&s);
	bm_stats_report(&s, 1, &r);
	BM_CHECK_EQ_U64(r.n, 0);
	BM_CHECK_EQ_U64(r.p50.raw, 0);
	BM_CHECK_EQ_U128(r.mean_milli, 0);
	BM_CHECK(sizeof s <= 2048);
	printf("  sizeof(struct bm_stats) = %zu bytes\n", sizeof s);
}

/* Values alternating 1,000,000 / 1,000,003: variance 2.25 (n even), sample var = 2.25*n/(n-1). */
static void t_variance_cancellation(void)
{
	struct bm_stats s;
	struct bm_stats_report r;
	bm_stats_init(&s);
	for (int i = 0; i < 1000; i++)
		bm_stats_add(&s, i & 1 ? 1000003 : 1000000);
	bm_stats_report(&s, 1, &r);
	/* sqrt(2.25 * 1000 / 999) = 1.500750... */
	BM_CHECK_EQ_U128(r.stddev_milli, 1501);
	BM_CHECK_EQ_U128(r.mean_milli, 1000001500);
	/* huge values: 2^64-1 and 2^64-2 */
	bm_stats_init(&s);
	for (int i = 0; i < 1000; i++)
		bm_stats_add(&s, i & 1 ? UINT64_MAX : UINT64_MAX - 3);
	bm_stats_report(&s, 1000, &r);
	BM_CHECK_EQ_U128(r.stddev_milli, 2);  /* 1.5008 / 1000 * 1000 */
	BM_CHECK_EQ_U128(r.mean_milli, UINT64_MAX - 1); /* (2^64-2.5)/1000 per iteration, x1000 */
	BM_CHECK(!(r.flags & BM_STATS_F_SUM_SATURATED));
}

static void t_ci95(void)
{
	struct bm_stats s;
	struct bm_stats_report r;
	bm_stats_init(&s);
	bm_stats_add(&s, 10);
	bm_stats_add(&s, 20);
	bm_stats_report(&s, 1, &r);
	/* sd = 7.0711, t(1) = 12.7062, ci = 12.7062 * 7.0711 / sqrt(2) = 63.531 */
	BM_CHECK_EQ_U128(r.stddev_milli, 7071);
	BM_CHECK_EQ_U128(r.ci95_milli, 63531);
	BM_CHECK_EQ_U64(r.cv_ppm, 471405);
	bm_stats_init(&s);
	for (int i = 0; i < 100000; i++)
		bm_stats_add(&s, i % 2 ? 1100 : 900);
	bm_stats_report(&s, 1, &r);
	/* sd = 100.0005, ci = 1.96 * sd / sqrt(1e5) = 0.61984 */
	BM_CHECK_EQ_U128(r.ci95_milli, 620);
}

static void t_mul64(void)
{
	uint64_t st = 5;
	for (int i = 0; i < 100000; i++) {
		uint64_t a = ref_rng(&st) >> (ref_rng(&st) % 64), b = ref_rng(&st);
		struct bm_u128 p = bm_u128_mul64_portable(a, b);
		unsigned __int128 e = (unsigned __int128)a * b;
		BM_CHECK(p.lo == (uint64_t)e && p.hi == (uint64_t)(e >> 64));
		struct bm_u128 q = {a, b};
		unsigned __int128 f = ((unsigned __int128)b << 64 | a) + b;
		unsigned c = bm_u128_add64(&q, b);
		BM_CHECK(q.lo == (uint64_t)f && q.hi == (uint64_t)(f >> 64));
		BM_CHECK(c == (f < (unsigned __int128)b));
	}
}

/* The layout is a pure function of the top octave: far-out values arriving first or last, or
 * merged from two halves, give identical bins. Values above 2^32 and 2^63 are never dropped;
 * more than K of them push the bulk below the top band, which the report flags. */
static void t_coarsen(void)
{
	static struct bm_stats s, a, b;
	struct bm_stats_report r;
	bm_stats_init(&s);
	for (uint64_t i = 0; i < 10000; i++)
		bm_stats_add(&s, 1000 + i);
	bm_stats_report(&s, 1, &r);
	BM_CHECK(!(r.flags & BM_STATS_F_COARSENED));
	BM_CHECK_EQ_U64(r.bins_per_octave, 46);
	for (uint64_t i = 0; i < 1000; i++)
		bm_stats_add(&s, (1ull << 63) + i);
	bm_stats_report(&s, 1, &r);
	BM_CHECK(r.flags & BM_STATS_F_COARSENED);
	BM_CHECK_EQ_U64(bm_stats_count(&s), 11000);
	BM_CHECK_EQ_U64(r.n, 11000);
	uint64_t tot = s.tail_len;
	for (unsigned i = 0; i < BM_STATS_SLOTS16; i++)
		tot += ref_bin_count(&s, i);
	BM_CHECK_EQ_U64(tot, 11000);
	BM_CHECK_EQ_U128(r.max_milli, ((unsigned __int128)1 << 63 | 999) * 1000); /* past 2^64 thousandths: exact */
	BM_CHECK(r.p999.raw >= (1ull << 63));
	bm_stats_init(&a);
	for (uint64_t i = 0; i < 1000; i++)
		bm_stats_add(&a, (1ull << 63) + i);
	for (uint64_t i = 0; i < 10000; i++)
		bm_stats_add(&a, 1000 + i);
	BM_CHECK(ref_same_bins(&a, &s));
	bm_stats_init(&a);
	bm_stats_init(&b);
	for (uint64_t i = 0; i < 1000; i++)
		bm_stats_add(&b, (1ull << 63) + i);
	for (uint64_t i = 0; i < 10000; i++)
		bm_stats_add(&a, 1000 + i);
	bm_stats_merge(&a, &b);
	BM_CHECK(ref_same_bins(&a, &s));
}

/* Past BM_STATS_U16_MAX_N samples the counts become 32-bit: the switch happens at the same n
 * whatever the order, and merging two states that are each below it crosses it exactly. */
static void t_widen(void)
{
	static struct bm_stats s, a, b;
	struct bm_stats_report r, r2;
	uint64_t n = BM_STATS_U16_MAX_N + 1000, st = 77;
	bm_stats_init(&s);
	bm_stats_init(&a);
	bm_stats_init(&b);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v = i % 7 ? 5000 + ref_rng(&st) % 40 : 1000000 + i; /* 40 bins past 65,535 */
		bm_stats_add(&s, v);
		bm_stats_add(i & 1 ? &a : &b, v);
		if (i == BM_STATS_U16_MAX_N - 1)
			BM_CHECK(!s.wide);
	}
	BM_CHECK(s.wide && !a.wide && !b.wide);
	bm_stats_merge(&a, &b);
	BM_CHECK(a.wide);
	BM_CHECK(ref_same_bins(&a, &s));
	bm_stats_report(&s, 1, &r);
	bm_stats_report(&a, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);
	BM_CHECK_EQ_U64(r.n, n);
	BM_CHECK_EQ_U64(r.bins_per_octave, 23);
	BM_CHECK(!(r.flags & BM_STATS_F_BIN_SATURATED));
	BM_CHECK(r.p50.bound_ppm <= 15818);
	uint64_t tot = s.tail_len;
	for (unsigned i = 0; i < 339; i++)
		tot += ref_bin_count(&s, i);
	BM_CHECK_EQ_U64(tot, n);
}

/* Samples that take few values (the exact mode): nearest-rank answers and Tukey counts exact
 * (ref_check_case holds every answer to the sorted reference when there are at most K distinct
 * values). Two adjacent ticks in every split, as a SysTick board reads a benchmark; hit/miss
 * pairs; 64 values spread over a range; 40-bit values; and one value past K. */
static void exact_cases(const char *name, const uint64_t *vals, size_t nv, size_t n, uint64_t seed, int full)
{
	uint64_t *x = malloc(n * sizeof *x), st = seed;
	for (size_t i = 0; i < n; i++)
		x[i] = vals[ref_rng(&st) % nv];
	struct case_result res;
	if (full) {
		ref_check_case(name, x, n, &res, 1);
	} else { /* the quantiles and the exact Tukey counts only (every split of two ticks) */
		static struct bm_stats s;
		bm_stats_init(&s);
		for (size_t i = 0; i < n; i++)
			bm_stats_add(&s, x[i]);
		struct bm_stats_report r;
		bm_stats_report(&s, 4, &r);
		BM_CHECK(s.tail_len == 0 && r.outliers_uncertain == 0);
		BM_CHECK(r.p50.bound_ppm == 0 && r.p90.bound_ppm == 0 && r.p99.bound_ppm == 0 && r.p999.bound_ppm == 0);
	}
	free(x);
}

static void t_exact_two_ticks(void)
{
	static const uint64_t bases[] = {2222, 684, 1, 0, 999999, (1ull << 40) - 1, UINT64_MAX - 1};
	uint64_t *x = malloc(1000 * sizeof *x);
	for (size_t b = 0; b < sizeof bases / sizeof bases[0]; b++)
		for (size_t k = 0; k <= 1000; k++) { /* k samples at the lower tick, the rest one above */
			for (size_t i = 0; i < 1000; i++)
				x[i] = bases[b] + (i >= k);
			ref_shuffle(x, 1000, k);
			struct case_result res;
			/* (the reference's long double moments are not exact near 2^64) */
			if (bases[b] >> 62 == 0 && (k % 50 == 0 || k < 3 || k > 997 || k % 250 == 249 || k % 250 == 1)) {
				ref_check_case("two-ticks", x, 1000, &res, 1);
				continue;
			}
			static struct bm_stats s;
			struct bm_stats_report r;
			bm_stats_init(&s);
			for (size_t i = 0; i < 1000; i++)
				bm_stats_add(&s, x[i]);
			bm_stats_report(&s, 1, &r);
			/* nearest rank: p50 is the lower tick iff k >= 500, p90 iff k >= 900, ... */
			BM_CHECK_EQ_U64(r.p50.raw, bases[b] + (k < 500));
			BM_CHECK_EQ_U64(r.p90.raw, bases[b] + (k < 900));
			BM_CHECK_EQ_U64(r.p99.raw, bases[b] + (k < 990));
			BM_CHECK_EQ_U64(r.p999.raw, bases[b] + (k < 999));
			/* Tukey: Q1, Q3 are the ticks of ranks 250 and 750; outliers the other tick's samples
			 * when Q1 = Q3 */
			uint64_t q1 = k >= 250, q3 = k >= 750;
			BM_CHECK_EQ_U64(r.outliers_lo, q1 == q3 && q1 == 0 ? k : 0);
			BM_CHECK_EQ_U64(r.outliers_hi, q1 == q3 && q1 == 1 ? 1000 - k : 0);
			BM_CHECK(r.outliers_uncertain == 0 && r.filtered_mean_exact);
		}
	free(x);
	/* the figures: 1 x 2222 and 999 x 2223 (p50 2223); 54 x 684, 946 x 685 (p50 685) */
	static struct bm_stats s;
	struct bm_stats_report r;
	bm_stats_init(&s);
	bm_stats_add(&s, 2222);
	bm_stats_add_n(&s, 2223, 999);
	bm_stats_report(&s, 4, &r);
	BM_CHECK_EQ_U64(r.p50.raw, 2223);
	BM_CHECK_EQ_U64(r.p90.raw, 2223);
	BM_CHECK_EQ_U128(r.p50.value_milli, 555750);
	BM_CHECK(r.outliers_lo == 1 && r.outliers_hi == 0 && r.outliers_uncertain == 0);
	bm_stats_init(&s);
	bm_stats_add_n(&s, 684, 54);
	bm_stats_add_n(&s, 685, 946);
	bm_stats_report(&s, 1, &r);
	BM_CHECK_EQ_U64(r.p50.raw, 685);
	BM_CHECK(r.outliers_lo == 54 && r.outliers_hi == 0);
}

static void t_exact_shapes(void)
{
	uint64_t st = 3, spread[64], wide40[64], hm[2] = {12, 150}, hm2[2] = {3, 4000};
	for (int i = 0; i < 64; i++) {
		spread[i] = 1000 + (uint64_t)i * 997 + ref_rng(&st) % 500;
		wide40[i] = (1ull << 39) + (ref_rng(&st) >> 25);
	}
	exact_cases("hit-miss", hm, 2, 10000, 1, 1);
	exact_cases("hit-miss-far", hm2, 2, 100000, 2, 1);
	exact_cases("64-spread", spread, 64, 10000, 3, 1);
	exact_cases("64-spread-1M", spread, 64, 1000000, 4, 0);
	exact_cases("64-40bit", wide40, 64, 100000, 5, 1);
	exact_cases("64-wide", (uint64_t[]){0, 1, 1ull << 20, 1ull << 40, 1ull << 63, UINT64_MAX}, 6, 5000, 6, 1);
	/* one value past K: the histogram, within its bounds (ref_check_case), any order */
	uint64_t past[65];
	for (int i = 0; i < 65; i++)
		past[i] = 5000 + (uint64_t)i * 13;
	exact_cases("65-values", past, 65, 10000, 7, 1);
	exact_cases("65-values-100k", past, 65, 100000, 8, 1);
}

/* The exact mode's view (the hist record's bins and tail) is the state it switches to. */
static struct { uint64_t lo[1024], hi[1024], c[1024], t[BM_STATS_TOPK]; unsigned nb, nt; } va, vb;
static void vbin(void *ctx, uint64_t lo, uint64_t hi, uint64_t c)
{
	__typeof__(va) *v = ctx;
	v->lo[v->nb] = lo;
	v->hi[v->nb] = hi;
	v->c[v->nb++] = c;
}
static void vtail(void *ctx, uint64_t x)
{
	__typeof__(va) *v = ctx;
	v->t[v->nt++] = x;
}

static void t_exact_view(void)
{
	static struct bm_stats s, t;
	uint64_t st = 9;
	for (int k = 0; k < 200; k++) {
		bm_stats_init(&s);
		unsigned nv = 1 + (unsigned)(ref_rng(&st) % 64), shift = (unsigned)(ref_rng(&st) % 60);
		size_t n = 64 + ref_rng(&st) % (k < 100 ? 200 : 2000000);
		for (size_t i = 0; i < n; i++)
			bm_stats_add(&s, ((ref_rng(&st) % nv) * 37 + 1000) << (shift * (i & 1)));
		if (s.tail_len)
			continue; /* (more than K values after the shift) */
		t = s;
		bm_st_ex_to_hist(&t);
		memset(&va, 0, sizeof va);
		memset(&vb, 0, sizeof vb);
		bm_stats_view(&s, &(struct bm_stats_view){vbin, vtail, 0, &va});
		bm_stats_view(&t, &(struct bm_stats_view){vbin, vtail, 0, &vb});
		BM_CHECK(memcmp(&va, &vb, sizeof va) == 0);
		BM_CHECK_EQ_U64(bm_stats_count(&t), n);
		BM_CHECK(t.tail_len == BM_STATS_TOPK && t.wide == (n > BM_STATS_U16_MAX_N));
		struct bm_stats_report ra, rb;
		bm_stats_report(&s, 1, &ra);
		bm_stats_report(&t, 1, &rb);
		BM_CHECK(memcmp(&ra.sum, &rb.sum, sizeof ra.sum) == 0 && ra.stddev_milli.lo == rb.stddev_milli.lo);
	}
}

/* The generated bin table keeps the promises the layout is built on: the byte table's first half
 * is msb, every grid step maps to the fine bin whose edges hold it, fine bins are <= 0.798 % wide
 * (relative half-width) and pairs of them <= 1.582 %: the 0.80 % and 1.59 % of the bands. */
static void t_tables(void)
{
	for (unsigned b = 1; b < 256; b++)
		BM_CHECK_EQ_U64(bm_st_tab[b], 31 - (unsigned)__builtin_clz(b));
	BM_CHECK_EQ_U64(bm_st_edge[0], 1u << BM_ST_GRID_BITS);
	BM_CHECK_EQ_U64(bm_st_edge[BM_ST_FINE], 2u << BM_ST_GRID_BITS);
	for (unsigned t = 1u << BM_ST_GRID_BITS; t < 2u << BM_ST_GRID_BITS; t++) {
		unsigned g = bm_st_tab[256 + t - (1u << BM_ST_GRID_BITS)];
		BM_CHECK(g < BM_ST_FINE && bm_st_edge[g] <= t && t < bm_st_edge[g + 1]);
	}
	for (unsigned sh = 0; sh <= 1; sh++)
		for (unsigned g = 0; g < BM_ST_FINE; g += 1u << sh) {
			unsigned a = bm_st_edge[g], b = bm_st_edge[g + (1u << sh) < BM_ST_FINE ? g + (1u << sh) : BM_ST_FINE];
			BM_CHECK((uint64_t)(b - a) * 1000000u <= (uint64_t)(sh ? 15818 : 7979) * (a + b));
		}
}

static const struct bm_test_case cases[] = {
	BM_TEST_CASE(t_empty), BM_TEST_CASE(t_tables), BM_TEST_CASE(t_mul64), BM_TEST_CASE(t_variance_cancellation),
	BM_TEST_CASE(t_ci95), BM_TEST_CASE(t_coarsen), BM_TEST_CASE(t_widen),
	BM_TEST_CASE(t_dist_0), BM_TEST_CASE(t_dist_1), BM_TEST_CASE(t_dist_2), BM_TEST_CASE(t_dist_3),
	BM_TEST_CASE(t_dist_4), BM_TEST_CASE(t_dist_5), BM_TEST_CASE(t_dist_6), BM_TEST_CASE(t_dist_7),
	BM_TEST_CASE(t_dist_8), BM_TEST_CASE(t_dist_9), BM_TEST_CASE(t_dist_10), BM_TEST_CASE(t_dist_11),
	BM_TEST_CASE(t_dist_12), BM_TEST_CASE(t_dist_13), BM_TEST_CASE(t_dist_14), BM_TEST_CASE(t_dist_15),
	BM_TEST_CASE(t_dist_16), BM_TEST_CASE(t_dist_17), BM_TEST_CASE(t_dist_18), BM_TEST_CASE(t_dist_19),
	BM_TEST_CASE(t_dist_20), BM_TEST_CASE(t_dist_21), BM_TEST_CASE(t_dist_22), BM_TEST_CASE(t_dist_23),
	BM_TEST_CASE(t_exact_two_ticks), BM_TEST_CASE(t_exact_shapes), BM_TEST_CASE(t_exact_view),
	BM_TEST_CASE(t_dist_24), BM_TEST_CASE(t_million), BM_TEST_CASE(t_zeros_wide), BM_TEST_CASE(t_add_n_square_carry),
};

int main(void)
{
	return bm_test_main(cases, sizeof cases / sizeof cases[0]);
}
