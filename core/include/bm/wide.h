/* SPDX-License-Identifier: Apache-2.0 */
/* Exact wide unsigned integers without compiler support (rv32 and Cortex-M have no __int128):
 * - struct bm_u128, inline add/multiply: the statistics' exact sums, on every sample;
 * - multi-word arithmetic on little-endian arrays of 32-bit words (up to BM_WIDE_WORDS): one
 *   bit-serial division and square root that serve both the 128-bit quotients and the
 *   statistics' report-time moments (up to ~362 bits). Report time only, never in a timed
 *   region, no libgcc. */
#ifndef BM_WIDE_H
#define BM_WIDE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* Quotient of a / d (d != 0), and the remainder when rem != NULL. */
struct bm_u128 bm_u128_divmod(struct bm_u128 a, struct bm_u128 d, struct bm_u128 *rem);
/* floor(sqrt(a)). */
uint64_t bm_u128_isqrt(struct bm_u128 a);
/* a * b / d, rounded to nearest, saturating at UINT64_MAX (d != 0). */
uint64_t bm_muldiv64(uint64_t a, uint64_t b, uint64_t d);

/* ---- multi-word: n little-endian 32-bit words, n <= BM_WIDE_WORDS ---- */

#define BM_WIDE_WORDS 14 /* 448 bits */

struct bm_wide {
	uint32_t w[BM_WIDE_WORDS];
};

struct bm_wide bm_wide_u64(uint64_t v);
struct bm_wide bm_wide_u128(struct bm_u128 v);
/* a * b, truncated to BM_WIDE_WORDS words. */
struct bm_wide bm_wide_mul(const struct bm_wide *a, const struct bm_wide *b);
/* a += b, a -= b over n words; each returns the carry or borrow out. */
unsigned bm_wide_add(uint32_t *a, const uint32_t *b, unsigned n);
unsigned bm_wide_sub(uint32_t *a, const uint32_t *b, unsigned n);
int bm_wide_cmp(const uint32_t *a, const uint32_t *b, unsigned n);
void bm_wide_shl1(uint32_t *a, unsigned n);
/* q = floor(a / d), r = a mod d (d != 0; r may be NULL), over n words. */
void bm_wide_divmod(uint32_t *q, uint32_t *r, const uint32_t *a, const uint32_t *d, unsigned n);
/* root = floor(sqrt(a)), over n words. */
void bm_wide_isqrt(uint32_t *root, const uint32_t *a, unsigned n);
/* The value, or UINT64_MAX when it does not fit 64 bits. */
uint64_t bm_wide_sat64(const struct bm_wide *a);

#ifdef __cplusplus
}
#endif

#endif /* BM_WIDE_H */
