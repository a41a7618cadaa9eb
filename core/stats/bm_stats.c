/* Online statistics in fixed memory (see bm/stats.h and docs/statistics.md).
 *
 * - The K largest samples are kept exactly in a min-heap; every other sample is counted in a
 *   histogram anchored at its top octave e_top (the octave of its largest sample). Octave d below
 *   the top is cut into 46 bins for d < 13, 23 for d = 13, 6 for d = 14..15 and one bin below
 *   that; within an octave the bins are quasi-geometric (tables in bm_stats_tables.h), and every
 *   coarser bin is a union of finer ones. When e_top rises, each bin folds into the one that now
 *   holds its values: the layout is a pure function of e_top (and of n, see below), so any order
 *   of the same samples gives the same bins, and merging two states is exact.
 * - Counts are 16-bit; the few bins past 65,535 keep their high half in a spill table. With at
 *   most BM_STATS_U16_MAX_N samples no more than BM_STATS_SPILL bins can get there. Beyond that
 *   the state switches once to 32-bit counts and a layout of half the bins.
 * - Count, sum of x and sum of x^2 are exact integers; moments are computed at report time in
 *   wide integer arithmetic.
 *
 * Freestanding: no libc, no floating point, no division on the insert path. Report-time code
 * uses bit-serial wide division (a few thousand operations per call). */
#include "bm/stats.h"

#include "bm_stats_tables.h"

#define K BM_STATS_TOPK
#define EMPTY_TOP 0xffu
#define GRID_LO (1u << BM_ST_GRID_BITS)
#define GRID_SHIFT (63 - BM_ST_GRID_BITS) /* (v << (63 - e)) >> GRID_SHIFT: grid step of v */

_Static_assert(K >= 1 && K <= 65535, "BM_STATS_TOPK must be 1..65535");
_Static_assert(BM_STATS_SPILL <= 255, "spill_len is 8-bit");

#if defined(__GNUC__) && !defined(__clang__)
/* Keep GCC from turning the zeroing/copy loops into memset/memmove calls (no libc here). */
#define BM_NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define BM_NO_LIBCALLS
#endif

/* ---- layout --------------------------------------------------------------------------------- */

/* One band of octaves below the top: `octaves` octaves, each cut into the fine bins >> shift
 * (46, 23 or 6 bins), stored from bin `start` on, lowest octave first. Bands are listed from the
 * top down; below the last band every octave e has the single bin 1 + e, and bin 0 holds the
 * value 0. Bin indices fall as a sample's octave sinks below the top (band by band, and within a
 * band), which is what lets a re-layout run in place (see relayout). */
struct band {
	uint8_t shift, octaves;
	uint16_t start, per_octave;
};

struct layout {
	uint8_t nbands, deep_octaves; /* one-bin octaves: e < 64 - (octaves in bands) */
	uint16_t bins;
	struct band band[3];
};

#define PER(sh) (((BM_ST_FINE - 1) >> (sh)) + 1)
static const struct layout geo[2] = {
	/* 16-bit counts: 13 octaves x 46, 1 x 23, 2 x 6, 48 x 1, and the zero bin: 682 bins */
	{3, 48, 682, {{0, 13, 84, PER(0)}, {1, 1, 61, PER(1)}, {3, 2, 49, PER(3)}}},
	/* 32-bit counts: 12 octaves x 23, 2 x 6, 50 x 1, and the zero bin: 339 bins */
	{2, 50, 339, {{1, 12, 63, PER(1)}, {3, 2, 51, PER(3)}, {0, 0, 0, 0}}},
};
_Static_assert(PER(0) == 46 && PER(1) == 23 && PER(3) == 6, "band widths");
_Static_assert(84 + 13 * 46 == BM_STATS_SLOTS16 && 61 + 23 == 84 && 49 + 12 == 61 && 1 + 48 == 49,
               "16-bit layout is contiguous");
_Static_assert(63 + 12 * 23 == 339 && 51 + 12 == 63 && 1 + 50 == 51 && 339 <= BM_STATS_SLOTS16 / 2,
               "32-bit layout is contiguous and fits");

/* ---- index arithmetic ---------------------------------------------------------------------- */

#if (defined(__riscv) && !defined(__riscv_zbb)) || (defined(__ARM_ARCH) && !defined(__ARM_FEATURE_CLZ))
/* No count-leading-zeros instruction: GCC would call libgcc's __clzdi2. Two word tests, two
 * halvings and the byte table instead (branch-light, no call). */
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
	return r + bm_st_tab[x];
}
#else
static inline unsigned msb64(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}
#endif

/* Fine bin (0..45) of v >= 1 within its octave e. */
static inline unsigned fine_of(uint64_t v, unsigned e)
{
	return bm_st_tab[256 + ((v << (63 - e)) >> GRID_SHIFT) - GRID_LO];
}

/* Where octave e (<= top) lives under layout L: its first bin, and the shift that maps a fine
 * bin (0..45) to its bin within the octave. Deep octaves have one bin (shift 6: 45 >> 6 = 0). */
static unsigned block_of(const struct layout *L, unsigned top, unsigned e, unsigned *shift)
{
	unsigned d = top - e;
	for (unsigned i = 0; i < L->nbands; i++) {
		const struct band *b = &L->band[i];
		if (d < b->octaves) {
			*shift = b->shift;
			return b->start + (b->octaves - 1 - d) * b->per_octave;
		}
		d -= b->octaves;
	}
	*shift = 6;
	return 1 + e;
}

/* Histogram bin of v under layout L with top octave top (v's octave must be <= top). */
static unsigned bin_of(const struct layout *L, unsigned top, uint64_t v)
{
	if (!v)
		return 0;
	unsigned e = msb64(v), sh, start = block_of(L, top, e, &sh);
	return start + (fine_of(v, e) >> sh);
}

/* Values [lo, hi] of grid steps [ta, tb) in octave e. */
static void grid_range(unsigned e, unsigned ta, unsigned tb, uint64_t *lo, uint64_t *hi)
{
	if (e >= BM_ST_GRID_BITS) {
		*lo = (uint64_t)ta << (e - BM_ST_GRID_BITS);
		*hi = ((uint64_t)tb << (e - BM_ST_GRID_BITS)) - 1; /* wraps to 2^64-1 at the top */
	} else {
		unsigned sh = BM_ST_GRID_BITS - e;
		*lo = (ta + (1u << sh) - 1) >> sh;
		*hi = ((tb + (1u << sh) - 1) >> sh) - 1;
	}
}

/* Values [lo, hi] of bin i under layout L with top octave top. Returns 0 for a bin that holds
 * no value (an octave below 0 or above the deep range), 1 otherwise. No division. */
static int bin_range(const struct layout *L, unsigned top, unsigned i, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = 0;
	if (i == 0)
		return 1;
	if (i <= L->deep_octaves) {
		unsigned e = i - 1;
		*lo = 1ull << e;
		*hi = *lo + (*lo - 1);
		return e + 64u - L->deep_octaves <= top; /* else: not below the bands */
	}
	unsigned d0 = 0;
	for (unsigned k = 0; k < L->nbands; k++)
		d0 += L->band[k].octaves;
	for (unsigned k = L->nbands; k-- > 0;) {
		const struct band *b = &L->band[k];
		d0 -= b->octaves;
		if (i < b->start || i >= b->start + (unsigned)b->octaves * b->per_octave)
			continue;
		unsigned off = i - b->start, j = 0;
		while (off >= b->per_octave) {
			off -= b->per_octave;
			j++;
		}
		unsigned d = d0 + (b->octaves - 1 - j);
		if (d > top)
			return 0;
		unsigned ga = off << b->shift, gb = (off + 1) << b->shift;
		grid_range(top - d, bm_st_edge[ga], bm_st_edge[gb < BM_ST_FINE ? gb : BM_ST_FINE], lo, hi);
		return *lo <= *hi;
	}
	return 0;
}

/* ---- counts --------------------------------------------------------------------------------- */

static int spill_find(const struct bm_stats *s, unsigned i)
{
	for (unsigned k = 0; k < s->spill_len; k++)
		if (s->spill_bin[k] == i)
			return (int)k;
	return -1;
}

static uint64_t count_get(const struct bm_stats *s, unsigned i)
{
	if (s->wide)
		return s->bins.c32[i];
	int k = spill_find(s, i);
	return s->bins.c16[i] + (k < 0 ? 0 : (uint64_t)s->spill_hi[k] << 16);
}

/* Store count c in bin i (16-bit storage: the high half goes to the spill table). */
static void count_set(struct bm_stats *s, unsigned i, uint64_t c)
{
	if (c > UINT32_MAX) {
		c = UINT32_MAX;
		s->flags |= BM_STATS_F_BIN_SATURATED;
	}
	if (s->wide) {
		s->bins.c32[i] = (uint32_t)c;
		return;
	}
	s->bins.c16[i] = (uint16_t)c;
	int k = spill_find(s, i);
	if (c >> 16) {
		if (k < 0) {
			if (s->spill_len == BM_STATS_SPILL) {
				/* Cannot happen: at most BM_STATS_U16_MAX_N samples are held in 16-bit
				 * storage, so no more than BM_STATS_SPILL bins exceed 65,535. */
				s->bins.c16[i] = UINT16_MAX;
				s->flags |= BM_STATS_F_BIN_SATURATED;
				return;
			}
			k = s->spill_len++;
			s->spill_bin[k] = (uint16_t)i;
		}
		s->spill_hi[k] = (uint16_t)(c >> 16);
	} else if (k >= 0) {
		s->spill_len--;
		s->spill_bin[k] = s->spill_bin[s->spill_len];
		s->spill_hi[k] = s->spill_hi[s->spill_len];
	}
}

static void count_add(struct bm_stats *s, unsigned i, uint64_t c)
{
	count_set(s, i, count_get(s, i) + c);
}

/* ---- layout changes -------------------------------------------------------------------------- */

/* Move every bin from layout `from` (top octave from_top) to layout `to` (top to_top >= from_top,
 * `to` no finer anywhere), in the current storage, one octave at a time: bin k of an octave
 * becomes bin k >> (new shift - old shift) of the same octave. A bin's new index is never above
 * its old one, so an ascending pass (lowest octave up; the zero bin never moves) is in place:
 * every target was visited already. */
BM_NO_LIBCALLS static void relayout(struct bm_stats *s, const struct layout *from, unsigned from_top,
                                    const struct layout *to, unsigned to_top)
{
	/* octaves below the smallest sample hold nothing */
	for (unsigned e = s->min && s->min != UINT64_MAX ? msb64(s->min) : 0; e <= from_top; e++) {
		unsigned osh, nsh;
		unsigned os = block_of(from, from_top, e, &osh), ns = block_of(to, to_top, e, &nsh);
		unsigned per = PER(osh), sh = nsh - osh;
		for (unsigned k = 0; k < per; k++) {
			unsigned i = os + k, j = ns + (k >> sh);
			if (j == i)
				continue;
			if (!s->wide && !s->spill_len) { /* the common case, without table lookups */
				uint32_t c16 = s->bins.c16[i];
				if (!c16)
					continue;
				s->bins.c16[i] = 0;
				c16 += s->bins.c16[j];
				if (c16 >> 16)
					count_set(s, j, c16);
				else
					s->bins.c16[j] = (uint16_t)c16;
				continue;
			}
			uint64_t c = count_get(s, i);
			if (!c)
				continue;
			count_set(s, i, 0);
			count_add(s, j, c);
		}
	}
}

/* 16-bit to 32-bit counts (once, when n passes BM_STATS_U16_MAX_N): fold into the wide layout
 * in 16-bit storage (the spill table suffices: the histogram holds <= BM_STATS_U16_MAX_N), then
 * widen from the top down (32-bit bin j covers 16-bit bins 2j and 2j+1, both read already). */
BM_NO_LIBCALLS static void widen(struct bm_stats *s)
{
	if (s->e_top != EMPTY_TOP)
		relayout(s, &geo[0], s->e_top, &geo[1], s->e_top);
	for (unsigned j = geo[1].bins; j-- > 0;) {
		uint64_t c = count_get(s, j);
		s->bins.c32[j] = (uint32_t)c;
	}
	for (unsigned j = geo[1].bins; j < BM_STATS_SLOTS16 / 2; j++)
		s->bins.c32[j] = 0;
	s->spill_len = 0;
	s->wide = 1;
}

/* Count c samples of value v in the histogram, raising the top first if v is above it. */
static void hist_insert(struct bm_stats *s, uint64_t v, uint64_t c)
{
	const struct layout *L = &geo[s->wide];
	unsigned e = v ? msb64(v) : 0;
	if (s->e_top == EMPTY_TOP)
		s->e_top = (uint8_t)e;
	else if (e > s->e_top) {
		relayout(s, L, s->e_top, L, e);
		s->e_top = (uint8_t)e;
	}
	count_add(s, bin_of(L, s->e_top, v), c);
}

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
	hist_insert(s, out, 1);
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
	const struct band *b = &geo[0].band[0];
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
		widen(s); /* the histogram holds <= n - 1 samples here, see widen() */
	if (v >= heap_gate(s)) {
		if (v > s->max)
			s->max = v;
		if (v < s->min)
			s->min = v;
		heap_insert(s, v);
	} else {
		if (v < s->min)
			s->min = v;
		hist_insert(s, v, 1);
	}
	fast_reset(s);
}

/* The fast path counted v (n, sums, min) but could not place it in the histogram. */
__attribute__((noinline)) static void hist_slow(struct bm_stats *s, uint64_t v)
{
	hist_insert(s, v, 1);
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
		widen(dst);

	/* The K largest of both heaps stay; everything else goes to the histogram. */
	for (unsigned i = 0; i < src->heap_len; i++) {
		uint64_t v = src->heap[i];
		if (v >= heap_gate(dst))
			heap_insert(dst, v);
		else
			hist_insert(dst, v, 1);
	}
	if (src->e_top != EMPTY_TOP) {
		/* Raise dst's top to src's, then every src bin lands whole in one dst bin (dst's
		 * layout is no finer anywhere: same or higher top, same or wider counts). */
		const struct layout *L = &geo[dst->wide], *LS = &geo[src->wide];
		uint64_t lo, hi;
		if (dst->e_top == EMPTY_TOP)
			dst->e_top = src->e_top;
		else if (src->e_top > dst->e_top) {
			relayout(dst, L, dst->e_top, L, src->e_top);
			dst->e_top = src->e_top;
		}
		for (unsigned i = 0; i < LS->bins; i++) {
			uint64_t c = count_get(src, i);
			if (c && bin_range(LS, src->e_top, i, &lo, &hi))
				count_add(dst, bin_of(L, dst->e_top, lo), c);
		}
	}
	fast_reset(dst);
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

/* The sum of squares, sq_lo + 2^64 sq_mid + 2^127 sq_top. */
static struct wn wn_sumsq(const struct bm_stats *s)
{
	struct bm_u128 lm = {s->sq_lo, s->sq_mid};
	struct wn r = wn_u128(lm), t = wn_u64(s->sq_top);
	for (unsigned i = 0; i < 127; i++)
		wn_shl1(&t);
	wn_add(&r, &t);
	return r;
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

/* Value range of histogram bin i, clamped to what the exact extremes allow. */
static void pos_range(const struct bm_stats *s, unsigned i, uint64_t *lo, uint64_t *hi)
{
	bin_range(&geo[s->wide], s->e_top, i, lo, hi);
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
	uint64_t n = bm_stats_count(s);
	if (n == 0)
		return;
	uint64_t rank = rank_of(n, num, den), hist_n = n - s->heap_len;
	uint64_t v;
	uint32_t bound = 0;
	if (rank > hist_n) {
		v = heap_nth_largest(s, (unsigned)(n - rank + 1));
	} else if (rank == 1) {
		v = s->min;
	} else {
		uint64_t cum = 0;
		unsigned p = 0, last = geo[s->wide].bins - 1;
		for (; p < last; p++) {
			cum += count_get(s, p);
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
	unsigned e = value ? msb64(value) : 0, top = s->e_top;
	if (top == EMPTY_TOP || e > top)
		top = e;
	const struct layout *L = &geo[s->wide];
	bin_range(L, top, bin_of(L, top, value), lo, hi);
}

/* True when some histogram sample sits below full resolution: 32-bit counts (23 bins per octave
 * at best), or a bin below the top band. */
static bool coarsened(const struct bm_stats *s)
{
	if (s->wide)
		return s->e_top != EMPTY_TOP;
	for (unsigned i = 1; i < geo[0].band[0].start; i++)
		if (count_get(s, i))
			return true;
	return false;
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
	if (s->e_top != EMPTY_TOP) {
		for (unsigned p = 0; p < geo[s->wide].bins; p++) {
			uint64_t c = count_get(s, p);
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
	uint64_t kept = bm_stats_count(s) - out_lo - out_hi;
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
	struct wn n = wn_u64(bm_stats_count(s)), s1 = wn_u128(s->sum), s2 = wn_sumsq(s);
	struct wn v = wn_mul(&n, &s2), sq = wn_mul(&s1, &s1);
	if (wn_sub(&v, &sq))
		v = wn_u64(0);
	return v;
}

/* N (N-1) div^2 */
BM_NO_LIBCALLS __attribute__((noinline)) static struct wn nn1_div2(const struct bm_stats *s, uint64_t div)
{
	struct wn n = wn_u64(bm_stats_count(s)), nm1 = wn_u64(bm_stats_count(s) - 1), dv = wn_u64(div);
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
	x = wn_mul64(&x, bm_stats_count(s));
	d = wn_mul(&d, &d);
	d = wn_mul64(&d, bm_stats_count(s) - 1);
	return wn_sqrt_ratio_round(&x, &d);
}

/* ci95_milli = t * stddev / sqrt(N) = sqrt(t_e4^2 V / (100 N^2 (N-1) div^2)) */
BM_NO_LIBCALLS __attribute__((noinline)) static uint64_t ci95_milli(const struct bm_stats *s, uint64_t div)
{
	uint64_t t = t95_e4(bm_stats_count(s) - 1);
	struct wn x = variance_num(s), d = nn1_div2(s, div);
	x = wn_mul64(&x, t * t);
	d = wn_mul64(&d, bm_stats_count(s));
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
	uint64_t n = bm_stats_count(s);
	r->n = n;
	r->bins_per_octave = s->wide ? PER(1) : PER(0);
	r->flags = s->flags | (coarsened(s) ? BM_STATS_F_COARSENED : 0);
	if (n == 0)
		return;
	r->min_milli = milli(s->min, div);
	r->max_milli = milli(s->max, div);
	bm_stats_quantile(s, 1, 2, div, &r->p50);
	bm_stats_quantile(s, 9, 10, div, &r->p90);
	bm_stats_quantile(s, 99, 100, div, &r->p99);
	bm_stats_quantile(s, 999, 1000, div, &r->p999);

	struct wn x = wn_u128(s->sum), d = wn_u64(n);
	/* mean = S1 / N */
	x = wn_mul64(&x, 1000);
	d = wn_mul64(&d, div);
	r->mean_milli = wn_div_round(&x, &d);
	if (n >= 2 && !(s->flags & BM_STATS_F_SUM_SATURATED)) {
		r->stddev_milli = stddev_milli(s, div);
		if (s->sum.lo || s->sum.hi)
			r->cv_ppm = cv_ppm(s);
		r->ci95_milli = ci95_milli(s, div);
	}
	tukey(s, div, r);
}
