/* Report-time 128-bit division and square root (see bm/u128.h). Shift-and-subtract: a few
 * thousand instructions per call, never on the sample path, and no libgcc needed. */
#include "bm/u128.h"

static struct bm_u128 shl1(struct bm_u128 a)
{
	struct bm_u128 r = {a.lo << 1, (a.hi << 1) | (a.lo >> 63)};
	return r;
}

struct bm_u128 bm_u128_divmod(struct bm_u128 a, struct bm_u128 d, struct bm_u128 *rem)
{
	struct bm_u128 q = {0, 0}, r = {0, 0};
	for (int i = 127; i >= 0; i--) {
		r = shl1(r);
		r.lo |= (i >= 64 ? a.hi >> (i - 64) : a.lo >> i) & 1;
		q = shl1(q);
		if (bm_u128_cmp(r, d) >= 0) {
			r = bm_u128_sub(r, d);
			q.lo |= 1;
		}
	}
	if (rem)
		*rem = r;
	return q;
}

uint64_t bm_u128_isqrt(struct bm_u128 a)
{
	/* Digit-by-digit (binary) square root: exact floor. */
	struct bm_u128 rem = {0, 0}, root = {0, 0};
	for (int i = 63; i >= 0; i--) {
		/* bring down the next two bits */
		rem = shl1(shl1(rem));
		uint64_t two = i >= 32 ? (a.hi >> (2 * (i - 32))) & 3 : (a.lo >> (2 * i)) & 3;
		rem.lo |= two;
		root = shl1(root);
		struct bm_u128 trial = shl1(root);
		trial.lo |= 1;
		if (bm_u128_cmp(rem, trial) >= 0) {
			rem = bm_u128_sub(rem, trial);
			root.lo |= 1;
		}
	}
	return root.lo;
}

uint64_t bm_muldiv64(uint64_t a, uint64_t b, uint64_t d)
{
	struct bm_u128 p = bm_u128_mul64(a, b);
	bm_u128_add(&p, bm_u128_from64(d / 2));
	struct bm_u128 q = bm_u128_divmod(p, bm_u128_from64(d), 0);
	return q.hi ? UINT64_MAX : q.lo;
}
