/* Statistics core, report time (see bm_stats_internal.h): nearest-rank quantiles from the heap
 * or the histogram with their error bounds, exact moments from the integer sums in wide
 * arithmetic (bm/wide.h), Tukey fences and the outlier summary. */
#include "bm/wide.h"
#include "bm_stats_internal.h"

/* ---- report-time wide arithmetic (bm/wide.h) ---------------------------------------------- */

#define WN BM_WIDE_WORDS /* the largest intermediate (1e12 * N * (N*S2 - S1^2)) needs ~362 bits */

/* The sum of squares, sq_lo + 2^64 sq_mid + 2^127 sq_top. */
static struct bm_wide wide_sumsq(const struct bm_stats *s)
{
	struct bm_u128 lm = {s->sq_lo, s->sq_mid};
	struct bm_wide r = bm_wide_u128(lm), t = bm_wide_u64(s->sq_top);
	for (unsigned i = 0; i < 127; i++)
		bm_wide_shl1(t.w, WN);
	bm_wide_add(r.w, t.w, WN);
	return r;
}

/* round(a / d), halves up, saturating at UINT64_MAX. */
static uint64_t wide_div_round(const struct bm_wide *a, const struct bm_wide *d)
{
	struct bm_wide x = *a, y = *d, q;
	bm_wide_shl1(x.w, WN);
	bm_wide_add(x.w, d->w, WN);
	bm_wide_shl1(y.w, WN);
	bm_wide_divmod(q.w, 0, x.w, y.w, WN);
	return bm_wide_sat64(&q);
}

/* round(sqrt(x / d)) exactly (to nearest), saturating. */
static uint64_t wide_sqrt_ratio_round(const struct bm_wide *x, const struct bm_wide *d)
{
	struct bm_wide q, r, one = bm_wide_u64(1);
	bm_wide_divmod(q.w, 0, x->w, d->w, WN);
	bm_wide_isqrt(r.w, q.w, WN); /* floor(sqrt(floor(x/d))) = floor(sqrt(x/d)) */
	/* round up iff x/d >= (r + 1/2)^2, i.e. 4x >= (2r+1)^2 d */
	struct bm_wide t = r;
	bm_wide_shl1(t.w, WN);
	bm_wide_add(t.w, one.w, WN);
	struct bm_wide t2 = bm_wide_mul(&t, &t);
	t2 = bm_wide_mul(&t2, d);
	struct bm_wide x4 = *x;
	bm_wide_shl1(x4.w, WN);
	bm_wide_shl1(x4.w, WN);
	if (bm_wide_cmp(x4.w, t2.w, WN) >= 0)
		bm_wide_add(r.w, one.w, WN);
	return bm_wide_sat64(&r);
}

/* ---- quantiles ----------------------------------------------------------------------------- */

/* Nearest rank: smallest c with c * den >= num * n, clamped to [1, n]. */
static uint64_t rank_of(uint64_t n, uint64_t num, uint64_t den)
{
	if (den == 0 || num >= den)
		return n;
	struct bm_u128 rem, q = bm_u128_divmod(bm_u128_mul64(num, n), bm_u128_from64(den), &rem);
	uint64_t c = q.lo + (rem.lo || rem.hi);
	return c < 1 ? 1 : c > n ? n : c;
}

/* j-th largest (1-based) of the heap. */
static uint64_t heap_nth_largest(const struct bm_stats *s, unsigned j)
{
	for (unsigned i = 0; i < s->heap_len; i++) {
		uint64_t e = s->heap[i];
		unsigned gt = 0, eq = 0;
		for (unsigned k = 0; k < s->heap_len; k++) {
			gt += s->heap[k] > e;
			eq += s->heap[k] == e;
		}
		if (gt < j && j <= gt + eq)
			return e;
	}
	return s->heap[0];
}

/* ceil(1e6 * a / b), b != 0, saturating at UINT32_MAX. */
static uint32_t ceil_ppm(uint64_t a, uint64_t b)
{
	struct bm_u128 p = bm_u128_mul64(a, 1000000u);
	bm_u128_add64(&p, b - 1);
	struct bm_u128 q = bm_u128_divmod(p, bm_u128_from64(b), 0);
	return q.hi || q.lo > UINT32_MAX ? UINT32_MAX : (uint32_t)q.lo;
}

/* Value range of histogram bin i, clamped to what the exact extremes allow. */
static void pos_range(const struct bm_stats *s, unsigned i, uint64_t *lo, uint64_t *hi)
{
	bm_st_bin_range(&bm_st_geo[s->wide], s->e_top, i, lo, hi);
	if (*lo < s->min)
		*lo = s->min;
	if (s->heap_len && *hi > s->heap[0]) /* every histogram sample is <= the heap minimum */
		*hi = s->heap[0];
	if (*hi < *lo)
		*hi = *lo;
}

/* The representative of [lo, hi] that minimises the worst relative error (balances
 * (r-lo)/lo against (hi-r)/hi), and that worst error in ppm. */
static uint64_t representative(uint64_t lo, uint64_t hi, uint32_t *bound_ppm)
{
	if (lo == hi || lo == 0) {
		*bound_ppm = lo == hi ? 0 : UINT32_MAX;
		return lo;
	}
	uint64_t w = hi - lo;
	struct bm_u128 d = bm_u128_from64(lo);
	bm_u128_add64(&d, hi);
	struct bm_u128 num = bm_u128_mul64(w, lo), halfd = d;
	halfd.lo = (d.lo >> 1) | (d.hi << 63);
	halfd.hi = d.hi >> 1;
	bm_u128_add(&num, halfd);
	uint64_t r = lo + bm_u128_divmod(num, d, 0).lo;
	uint32_t a = ceil_ppm(r - lo, lo), b = ceil_ppm(hi - r, hi);
	*bound_ppm = a > b ? a : b;
	return r;
}

static uint64_t milli(uint64_t v, uint64_t div)
{
	return bm_muldiv64(v, 1000, div);
}

void bm_stats_quantile(const struct bm_stats *s, uint64_t num, uint64_t den, uint64_t div,
                       struct bm_quantile *q)
{
	if (div == 0)
		div = 1;
	q->value_milli = q->raw = 0;
	q->exact = false;
	q->bound_ppm = 0;
	uint64_t n = bm_stats_count(s);
	if (n == 0)
		return;
	uint64_t rank = rank_of(n, num, den), hist_n = n - s->heap_len;
	uint64_t v;
	uint32_t bound = 0;
	if (rank > hist_n) {
		v = heap_nth_largest(s, (unsigned)(n - rank + 1));
	} else if (rank == 1) {
		v = s->min;
	} else {
		uint64_t cum = 0;
		unsigned p = 0, last = bm_st_geo[s->wide].bins - 1;
		for (; p < last; p++) {
			cum += bm_st_count_get(s, p);
			if (cum >= rank)
				break;
		}
		uint64_t lo, hi;
		pos_range(s, p, &lo, &hi);
		v = representative(lo, hi, &bound);
	}
	q->raw = v;
	q->exact = bound == 0;
	q->bound_ppm = bound;
	q->value_milli = milli(v, div);
}

void bm_stats_bin_range(const struct bm_stats *s, uint64_t value, uint64_t *lo, uint64_t *hi)
{
	unsigned e = value ? bm_st_msb64(value) : 0, top = s->e_top;
	if (top == EMPTY_TOP || e > top)
		top = e;
	const struct layout *L = &bm_st_geo[s->wide];
	bm_st_bin_range(L, top, bm_st_bin_of(L, top, value), lo, hi);
}

/* True when some histogram sample sits below full resolution: 32-bit counts (23 bins per octave
 * at best), or a bin below the top band. */
static bool coarsened(const struct bm_stats *s)
{
	if (s->wide)
		return s->e_top != EMPTY_TOP;
	for (unsigned i = 1; i < bm_st_geo[0].band[0].start; i++)
		if (bm_st_count_get(s, i))
			return true;
	return false;
}

/* ---- report -------------------------------------------------------------------------------- */

/* Two-sided 95% Student t critical values x 10^4, by degrees of freedom. Between rows the
 * lower df's (larger, conservative) value applies; above the last row, 1.9600. */
static const struct {
	uint32_t df, t;
} t95[] = {
	{1, 127062}, {2, 43027}, {3, 31824}, {4, 27764}, {5, 25706}, {6, 24469}, {7, 23646},
	{8, 23060}, {9, 22622}, {10, 22281}, {11, 22010}, {12, 21788}, {13, 21604}, {14, 21448},
	{15, 21314}, {16, 21199}, {17, 21098}, {18, 21009}, {19, 20930}, {20, 20860}, {21, 20796},
	{22, 20739}, {23, 20687}, {24, 20639}, {25, 20595}, {26, 20555}, {27, 20518}, {28, 20484},
	{29, 20452}, {30, 20423}, {40, 20211}, {50, 20086}, {60, 20003}, {80, 19901}, {100, 19840},
	{120, 19799}, {200, 19719}, {500, 19647}, {1000, 19623},
};

static uint32_t t95_e4(uint64_t df)
{
	unsigned n = sizeof t95 / sizeof t95[0];
	if (df > t95[n - 1].df)
		return 19600;
	uint32_t t = t95[0].t;
	for (unsigned i = 0; i < n && t95[i].df <= df; i++)
		t = t95[i].t;
	return t;
}

/* Tukey fences in half units (2 * fence) from Q1 and Q3, and the outlier summary. */
/* 128-bit helpers for the Tukey fences: 5 Q - 3 Q and twice a sample need at most 68 bits, so
 * the wide type (and its stack) is kept for the one product that needs it. */
static struct bm_u128 u128_twice(uint64_t v)
{
	struct bm_u128 r = {v << 1, v >> 63};
	return r;
}

static struct bm_u128 u128_mul_small(struct bm_u128 a, uint64_t k)
{
	struct bm_u128 r = bm_u128_mul64(a.lo, k);
	r.hi += a.hi * k;
	return r;
}

/* Round-half-up a / d (d > 0, a < 2^126), saturating at 2^64-1: floor((2a + d) / 2d). */
static uint64_t u128_div_round(struct bm_u128 a, uint64_t d)
{
	struct bm_u128 x = a, y = bm_u128_from64(d);
	bm_u128_add(&x, a);
	bm_u128_add(&x, y);
	bm_u128_add(&y, y);
	struct bm_u128 q = bm_u128_divmod(x, y, 0);
	return q.hi ? UINT64_MAX : q.lo;
}

__attribute__((noinline)) static void tukey(const struct bm_stats *s, uint64_t div, struct bm_stats_report *r)
{
	struct bm_quantile q1, q3;
	bm_stats_quantile(s, 1, 4, 1, &q1);
	bm_stats_quantile(s, 3, 4, 1, &q3);
	/* 2*lo = 5 Q1 - 3 Q3 (0 when negative), 2*hi = 5 Q3 - 3 Q1 */
	struct bm_u128 a5 = bm_u128_mul64(q1.raw, 5), b3 = bm_u128_mul64(q3.raw, 3);
	struct bm_u128 lo2 = bm_u128_cmp(a5, b3) > 0 ? bm_u128_sub(a5, b3) : bm_u128_from64(0);
	struct bm_u128 hi2 = bm_u128_sub(bm_u128_mul64(q3.raw, 5), bm_u128_mul64(q1.raw, 3));
	r->fence_lo_milli = u128_div_round(u128_mul_small(lo2, 500), div);
	r->fence_hi_milli = u128_div_round(u128_mul_small(hi2, 500), div);

	/* Outliers: exact from the heap; histogram bins by their range (a bin straddling a fence
	 * is classified by its representative and counted as uncertain). */
	uint64_t out_lo = 0, out_hi = 0, unc = 0;
	struct bm_u128 out_sum = bm_u128_from64(0); /* <= the sum of all samples < 2^128 */
	bool exact = true;
	for (unsigned i = 0; i < s->heap_len; i++) {
		struct bm_u128 v2 = u128_twice(s->heap[i]);
		int below = bm_u128_cmp(v2, lo2) < 0, above = bm_u128_cmp(v2, hi2) > 0;
		if (below || above) {
			out_lo += below;
			out_hi += above;
			bm_u128_add(&out_sum, bm_u128_from64(s->heap[i]));
		}
	}
	if (s->e_top != EMPTY_TOP) {
		for (unsigned p = 0; p < bm_st_geo[s->wide].bins; p++) {
			uint64_t c = bm_st_count_get(s, p);
			if (!c)
				continue;
			uint64_t lo, hi;
			uint32_t bound;
			pos_range(s, p, &lo, &hi);
			uint64_t rep = representative(lo, hi, &bound);
			struct bm_u128 l2 = u128_twice(lo), h2 = u128_twice(hi), r2 = u128_twice(rep);
			int straddle = (bm_u128_cmp(l2, lo2) < 0 && bm_u128_cmp(h2, lo2) >= 0) ||
			               (bm_u128_cmp(l2, hi2) <= 0 && bm_u128_cmp(h2, hi2) > 0);
			int below = bm_u128_cmp(r2, lo2) < 0, above = bm_u128_cmp(r2, hi2) > 0;
			if (straddle)
				unc += c;
			if (below || above) {
				out_lo += below ? c : 0;
				out_hi += above ? c : 0;
				bm_u128_add(&out_sum, bm_u128_mul64(rep, c));
				if (lo != hi || straddle)
					exact = false;
			} else if (straddle) {
				exact = false;
			}
		}
	}
	r->outliers_lo = out_lo;
	r->outliers_hi = out_hi;
	r->outliers_uncertain = unc;
	r->filtered_mean_exact = exact;
	uint64_t kept = bm_stats_count(s) - out_lo - out_hi;
	if (kept == 0) {
		r->filtered_mean_milli = 0;
		return;
	}
	/* (S1 - outliers) * 1000 / (kept * div) needs more than 128 bits. */
	struct bm_u128 rest = bm_u128_cmp(s->sum, out_sum) >= 0 ? bm_u128_sub(s->sum, out_sum) : bm_u128_from64(0);
	struct bm_wide sum = bm_wide_u128(rest), d = bm_wide_u64(kept);
	sum = bm_wide_mul64(&sum, 1000);
	d = bm_wide_mul64(&d, div);
	r->filtered_mean_milli = wide_div_round(&sum, &d);
}

/* The second moments, one function each and not inlined: each builds the few 448-bit values it
 * needs, so their stack frames come one after another instead of adding up (RV32 boards have a
 * few KiB of stack). Report time only; V is recomputed each time. */

/* V = N*S2 - S1^2 = N(N-1) * sample variance, exact. */
BM_NO_LIBCALLS __attribute__((noinline)) static struct bm_wide variance_num(const struct bm_stats *s)
{
	struct bm_wide n = bm_wide_u64(bm_stats_count(s)), s1 = bm_wide_u128(s->sum), s2 = wide_sumsq(s);
	struct bm_wide v = bm_wide_mul(&n, &s2), sq = bm_wide_mul(&s1, &s1);
	if (bm_wide_sub(v.w, sq.w, WN))
		v = bm_wide_u64(0);
	return v;
}

/* N (N-1) div^2 */
BM_NO_LIBCALLS __attribute__((noinline)) static struct bm_wide nn1_div2(const struct bm_stats *s, uint64_t div)
{
	struct bm_wide n = bm_wide_u64(bm_stats_count(s)), nm1 = bm_wide_u64(bm_stats_count(s) - 1);
	struct bm_wide dv = bm_wide_u64(div);
	struct bm_wide nn1 = bm_wide_mul(&n, &nm1), div2 = bm_wide_mul(&dv, &dv);
	return bm_wide_mul(&nn1, &div2);
}

/* stddev_milli = sqrt(V * 10^6 / (N (N-1) div^2)) */
BM_NO_LIBCALLS __attribute__((noinline)) static uint64_t stddev_milli(const struct bm_stats *s, uint64_t div)
{
	struct bm_wide x = variance_num(s), d = nn1_div2(s, div);
	x = bm_wide_mul64(&x, 1000000);
	return wide_sqrt_ratio_round(&x, &d);
}

/* cv_ppm = 10^6 sqrt(N V / (N-1)) / S1 = sqrt(10^12 N V / ((N-1) S1^2)) */
BM_NO_LIBCALLS __attribute__((noinline)) static uint64_t cv_ppm(const struct bm_stats *s)
{
	struct bm_wide x = variance_num(s), d = bm_wide_u128(s->sum);
	x = bm_wide_mul64(&x, 1000000);
	x = bm_wide_mul64(&x, 1000000);
	x = bm_wide_mul64(&x, bm_stats_count(s));
	d = bm_wide_mul(&d, &d);
	d = bm_wide_mul64(&d, bm_stats_count(s) - 1);
	return wide_sqrt_ratio_round(&x, &d);
}

/* ci95_milli = t * stddev / sqrt(N) = sqrt(t_e4^2 V / (100 N^2 (N-1) div^2)) */
BM_NO_LIBCALLS __attribute__((noinline)) static uint64_t ci95_milli(const struct bm_stats *s, uint64_t div)
{
	uint64_t t = t95_e4(bm_stats_count(s) - 1);
	struct bm_wide x = variance_num(s), d = nn1_div2(s, div);
	x = bm_wide_mul64(&x, t * t);
	d = bm_wide_mul64(&d, bm_stats_count(s));
	d = bm_wide_mul64(&d, 100);
	return wide_sqrt_ratio_round(&x, &d);
}

BM_NO_LIBCALLS void bm_stats_report(const struct bm_stats *s, uint64_t div, struct bm_stats_report *r)
{
	uint8_t *z = (uint8_t *)r;
	for (size_t i = 0; i < sizeof *r; i++)
		z[i] = 0;
	if (div == 0)
		div = 1;
	uint64_t n = bm_stats_count(s);
	r->n = n;
	r->bins_per_octave = s->wide ? PER(1) : PER(0);
	r->flags = s->flags | (coarsened(s) ? BM_STATS_F_COARSENED : 0);
	if (n == 0)
		return;
	r->min_milli = milli(s->min, div);
	r->max_milli = milli(s->max, div);
	bm_stats_quantile(s, 1, 2, div, &r->p50);
	bm_stats_quantile(s, 9, 10, div, &r->p90);
	bm_stats_quantile(s, 99, 100, div, &r->p99);
	bm_stats_quantile(s, 999, 1000, div, &r->p999);

	struct bm_wide x = bm_wide_u128(s->sum), d = bm_wide_u64(n);
	/* mean = S1 / N */
	x = bm_wide_mul64(&x, 1000);
	d = bm_wide_mul64(&d, div);
	r->mean_milli = wide_div_round(&x, &d);
	if (n >= 2 && !(s->flags & BM_STATS_F_SUM_SATURATED)) {
		r->stddev_milli = stddev_milli(s, div);
		if (s->sum.lo || s->sum.hi)
			r->cv_ppm = cv_ppm(s);
		r->ci95_milli = ci95_milli(s, div);
	}
	tukey(s, div, r);
}
