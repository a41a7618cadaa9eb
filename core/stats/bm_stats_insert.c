/* Statistics core, the sample path (see bm_stats_internal.h): the exact top-K heap, the fast
 * path's window, exact sums, and bm_stats_init / bm_stats_add / bm_stats_merge. No floating
 * point and no division here. */
#include "bm_stats_internal.h"

/* ---- heap of the K largest ----------------------------------------------------------------- */

/* Samples >= the gate go to the heap: all of them while it fills, then those above its minimum.
 * At min = 2^64-1 the gate stays there, so an equal sample takes the heap path, which swaps
 * equal values and leaves both multisets (and so every answer) unchanged. */
static uint64_t heap_gate(const struct bm_stats *s)
{
	if (s->heap_len < K)
		return 0;
	return s->heap[0] + (s->heap[0] != UINT64_MAX);
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
}

/* v into the heap when it belongs there (v >= gate); the value it displaces, if any, goes to
 * the histogram. */
static void heap_insert(struct bm_stats *s, uint64_t v)
{
	if (s->heap_len < K) {
		heap_push(s, v);
		return;
	}
	uint64_t out = s->heap[0]; /* <= v (equal only at 2^64-1, see heap_gate) */
	heap_replace_top(s, v);
	bm_st_hist_insert(s, out, 1);
}

/* ---- the fast path's geometry ------------------------------------------------------------- */

/* The fast path (bm_stats_add) handles samples below 2^32 and below the heap gate whose octave
 * lies in the top band (the 13 octaves below the top), in 16-bit storage. Recomputed after
 * every slow path; it never changes a result. fast_left caps the fast path's inserts so the
 * switch to 32-bit counts happens in the slow path, exactly when n passes BM_STATS_U16_MAX_N. */
static void fast_reset(struct bm_stats *s)
{
	uint64_t n = bm_stats_count(s);
	s->n = n;
	s->fast_left = 0;
	s->fast_gate = 0;
	if (s->wide || s->e_top == EMPTY_TOP || s->heap_len < K || n >= BM_STATS_U16_MAX_N)
		return;
	const struct band *b = &bm_st_geo[0].band[0];
	unsigned top = s->e_top, lo = top >= b->octaves - 1u ? top - (b->octaves - 1u) : 0;
	uint64_t g = heap_gate(s);
	s->fast_gate = g < (1ull << 32) ? g : 1ull << 32;
	s->fast_lo = (uint8_t)lo;
	s->fast_k = (uint8_t)(63 - lo);
	s->fast_lim = (uint16_t)((2u << (top - lo)) - 1);
	s->fast_off = (uint16_t)(b->start + (b->octaves - 1 - (top - lo)) * b->per_octave);
	s->fast_left = BM_STATS_U16_MAX_N - n;
	s->n = n + s->fast_left;
}

/* ---- sums ----------------------------------------------------------------------------------- */

/* Add lo + 2^64 hi to the sum of squares and move everything from 2^127 up into sq_top, so
 * sq_mid < 2^63 afterwards: the fast path's carries into sq_mid (one per insert, at most
 * BM_STATS_U16_MAX_N of them between two slow paths) can then never overflow it. */
static void sq_add(struct bm_stats *s, uint64_t lo, uint64_t hi, uint64_t top)
{
	s->sq_lo += lo;
	uint64_t c = s->sq_lo < lo;
	uint64_t mid = s->sq_mid + hi;
	uint64_t c2 = mid < hi;
	mid += c;
	c2 += mid < c;
	uint64_t t = s->sq_top + top;
	unsigned sat = t < top;
	uint64_t t2 = t + 2 * c2 + (mid >> 63);
	sat |= t2 < t;
	s->sq_mid = mid & (UINT64_MAX >> 1);
	s->sq_top = t2;
	if (sat) {
		s->sq_lo = s->sq_mid = s->sq_top = UINT64_MAX;
		s->flags |= BM_STATS_F_SUM_SATURATED;
	}
}

/* ---- public: init, add, merge -------------------------------------------------------------- */

BM_NO_LIBCALLS void bm_stats_init(struct bm_stats *s)
{
	uint8_t *z = (uint8_t *)s;
	for (size_t i = 0; i < sizeof *s; i++)
		z[i] = 0;
	s->min = UINT64_MAX;
	s->e_top = EMPTY_TOP;
}

/* Everything the fast path does not take: filling or entering the heap, an empty histogram, an
 * octave outside the fast window, a bin passing 65,535, 32-bit counts, values >= 2^32. */
__attribute__((noinline)) static void add_slow(struct bm_stats *s, uint64_t v)
{
	uint64_t n = bm_stats_count(s) + 1;
	if (n == 0) {
		n = UINT64_MAX;
		s->flags |= BM_STATS_F_SUM_SATURATED;
	}
	s->n = n;
	s->fast_left = 0;
	s->sum.lo += v;
	s->sum.hi += s->sum.lo < v;
	struct bm_u128 sq = bm_u128_mul64(v, v);
	sq_add(s, sq.lo, sq.hi, 0);
	if (!s->wide && n > BM_STATS_U16_MAX_N)
		bm_st_widen(s); /* the histogram holds <= n - 1 samples here, see bm_st_widen() */
	if (v >= heap_gate(s)) {
		if (v > s->max)
			s->max = v;
		if (v < s->min)
			s->min = v;
		heap_insert(s, v);
	} else {
		if (v < s->min)
			s->min = v;
		bm_st_hist_insert(s, v, 1);
	}
	fast_reset(s);
}

/* The fast path counted v (n, sums, min) but could not place it in the histogram. */
__attribute__((noinline)) static void hist_slow(struct bm_stats *s, uint64_t v)
{
	bm_st_hist_insert(s, v, 1);
	fast_reset(s);
}

void bm_stats_add(struct bm_stats *s, uint64_t v)
{
	uint64_t left = s->fast_left;
	if (v >= s->fast_gate || left == 0) {
		add_slow(s, v);
		return;
	}
	s->fast_left = left - 1;
	/* v < 2^32: the sums cannot overflow their words here (see sq_add). */
	s->sum.lo += v;
	s->sum.hi += s->sum.lo < v;
	uint64_t sq = v * v;
	s->sq_lo += sq;
	s->sq_mid += s->sq_lo < sq;
	if (v < s->min)
		s->min = v;
	/* Octave j of v within the fast window: 1 <= w < 2^13, two byte lookups at most. uintptr_t
	 * throughout: 32-bit temporaries cost sign/zero extensions on 64-bit cores. */
	uint64_t w = v >> s->fast_lo;
	if (w - 1 < s->fast_lim) {
		uintptr_t j = w >> 8 ? 8 + (uintptr_t)bm_st_tab[w >> 8] : (uintptr_t)bm_st_tab[w];
		uintptr_t t = (uintptr_t)((v << (s->fast_k - j)) >> GRID_SHIFT);
		uintptr_t p = s->fast_off + j * BM_ST_FINE + bm_st_tab[256 + t - GRID_LO];
		uint32_t c = s->bins.c16[p] + 1u;
		if (c >> 16 == 0) {
			s->bins.c16[p] = (uint16_t)c;
			return;
		}
	}
	hist_slow(s, v);
}

BM_NO_LIBCALLS void bm_stats_merge(struct bm_stats *dst, const struct bm_stats *src)
{
	uint64_t sn = bm_stats_count(src);
	if (sn == 0 || dst == src)
		return;
	uint64_t dn = bm_stats_count(dst), n = dn + sn;
	if (n < dn) {
		n = UINT64_MAX;
		dst->flags |= BM_STATS_F_SUM_SATURATED;
	}
	dst->n = n;
	dst->fast_left = 0;
	if (bm_u128_add(&dst->sum, src->sum)) {
		dst->sum.lo = dst->sum.hi = UINT64_MAX;
		dst->flags |= BM_STATS_F_SUM_SATURATED;
	}
	sq_add(dst, src->sq_lo, src->sq_mid, src->sq_top);
	dst->flags |= src->flags;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	/* dst's histogram holds <= dn <= BM_STATS_U16_MAX_N samples while it has 16-bit counts */
	if (!dst->wide && n > BM_STATS_U16_MAX_N)
		bm_st_widen(dst);

	/* The K largest of both heaps stay; everything else goes to the histogram. */
	for (unsigned i = 0; i < src->heap_len; i++) {
		uint64_t v = src->heap[i];
		if (v >= heap_gate(dst))
			heap_insert(dst, v);
		else
			bm_st_hist_insert(dst, v, 1);
	}
	if (src->e_top != EMPTY_TOP) {
		/* Raise dst's top to src's, then every src bin lands whole in one dst bin (dst's
		 * layout is no finer anywhere: same or higher top, same or wider counts). */
		const struct layout *L = &bm_st_geo[dst->wide], *LS = &bm_st_geo[src->wide];
		uint64_t lo, hi;
		if (dst->e_top == EMPTY_TOP)
			dst->e_top = src->e_top;
		else if (src->e_top > dst->e_top) {
			bm_st_relayout(dst, L, dst->e_top, L, src->e_top);
			dst->e_top = src->e_top;
		}
		for (unsigned i = 0; i < LS->bins; i++) {
			uint64_t c = bm_st_count_get(src, i);
			if (c && bm_st_bin_range(LS, src->e_top, i, &lo, &hi))
				bm_st_count_add(dst, bm_st_bin_of(L, dst->e_top, lo), c);
		}
	}
	fast_reset(dst);
}

