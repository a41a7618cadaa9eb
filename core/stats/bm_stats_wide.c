/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics core, exact arithmetic of the report (see bm_stats_internal.h): in-place operations
 * on WN-word integers (448 bits: the largest intermediate, 1e12 * N * (N*S2 - S1^2), needs ~362),
 * the rounded ratios and square roots every figure is, the unit-scaled values, and the exact sums
 * of the histogram and the tail. Never on the insert path; small code first. */
#include "bm/wide.h"
#include "bm_stats_internal.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Report time only, never timed: size first. */
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

/* ---- wide helpers: in place on WN 32-bit words (no 56-byte values copied around) ----------- */

/* a = lo + 2^64 hi */
BM_NO_LIBCALLS void bm_st_wset(uint32_t *a, uint64_t lo, uint64_t hi)
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
void bm_st_wmulw(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned nb)
{
	unsigned na = WN;
	bm_st_wset(r, 0, 0);
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
BM_NO_LIBCALLS void bm_st_wmul(uint32_t *a, uint64_t m)
{
	if (m >> 32) {
		uint32_t t[WN], mw[2] = {(uint32_t)m, (uint32_t)(m >> 32)};
		bm_st_wmulw(t, a, mw, 2);
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
void bm_st_wratio(uint32_t *x, uint32_t *d, int root, struct bm_u128 *out)
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
	bm_st_wmulw(t2, t, t, WN);
	bm_st_wmulw(t, t2, d, WN);
	bm_wide_shl1(x, WN);
	bm_wide_shl1(x, WN);
	if (bm_wide_cmp(x, t, WN) >= 0)
		winc(q);
	w128(q, out);
}

/* round(v * m / div): the unit-carrying figures (m = 1000, or 500 for half units). */
void bm_st_scaled(uint64_t lo, uint64_t hi, uint64_t m, uint64_t div, struct bm_u128 *out)
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
	bm_st_wset(x, lo, hi);
	bm_st_wmul(x, m);
	bm_st_wset(d, div, 0);
	bm_st_wratio(x, d, 0, out);
}

void bm_st_totals(const struct bm_stats *s, struct bm_wide *s1, struct bm_wide *s2)
{
	if (!s->tail_len) {
		bm_st_ex_totals(s, s1, s2);
		return;
	}
	uint32_t t[WN];
	/* sum_lo + 2^63 sum_hi and sq_lo + 2^64 sq_mid + 2^127 sq_top */
	bm_st_wset(s1->w, s->sum_hi, 0);
	if (s->sum_hi) /* (mostly 0: then nothing to shift) */
		bm_st_wmul(s1->w, 1ull << 63);
	bm_st_wset(t, s->sum_lo, 0);
	bm_wide_add(s1->w, t, WN);
	bm_st_wset(s2->w, s->sq_top, 0);
	if (s->sq_top) {
		bm_st_wmul(s2->w, 1ull << 63);
		bm_st_wmul(s2->w, 1ull << 63);
		bm_wide_shl1(s2->w, WN);
	}
	bm_st_wset(t, s->sq_lo, s->sq_mid);
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
	t2_top += bm_u128_add(&t2, bm_st_u128_of(sq_lo, sq_hi));
	bm_st_wset(t, t1.lo, t1.hi);
	bm_wide_add(s1->w, t, WN);
	bm_st_wset(t, t2.lo, t2.hi);
	t[4] = (uint32_t)t2_top;
	t[5] = (uint32_t)(t2_top >> 32);
	bm_wide_add(s2->w, t, WN);
}
