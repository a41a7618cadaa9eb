/* SPDX-License-Identifier: Apache-2.0 */
/* Distribution list, exact reference and per-case checks (see stats_ref.h). */
#include "stats_ref.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_test.h"
#include "../../core/stats/bm_stats_internal.h" /* the core's own count accessor */

typedef unsigned __int128 u128;

static u128 U(struct bm_u128 v)
{
	return (u128)v.hi << 64 | v.lo;
}

uint64_t ref_rng(uint64_t *st) /* splitmix64 */
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unif(uint64_t *st) /* (0, 1) */
{
	return ((double)(ref_rng(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *st)
{
	return sqrt(-2.0 * log(unif(st))) * cos(6.283185307179586 * unif(st));
}

static uint64_t clampd(double v)
{
	if (!(v > 0))
		return 0;
	if (v >= 18446744073709549568.0)
		return UINT64_MAX;
	return (uint64_t)llround(v);
}

void ref_shuffle(uint64_t *x, size_t n, uint64_t seed)
{
	uint64_t st = seed;
	for (size_t i = n; i > 1; i--) {
		size_t j = (size_t)(ref_rng(&st) % i);
		uint64_t t = x[i - 1];
		x[i - 1] = x[j];
		x[j] = t;
	}
}

#define GEN(nm) static void nm(uint64_t *x, size_t n, uint64_t st)
GEN(g_const0) { (void)st; for (size_t i = 0; i < n; i++) x[i] = 0; }
GEN(g_const32) { (void)st; for (size_t i = 0; i < n; i++) x[i] = UINT32_MAX; }
GEN(g_ascending) { (void)st; for (size_t i = 0; i < n; i++) x[i] = 1000 + i; }
GEN(g_descending) { (void)st; for (size_t i = 0; i < n; i++) x[i] = 1000 + 3 * (n - i); }
GEN(g_uniform) { for (size_t i = 0; i < n; i++) x[i] = 1000 + ref_rng(&st) % 1000; }
GEN(g_normal) { for (size_t i = 0; i < n; i++) x[i] = clampd(10000 + 50 * gauss(&st)); }
GEN(g_lognorm05) { for (size_t i = 0; i < n; i++) x[i] = clampd(10000 * exp(0.5 * gauss(&st))); }
GEN(g_lognorm2) { for (size_t i = 0; i < n; i++) x[i] = clampd(10000 * exp(2.0 * gauss(&st))); }
GEN(g_pareto) { for (size_t i = 0; i < n; i++) x[i] = clampd(1000 * pow(unif(&st), -1.0 / 1.1)); }
GEN(g_exponential) { for (size_t i = 0; i < n; i++) x[i] = clampd(-5000 * log(unif(&st))); }
GEN(g_bimodal) {
	for (size_t i = 0; i < n; i++)
		x[i] = ref_rng(&st) % 100 < 95 ? clampd(1000 + 20 * gauss(&st)) : clampd(5000 + 100 * gauss(&st));
}
GEN(g_spikes1) { for (size_t i = 0; i < n; i++) x[i] = i % 100 == 99 ? 20000 + ref_rng(&st) % 64 : 1000 + ref_rng(&st) % 16; }
GEN(g_spikes01) { for (size_t i = 0; i < n; i++) x[i] = i % 1000 == 999 ? 20000 + ref_rng(&st) % 64 : 1000 + ref_rng(&st) % 16; }
GEN(g_outlier) { for (size_t i = 0; i < n; i++) x[i] = 1000 + ref_rng(&st) % 16; if (n) x[n / 2] = 4000000000ull; }
GEN(g_outlier63) { for (size_t i = 0; i < n; i++) x[i] = 1000 + ref_rng(&st) % 16; if (n) x[n / 3] = 1ull << 63; }
GEN(g_step) { for (size_t i = 0; i < n; i++) x[i] = (i < n / 2 ? 1000 : 1500) + ref_rng(&st) % 8; }
GEN(g_drift) { for (size_t i = 0; i < n; i++) x[i] = 1000 + i * 1000 / (n ? n : 1) + ref_rng(&st) % 10; }
GEN(g_discrete) { static const uint64_t v[] = {1000, 1003, 1010, 2000}; for (size_t i = 0; i < n; i++) x[i] = v[ref_rng(&st) % 4]; }
GEN(g_singleton) { (void)st; for (size_t i = 0; i < n; i++) x[i] = 777; if (n) x[n - 1] = 123456; }
GEN(g_peak_bg) { for (size_t i = 0; i < n; i++) x[i] = ref_rng(&st) % 10 < 7 ? clampd(5000 + 5 * gauss(&st)) : 1000 + ref_rng(&st) % 9000; }
GEN(g_uniform32) { for (size_t i = 0; i < n; i++) x[i] = ref_rng(&st) >> 32; }
GEN(g_bin_edges) {
	/* lower edges of m=6 and m=5 bins: t * 2^s, t in [32, 128) */
	for (size_t i = 0; i < n; i++)
		x[i] = (32 + ref_rng(&st) % 96) << (6 + ref_rng(&st) % 3);
}
GEN(g_pow2) { for (size_t i = 0; i < n; i++) x[i] = 1ull << (8 + ref_rng(&st) % 4); }
GEN(g_full64) {
	for (size_t i = 0; i < n; i++)
		x[i] = i % 50 == 7 ? (1ull << 63) + (ref_rng(&st) >> 1) : ref_rng(&st);
}
GEN(g_wide64) { for (size_t i = 0; i < n; i++) x[i] = ref_rng(&st) >> (ref_rng(&st) % 64); }

const struct dist stats_dists[] = {
	{"const-0", g_const0}, {"const-2^32-1", g_const32}, {"ascending", g_ascending},
	{"descending", g_descending}, {"uniform-1k", g_uniform}, {"normal-narrow", g_normal},
	{"lognormal-s0.5", g_lognorm05}, {"lognormal-s2", g_lognorm2}, {"pareto-a1.1", g_pareto},
	{"exponential", g_exponential}, {"bimodal-95/5", g_bimodal}, {"spikes-1%", g_spikes1},
	{"spikes-0.1%", g_spikes01}, {"one-outlier-4e9", g_outlier}, {"one-outlier-2^63", g_outlier63},
	{"step-change", g_step}, {"drift", g_drift}, {"discrete-4", g_discrete},
	{"singleton", g_singleton}, {"peak-on-uniform", g_peak_bg}, {"uniform-32bit", g_uniform32},
	{"bin-edges", g_bin_edges}, {"powers-of-2", g_pow2}, {"full-64bit", g_full64},
	{"wide-64bit", g_wide64},
};
const size_t stats_n_dists = sizeof stats_dists / sizeof stats_dists[0];

const struct qcheck stats_qs[] = {
	{50, 100, "p50"}, {90, 100, "p90"}, {99, 100, "p99"}, {999, 1000, "p99.9"},
	{1, 1000, "p0.1"}, {1, 100, "p1"}, {1, 4, "p25"}, {3, 4, "p75"},
	{9999, 10000, "p99.99"}, {1, 1, "p100"}, {1, 3, "p33.3"},
};
const size_t stats_n_qs = sizeof stats_qs / sizeof stats_qs[0];

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static uint64_t ref_quantile(const uint64_t *sorted, size_t n, uint64_t num, uint64_t den)
{
	u128 c = ((u128)num * n + den - 1) / den;
	if (c < 1)
		c = 1;
	if (c > n)
		c = n;
	return sorted[(size_t)c - 1];
}

static u128 round_div(u128 a, u128 d)
{
	return (2 * a + d) / (2 * d);
}

int ref_depth(const struct bm_stats *s, uint64_t v)
{
	int e = v ? 63 - __builtin_clzll(v) : 0;
	return s->top == 0xff ? 0 : (int)s->top - e;
}

uint64_t ref_bin_count(const struct bm_stats *s, unsigned i)
{
	return bm_st_count_get(s, i);
}

int ref_same_bins(const struct bm_stats *a, const struct bm_stats *b)
{
	if (!a->tail_len || !b->tail_len) { /* exact mode: the same values and counts (kept in the
	                                     * order they came) */
		if (a->tail_len != b->tail_len || a->ex_m != b->ex_m || a->ex_n != b->ex_n)
			return 0;
		for (unsigned i = 0; i < a->ex_m; i++) {
			unsigned j = 0;
			while (j < b->ex_m && b->tail[j] != a->tail[i])
				j++;
			if (j == b->ex_m || b->ex_count[j] != a->ex_count[i])
				return 0;
		}
		return 1;
	}
	if (a->top != b->top || a->wide != b->wide || a->spill_len != b->spill_len)
		return 0;
	for (unsigned i = 0; i < (a->wide ? 339u : BM_STATS_SLOTS16); i++)
		if (ref_bin_count(a, i) != ref_bin_count(b, i))
			return 0;
	return 1;
}

/* The bound each band of the histogram promises (docs/statistics.md): 46 bins per octave for the
 * 13 octaves below the top, 23 for the next (and for the 12 below the top with 32-bit counts). */
static uint32_t band_limit_ppm(const struct bm_stats *s, int depth)
{
	if (!s->wide && depth <= 12)
		return 7979;
	if ((!s->wide && depth == 13) || (s->wide && depth <= 11))
		return 15818;
	return UINT32_MAX;
}

static void feed(struct bm_stats *s, const uint64_t *x, size_t n)
{
	bm_stats_init(s);
	for (size_t i = 0; i < n; i++)
		bm_stats_add(s, x[i]);
}

/* As the harness feeds its samples: each run of equal values as one sample and then the rest
 * of the run in one bm_stats_add_n (which must leave the state n single adds leave). `chunk`
 * caps a run (so runs of one value also arrive split, as the harness's quarters split them). */
static void feed_runs(struct bm_stats *s, const uint64_t *x, size_t n, size_t chunk)
{
	bm_stats_init(s);
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && x[j] == x[i] && j - i < chunk)
			j++;
		bm_stats_add(s, x[i]);
		if (j - i > 1)
			bm_stats_add_n(s, x[i], j - i - 1);
		i = j;
	}
}

void ref_check_case(const char *name, const uint64_t *x, size_t n, struct case_result *res, int verbose)
{
	int before = bm_test_failures;
	memset(res, 0, sizeof *res);
	uint64_t *sorted = malloc((n ? n : 1) * sizeof *sorted);
	uint64_t *work = malloc((n ? n : 1) * sizeof *work);
	memcpy(sorted, x, n * sizeof *x);
	qsort(sorted, n, sizeof *sorted, cmp_u64);
	static struct bm_stats s, t, a, b;
	feed(&s, x, n);
	{
		struct bm_stats_report rr;
		bm_stats_report(&s, 1, &rr);
		res->bins_per_octave = rr.bins_per_octave;
		res->flags = rr.flags;
	}
	BM_CHECK(sizeof s <= 2048);

	/* quantiles against the exact nearest rank */
	for (size_t k = 0; k < stats_n_qs; k++) {
		struct bm_quantile q;
		bm_stats_quantile(&s, stats_qs[k].num, stats_qs[k].den, 1, &q);
		if (!n)
			continue;
		uint64_t e = ref_quantile(sorted, n, stats_qs[k].num, stats_qs[k].den);
		u128 diff = q.raw > e ? q.raw - e : e - q.raw;
		res->exact_v[k] = e;
		res->got_v[k] = q.raw;
		res->bound[k] = q.bound_ppm;
		res->err[k] = e ? (double)diff / (double)e : (diff ? 1e9 : 0);
		if (q.exact)
			BM_CHECK_EQ_U64(q.raw, e);
		BM_CHECK(q.exact == (q.bound_ppm == 0));
		BM_CHECK(diff * 1000000u <= (u128)q.bound_ppm * e);
		/* what the answer's band promises: 0.80% in the top 13 octaves, 1.59% in the next */
		res->band[k] = q.exact ? -1 : ref_depth(&s, e);
		BM_CHECK(q.exact || q.bound_ppm <= band_limit_ppm(&s, res->band[k]));
		/* the exact tail: rank among the K largest => exact */
		u128 rank = ((u128)stats_qs[k].num * n + stats_qs[k].den - 1) / stats_qs[k].den;
		if (rank < 1)
			rank = 1;
		if (rank > n)
			rank = n;
		if (n - rank < BM_STATS_TOPK || rank == 1)
			BM_CHECK(q.exact);
		if (bm_test_failures != before && verbose) {
			printf("  [%s n=%zu %s] exact=%" PRIu64 " got=%" PRIu64 " bound=%u depth=%d wide=%u\n", name,
			       n, stats_qs[k].label, e, q.raw, q.bound_ppm, ref_depth(&s, e), s.wide);
			before = bm_test_failures;
		}
	}
	if (n < 100 * (size_t)BM_STATS_TOPK && n) {
		struct bm_quantile q;
		bm_stats_quantile(&s, 99, 100, 1, &q);
		BM_CHECK(q.exact);
	}
	if (n < 1000 * (size_t)BM_STATS_TOPK && n) {
		struct bm_quantile q;
		bm_stats_quantile(&s, 999, 1000, 1, &q);
		BM_CHECK(q.exact);
	}

	/* moments, exact */
	struct bm_stats_report r, r2;
	for (uint64_t div = 1; div <= 7; div += 6) {
		bm_stats_report(&s, div, &r);
		BM_CHECK_EQ_U64(r.n, n);
		if (!n)
			break;
		u128 s1 = 0;
		long double mean = 0;
		for (size_t i = 0; i < n; i++)
			s1 += x[i];
		mean = (long double)s1 / n;
		u128 mm = round_div((u128)sorted[0] * 1000, div);
		BM_CHECK_EQ_U128(r.min_milli, mm);
		mm = round_div((u128)sorted[n - 1] * 1000, div);
		BM_CHECK_EQ_U128(r.max_milli, mm);
		if (s1 < ((u128)1 << 100)) {
			u128 m = round_div(s1 * 1000, (u128)n * div);
			BM_CHECK_EQ_U128(r.mean_milli, m);
		}
		if (n >= 2) {
			/* N*S2 - S1^2 = sum (N x_i - S1)^2 / N, two-pass in long double, or exact */
			int small = sorted[n - 1] < (1ull << 32) && n <= 1000000;
			if (small) {
				u128 s2 = 0;
				for (size_t i = 0; i < n; i++)
					s2 += (u128)x[i] * x[i];
				u128 v = n * s2 - s1 * s1; /* < 2^104 */
				/* stddev_milli = round(sqrt(V*1e6 / (N(N-1)div^2))): 4X >= (2r-1)^2 D, 4X < (2r+1)^2 D */
				u128 X = v * 1000000u, D = (u128)n * (n - 1) * div * div, rr = U(r.stddev_milli);
				BM_CHECK(4 * X < (2 * rr + 1) * (2 * rr + 1) * D);
				BM_CHECK(rr == 0 || 4 * X >= (2 * rr - 1) * (2 * rr - 1) * D);
			}
			long double acc = 0;
			for (size_t i = 0; i < n; i++) {
				long double d = (long double)x[i] - mean;
				acc += d * d;
			}
			long double sd = sqrtl(acc / (n - 1)); /* undivided */
			long double sdm = sd * 1000 / div;
			BM_CHECK(fabsl(sdm - (long double)U(r.stddev_milli)) <= 1 + sdm * 1e-12L);
			if (mean > 0) {
				long double cv = sd / mean * 1e6L;
				BM_CHECK(fabsl(cv - (long double)r.cv_ppm) <= 1 + cv * 1e-12L);
			}
		}
	}

	/* Tukey fences: outlier counts against an exact count outside the reported fences */
	bm_stats_report(&s, 1, &r);
	if (n) {
		uint64_t lo = 0, hi = 0;
		for (size_t i = 0; i < n; i++) {
			u128 v = (u128)x[i] * 1000;
			lo += v < U(r.fence_lo_milli);
			hi += v > U(r.fence_hi_milli);
		}
		uint64_t dlo = lo > r.outliers_lo ? lo - r.outliers_lo : r.outliers_lo - lo;
		uint64_t dhi = hi > r.outliers_hi ? hi - r.outliers_hi : r.outliers_hi - hi;
		BM_CHECK(dlo + dhi <= r.outliers_uncertain);
		if (verbose && dlo + dhi > r.outliers_uncertain)
			printf("  [%s n=%zu] tukey lo %" PRIu64 "/%" PRIu64 " hi %" PRIu64 "/%" PRIu64 " unc %" PRIu64 "\n",
			       name, n, lo, r.outliers_lo, hi, r.outliers_hi, r.outliers_uncertain);
	}

	/* at most K distinct values: the exact mode's, every answer exact and Tukey's counts counts */
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++)
		distinct += i == 0 || sorted[i] != sorted[i - 1];
	if (n && n <= UINT32_MAX && distinct <= BM_STATS_TOPK) {
		for (size_t k = 0; k < stats_n_qs; k++)
			BM_CHECK(res->bound[k] == 0 && res->got_v[k] == res->exact_v[k]);
		uint64_t lo = 0, hi = 0;
		for (size_t i = 0; i < n; i++) {
			u128 v = (u128)x[i] * 1000;
			lo += v < U(r.fence_lo_milli);
			hi += v > U(r.fence_hi_milli);
		}
		BM_CHECK(r.outliers_uncertain == 0 && r.outliers_lo == lo && r.outliers_hi == hi);
		BM_CHECK(r.filtered_mean_exact && !(r.flags & BM_STATS_F_COARSENED));
		if (verbose && (r.outliers_lo != lo || r.outliers_hi != hi))
			printf("  [%s n=%zu] exact tukey lo %" PRIu64 "/%" PRIu64 " hi %" PRIu64 "/%" PRIu64 "\n", name, n,
			       lo, r.outliers_lo, hi, r.outliers_hi);
	}

	/* order independence: shuffled, ascending, descending give byte-identical reports */
	memcpy(work, x, n * sizeof *x);
	ref_shuffle(work, n, 12345);
	feed(&t, work, n);
	bm_stats_report(&t, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);
	BM_CHECK(ref_same_bins(&t, &s));
	feed(&t, sorted, n);
	bm_stats_report(&t, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);
	for (size_t i = 0; i < n; i++)
		work[i] = sorted[n - 1 - i];
	feed(&t, work, n);
	bm_stats_report(&t, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);

	/* runs through bm_stats_add_n: in the given order, sorted (the longest runs: past 2^16 and
	 * past the switch to 32-bit counts in the big cases), and sorted in chunks of 1000 */
	feed_runs(&t, x, n, SIZE_MAX);
	bm_stats_report(&t, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);
	BM_CHECK(ref_same_bins(&t, &s));
	feed_runs(&t, sorted, n, SIZE_MAX);
	bm_stats_report(&t, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);
	BM_CHECK(ref_same_bins(&t, &s));
	feed(&a, sorted, n);
	BM_CHECK(memcmp(&t, &a, sizeof t) == 0); /* byte for byte the state of single adds */
	feed_runs(&t, sorted, n, 1000);
	bm_stats_report(&t, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);
	BM_CHECK(memcmp(&t, &a, sizeof t) == 0);

	/* merge: split in two (unequal) parts, merge, compare with one-shot */
	size_t cut = n / 3;
	feed(&a, x, cut);
	feed(&b, x + cut, n - cut);
	bm_stats_merge(&a, &b);
	bm_stats_report(&a, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);
	BM_CHECK(ref_same_bins(&a, &s));
	feed(&a, x, cut);
	bm_stats_merge(&b, &a);
	bm_stats_report(&b, 1, &r2);
	BM_CHECK(memcmp(&r, &r2, sizeof r) == 0);
	BM_CHECK(ref_same_bins(&b, &s));
	for (size_t k = 0; k < stats_n_qs; k++) {
		struct bm_quantile q1, q2;
		bm_stats_quantile(&s, stats_qs[k].num, stats_qs[k].den, 3, &q1);
		bm_stats_quantile(&b, stats_qs[k].num, stats_qs[k].den, 3, &q2);
		BM_CHECK(q1.raw == q2.raw && U(q1.value_milli) == U(q2.value_milli) && q1.exact == q2.exact &&
		         q1.bound_ppm == q2.bound_ppm);
	}
	if (bm_test_failures != before && verbose)
		printf("  [%s n=%zu] %d failed checks (top octave %u, wide %u)\n", name, n,
		       bm_test_failures - before, s.top, s.wide);
	res->failures = bm_test_failures - before;
	free(sorted);
	free(work);
}
