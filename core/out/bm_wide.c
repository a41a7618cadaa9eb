/* SPDX-License-Identifier: Apache-2.0 */
/* Report-time wide arithmetic (see bm/wide.h): division and digit-by-digit square root over
 * arrays of 32-bit words. A one-word divisor divides word by word with native 64/32 divisions
 * (libgcc's on 32-bit cores, which the formatter links anyway); otherwise shift and subtract over
 * the words in use. The 128-bit entry points have their own fast paths. */
#include "bm/wide.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Report time only, never timed: size first, as the statistics' report (the footprint target). */
#pragma GCC optimize("Os")
#endif

#ifdef __GNUC__
/* Keep GCC from turning the word loops into memset/memcpy calls (there may be no libc). */
#define NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define NO_LIBCALLS
#endif

static void from128(uint32_t w[4], struct bm_u128 v)
{
	w[0] = (uint32_t)v.lo;
	w[1] = (uint32_t)(v.lo >> 32);
	w[2] = (uint32_t)v.hi;
	w[3] = (uint32_t)(v.hi >> 32);
}

static struct bm_u128 to128(const uint32_t w[4])
{
	struct bm_u128 r = {(uint64_t)w[1] << 32 | w[0], (uint64_t)w[3] << 32 | w[2]};
	return r;
}

unsigned bm_wide_add(uint32_t *a, const uint32_t *b, unsigned n)
{
	uint64_t c = 0;
	for (unsigned i = 0; i < n; i++) {
		c += (uint64_t)a[i] + b[i];
		a[i] = (uint32_t)c;
		c >>= 32;
	}
	return (unsigned)c;
}

unsigned bm_wide_sub(uint32_t *a, const uint32_t *b, unsigned n)
{
	uint64_t borrow = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t t = (uint64_t)a[i] - b[i] - borrow;
		a[i] = (uint32_t)t;
		borrow = (t >> 32) & 1;
	}
	return (unsigned)borrow;
}

int bm_wide_cmp(const uint32_t *a, const uint32_t *b, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

void bm_wide_shl1(uint32_t *a, unsigned n)
{
	for (unsigned i = n; i-- > 1;)
		a[i] = (a[i] << 1) | (a[i - 1] >> 31);
	a[0] <<= 1;
}

/* Index of the highest set bit, -1 for 0. A loop, not __builtin_clz: cores without a CLZ
 * instruction would call libgcc, and this runs once per division. */
static int top_bit(const uint32_t *a, unsigned n)
{
	for (unsigned i = n; i-- > 0;)
		if (a[i]) {
			int b = 31;
			while (!(a[i] >> b))
				b--;
			return (int)(i * 32) + b;
		}
	return -1;
}

static unsigned bit(const uint32_t *a, unsigned i)
{
	return (a[i >> 5] >> (i & 31)) & 1;
}

NO_LIBCALLS static void zero(uint32_t *a, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		a[i] = 0;
}

NO_LIBCALLS void bm_wide_divmod(uint32_t *q, uint32_t *r, const uint32_t *a, const uint32_t *d, unsigned n)
{
	uint32_t rem[BM_WIDE_WORDS];
	int ta = top_bit(a, n), td = top_bit(d, n);
	zero(q, n);
	zero(rem, n);
	if (td < 32) {
		/* A one-word divisor: one native 64/32 division per word (schoolbook). */
		uint64_t x = 0;
		for (int i = ta < 0 ? -1 : ta / 32; i >= 0; i--) {
			x = x << 32 | a[i];
			q[i] = (uint32_t)(x / d[0]);
			x %= d[0];
		}
		rem[0] = (uint32_t)x;
	} else {
		/* Shift and subtract over the words in use only: the remainder stays below 2d. */
		unsigned m = (unsigned)td / 32 + 2 < n ? (unsigned)td / 32 + 2 : n;
		for (int i = ta; i >= 0; i--) {
			bm_wide_shl1(rem, m);
			rem[0] |= bit(a, (unsigned)i);
			if (bm_wide_cmp(rem, d, m) >= 0) {
				bm_wide_sub(rem, d, m);
				q[i >> 5] |= 1u << (i & 31);
			}
		}
	}
	if (r)
		for (unsigned k = 0; k < n; k++)
			r[k] = rem[k];
}

NO_LIBCALLS void bm_wide_isqrt(uint32_t *root, const uint32_t *a, unsigned n)
{
	uint32_t rem[BM_WIDE_WORDS], trial[BM_WIDE_WORDS];
	zero(root, n);
	zero(rem, n);
	int top = top_bit(a, n);
	/* Over the words in use only: root, the trial and the remainder stay within top + 64 bits. */
	n = top >= 0 && (unsigned)top / 32 + 2 < n ? (unsigned)top / 32 + 2 : n;
	for (int i = top < 0 ? -1 : top / 2; i >= 0; i--) {
		/* bring down the next two bits */
		bm_wide_shl1(rem, n);
		bm_wide_shl1(rem, n);
		rem[0] |= bit(a, 2 * (unsigned)i + 1) << 1 | bit(a, 2 * (unsigned)i);
		bm_wide_shl1(root, n);
		for (unsigned k = 0; k < n; k++)
			trial[k] = root[k];
		bm_wide_shl1(trial, n);
		trial[0] |= 1;
		if (bm_wide_cmp(rem, trial, n) >= 0) {
			bm_wide_sub(rem, trial, n);
			root[0] |= 1;
		}
	}
}

NO_LIBCALLS struct bm_wide bm_wide_u64(uint64_t v)
{
	struct bm_wide r;
	zero(r.w, BM_WIDE_WORDS);
	r.w[0] = (uint32_t)v;
	r.w[1] = (uint32_t)(v >> 32);
	return r;
}

struct bm_wide bm_wide_u128(struct bm_u128 v)
{
	struct bm_wide r = bm_wide_u64(0);
	from128(r.w, v);
	return r;
}

struct bm_wide bm_wide_mul(const struct bm_wide *a, const struct bm_wide *b)
{
	struct bm_wide r = bm_wide_u64(0);
	for (unsigned i = 0; i < BM_WIDE_WORDS; i++) {
		if (!a->w[i])
			continue;
		uint64_t carry = 0;
		for (unsigned j = 0; i + j < BM_WIDE_WORDS; j++) {
			uint64_t t = (uint64_t)a->w[i] * b->w[j] + r.w[i + j] + carry;
			r.w[i + j] = (uint32_t)t;
			carry = t >> 32;
		}
	}
	return r;
}

uint64_t bm_wide_sat64(const struct bm_wide *a)
{
	for (unsigned i = 2; i < BM_WIDE_WORDS; i++)
		if (a->w[i])
			return UINT64_MAX;
	return (uint64_t)a->w[1] << 32 | a->w[0];
}

/* Report-time formatting divides 128-bit values by 10^3, 10^19 or a clock rate thousands of
 * times per run: those divisors fit 64 bits (most 32), so the quotient comes from native 64-bit
 * divisions (32-bit digits, schoolbook) instead of 128 rounds of shift-and-subtract, which were
 * a quarter of a deterministic run's own instructions. Any divisor still works. */
struct bm_u128 bm_u128_divmod(struct bm_u128 a, struct bm_u128 d, struct bm_u128 *rem)
{
	if (d.hi == 0 && a.hi == 0) {
		struct bm_u128 q = {a.lo / d.lo, 0};
		if (rem)
			*rem = bm_u128_from64(a.lo % d.lo);
		return q;
	}
	if (d.hi == 0 && d.lo <= UINT32_MAX) {
		uint64_t v = d.lo, r = a.hi % v, x;
		struct bm_u128 q = {0, a.hi / v};
		x = r << 32 | a.lo >> 32; /* r < v < 2^32: no overflow */
		q.lo = x / v << 32;
		r = x % v;
		x = r << 32 | (uint32_t)a.lo;
		q.lo |= x / v;
		if (rem)
			*rem = bm_u128_from64(x % v);
		return q;
	}
#if UINTPTR_MAX > 0xffffffffu
	if (d.hi == 0) {
		/* 2^32 <= d < 2^64 (a report's n (n-1) div^2 and the like): a.hi / d, then the 128/64
		 * step as Hacker's Delight's divlu does it, two 32-bit quotient digits, each estimated
		 * from the normalised divisor's top word and corrected at most twice. On 64-bit cores
		 * only: on a 32-bit one each of its 64-bit divisions is a libgcc call, and the word-wise
		 * shift and subtract below is as fast and 500 bytes smaller. */
		uint64_t v = d.lo, u1 = a.hi % v, u0 = a.lo;
		struct bm_u128 q = {0, a.hi / v};
		unsigned s = 0;
		for (unsigned k = 16; k; k >>= 1)
			if (!(v >> (64 - k))) {
				v <<= k;
				s += k;
			}
		uint64_t vn1 = v >> 32, vn0 = (uint32_t)v;
		uint64_t un32 = s ? u1 << s | u0 >> (64 - s) : u1, un10 = u0 << s;
		uint64_t un1 = un10 >> 32, un0 = (uint32_t)un10;
		uint64_t q1 = un32 / vn1, rhat = un32 - q1 * vn1;
		while (q1 >> 32 || q1 * vn0 > (rhat << 32 | un1)) {
			q1--;
			rhat += vn1;
			if (rhat >> 32)
				break;
		}
		uint64_t un21 = (un32 << 32 | un1) - q1 * v;
		uint64_t q0 = un21 / vn1;
		rhat = un21 - q0 * vn1;
		while (q0 >> 32 || q0 * vn0 > (rhat << 32 | un0)) {
			q0--;
			rhat += vn1;
			if (rhat >> 32)
				break;
		}
		q.lo = q1 << 32 | q0;
		if (rem)
			*rem = bm_u128_from64(((un21 << 32 | un0) - q0 * v) >> s);
		return q;
	}
#endif
	uint32_t aw[4], dw[4], qw[4], rw[4];
	from128(aw, a);
	from128(dw, d);
	bm_wide_divmod(qw, rw, aw, dw, 4);
	if (rem)
		*rem = to128(rw);
	return to128(qw);
}

uint64_t bm_u128_isqrt(struct bm_u128 a)
{
	if (a.hi == 0) {
		/* Below 2^64 (a report's figures mostly are; 0 for every run of equal samples): the
		 * digit-by-digit root in one 64-bit word, two bits a step. */
		uint64_t x = a.lo, r = 0, b = 1ull << 62;
		while (b > x)
			b >>= 2;
		for (; b; b >>= 2) {
			if (x >= r + b) {
				x -= r + b;
				r = (r >> 1) + b;
			} else {
				r >>= 1;
			}
		}
		return r;
	}
	uint32_t aw[4], root[4];
	from128(aw, a);
	bm_wide_isqrt(root, aw, 4);
	return to128(root).lo;
}

uint64_t bm_muldiv64(uint64_t a, uint64_t b, uint64_t d)
{
	struct bm_u128 p = bm_u128_mul64(a, b);
	bm_u128_add(&p, bm_u128_from64(d / 2));
	struct bm_u128 q = bm_u128_divmod(p, bm_u128_from64(d), 0);
	return q.hi ? UINT64_MAX : q.lo;
}
