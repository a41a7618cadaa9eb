/* 128-bit unsigned arithmetic without compiler support: 32-bit targets (rv32, Cortex-M) have
 * no __int128, and the statistics need exact 128-bit sums and report-time division.
 * Add/multiply are inline (cheap); divide and square root are report-time only. */
#ifndef BM_U128_H
#define BM_U128_H

#include <stdint.h>

struct bm_u128 {
	uint64_t lo;
	uint64_t hi;
};

static inline struct bm_u128 bm_u128_from64(uint64_t v)
{
	struct bm_u128 r = {v, 0};
	return r;
}

/* a += b; returns the carry out of bit 127 (1 = overflow). */
static inline unsigned bm_u128_add(struct bm_u128 *a, struct bm_u128 b)
{
	uint64_t lo = a->lo + b.lo;
	uint64_t c = lo < b.lo;
	uint64_t hi = a->hi + b.hi;
	unsigned carry = hi < b.hi;
	hi += c;
	carry |= hi < c;
	a->lo = lo;
	a->hi = hi;
	return carry;
}

static inline struct bm_u128 bm_u128_sub(struct bm_u128 a, struct bm_u128 b)
{
	struct bm_u128 r;
	r.lo = a.lo - b.lo;
	r.hi = a.hi - b.hi - (a.lo < b.lo);
	return r;
}

static inline int bm_u128_cmp(struct bm_u128 a, struct bm_u128 b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

/* a += b (64-bit addend); returns the carry out of bit 127. */
static inline unsigned bm_u128_add64(struct bm_u128 *a, uint64_t b)
{
	uint64_t lo = a->lo + b;
	uint64_t c = lo < b;
	a->lo = lo;
	a->hi += c;
	return c & (a->hi == 0);
}

/* Full 64x64 -> 128 product from 32-bit halves (no libgcc call on 32-bit cores). Always
 * available, so tests can check it against the native path below. */
static inline struct bm_u128 bm_u128_mul64_portable(uint64_t a, uint64_t b)
{
	uint64_t a0 = (uint32_t)a, a1 = a >> 32, b0 = (uint32_t)b, b1 = b >> 32;
	uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	uint64_t mid = (p00 >> 32) + (uint32_t)p01 + (uint32_t)p10;
	struct bm_u128 r;
	r.lo = (mid << 32) | (uint32_t)p00;
	r.hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
	return r;
}

/* Full 64x64 -> 128 product: one mul + mulhu where the compiler has a 128-bit type (64-bit
 * cores), else the portable 32-bit-halves version (rv32, Cortex-M: no __int128). */
static inline struct bm_u128 bm_u128_mul64(uint64_t a, uint64_t b)
{
#if defined(__SIZEOF_INT128__)
	__extension__ unsigned __int128 p = (unsigned __int128)a * b;
	struct bm_u128 r = {(uint64_t)p, (uint64_t)(p >> 64)};
	return r;
#else
	return bm_u128_mul64_portable(a, b);
#endif
}

/* Quotient of a / d (d != 0), and the remainder when rem != NULL. Bitwise: report time only. */
struct bm_u128 bm_u128_divmod(struct bm_u128 a, struct bm_u128 d, struct bm_u128 *rem);
/* floor(sqrt(a)). */
uint64_t bm_u128_isqrt(struct bm_u128 a);
/* a * b / d, rounded to nearest, saturating at UINT64_MAX (d != 0). */
uint64_t bm_muldiv64(uint64_t a, uint64_t b, uint64_t d);

#endif /* BM_U128_H */
