/* Statistics core, report time (see bm_stats_internal.h): nearest-rank quantiles from the tail or
 * the histogram with their error bounds, exact moments from the integer sums in wide arithmetic
 * (bm/wide.h), Tukey fences and the outlier summary. Never on the insert path; small code first. */
#include "bm/wide.h"
#include "bm_stats_internal.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Report time only, never timed: size first (the footprint target is 8 KB with the insert). */
#pragma GCC optimize("Os")
#endif

/* 1: wratio takes 128-bit arithmetic first for figures below 2^124 (native on 64-bit cores);
 * 0: every ratio takes the word arrays (32-bit cores: there the 128-bit path is itself word code
 * and 910 bytes on hifive1, for 0.05% of a run's instructions). The answers are the same either
 * way (tests/stats builds both). */
#ifndef BM_ST_U128_FAST
#if defined(__SIZEOF_INT128__)
#define BM_ST_U128_FAST 1
#else
#define BM_ST_U128_FAST 0
#endif
#endif
#define WN BM_WIDE_WORDS /* the largest intermediate (1e12 * N * (N*S2 - S1^2)) needs ~362 bits */

/* ---- wide helpers: in place on WN 32-bit words (no 56-byte values copied around) ----------- */

static struct bm_u128 u128_of(uint64_t lo, uint64_t hi)
{
	struct bm_u128 r = {lo, hi};
	return r;
}

static uint64_t sat64(struct bm_u128 v)
{
	return v.hi ? UINT64_MAX : v.lo;
}

/* a = lo + 2^64 hi */
BM_NO_LIBCALLS static void wset(uint32_t *a, uint64_t lo, uint64_t hi)
{
	for (unsigned i = 0; i < WN; i++)
		a[i] = 0;
	a[0] = (uint32_t)lo;
	a[1] = (uint32_t)(lo >> 32);
	a[2] = (uint32_t)hi;
	a[3] = (uint32_t)(hi >> 32);
}

/* r = a * b (b of nb words), truncated to WN words (r distinct from a and b). Over the words in
 * use only: a report's values are mostly a few words of the 14. */
static void wmulw(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned nb)
{
	unsigned na = WN;
	wset(r, 0, 0);
	while (nb && !b[nb - 1])
		nb--;
	while (na && !a[na - 1])
		na--;
	for (unsigned i = 0; i < na; i++) {
		uint64_t carry = 0;
		unsigned j = 0;
		for (; j < nb && i + j < WN; j++) {
			carry += (uint64_t)a[i] * b[j] + r[i + j];
			r[i + j] = (uint32_t)carry;
			carry >>= 32;
		}
		if (i + j < WN)
			r[i + j] = (uint32_t)carry; /* no row before this one reached that word */
	}
}

/* a *= m: in place by one word where m has one (every scale a report uses but 10^12) */
BM_NO_LIBCALLS static void wmul(uint32_t *a, uint64_t m)
{
	if (m >> 32) {
		uint32_t t[WN], mw[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
		wmulw(t, a, mw, 2);
		for (unsigned i = 0; i < WN; i++)
			a[i] = t[i];
		return;
	}
	uint64_t carry = 0;
	for (unsigned i = 0; i < WN; i++) {
		carry += (uint64_t)a[i] * (uint32_t)m;
		a[i] = (uint32_t)carry;
		carry >>= 32;
	}
}

/* a += 1 */
static void winc(uint32_t *a)
{
	for (unsigned i = 0; i < WN && !++a[i]; i++)
		;
}

/* The value, saturated to 2^128-1. */
static void w128(const uint32_t *a, struct bm_u128 *out)
{
	int big = 0;
	for (unsigned i = 4; i < WN; i++)
		big |= a[i] != 0;
	out->lo = big ? UINT64_MAX : (uint64_t)a[1] << 32 | a[0];
	out->hi = big ? UINT64_MAX : (uint64_t)a[3] << 32 | a[2];
}

#if BM_ST_U128_FAST
/* a < 2^124: then the rounding steps below stay under 2^128 (4a, and (2r+1)^2 d <= 8x + d). */
static bool small124(const uint32_t *a, struct bm_u128 *v)
{
	uint32_t big = a[3] >> 28;
	for (unsigned i = 4; i < WN; i++)
		big |= a[i];
	v->lo = (uint64_t)a[1] << 32 | a[0];
	v->hi = (uint64_t)a[3] << 32 | a[2];
	return big == 0;
}

/* a * b mod 2^128 (exact when the product is below 2^128) */
static struct bm_u128 mul128(struct bm_u128 a, struct bm_u128 b)
{
	struct bm_u128 p = bm_u128_mul64(a.lo, b.lo);
	p.hi += a.lo * b.hi + a.hi * b.lo;
	return p;
}
#endif

/* round(x / d), or round(sqrt(x / d)) with root, exactly (halves up); x and d are consumed. The
 * one division of every report figure, so each costs a call, not its own arithmetic. A run's
 * figures are mostly far below 2^124: those take 128-bit arithmetic, the same rounding. */
static void wratio(uint32_t *x, uint32_t *d, int root, struct bm_u128 *out)
{
	uint32_t q[WN], t[WN], t2[WN];
#if BM_ST_U128_FAST
	struct bm_u128 xs, ds;
	if (small124(x, &xs) && small124(d, &ds)) {
		if (!root) { /* floor((2x + d) / 2d) */
			xs = mul128(xs, bm_u128_from64(2));
			bm_u128_add(&xs, ds);
			*out = bm_u128_divmod(xs, mul128(ds, bm_u128_from64(2)), 0);
			return;
		}
		uint64_t r = bm_u128_isqrt(bm_u128_divmod(xs, ds, 0)); /* < 2^62 */
		struct bm_u128 s2 = bm_u128_mul64(2 * r + 1, 2 * r + 1);
		*out = bm_u128_from64(bm_u128_cmp(mul128(xs, bm_u128_from64(4)), mul128(s2, ds)) >= 0 ? r + 1 : r);
		return;
	}
#endif
	if (!root) { /* floor((2x + d) / 2d) */
		bm_wide_shl1(x, WN);
		bm_wide_add(x, d, WN);
		bm_wide_shl1(d, WN);
		bm_wide_divmod(q, 0, x, d, WN);
		w128(q, out);
		return;
	}
	bm_wide_divmod(t, 0, x, d, WN);
	bm_wide_isqrt(q, t, WN); /* floor(sqrt(floor(x/d))) = floor(sqrt(x/d)) */
	/* round up iff x/d >= (r + 1/2)^2, i.e. 4x >= (2r+1)^2 d */
	for (unsigned i = 0; i < WN; i++)
		t[i] = q[i];
	bm_wide_shl1(t, WN);
	winc(t);
	wmulw(t2, t, t, WN);
	wmulw(t, t2, d, WN);
	bm_wide_shl1(x, WN);
	bm_wide_shl1(x, WN);
	if (bm_wide_cmp(x, t, WN) >= 0)
		winc(q);
	w128(q, out);
}

/* round(v * m / div): the unit-carrying figures (m = 1000, or 500 for half units). */
static void scaled(uint64_t lo, uint64_t hi, uint64_t m, uint64_t div, struct bm_u128 *out)
{
	if (hi == 0 && m <= 1000 && div <= UINT32_MAX / 2) {
		/* The usual case (a 64-bit value, a batch size under 2^31): 128 bits are enough, and
		 * bm_u128_divmod divides by a 32-bit divisor natively. */
		struct bm_u128 x = bm_u128_mul64(lo, m); /* < 2^74 */
		x.hi = x.hi << 1 | x.lo >> 63;
		x.lo <<= 1;
		bm_u128_add64(&x, div);
		*out = bm_u128_divmod(x, bm_u128_from64(2 * div), 0);
		return;
	}
	uint32_t x[WN], d[WN];
	wset(x, lo, hi);
	wmul(x, m);
	wset(d, div, 0);
	wratio(x, d, 0, out);
}

void bm_st_totals(const struct bm_stats *s, struct bm_wide *s1, struct bm_wide *s2)
{
	uint32_t t[WN];
	/* sum_lo + 2^63 sum_hi and sq_lo + 2^64 sq_mid + 2^127 sq_top */
	wset(s1->w, s->sum_hi, 0);
	if (s->sum_hi) /* (mostly 0: then nothing to shift) */
		wmul(s1->w, 1ull << 63);
	wset(t, s->sum_lo, 0);
	bm_wide_add(s1->w, t, WN);
	wset(s2->w, s->sq_top, 0);
	if (s->sq_top) {
		wmul(s2->w, 1ull << 63);
		wmul(s2->w, 1ull << 63);
		bm_wide_shl1(s2->w, WN);
	}
	wset(t, s->sq_lo, s->sq_mid);
	bm_wide_add(s2->w, t, WN);
	/* The tail's K values: sums in 128 bits and squares in 192 (K < 2^63), added once; a value
	 * below 2^32 (most are) squares in one word. */
	struct bm_u128 t1 = {0, 0}, t2 = {0, 0};
	uint64_t t2_top = 0, small = 0, sq_lo = 0, sq_hi = 0; /* the values below 2^32: < 2^38, < 2^70 */
	for (unsigned j = 0; j < s->tail_len; j++) {
		uint64_t v = bm_st_tail_at(s, j);
		if (v >> 32 == 0) {
			uint64_t q = (uint64_t)(uint32_t)v * (uint32_t)v;
			small += v;
			sq_lo += q;
			sq_hi += sq_lo < q;
		} else {
			bm_u128_add64(&t1, v);
			t2_top += bm_u128_add(&t2, bm_u128_mul64(v, v));
		}
	}
	bm_u128_add64(&t1, small);
	t2_top += bm_u128_add(&t2, u128_of(sq_lo, sq_hi));
	wset(t, t1.lo, t1.hi);
	bm_wide_add(s1->w, t, WN);
	wset(t, t2.lo, t2.hi);
	t[4] = (uint32_t)t2_top;
	t[5] = (uint32_t)(t2_top >> 32);
	bm_wide_add(s2->w, t, WN);
}

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
	bm_u128_add(&num, u128_of(d.lo >> 1 | d.hi << 63, d.hi >> 1));
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
	else if (rank > hist_n)
		v = bm_st_tail_at(s, (unsigned)(rank - hist_n - 1));
	else if (rank == 1)
		v = s->min;
	else
		v = bin_rep(s, bin, &lo, &hi, &bound);
	q->raw = v;
	q->exact = bound == 0;
	q->bound_ppm = bound;
	struct bm_u128 m;
	scaled(v, 0, 1000, div ? div : 1, &m);
	q->value_milli = sat64(m);
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
 * six quantiles; a walk each was most of the report's time), from the top down: the histogram is
 * anchored at its top, so a run's samples sit in its last octaves and the walk ends early. Ranks
 * past the histogram (in the tail) take no walk; quantile_at reads them from the tail. */
static void bins_of_ranks(const struct bm_stats *s, const uint64_t *rank, unsigned k, unsigned *bin)
{
	uint64_t hist_n = bm_stats_count(s) - s->tail_len, above = 0;
	unsigned p = NBINS(s->wide), j = k;
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

void bm_stats_bin_range(const struct bm_stats *s, uint64_t value, uint64_t *lo, uint64_t *hi)
{
	unsigned e = value ? bm_st_msb64(value) : 0, top = s->top;
	if (top == EMPTY_TOP || e > top)
		top = e;
	bm_st_bin_range(s->wide, top, bm_st_bin_of(s->wide, top, value), lo, hi);
}

/* ---- report -------------------------------------------------------------------------------- */

/* Two-sided 95% Student t critical values x 10^4, by degrees of freedom. Between rows the
 * lower df's (larger, conservative) value applies; above the last row, 1.9600. */
static const uint16_t t95_df[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                                  21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 40, 50, 60, 80, 100, 120, 200, 500, 1000};
static const uint32_t t95_t[] = {
	127062, 43027, 31824, 27764, 25706, 24469, 23646, 23060, 22622, 22281, 22010, 21788, 21604,
	21448, 21314, 21199, 21098, 21009, 20930, 20860, 20796, 20739, 20687, 20639, 20595, 20555,
	20518, 20484, 20452, 20423, 20211, 20086, 20003, 19901, 19840, 19799, 19719, 19647, 19623,
};

static uint32_t t95_e4(uint64_t df)
{
	uint32_t t = 19600;
	for (unsigned i = 0; i < sizeof t95_df / sizeof t95_df[0] && t95_df[i] <= df; i++)
		t = t95_t[i];
	return df > 1000 ? 19600 : t;
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
	scaled(x.lo, x.hi, 500, div, &r->fence_lo_m);
	scaled(y.lo, y.hi, 500, div, &r->fence_hi_m);
	uint64_t lo_t = (x.lo >> 1 | x.hi << 63) + (x.lo & 1); /* ceil(X / 2) <= Q1 */
	uint64_t hi_t = y.hi >> 1 ? UINT64_MAX : y.lo >> 1 | y.hi << 63;
	/* Outliers: exact in the tail; histogram bins by their range (a bin straddling a fence is
	 * classified by its representative and counted as uncertain). */
	uint64_t out[2] = {0, 0}, unc = 0;
	uint32_t osum[WN], t[WN], d[WN];
	wset(osum, 0, 0);
	bool exact = true;
	unsigned nb = s->top == EMPTY_TOP ? 0 : NBINS(s->wide);
	for (unsigned i = bm_st_next_bin(s, bins_begin(s), nb); i < nb + s->tail_len;
	     i = i < nb ? bm_st_next_bin(s, i + 1, nb) : i + 1) {
		uint64_t c = 1, lo, hi, v;
		if (i < nb) {
			c = bm_st_count_get(s, i);
			/* A bin wholly inside the fences changes nothing here: skip its representative. */
			bm_st_bin_range(s->wide, s->top, i, &lo, &hi);
			if (lo >= lo_t && hi <= hi_t)
				continue;
			v = bin_rep(s, i, &lo, &hi, 0);
		} else {
			lo = hi = v = bm_st_tail_at(s, i - nb);
		}
		int below = v < lo_t, above = v > hi_t;
		int straddle = (lo < lo_t && hi >= lo_t) || (lo <= hi_t && hi > hi_t);
		unc += straddle ? c : 0;
		if (below || above) {
			out[above] += c;
			struct bm_u128 vc = bm_u128_mul64(v, c);
			wset(t, vc.lo, vc.hi);
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
		wset(t, 0, 0);
	wmul(t, 1000);
	wset(d, kept, 0);
	wmul(d, div);
	wratio(t, d, 0, &r->fmean_m);
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
	wset(d, n, 0);
	wmulw(v, s2->w, d, 2);
	wmulw(sq, s1->w, s1->w, WN);
	if (bm_wide_sub(v, sq, WN))
		wset(v, 0, 0);
	for (unsigned i = 0; i < WN; i++)
		x[i] = v[i];
	wmul(x, 1000000);
	wset(d, n, 0);
	wmul(d, n - 1);
	wmul(d, div);
	wmul(d, div);
	wratio(x, d, 1, &r->stddev_m);
	for (unsigned i = 0; i < WN; i++)
		x[i] = v[i];
	wmul(x, t * t);
	wset(d, n, 0);
	wmul(d, n);
	wmul(d, n - 1);
	wmul(d, div);
	wmul(d, div);
	wmul(d, 100);
	wratio(x, d, 1, &r->ci95_m);
	if (s1->w[0] | s1->w[1] | s1->w[2] | s1->w[3] | s1->w[4]) { /* S1 < 2^129 */
		wmul(v, 1000000000000ull);
		wmul(v, n);
		wmul(sq, n - 1);
		struct bm_u128 cv;
		wratio(v, sq, 1, &cv);
		r->cv_ppm = sat64(cv);
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
	r->bins_per_octave = s->wide ? PER(1) : PER(0);
	r->flags = s->flags | (coarsened(s) ? BM_STATS_F_COARSENED : 0);
	if (n == 0)
		return;
	r->min_raw = s->top != EMPTY_TOP ? s->min : bm_st_tail_at(s, 0);
	r->max_raw = bm_stats_max(s);
	struct bm_u128 m;
	scaled(r->min_raw, 0, 1000, div, &m);
	r->min_milli = sat64(m);
	scaled(r->max_raw, 0, 1000, div, &m);
	r->max_milli = sat64(m);
	/* Q1, P50, Q3, P90, P99, P99.9: ranks ascending, one walk (Q1 and Q3 undivided, for Tukey). */
	static const uint16_t num[6] = {1, 1, 3, 9, 99, 999}, den[6] = {4, 2, 4, 10, 100, 1000};
	uint64_t rank[6];
	unsigned bin[6];
	for (unsigned i = 0; i < 6; i++)
		rank[i] = rank_of(n, num[i], den[i]);
	bins_of_ranks(s, rank, 6, bin);
	struct bm_quantile q1, q3;
	quantile_at(s, rank[0], bin[0], 1, &q1);
	quantile_at(s, rank[1], bin[1], div, &r->p50);
	quantile_at(s, rank[2], bin[2], 1, &q3);
	quantile_at(s, rank[3], bin[3], div, &r->p90);
	quantile_at(s, rank[4], bin[4], div, &r->p99);
	quantile_at(s, rank[5], bin[5], div, &r->p999);

	struct bm_wide s1, s2;
	bm_st_totals(s, &s1, &s2);
	uint32_t x[WN], d[WN];
	for (unsigned i = 0; i < WN; i++)
		x[i] = s1.w[i];
	wmul(x, 1000);
	wset(d, n, 0);
	wmul(d, div);
	wratio(x, d, 0, &r->mean_m); /* mean = S1 / N */
	if (n >= 2 && !(s->flags & BM_STATS_F_SUM_SATURATED))
		moments(s, div, &s1, &s2, r);
	tukey(s, div, &s1, &q1, &q3, r);
	const struct bm_u128 *from[6] = {&r->mean_m, &r->stddev_m, &r->ci95_m, &r->fence_lo_m, &r->fence_hi_m, &r->fmean_m};
	uint64_t *to[6] = {&r->mean_milli, &r->stddev_milli, &r->ci95_milli, &r->fence_lo_milli, &r->fence_hi_milli,
	                   &r->filtered_mean_milli};
	for (int k = 0; k < 6; k++)
		*to[k] = from[k]->hi ? UINT64_MAX : from[k]->lo;
}
