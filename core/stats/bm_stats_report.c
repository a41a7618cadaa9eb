/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics core, report time (see bm_stats_internal.h): nearest-rank quantiles from the exact
 * values, or from the tail or the histogram with their error bounds, exact moments from the integer sums in wide arithmetic
 * (bm_stats_wide.c), Tukey fences and the outlier summary. Never on the insert path; small code
 * first. */
#include "bm/shared.h"
#include "bm/wide.h"
#include "bm_stats_internal.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Report time only, never timed: size first. */
#pragma GCC optimize("Os")
#endif

/* ---- quantiles ----------------------------------------------------------------------------- */

/* Nearest rank: smallest c with c * den >= num * n, clamped to [1, n]. */
static uint64_t rank_of(uint64_t n, uint64_t num, uint64_t den)
{
	if (den == 0 || num >= den)
		return n;
	struct bm_u128 rem, q = bm_u128_divmod(bm_u128_mul64(num, n), bm_u128_from64(den), &rem);
	uint64_t c = q.lo + (rem.lo || rem.hi);
	return c < 1 ? 1 : c;
}

/* ceil(1e6 * a / b), b != 0, saturating at UINT32_MAX. */
static uint32_t ceil_ppm(uint64_t a, uint64_t b)
{
	struct bm_u128 p = bm_u128_mul64(a, 1000000u);
	bm_u128_add64(&p, b - 1);
	struct bm_u128 q = bm_u128_divmod(p, bm_u128_from64(b), 0);
	return q.hi || q.lo > UINT32_MAX ? UINT32_MAX : (uint32_t)q.lo;
}

/* Bin i's value range clamped to what the exact extremes allow, and its representative: the
 * point that balances the worst relative error on both sides ((r-lo)/lo against (hi-r)/hi),
 * with that error in ppm (0: a one-value range, the answer is exact). */
static uint64_t bin_rep(const struct bm_stats *s, unsigned i, uint64_t *plo, uint64_t *phi, uint32_t *bound_ppm)
{
	uint64_t lo, hi;
	bm_st_bin_range(s->wide, s->top, i, &lo, &hi);
	if (lo < s->min)
		lo = s->min;
	if (s->tail_len && hi > bm_st_tail_at(s, 0)) /* every histogram sample is <= the tail's minimum */
		hi = bm_st_tail_at(s, 0);
	if (hi < lo)
		hi = lo;
	*plo = lo;
	*phi = hi;
	if (bound_ppm)
		*bound_ppm = 0;
	if (lo == hi)
		return lo;
	if (lo == 0) {
		if (bound_ppm)
			*bound_ppm = UINT32_MAX;
		return 0;
	}
	struct bm_u128 d = bm_u128_from64(lo), num = bm_u128_mul64(hi - lo, lo);
	bm_u128_add64(&d, hi);
	bm_u128_add(&num, bm_st_u128_of(d.lo >> 1 | d.hi << 63, d.hi >> 1));
	uint64_t r = lo + bm_u128_divmod(num, d, 0).lo;
	if (bound_ppm) { /* (NULL: only the representative is wanted, e.g. by the Tukey count) */
		uint32_t a = ceil_ppm(r - lo, lo), b = ceil_ppm(hi - r, hi);
		*bound_ppm = a > b ? a : b;
	}
	return r;
}

/* The value at `rank` (1-based) given the histogram bin the rank falls in (ignored when the rank
 * is in the tail or is the minimum). */
static void quantile_at(const struct bm_stats *s, uint64_t rank, unsigned bin, uint64_t div, struct bm_quantile *q)
{
	uint64_t n = bm_stats_count(s), v, hist_n = n - s->tail_len, lo, hi;
	uint32_t bound = 0;
	if (n == 0)
		v = 0;
	else if (!s->tail_len)
		v = bm_st_ex_val(s, bin); /* (bins_of_ranks: the value's index) */
	else if (rank > hist_n)
		v = bm_st_tail_at(s, (unsigned)(rank - hist_n - 1));
	else if (rank == 1)
		v = s->min;
	else
		v = bin_rep(s, bin, &lo, &hi, &bound);
	q->raw = v;
	q->exact = bound == 0;
	q->bound_ppm = bound;
	bm_st_scaled(v, 0, 1000, div ? div : 1, &q->value_milli);
}

/* The first bin that can hold a histogram sample (the minimum's: the bins below it are empty),
 * and one past the last (the tail's minimum's: no histogram sample is above it), so that the
 * walks over the bins skip a run's empty octaves. With a histogram, the tail is full. */
static unsigned bins_begin(const struct bm_stats *s)
{
	return s->top == EMPTY_TOP ? 0 : bm_st_bin_of(s->wide, s->top, s->min);
}

static unsigned bins_end(const struct bm_stats *s)
{
	uint64_t t = bm_st_tail_at(s, 0);
	if (s->top == EMPTY_TOP)
		return 0;
	return t && bm_st_msb64(t) > s->top ? NBINS(s->wide) : bm_st_bin_of(s->wide, s->top, t) + 1u;
}

/* The histogram bins that ascending ranks fall in, in one walk over the bins (a report asks for
 * six quantiles; a walk each would be most of the report's time), from the top down: the histogram is
 * anchored at its top, so a run's samples sit in its last octaves and the walk ends early. Ranks
 * past the histogram (in the tail) take no walk; quantile_at reads them from the tail. In exact
 * mode: the index of each rank's value. */
static void bins_of_ranks(const struct bm_stats *s, const uint64_t *rank, unsigned k, unsigned *bin)
{
	uint64_t hist_n = bm_stats_count(s) - s->tail_len, above = 0;
	unsigned p = NBINS(s->wide), j = k;
	if (!s->tail_len) { /* exact mode: the values' indices */
		bm_st_ex_ranks(s, rank, k, bin);
		return;
	}
	while (j > 0 && rank[j - 1] > hist_n)
		bin[--j] = p - 1u;
	if (j > 0)
		p = bins_end(s);
	/* Rank r is in bin p when the samples below p number fewer than r: hist_n - above < r,
	 * with `above` counting bin p and every bin over it. */
	while (j > 0 && p > 0) {
		above += bm_st_count_get(s, --p);
		while (j > 0 && hist_n - above < rank[j - 1])
			bin[--j] = p;
	}
	while (j > 0)
		bin[--j] = 0;
}

void bm_stats_quantile(const struct bm_stats *s, uint64_t num, uint64_t den, uint64_t div,
                       struct bm_quantile *q)
{
	uint64_t rank = rank_of(bm_stats_count(s), num, den);
	unsigned bin;
	bins_of_ranks(s, &rank, 1, &bin);
	quantile_at(s, rank, bin, div, q);
}

/* ---- report -------------------------------------------------------------------------------- */

/* Two-sided 95% Student t x 10^4 at df degrees of freedom: between the table's rows the lower df's
 * (larger, conservative) value, above its last BM_T95_LIMIT (bm/shared.h). */
static uint32_t t95_e4(uint64_t df)
{
	static const uint16_t t95_df[BM_T95_ROWS] = BM_T95_DF;
	static const uint32_t t95_t[BM_T95_ROWS] = BM_T95_E4;
	uint32_t t = BM_T95_LIMIT;
	for (unsigned i = 0; i < BM_T95_ROWS && t95_df[i] <= df; i++)
		t = t95_t[i];
	return df > t95_df[BM_T95_ROWS - 1] ? BM_T95_LIMIT : t;
}

/* Tukey fences (Q1 - 1.5 IQR, Q3 + 1.5 IQR) and the outlier summary. A value v is below the low
 * fence iff 2v < 5 Q1 - 3 Q3 =: X, i.e. v < ceil(X / 2), and above the high one iff
 * 2v > 5 Q3 - 3 Q1 =: Y, i.e. v > floor(Y / 2): two 64-bit thresholds (X <= 2 Q1; Y / 2 past
 * 2^64 means nothing is above). */
__attribute__((noinline)) static void tukey(const struct bm_stats *s, uint64_t div, const struct bm_wide *s1,
                                            const struct bm_quantile *pq1, const struct bm_quantile *pq3,
                                            struct bm_stats_report *r)
{
	struct bm_quantile q1 = *pq1, q3 = *pq3;
	struct bm_u128 a5 = bm_u128_mul64(q1.raw, 5), b3 = bm_u128_mul64(q3.raw, 3), x, y;
	x = bm_u128_cmp(a5, b3) > 0 ? bm_u128_sub(a5, b3) : bm_u128_from64(0);
	y = bm_u128_sub(bm_u128_mul64(q3.raw, 5), bm_u128_mul64(q1.raw, 3));
	bm_st_scaled(x.lo, x.hi, 500, div, &r->fence_lo_milli);
	bm_st_scaled(y.lo, y.hi, 500, div, &r->fence_hi_milli);
	uint64_t lo_t = (x.lo >> 1 | x.hi << 63) + (x.lo & 1); /* ceil(X / 2) <= Q1 */
	uint64_t hi_t = y.hi >> 1 ? UINT64_MAX : y.lo >> 1 | y.hi << 63;
	/* Outliers: exact values and the tail exactly; histogram bins by their range (a bin
	 * straddling a fence is classified by its representative and counted as uncertain). */
	uint64_t out[2] = {0, 0}, unc = 0;
	uint32_t osum[WN], t[WN], d[WN];
	bm_st_wset(osum, 0, 0);
	bool exact = true;
	unsigned nb = s->top == EMPTY_TOP ? 0 : NBINS(s->wide), nx = s->tail_len ? s->tail_len : s->ex_m;
	for (unsigned i = bm_st_next_bin(s, bins_begin(s), nb); i < nb + nx;
	     i = i < nb ? bm_st_next_bin(s, i + 1, nb) : i + 1) {
		uint64_t c = 1, lo, hi, v;
		if (i < nb) {
			c = bm_st_count_get(s, i);
			/* A bin wholly inside the fences changes nothing here: skip its representative. */
			bm_st_bin_range(s->wide, s->top, i, &lo, &hi);
			if (lo >= lo_t && hi <= hi_t)
				continue;
			v = bin_rep(s, i, &lo, &hi, 0);
		} else if (s->tail_len) {
			lo = hi = v = bm_st_tail_at(s, i - nb);
		} else {
			lo = hi = v = bm_st_ex_val(s, i);
			c = s->ex_count[i];
		}
		int below = v < lo_t, above = v > hi_t;
		int straddle = (lo < lo_t && hi >= lo_t) || (lo <= hi_t && hi > hi_t);
		unc += straddle ? c : 0;
		if (below || above) {
			out[above] += c;
			struct bm_u128 vc = bm_u128_mul64(v, c);
			bm_st_wset(t, vc.lo, vc.hi);
			bm_wide_add(osum, t, WN);
		}
		if (straddle || ((below || above) && lo != hi))
			exact = false;
	}
	r->outliers_lo = out[0];
	r->outliers_hi = out[1];
	r->outliers_uncertain = unc;
	r->filtered_mean_exact = exact;
	uint64_t kept = bm_stats_count(s) - out[0] - out[1];
	if (kept == 0)
		return;
	/* (S1 - outliers) * 1000 / (kept * div) */
	for (unsigned i = 0; i < WN; i++)
		t[i] = s1->w[i];
	if (bm_wide_sub(t, osum, WN))
		bm_st_wset(t, 0, 0);
	bm_st_wmul(t, 1000);
	bm_st_wset(d, kept, 0);
	bm_st_wmul(d, div);
	bm_st_wratio(t, d, 0, &r->filtered_mean_milli);
}

/* The second moments: V = N*S2 - S1^2 = N(N-1) * sample variance (exact), then
 * stddev = sqrt(V 10^6 / (N (N-1) div^2)), ci95 = t stddev / sqrt(N)
 * = sqrt(t_e4^2 V / (100 N^2 (N-1) div^2)) and cv = sqrt(10^12 N V / ((N-1) S1^2)). Not inlined,
 * so its frame (a few 448-bit values) does not add to the report's (RV32 boards have a few KiB). */
__attribute__((noinline)) static void moments(const struct bm_stats *s, uint64_t div, const struct bm_wide *s1,
                                              const struct bm_wide *s2, struct bm_stats_report *r)
{
	uint64_t n = bm_stats_count(s), t = t95_e4(n - 1);
	uint32_t v[WN], x[WN], d[WN], sq[WN];
	bm_st_wset(d, n, 0);
	bm_st_wmulw(v, s2->w, d, 2);
	bm_st_wmulw(sq, s1->w, s1->w, WN);
	if (bm_wide_sub(v, sq, WN))
		bm_st_wset(v, 0, 0);
	for (unsigned i = 0; i < WN; i++)
		x[i] = v[i];
	bm_st_wmul(x, 1000000);
	bm_st_wset(d, n, 0);
	bm_st_wmul(d, n - 1);
	bm_st_wmul(d, div);
	bm_st_wmul(d, div);
	bm_st_wratio(x, d, 1, &r->stddev_milli);
	for (unsigned i = 0; i < WN; i++)
		x[i] = v[i];
	bm_st_wmul(x, t * t);
	bm_st_wset(d, n, 0);
	bm_st_wmul(d, n);
	bm_st_wmul(d, n - 1);
	bm_st_wmul(d, div);
	bm_st_wmul(d, div);
	bm_st_wmul(d, 100);
	bm_st_wratio(x, d, 1, &r->ci95_milli);
	if (s1->w[0] | s1->w[1] | s1->w[2] | s1->w[3] | s1->w[4]) { /* S1 < 2^129 */
		bm_st_wmul(v, 1000000000000ull);
		bm_st_wmul(v, n);
		bm_st_wmul(sq, n - 1);
		struct bm_u128 cv;
		bm_st_wratio(v, sq, 1, &cv);
		r->cv_ppm = bm_st_sat64(cv);
	}
}

/* True when some histogram sample sits below full resolution: 32-bit counts (23 bins per octave
 * at best), or a bin below the top 13 octaves (bins 1..83 of the 16-bit layout). */
static bool coarsened(const struct bm_stats *s)
{
	if (s->top == EMPTY_TOP)
		return false;
	if (s->wide)
		return true;
	unsigned from = bins_begin(s);
	return from < 84 && bm_st_next_bin(s, from ? from : 1, 84) < 84;
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
	r->div = div;
	r->bins_per_octave = n > BM_STATS_U16_MAX_N ? PER(1) : PER(0); /* (wide follows n) */
	r->flags = s->flags | (coarsened(s) ? BM_STATS_F_COARSENED : 0);
	if (n == 0)
		return;
	bm_st_scaled(!s->tail_len || s->top != EMPTY_TOP ? s->min : bm_st_tail_at(s, 0), 0, 1000, div, &r->min_milli);
	bm_st_scaled(bm_stats_max(s), 0, 1000, div, &r->max_milli);
	/* The reported quantiles and Tukey's quartiles: ranks ascending, one walk (bm/shared.h; Q1 and
	 * Q3 undivided). */
	static const uint16_t num[BM_RANKS] = BM_RANKS_NUM, den[BM_RANKS] = BM_RANKS_DEN;
	uint64_t rank[BM_RANKS];
	unsigned bin[BM_RANKS];
	for (unsigned i = 0; i < BM_RANKS; i++)
		rank[i] = rank_of(n, num[i], den[i]);
	bins_of_ranks(s, rank, BM_RANKS, bin);
	struct bm_quantile q1, q3;
	quantile_at(s, rank[BM_RANK_Q1], bin[BM_RANK_Q1], 1, &q1);
	quantile_at(s, rank[BM_RANK_Q3], bin[BM_RANK_Q3], 1, &q3);
#define Q_AT(name, num_, den_, i) quantile_at(s, rank[i], bin[i], div, &r->name);
	BM_QUANTILE_LIST(Q_AT)
#undef Q_AT

	struct bm_wide s1, s2;
	bm_st_totals(s, &s1, &s2);
	r->sum = bm_st_u128_of((uint64_t)s1.w[1] << 32 | s1.w[0], (uint64_t)s1.w[3] << 32 | s1.w[2]);
	uint32_t x[WN], d[WN];
	for (unsigned i = 0; i < WN; i++)
		x[i] = s1.w[i];
	bm_st_wmul(x, 1000);
	bm_st_wset(d, n, 0);
	bm_st_wmul(d, div);
	bm_st_wratio(x, d, 0, &r->mean_milli); /* mean = S1 / N */
	if (n >= 2 && !(s->flags & BM_STATS_F_SUM_SATURATED))
		moments(s, div, &s1, &s2, r);
	tukey(s, div, &s1, &q1, &q3, r);
}
