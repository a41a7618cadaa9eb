/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics core, the sample path (see bm_stats_internal.h; the fast path is inline in
 * bm/stats.h): the exact tail of the K largest as a sorted ring, the insert slow paths (the
 * exact mode's among them), the fast path's window, bm_stats_init and bm_stats_merge. No
 * floating point and no division here. */
#include "bm_stats_internal.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Size first, except bm_st_add_slow (the ascending and descending inputs' per-sample path). */
#pragma GCC push_options
#pragma GCC optimize("Os")
#endif

/* ---- the fast path's window ----------------------------------------------------------------- */

/* The fast path takes a sample v with fast_lo <= v < fast_lo + fast_span: at most the tail's
 * minimum (else it belongs in the tail), below 2^32 (squares fit 64 bits) and 2^(top+1) (the
 * top does not rise), at least the histogram's minimum (else it is a new minimum) and 1; with
 * no CLZ also within the 16 octaves below the top. Recomputed after every slow change; it never
 * changes a result. The tail's minimum only grows, so a window left behind by a tail insert
 * stays valid (the next sample above it refreshes it). */
void bm_st_fast_reset(struct bm_stats *s)
{
	if (!s->tail_len) {
		bm_st_ex_window(s);
		return;
	}
	s->fast_lo = 1;
	s->fast_span = 0;
	s->cap = 0;
	if (s->top == EMPTY_TOP || s->tail_len < K)
		return; /* every sample takes the slow path */
	unsigned top = s->top;
	uint64_t cap = top >= 31 ? 1ull << 32 : 2ull << top, tmin = bm_st_tail_at(s, 0);
	uint64_t gate = tmin < cap ? tmin + 1 : cap, lo = s->min ? s->min : 1;
#if !ARCH_HAS_CLZ64
	unsigned sh = top > 15 ? top - 15 : 0;
	s->fast_sh = (uint8_t)sh;
	if (lo >> sh == 0)
		lo = 1ull << sh;
#endif
	if (gate <= lo)
		return; /* every histogram sample is 2^32 or more */
	s->fast_lo = lo;
	s->fast_span = gate - lo;
	s->cap = (uint32_t)(cap - 1);
	s->fast_row = &bm_st_depth[64u * s->wide + 63u - top];
}

/* ---- the histogram's slow paths ------------------------------------------------------------- */

/* One sample into the histogram, any value: sums, minimum, bins (raising the top). */
static void hist_place(struct bm_stats *s, uint64_t v)
{
	bm_st_sums_add(s, v);
	if (v < s->min)
		s->min = v;
	bm_st_bin_add(s, v, 1);
}

/* n passes BM_STATS_U16_MAX_N with this sample (the histogram holds <= BM_STATS_U16_MAX_N in
 * 16-bit counts, so the fold's spill table suffices): widen first, then place it. */
__attribute__((noinline)) static void widen_place(struct bm_stats *s, uint64_t v)
{
	if (!s->wide)
		bm_st_widen(s);
	hist_place(s, v);
	bm_st_fast_reset(s);
}

/* The fast path's count wrapped: the exact mode's every sample but 0 (its count stays pinned
 * at UINT64_MAX), or n passing BM_STATS_U16_MAX_N. Both tail calls: no frame on the exact
 * mode's every sample. */
__attribute__((noinline)) void bm_st_widen_add(struct bm_stats *s, uint64_t v)
{
	if (!s->tail_len) {
		bm_st_ex_sample(s, v);
		return;
	}
	widen_place(s, v);
}

/* A histogram sample the fast path did not take (or the tail's evicted minimum above its cap). */
__attribute__((noinline)) static void hist_slow(struct bm_stats *s, uint64_t v)
{
	if (++s->nc == 0 && !s->wide)
		bm_st_widen(s);
	hist_place(s, v);
	bm_st_fast_reset(s);
}

/* ---- the tail: the K largest, ascending in a ring ------------------------------------------- */

/* v (above the tail's minimum, below its maximum) into the full tail; returns the minimum it
 * evicts. The shorter half moves: values above v up (into the freed slot, which becomes the new
 * top of the ring) or values below v down (into the freed slot at the bottom). */
__attribute__((noinline)) static uint64_t tail_replace(struct bm_stats *s, uint64_t v)
{
	uint64_t *t = s->tail;
	unsigned m = (s->tail_h + 1u) & KM, j = m, p;
	uint64_t out = t[m];
	if (v >= t[(m + K / 2) & KM]) {
		for (p = s->tail_h; t[p] > v; p = (p - 1u) & KM) {
			t[j] = t[p];
			j = p;
		}
		s->tail_h = (uint32_t)m;
	} else {
		for (p = (m + 1u) & KM; t[p] < v; p = (p + 1u) & KM) {
			t[j] = t[p];
			j = p;
		}
	}
	t[j] = v;
	return out;
}

/* v into a tail that is not full yet (then the histogram is empty): insertion sort from 0. The
 * ring's top index stays K-1, whose slot holds UINT64_MAX until the tail is full. */
static void tail_fill(struct bm_stats *s, uint64_t v)
{
	/* tail_len < K here, so the mask changes nothing; it lets GCC see the index in bounds
	 * (BM_STATS_TOPK = 1 did not compile: -Warray-bounds) */
	unsigned j = s->tail_len++ & KM;
	for (; j && s->tail[j - 1] > v; j--)
		s->tail[j] = s->tail[j - 1];
	s->tail[j] = v;
}

/* v into the tail (any state): returns 1 and the evicted minimum in *out when one moves out. */
static int tail_offer(struct bm_stats *s, uint64_t v, uint64_t *out)
{
	if (s->tail_len < K) {
		tail_fill(s, v);
		return 0;
	}
	unsigned h = s->tail_h;
	if (v >= s->tail[h]) { /* a new maximum: append, the minimum leaves */
		h = (h + 1u) & KM;
		*out = s->tail[h];
		s->tail[h] = v;
		s->tail_h = (uint32_t)h;
	} else {
		*out = tail_replace(s, v);
	}
	return 1;
}

/* The fast path's histogram insert, out of line for the paths that are not per sample. */
__attribute__((noinline)) static void hist_fast_call(struct bm_stats *s, uint64_t v)
{
	bm_st_hist_fast(s, v);
}

/* The rest of the slow path: a sample inside the tail's range, a histogram sample the window
 * does not cover, or the exact mode's (its first, 0 and 2^64-1). */
__attribute__((noinline)) static void add_rest(struct bm_stats *s, uint64_t v)
{
	if (!s->tail_len) {
		if (!bm_st_ex_add(s, v, 1))
			bm_st_add_slow(s, v); /* (histogram mode now: it takes any value) */
		return;
	}
	if (v <= s->tail[(s->tail_h + 1u) & KM]) {
		hist_slow(s, v);
		return;
	}
	uint64_t out = tail_replace(s, v);
	if (out - 1 < s->cap)
		hist_fast_call(s, out);
	else
		hist_slow(s, out);
}

/* ---- public: init, merge -------------------------------------------------------------------- */

BM_NO_LIBCALLS void bm_stats_init(struct bm_stats *s)
{
	/* By 64-bit words (the state is 8-byte aligned and sized; may_alias: it has other members):
	 * once per benchmark, a byte loop would be 8,000 instructions. */
	typedef uint64_t __attribute__((may_alias)) word;
	_Static_assert(sizeof *s % sizeof(word) == 0, "bm_stats is zeroed by words");
	word *z = (word *)s;
	for (size_t i = 0; i < sizeof *s / sizeof(word); i++)
		z[i] = 0;
	s->min = UINT64_MAX;
	s->top = EMPTY_TOP;
	for (unsigned j = 0; j < K; j++)
		s->tail[j] = UINT64_MAX;
	s->tail_h = KM;
	bm_st_fast_reset(s); /* exact mode, no value yet */
}

BM_NO_LIBCALLS void bm_stats_merge(struct bm_stats *dst, const struct bm_stats *src)
{
	uint64_t sn = bm_stats_count(src);
	if (sn == 0 || dst == src)
		return;
	dst->flags |= src->flags;
	if (!src->tail_len) { /* exact: its values, one run each */
		for (unsigned i = 0; i < src->ex_m; i++)
			bm_stats_add_n(dst, bm_st_ex_val(src, i), src->ex_count[i]);
		return;
	}
	if (!dst->tail_len) { /* exact, and the other is not: to histogram mode, or a tail of all */
		if (bm_stats_count(dst) == 0) {
			uint8_t f = dst->flags;
			*dst = *src;
			dst->flags = f;
			return;
		}
		if (bm_stats_count(dst) >= K)
			bm_st_ex_to_hist(dst);
		else
			bm_st_ex_to_tail(dst);
	}
	uint64_t dn = bm_stats_count(dst), n = dn + sn;
	if (n < dn) {
		n = UINT64_MAX;
		dst->flags |= BM_STATS_F_SUM_SATURATED;
	}
	/* dst's histogram holds <= dn <= BM_STATS_U16_MAX_N samples while it has 16-bit counts */
	if (!dst->wide && n > BM_STATS_U16_MAX_N)
		bm_st_widen(dst);
	if (!(dst->flags & BM_STATS_F_SUM_SATURATED)) {
		/* src's histogram sums, folded as bm_st_fold would (both sum_lo and sq_mid < 2^63) */
		bm_st_fold(dst);
		uint64_t shi = src->sum_hi + (src->sum_lo >> 63), mt = src->sq_top + (src->sq_mid >> 63);
		dst->sum_lo += src->sum_lo & (UINT64_MAX >> 1);
		dst->sq_lo += src->sq_lo;
		dst->sq_mid += (src->sq_mid & (UINT64_MAX >> 1)) + (dst->sq_lo < src->sq_lo);
		uint64_t h = dst->sum_hi + shi, t = dst->sq_top + mt;
		if (shi < src->sum_hi || mt < src->sq_top || h < shi || t < mt) {
			dst->sum_hi = dst->sq_top = UINT64_MAX;
			dst->flags |= BM_STATS_F_SUM_SATURATED;
		} else {
			dst->sum_hi = h;
			dst->sq_top = t;
			bm_st_fold(dst);
		}
	}
	if (src->top != EMPTY_TOP && src->min < dst->min)
		dst->min = src->min;

	/* The K largest of both tails stay; everything else goes to the histogram. */
	for (unsigned j = 0; j < src->tail_len; j++) {
		uint64_t v = bm_st_tail_at(src, j), out;
		if (dst->tail_len == K && v <= bm_st_tail_at(dst, 0))
			hist_place(dst, v);
		else if (tail_offer(dst, v, &out))
			hist_place(dst, out);
	}
	if (src->top != EMPTY_TOP) {
		/* Raise dst's top to src's, then every src bin lands whole in one dst bin (dst's
		 * layout is no finer anywhere: same or higher top, same or wider counts). */
		uint64_t lo, hi;
		if (dst->top == EMPTY_TOP)
			dst->top = src->top;
		else if (src->top > dst->top) {
			bm_st_relayout(dst, dst->wide, dst->top, dst->wide, src->top);
			dst->top = src->top;
		}
		for (unsigned i = 0; i < NBINS(src->wide); i++) {
			uint64_t c = bm_st_count_get(src, i);
			if (c && bm_st_bin_range(src->wide, src->top, i, &lo, &hi))
				bm_st_count_add(dst, bm_st_bin_of(dst->wide, dst->top, lo), c);
		}
	}
	dst->nc = n - dst->tail_len - BM_ST_NC0;
	bm_st_fast_reset(dst);
}

/* m more in count slot `slot` (m < 2^16, so at most one carry out of the low 16 bits): what m of
 * the fast path's increments do, the sums folded first as bm_st_carry does. */
static void slot_add(struct bm_stats *s, uintptr_t slot, uint32_t m)
{
	uint32_t c = (uint32_t)s->c16[slot] + m;
	if (c <= UINT16_MAX) {
		s->c16[slot] = (uint16_t)c;
		return;
	}
	bm_st_fold(s);
	bm_st_count_add(s, (unsigned)slot, m);
}

/* Bulk only where the fast path (or the zero path) would take every one of the m samples and
 * nothing rare happens among them: the count does not pass the 16-bit layout's limit (the
 * widening is left to the one sample that does), and m < 2^16 (one carry at most, and the sums
 * grow between folds by at most 65,535 values more than the fast path's own bound allows, far
 * inside sum_lo's and sq_mid's headroom). Everything else is one bm_stats_add at a time, so the
 * state is the one n single adds leave (byte for byte: tests/stats). */
void bm_stats_add_n(struct bm_stats *s, uint64_t v, uint64_t n)
{
	if (!s->tail_len && n)
		n -= bm_st_ex_add(s, v, n);
	while (n) {
		uint32_t m = n < UINT16_MAX ? (uint32_t)n : UINT16_MAX;
		int fast = v - s->fast_lo < s->fast_span;
		int zero = v == 0 && s->min == 0 && s->tail_len == K && s->top != EMPTY_TOP;
		if ((!fast && !zero) || m >= 0 - s->nc) {
			if (fast) /* bm_stats_add(s, v), without another copy of it */
				hist_fast_call(s, v);
			else
				bm_st_add_slow(s, v);
			n--;
			continue;
		}
		s->nc += m;
		if (fast) {
			/* sums: m v (< 2^48) and m v^2 (< 2^80: two 48-bit partial products) */
			uint64_t sq = v * v, a = (sq & UINT32_MAX) * m, b = (sq >> 32) * m;
			uint64_t lo = a + (b << 32), hi = (b >> 32) + (lo < a);
			s->sum_lo += v * m;
			s->sq_lo += lo;
			s->sq_mid += hi + (s->sq_lo < lo);
			slot_add(s, bm_st_fast_slot(s, v), m);
		} else {
			slot_add(s, 0, m); /* bin 0, nothing to add to the sums (zero_add's path) */
		}
		n -= m;
	}
}

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif

/* Zero, a histogram sample (an empty body's net time, every sample of it): bin 0, nothing to add
 * to the sums, the fast path's count and carry. It took the general path, hundreds of
 * instructions a sample, for the `empty` benchmark of every run. Out of line, so that
 * bm_st_add_slow keeps its tail calls (no stack frame). */
__attribute__((noinline)) static void zero_add(struct bm_stats *s)
{
	if (__builtin_expect(++s->nc == 0, 0)) {
		bm_st_widen_add(s, 0);
		return;
	}
	if (s->min) { /* the first zero: the window's low end was the minimum, now 1 */
		s->min = 0;
		bm_st_fast_reset(s);
	}
	bm_st_slot_inc(s, 0);
}

/* Everything the fast path does not take. The two common cases here, each ending in the fast
 * path's own code, every call a tail call (no stack frame): a new maximum (ascending input:
 * append to the ring, the evicted minimum is a fast histogram insert; while the tail fills,
 * tail[tail_h] is UINT64_MAX, so nothing is above it), and a new minimum inside the window
 * (descending input). */
void bm_st_add_slow(struct bm_stats *s, uint64_t v)
{
	uintptr_t h = s->tail_h; /* uintptr_t: no zero-extensions on 64-bit cores */
	if (v > s->tail[h]) {
		h = (h + 1u) & KM;
		uint64_t out = s->tail[h];
		s->tail[h] = v;
		s->tail_h = (uint32_t)h;
		/* out was the tail's minimum: >= every histogram sample, so in the top octave or
		 * above; 1 <= out < 2^32, 2^(top+1) (never while the window is closed) */
		if (out - 1 < s->cap)
			bm_st_hist_fast(s, out);
		else
			hist_slow(s, out);
		return;
	}
	/* 1 <= v < fast_lo (never while the window is closed: fast_lo is then 1) */
#if ARCH_HAS_CLZ64
	if (v - 1 < s->fast_lo - 1) {
#else
	if (v - 1 < s->fast_lo - 1 && v >> s->fast_sh) {
#endif
		s->fast_span += s->fast_lo - v;
		s->fast_lo = v;
		s->min = v;
		bm_st_hist_fast(s, v);
		return;
	}
	if (v == 0 && s->tail_len == K && s->top != EMPTY_TOP) {
		zero_add(s);
		return;
	}
	add_rest(s, v);
}
