/* Online statistics in fixed memory (see bm/stats.h and docs/statistics.md).
 *
 * - The K largest samples are kept exactly in a min-heap; every other sample is counted in a
 *   log-linear histogram (HdrHistogram-style: with m sub-bits, values below 2^(m+1) get exact
 *   bins, above that each octave [2^e, 2^(e+1)) is cut into 2^m equal bins).
 * - The histogram is a window of BM_STATS_BINS bins starting at the lowest occupied bin. When a
 *   sample falls outside it, the window slides, or, if the occupied range no longer fits, the
 *   resolution m drops by one (two neighbouring bins merge exactly) until it fits. The geometry is
 *   therefore a pure function of the range of histogram samples: any order gives the same bins.
 * - Count, sum of x and sum of x^2 are exact integers; moments are computed at report time in
 *   wide integer arithmetic.
 *
 * Freestanding: no libc, no floating point, no division on the insert path. Report-time code
 * uses bit-serial wide division (a few thousand operations per call). */
#include "bm/stats.h"

#define K BM_STATS_TOPK
#define B BM_STATS_BINS
#define M BM_STATS_SUB_BITS
#define EMPTY_BASE 0xffffu

_Static_assert(M >= 1 && M <= 7, "BM_STATS_SUB_BITS must be 1..7");
_Static_assert(B >= 130 && B < 65535, "BM_STATS_BINS must be 130..65534 (130 holds any u64 range at m=1)");
_Static_assert(K >= 1 && K <= 65535, "BM_STATS_TOPK must be 1..65535");

#if defined(__GNUC__) && !defined(__clang__)
/* Keep GCC from turning the zeroing/copy loops into memset/memmove calls (no libc here). */
#define BM_NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define BM_NO_LIBCALLS
#endif

/* ---- index arithmetic ---------------------------------------------------------------------- */

/* msb of a byte (msb8[0] = 0): the fast path's octave lookup, and msb64's last step on cores
 * without a count-leading-zeros instruction. */
static const uint8_t msb8[256] = {
	0, 0, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
#define R16(v) v, v, v, v, v, v, v, v, v, v, v, v, v, v, v, v
	R16(4), R16(5), R16(5), R16(6), R16(6), R16(6), R16(6),
	R16(7), R16(7), R16(7), R16(7), R16(7), R16(7), R16(7), R16(7),
#undef R16
};

#if (defined(__riscv) && !defined(__riscv_zbb)) || (defined(__ARM_ARCH) && !defined(__ARM_FEATURE_CLZ))
/* No count-leading-zeros instruction: GCC would call libgcc's __clzdi2. Two word tests, two
 * halvings and a 256-entry table instead (branch-light, no call). */


static inline unsigned msb64(uint64_t v)
{
	uint32_t x = (uint32_t)(v >> 32);
	unsigned r = 32;
	if (!x) {
		x = (uint32_t)v;
		r = 0;
	}
	if (x >> 16) {
		x >>= 16;
		r += 16;
	}
	if (x >> 8) {
		x >>= 8;
		r += 8;
	}
	return r + msb8[x];
}
#else
static inline unsigned msb64(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}
#endif

/* Histogram index of v at resolution m. */
static inline uint32_t idx_of(uint64_t v, unsigned m)
{
	unsigned sh = msb64(v | ((2ull << m) - 1)) - m;
	return ((uint32_t)sh << m) + (uint32_t)(v >> sh);
}

/* Index at resolution m-1 of the bin holding index i at resolution m (exact: bins nest). */
static inline uint32_t coarser(uint32_t i, unsigned m)
{
	return i < (1u << m) ? i : (i >> 1) + (1u << (m - 1));
}

/* Value range [lo, hi] of index i at resolution m. */
static void idx_range(uint32_t i, unsigned m, uint64_t *lo, uint64_t *hi)
{
	if (i < (2u << m)) {
		*lo = *hi = i;
		return;
	}
	unsigned sh = (i >> m) - 1;
	uint64_t t = (i & ((1u << m) - 1)) | (1u << m);
	*lo = t << sh;
	*hi = *lo + ((1ull << sh) - 1);
}

/* ---- heap of the K largest ----------------------------------------------------------------- */

/* The insert path's one test for "this sample goes to the heap": v >= heap_gate. While the heap
 * fills, every sample does (gate 0); once full, those above its minimum do (gate = min + 1).
 * At min = 2^64-1 the gate stays there, so an equal sample takes the heap path, which swaps
 * equal values and leaves both multisets (and so every answer) unchanged. */
static void heap_gate_update(struct bm_stats *s)
{
	if (s->heap_len < K)
		s->heap_gate = 0;
	else
		s->heap_gate = s->heap[0] + (s->heap[0] != UINT64_MAX);
}

static void heap_push(struct bm_stats *s, uint64_t v)
{
	unsigned i = s->heap_len++;
	while (i) {
		unsigned p = (i - 1) >> 1;
		if (s->heap[p] <= v)
			break;
		s->heap[i] = s->heap[p];
		i = p;
	}
	s->heap[i] = v;
	heap_gate_update(s);
}

/* Replace the minimum (heap full) with v >= it, restoring the heap order. */
static void heap_replace_top(struct bm_stats *s, uint64_t v)
{
	unsigned i = 0, n = s->heap_len;
	for (;;) {
		unsigned c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && s->heap[c + 1] < s->heap[c])
			c++;
		if (s->heap[c] >= v)
			break;
		s->heap[i] = s->heap[c];
		i = c;
	}
	s->heap[i] = v;
	heap_gate_update(s);
}

/* ---- histogram geometry -------------------------------------------------------------------- */

static unsigned top_pos(const struct bm_stats *s)
{
	unsigned p = B - 1;
	while (p && !s->bins[p])
		p--;
	return p;
}

static inline void bin_add(struct bm_stats *s, unsigned p, uint32_t c)
{
	uint32_t v = s->bins[p] + c;
	if (v < c) {
		v = UINT32_MAX;
		s->flags |= BM_STATS_F_BIN_SATURATED;
	}
	s->bins[p] = v;
}

/* Fast-path geometry (no effect on results), recomputed whenever the window or the resolution
 * changes: s0 is the octave (shift) of the window's lowest bin, and a sample whose octave lies
 * within 8 octaves above it finds its octave with one table lookup of v >> (m + s0). */
static void fast_reset(struct bm_stats *s)
{
	unsigned m = s->sub_bits, s0 = 0;
	if (s->base != EMPTY_BASE && s->base >= (2u << m))
		s0 = (s->base >> m) - 1u;
	s->fast_s0 = (uint8_t)s0;
	s->fast_shift = (uint8_t)(m + s0);
}

/* Lower the resolution by one: each bin merges into its parent (ascending, in place). */
BM_NO_LIBCALLS static void coarsen_once(struct bm_stats *s)
{
	unsigned m = s->sub_bits;
	uint32_t nb = coarser(s->base, m);
	for (unsigned p = 0; p < B; p++) {
		uint32_t c = s->bins[p];
		if (!c)
			continue;
		s->bins[p] = 0;
		bin_add(s, coarser(s->base + p, m) - nb, c); /* <= p: a contraction */
	}
	s->base = (uint16_t)nb;
	s->sub_bits = (uint8_t)(m - 1);
}

/* Move the window so bins[0] is index nb (every occupied bin must stay inside). */
BM_NO_LIBCALLS static void slide(struct bm_stats *s, uint32_t nb)
{
	if (nb < s->base) {
		unsigned d = s->base - nb;
		for (unsigned p = B; p-- > 0;)
			s->bins[p] = p >= d ? s->bins[p - d] : 0;
	} else if (nb > s->base) {
		unsigned d = nb - s->base;
		for (unsigned p = 0; p < B; p++)
			s->bins[p] = p + d < B ? s->bins[p + d] : 0;
	}
	s->base = (uint16_t)nb;
}

/* Make the window hold indices [lo, hi] given at resolution m <= s->sub_bits, lowering the
 * resolution until they fit; lo becomes the window base (the lowest occupied bin). */
static void regrid(struct bm_stats *s, unsigned m, uint32_t lo, uint32_t hi)
{
	while (hi - lo >= B) {
		lo = coarser(lo, m);
		hi = coarser(hi, m);
		m--;
	}
	if (s->base == EMPTY_BASE) {
		s->sub_bits = (uint8_t)m;
		s->base = (uint16_t)lo;
	} else {
		while (s->sub_bits > m)
			coarsen_once(s);
		slide(s, lo);
	}
	if (m < M)
		s->flags |= BM_STATS_F_COARSENED;
	fast_reset(s);
}

/* Convert index i from resolution from down to resolution to. */
static uint32_t convert(uint32_t i, unsigned from, unsigned to)
{
	while (from > to)
		i = coarser(i, from--);
	return i;
}

/* A sample for the histogram that missed the fast path: empty window, outside it, or a full bin. */
__attribute__((noinline)) static void hist_slow(struct bm_stats *s, uint64_t v)
{
	unsigned m = s->sub_bits;
	uint32_t iv = idx_of(v, m);
	if (s->base != EMPTY_BASE && iv - s->base < B) {
		bin_add(s, iv - s->base, 1); /* saturated bin: stays at 2^32-1, flagged */
		return;
	}
	uint32_t lo = iv, hi = iv;
	if (s->base != EMPTY_BASE) {
		uint32_t t = s->base + top_pos(s);
		lo = s->base < lo ? s->base : lo;
		hi = t > hi ? t : hi;
	}
	regrid(s, m, lo, hi);
	bin_add(s, idx_of(v, s->sub_bits) - s->base, 1);
}

/* Count one sample in the histogram. Common case: the octave is w's msb from the table, where
 * w = v >> (m + s0) is 1..255 (or 0..255 when the window starts in the exact bins, s0 = 0):
 * no loop, no call, the same cost for any input order. Everything else (below or far above
 * the window's fast range, outside the window, an empty window, a full bin) is hist_slow(). */
static inline void hist_add(struct bm_stats *s, uint64_t v)
{
	/* uintptr_t throughout: 32-bit temporaries cost sign/zero extensions on 64-bit cores. */
	uint64_t w = v >> s->fast_shift;
	uintptr_t s0 = s->fast_s0;
	if (w < 256 && (w != 0 || s0 == 0)) {
		uintptr_t sh = s0 + msb8[w];
		uintptr_t p = ((uintptr_t)sh << s->sub_bits) + (uintptr_t)(v >> sh) - s->base;
		if (p < B) {
			uint32_t c = s->bins[p] + 1;
			if (c) {
				s->bins[p] = c;
				return;
			}
		}
	}
	hist_slow(s, v);
}

/* ---- public: init, add, merge -------------------------------------------------------------- */

BM_NO_LIBCALLS void bm_stats_init(struct bm_stats *s)
{
	s->n = 0;
	s->min = UINT64_MAX;
	s->max = 0;
	s->sum = bm_u128_from64(0);
	s->sum_sq_lo = bm_u128_from64(0);
	s->sum_sq_hi = 0;
	s->flags = 0;
	s->sub_bits = M;
	s->heap_len = 0;
	s->heap_gate = 0;
	s->base = EMPTY_BASE;
	fast_reset(s);
	for (unsigned i = 0; i < K; i++)
		s->heap[i] = 0;
	for (unsigned i = 0; i < B; i++)
		s->bins[i] = 0;
}

/* Samples that do not go straight to the histogram: heap filling, or a new top-K member.
 * Out of line so the common path stays a leaf function without a stack frame. */
__attribute__((noinline)) static void add_to_heap(struct bm_stats *s, uint64_t v)
{
	if (v > s->max)
		s->max = v;
	if (s->heap_len < K) {
		if (v < s->min)
			s->min = v;
		heap_push(s, v);
		return;
	}
	uint64_t out = s->heap[0]; /* <= v (equal only at 2^64-1, see heap_gate_update) */
	heap_replace_top(s, v);
	hist_add(s, out);
}

void bm_stats_add(struct bm_stats *s, uint64_t v)
{
	s->n++;
	/* Exact sums: sum x < 2^128 and sum x^2 < 2^192 for any n < 2^64, so no saturation here. */
	s->sum.lo += v;
	s->sum.hi += s->sum.lo < v;
	if (bm_u128_add(&s->sum_sq_lo, bm_u128_mul64(v, v)))
		s->sum_sq_hi++;
	if (v >= s->heap_gate) {
		add_to_heap(s, v);
		return;
	}
	if (v < s->min)
		s->min = v;
	hist_add(s, v);
}

BM_NO_LIBCALLS void bm_stats_merge(struct bm_stats *dst, const struct bm_stats *src)
{
	if (src->n == 0 || dst == src)
		return;
	uint64_t n = dst->n + src->n;
	if (n < dst->n) {
		n = UINT64_MAX;
		dst->flags |= BM_STATS_F_SUM_SATURATED;
	}
	dst->n = n;
	if (bm_u128_add(&dst->sum, src->sum)) {
		dst->sum.lo = dst->sum.hi = UINT64_MAX;
		dst->flags |= BM_STATS_F_SUM_SATURATED;
	}
	uint64_t hi = dst->sum_sq_hi + src->sum_sq_hi;
	unsigned carry = hi < src->sum_sq_hi;
	if (bm_u128_add(&dst->sum_sq_lo, src->sum_sq_lo)) {
		hi++;
		carry |= hi == 0;
	}
	dst->sum_sq_hi = hi;
	if (carry) {
		dst->sum_sq_lo.lo = dst->sum_sq_lo.hi = dst->sum_sq_hi = UINT64_MAX;
		dst->flags |= BM_STATS_F_SUM_SATURATED;
	}
	dst->flags |= src->flags;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;

	/* The K largest of both heaps stay; everything else goes to the histogram. */
	for (unsigned i = 0; i < src->heap_len; i++) {
		uint64_t v = src->heap[i];
		if (dst->heap_len < K)
			heap_push(dst, v);
		else if (v > dst->heap[0]) {
			uint64_t out = dst->heap[0];
			heap_replace_top(dst, v);
			hist_add(dst, out);
		} else {
			hist_add(dst, v);
		}
	}
	if (src->base == EMPTY_BASE)
		return;

	/* Bring both histograms to the common resolution and window, then add the bins. */
	unsigned ms = src->sub_bits, m = dst->sub_bits < ms ? dst->sub_bits : ms;
	uint32_t lo = convert(src->base, ms, m), top = convert(src->base + top_pos(src), ms, m);
	if (dst->base != EMPTY_BASE) {
		unsigned md = dst->sub_bits;
		uint32_t dlo = convert(dst->base, md, m), dtop = convert(dst->base + top_pos(dst), md, m);
		lo = dlo < lo ? dlo : lo;
		top = dtop > top ? dtop : top;
	}
	regrid(dst, m, lo, top);
	for (unsigned p = 0; p < B; p++)
		if (src->bins[p])
			bin_add(dst, convert(src->base + p, ms, dst->sub_bits) - dst->base, src->bins[p]);
}

/* ---- report-time wide arithmetic ----------------------------------------------------------- */

#define WN 14 /* 448 bits: the largest intermediate (1e12 * N * (N*S2 - S1^2)) needs ~362 */

struct wn {
	uint32_t w[WN];
};

BM_NO_LIBCALLS static struct wn wn_u64(uint64_t v)
{
	struct wn r;
	for (unsigned i = 0; i < WN; i++)
		r.w[i] = 0;
	r.w[0] = (uint32_t)v;
	r.w[1] = (uint32_t)(v >> 32);
	return r;
}

static struct wn wn_u128(struct bm_u128 v)
{
	struct wn r = wn_u64(v.lo);
	r.w[2] = (uint32_t)v.hi;
	r.w[3] = (uint32_t)(v.hi >> 32);
	return r;
}

/* The 192-bit sum of squares. */
static struct wn wn_sumsq(const struct bm_stats *s)
{
	struct wn r = wn_u128(s->sum_sq_lo);
	r.w[4] = (uint32_t)s->sum_sq_hi;
	r.w[5] = (uint32_t)(s->sum_sq_hi >> 32);
	return r;
}

BM_NO_LIBCALLS static struct wn wn_mul(const struct wn *a, const struct wn *b)
{
	struct wn r = wn_u64(0);
	for (unsigned i = 0; i < WN; i++) {
		if (!a->w[i])
			continue;
		uint64_t carry = 0;
		for (unsigned j = 0; i + j < WN; j++) {
			uint64_t t = (uint64_t)a->w[i] * b->w[j] + r.w[i + j] + carry;
			r.w[i + j] = (uint32_t)t;
			carry = t >> 32;
		}
	}
	return r;
}

static struct wn wn_mul64(const struct wn *a, uint64_t b)
{
	struct wn t = wn_u64(b);
	return wn_mul(a, &t);
}

static void wn_add(struct wn *a, const struct wn *b)
{
	uint64_t c = 0;
	for (unsigned i = 0; i < WN; i++) {
		c += (uint64_t)a->w[i] + b->w[i];
		a->w[i] = (uint32_t)c;
		c >>= 32;
	}
}

/* a -= b; returns 1 if it borrowed (b > a). */
static unsigned wn_sub(struct wn *a, const struct wn *b)
{
	uint64_t borrow = 0;
	for (unsigned i = 0; i < WN; i++) {
		uint64_t t = (uint64_t)a->w[i] - b->w[i] - borrow;
		a->w[i] = (uint32_t)t;
		borrow = (t >> 32) & 1;
	}
	return (unsigned)borrow;
}

static int wn_cmp(const struct wn *a, const struct wn *b)
{
	for (unsigned i = WN; i-- > 0;)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

static int wn_bit(const struct wn *a, unsigned bit)
{
	return (a->w[bit >> 5] >> (bit & 31)) & 1;
}

static void wn_shl1(struct wn *a)
{
	for (unsigned i = WN; i-- > 1;)
		a->w[i] = (a->w[i] << 1) | (a->w[i - 1] >> 31);
	a->w[0] <<= 1;
}

static int wn_top(const struct wn *a)
{
	for (int i = WN * 32 - 1; i >= 0; i--)
		if (wn_bit(a, (unsigned)i))
			return i;
	return -1;
}

/* floor(a / d), d != 0. */
static struct wn wn_div(const struct wn *a, const struct wn *d)
{
	struct wn q = wn_u64(0), r = wn_u64(0);
	for (int i = wn_top(a); i >= 0; i--) {
		wn_shl1(&r);
		r.w[0] |= (uint32_t)wn_bit(a, (unsigned)i);
		if (wn_cmp(&r, d) >= 0) {
			wn_sub(&r, d);
			q.w[i >> 5] |= 1u << (i & 31);
		}
	}
	return q;
}

/* floor(sqrt(a)). */
static struct wn wn_isqrt(const struct wn *a)
{
	struct wn rem = wn_u64(0), root = wn_u64(0);
	int top = wn_top(a);
	for (int i = top < 0 ? -1 : top / 2; i >= 0; i--) {
		wn_shl1(&rem);
		wn_shl1(&rem);
		rem.w[0] |= (uint32_t)(wn_bit(a, 2 * (unsigned)i + 1) << 1 | wn_bit(a, 2 * (unsigned)i));
		wn_shl1(&root);
		struct wn trial = root;
		wn_shl1(&trial);
		trial.w[0] |= 1;
		if (wn_cmp(&rem, &trial) >= 0) {
			wn_sub(&rem, &trial);
			root.w[0] |= 1;
		}
	}
	return root;
}

static uint64_t wn_sat64(const struct wn *a)
{
	for (unsigned i = 2; i < WN; i++)
		if (a->w[i])
			return UINT64_MAX;
	return (uint64_t)a->w[1] << 32 | a->w[0];
}

/* round(a / d), halves up, saturating at UINT64_MAX. */
static uint64_t wn_div_round(const struct wn *a, const struct wn *d)
{
	struct wn x = *a, y = *d;
	wn_shl1(&x);
	wn_add(&x, d);
	wn_shl1(&y);
	struct wn q = wn_div(&x, &y);
	return wn_sat64(&q);
}

/* round(sqrt(x / d)) exactly (to nearest), saturating. */
static uint64_t wn_sqrt_ratio_round(const struct wn *x, const struct wn *d)
{
	struct wn q = wn_div(x, d);
	struct wn r = wn_isqrt(&q); /* floor(sqrt(floor(x/d))) = floor(sqrt(x/d)) */
	/* round up iff x/d >= (r + 1/2)^2, i.e. 4x >= (2r+1)^2 d */
	struct wn t = r;
	wn_shl1(&t);
	wn_add(&t, &(struct wn){{1}});
	struct wn t2 = wn_mul(&t, &t);
	t2 = wn_mul(&t2, d);
	struct wn x4 = *x;
	wn_shl1(&x4);
	wn_shl1(&x4);
	if (wn_cmp(&x4, &t2) >= 0)
		wn_add(&r, &(struct wn){{1}});
	return wn_sat64(&r);
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

/* Value range of histogram position p, clamped to what the exact extremes allow. */
static void pos_range(const struct bm_stats *s, unsigned p, uint64_t *lo, uint64_t *hi)
{
	idx_range(s->base + p, s->sub_bits, lo, hi);
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
	if (s->n == 0)
		return;
	uint64_t rank = rank_of(s->n, num, den), hist_n = s->n - s->heap_len;
	uint64_t v;
	uint32_t bound = 0;
	if (rank > hist_n) {
		v = heap_nth_largest(s, (unsigned)(s->n - rank + 1));
	} else if (rank == 1) {
		v = s->min;
	} else {
		uint64_t cum = 0;
		unsigned p = 0;
		for (; p < B - 1; p++) {
			cum += s->bins[p];
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
	idx_range(idx_of(value, s->sub_bits), s->sub_bits, lo, hi);
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
 * the 448-bit type (and its stack) is kept for the one product that needs it. */
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
	if (s->base != EMPTY_BASE) {
		for (unsigned p = 0; p < B; p++) {
			uint32_t c = s->bins[p];
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
	uint64_t kept = s->n - out_lo - out_hi;
	if (kept == 0) {
		r->filtered_mean_milli = 0;
		return;
	}
	/* (S1 - outliers) * 1000 / (kept * div) needs more than 128 bits. */
	struct bm_u128 rest = bm_u128_cmp(s->sum, out_sum) >= 0 ? bm_u128_sub(s->sum, out_sum) : bm_u128_from64(0);
	struct wn sum = wn_u128(rest), d = wn_u64(kept);
	sum = wn_mul64(&sum, 1000);
	d = wn_mul64(&d, div);
	r->filtered_mean_milli = wn_div_round(&sum, &d);
}

/* The second moments, one function each and not inlined: each builds the few 448-bit values it
 * needs, so their stack frames come one after another instead of adding up (RV32 boards have a
 * few KiB of stack). Report time only; V is recomputed each time. */

/* V = N*S2 - S1^2 = N(N-1) * sample variance, exact. */
BM_NO_LIBCALLS __attribute__((noinline)) static struct wn variance_num(const struct bm_stats *s)
{
	struct wn n = wn_u64(s->n), s1 = wn_u128(s->sum), s2 = wn_sumsq(s);
	struct wn v = wn_mul(&n, &s2), sq = wn_mul(&s1, &s1);
	if (wn_sub(&v, &sq))
		v = wn_u64(0);
	return v;
}

/* N (N-1) div^2 */
BM_NO_LIBCALLS __attribute__((noinline)) static struct wn nn1_div2(const struct bm_stats *s, uint64_t div)
{
	struct wn n = wn_u64(s->n), nm1 = wn_u64(s->n - 1), dv = wn_u64(div);
	struct wn nn1 = wn_mul(&n, &nm1), div2 = wn_mul(&dv, &dv);
	return wn_mul(&nn1, &div2);
}

/* stddev_milli = sqrt(V * 10^6 / (N (N-1) div^2)) */
BM_NO_LIBCALLS __attribute__((noinline)) static uint64_t stddev_milli(const struct bm_stats *s, uint64_t div)
{
	struct wn x = variance_num(s), d = nn1_div2(s, div);
	x = wn_mul64(&x, 1000000);
	return wn_sqrt_ratio_round(&x, &d);
}

/* cv_ppm = 10^6 sqrt(N V / (N-1)) / S1 = sqrt(10^12 N V / ((N-1) S1^2)) */
BM_NO_LIBCALLS __attribute__((noinline)) static uint64_t cv_ppm(const struct bm_stats *s)
{
	struct wn x = variance_num(s), d = wn_u128(s->sum);
	x = wn_mul64(&x, 1000000);
	x = wn_mul64(&x, 1000000);
	x = wn_mul64(&x, s->n);
	d = wn_mul(&d, &d);
	d = wn_mul64(&d, s->n - 1);
	return wn_sqrt_ratio_round(&x, &d);
}

/* ci95_milli = t * stddev / sqrt(N) = sqrt(t_e4^2 V / (100 N^2 (N-1) div^2)) */
BM_NO_LIBCALLS __attribute__((noinline)) static uint64_t ci95_milli(const struct bm_stats *s, uint64_t div)
{
	uint64_t t = t95_e4(s->n - 1);
	struct wn x = variance_num(s), d = nn1_div2(s, div);
	x = wn_mul64(&x, t * t);
	d = wn_mul64(&d, s->n);
	d = wn_mul64(&d, 100);
	return wn_sqrt_ratio_round(&x, &d);
}

BM_NO_LIBCALLS void bm_stats_report(const struct bm_stats *s, uint64_t div, struct bm_stats_report *r)
{
	uint8_t *z = (uint8_t *)r;
	for (size_t i = 0; i < sizeof *r; i++)
		z[i] = 0;
	if (div == 0)
		div = 1;
	r->n = s->n;
	r->sub_bits = s->sub_bits;
	r->flags = s->flags;
	if (s->n == 0)
		return;
	r->min_milli = milli(s->min, div);
	r->max_milli = milli(s->max, div);
	bm_stats_quantile(s, 1, 2, div, &r->p50);
	bm_stats_quantile(s, 9, 10, div, &r->p90);
	bm_stats_quantile(s, 99, 100, div, &r->p99);
	bm_stats_quantile(s, 999, 1000, div, &r->p999);

	struct wn x = wn_u128(s->sum), d = wn_u64(s->n);
	/* mean = S1 / N */
	x = wn_mul64(&x, 1000);
	d = wn_mul64(&d, div);
	r->mean_milli = wn_div_round(&x, &d);
	if (s->n >= 2 && !(s->flags & BM_STATS_F_SUM_SATURATED)) {
		r->stddev_milli = stddev_milli(s, div);
		if (s->sum.lo || s->sum.hi)
			r->cv_ppm = cv_ppm(s);
		r->ci95_milli = ci95_milli(s, div);
	}
	tukey(s, div, r);
}
