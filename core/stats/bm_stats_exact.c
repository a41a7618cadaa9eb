/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics core, the exact mode (see bm/stats.h's struct): up to K distinct values with their
 * counts, every figure exact; the switch to histogram mode, in place, when a value past K
 * arrives; and what the report and the hist record read of an exact state. */
#include "bm_stats_internal.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Once per new value, once per state (the switch) and at report time: size first (the
 * per-sample path, bm_st_ex_sample, is O2). */
#pragma GCC optimize("Os")
#endif

_Static_assert(K <= 255, "ex_m and the hash's entries are 8-bit");
_Static_assert(1u << BM_ST_EX_BITS == BM_ST_EX_SLOTS, "BM_ST_EX_BITS is log2(2K)");
_Static_assert(offsetof(struct bm_stats, ex_hash) + sizeof(((struct bm_stats *)0)->ex_hash) <=
                       offsetof(struct bm_stats, c16) + sizeof(((struct bm_stats *)0)->c16),
               "the exact counts and their hash fit the histogram's storage");

/* ---- the insert ---------------------------------------------------------------------------- */

/* Exact mode's window: every value but 0 (which takes the slow path) goes to the inline insert,
 * whose count increment (nc pinned at UINT64_MAX) sends it to bm_st_widen_add; closed while
 * there is no value. */
void bm_st_ex_window(struct bm_stats *s)
{
	s->fast_lo = 1;
	s->fast_span = s->ex_m ? UINT64_MAX : 0;
	s->cap = 0;
	s->nc = UINT64_MAX;
	s->fast_row = &bm_st_depth[63];
}

/* v, a new value (ex_m < K), with count 0, at the end, in the hash slot its search ended at. */
static unsigned ex_append(struct bm_stats *s, unsigned slot, uint64_t v)
{
	unsigned m = s->ex_m;
	s->tail[m] = v;
	s->ex_count[m] = 0;
	s->ex_hash[slot] = (uint8_t)(m + 1u);
	s->ex_m = (uint8_t)(m + 1u);
	if (!m || v < s->min)
		s->min = v;
	if (!m || v > s->ex_max)
		s->ex_max = v;
	return m;
}

uint64_t bm_st_ex_add(struct bm_stats *s, uint64_t v, uint64_t c)
{
	uintptr_t slot, j;
	if (s->ex_n == UINT32_MAX) { /* 2^32 - 1 samples (>= K): the histogram takes the rest */
		bm_st_ex_to_hist(s);
		return 0;
	}
	if ((j = bm_st_ex_find(s, v, &slot)) != 0) {
		j--;
	} else {
		if (s->ex_m == K) { /* a value past K (so n >= K) */
			bm_st_ex_to_hist(s);
			return 0;
		}
		j = ex_append(s, (unsigned)slot, v);
	}
	uint64_t take = c < UINT32_MAX - s->ex_n ? c : UINT32_MAX - s->ex_n; /* >= 1 */
	s->ex_count[j] += (uint32_t)take;
	s->ex_n += (uint32_t)take;
	bm_st_ex_window(s);
	if (take < c)
		bm_st_ex_to_hist(s);
	return take;
}

/* bm_st_ex_add for one sample, and the rest in histogram mode if it switched (the slow path
 * takes any value: no second copy of the inline insert here). */
__attribute__((noinline)) static void ex_add_one(struct bm_stats *s, uint64_t v)
{
	if (!bm_st_ex_add(s, v, 1))
		bm_st_add_slow(s, v);
}

/* One sample of v >= 1 (bm_st_widen_add's, ex_m >= 1): the count of a value the hash finds; a
 * new value (or the 2^32nd sample) in ex_add_one. Every call a tail call: no frame on the
 * per-sample path. */
__attribute__((optimize("O2"))) void bm_st_ex_sample(struct bm_stats *s, uint64_t v)
{
	uintptr_t slot, e = bm_st_ex_find(s, v, &slot);
	uint32_t n1 = s->ex_n + 1u;
	if (!e || __builtin_expect(n1 == 0, 0)) {
		ex_add_one(s, v);
		return;
	}
	s->ex_count[e - 1u]++;
	s->ex_n = n1;
	s->nc = UINT64_MAX;
}

/* ---- order ---------------------------------------------------------------------------------- */

/* The values' indices in ascending order of value (the values are kept as they came). */
static void ex_order(const struct bm_stats *s, uint8_t *perm)
{
	for (unsigned i = 0; i < s->ex_m; i++) {
		unsigned k = i;
		for (; k && s->tail[perm[k - 1u]] > s->tail[i]; k--)
			perm[k] = perm[k - 1u];
		perm[k] = (uint8_t)i;
	}
}

/* The values and their counts sorted in place (the hash is then stale: the switches only). A
 * Shell sort (Ciura's gaps): the values come in any order, and an insertion sort of 64 that came
 * descending is 2,016 moves of a pair, most of the switch's cost. */
BM_NO_LIBCALLS static void ex_sort(struct bm_stats *s)
{
	static const uint8_t gap[] = {23, 10, 4, 1};
	uint64_t *v = s->tail;
	uint32_t *c = s->ex_count;
	uintptr_t m = s->ex_m; /* (word-sized indices: no extension of each on a 64-bit core) */
	for (uintptr_t g = 0; g < sizeof gap; g++) {
		uintptr_t h = gap[g];
		for (uintptr_t i = h; i < m; i++) {
			uint64_t x = v[i];
			uint32_t cx = c[i];
			uintptr_t k = i;
			for (; k >= h && v[k - h] > x; k -= h) {
				v[k] = v[k - h];
				c[k] = c[k - h];
			}
			v[k] = x;
			c[k] = cx;
		}
	}
}

/* In ascending order `perm` (NULL: the values' own), the place holding the smallest of the K
 * largest samples (n >= K), and how many of its samples are among them. */
static unsigned ex_split(const struct bm_stats *s, const uint8_t *perm, uint32_t *in_tail)
{
	uint64_t above = 0;
	unsigned i = s->ex_m;
	while (i-- > 1u && above + s->ex_count[perm ? perm[i] : i] < K)
		above += s->ex_count[perm ? perm[i] : i];
	*in_tail = (uint32_t)(K - above);
	return i;
}

/* sum v c into a (128 bits), sum v^2 c into b (three words): c < 2^32. */
static void ex_acc(struct bm_u128 *a, uint64_t b[3], uint64_t v, uint32_t c)
{
	struct bm_u128 sq = bm_u128_mul64(v, v), lo = bm_u128_mul64(sq.lo, c), hi = bm_u128_mul64(sq.hi, c);
	bm_u128_add(a, bm_u128_mul64(v, c));
	struct bm_u128 x = {b[0], b[1]};
	b[2] += hi.hi + bm_u128_add(&x, lo);
	struct bm_u128 y = {x.hi, b[2]};
	bm_u128_add(&y, bm_st_u128_of(hi.lo, 0));
	b[0] = x.lo;
	b[1] = y.lo;
	b[2] = y.hi;
}

static void ex_wide(struct bm_wide *s1, struct bm_wide *s2, struct bm_u128 a, const uint64_t b[3])
{
	*s1 = bm_wide_u128(a);
	*s2 = bm_wide_u128(bm_st_u128_of(b[0], b[1]));
	s2->w[4] = (uint32_t)b[2];
	s2->w[5] = (uint32_t)(b[2] >> 32);
}

/* The histogram's counts and spill table, where the exact mode kept its counts, hash and extremes,
 * zeroed by 32-bit words (both are word-aligned and sized; may_alias: they have other members): a
 * 16-bit store each was 2,000 instructions of a switch. */
BM_NO_LIBCALLS static void ex_clear(struct bm_stats *s)
{
	typedef uint32_t __attribute__((may_alias)) word;
	_Static_assert(offsetof(struct bm_stats, c16) % 4 == 0 && sizeof s->c16 % 4 == 0, "c16 is zeroed by words");
	_Static_assert(offsetof(struct bm_stats, spill_bin) % 4 == 0 && sizeof s->spill_bin % 4 == 0 &&
	                       sizeof s->spill_hi % 4 == 0, "the spill table is zeroed by words");
	word *z = (word *)s->c16;
	for (uintptr_t i = 0; i < sizeof s->c16 / 4; i++)
		z[i] = 0;
	z = (word *)s->spill_bin;
	for (uintptr_t i = 0; i < sizeof s->spill_bin / 4; i++)
		z[i] = 0;
	z = (word *)s->spill_hi;
	for (uintptr_t i = 0; i < sizeof s->spill_hi / 4; i++)
		z[i] = 0;
}

/* ---- the switch to histogram mode ----------------------------------------------------------- */

/* In place, no buffer but the tail values' counts (K bytes): the values, sorted, move to the top
 * of the tail's array (value i at tail[K - m + i]) and their counts likewise; the histogram's
 * values become (count, bin) pairs where they stood; the counts' storage (and the hash) is
 * cleared and the bins filled from the pairs; then the tail is written from its bottom up, each
 * slot read before it is written (the p-th smallest of the K largest lies at value index >= p,
 * since every value above it holds a sample above it). Gives the state these samples give in
 * histogram mode: its layout is that of its top octave and n, its tail the K largest, its sums
 * exact. */
BM_NO_LIBCALLS void bm_st_ex_to_hist(struct bm_stats *s)
{
	unsigned m = s->ex_m, d = K - m;
	uint64_t n = s->ex_n, hn = n - K;
	uint32_t in_tail, c0;
	uint8_t tc[K];
	ex_sort(s);
	unsigned j0 = ex_split(s, 0, &in_tail) + d;
	for (unsigned i = m; d && i-- > 0;) {
		s->tail[d + i] = s->tail[i];
		s->ex_count[d + i] = s->ex_count[i];
	}
	for (unsigned i = j0; i < K; i++)
		tc[i - j0] = (uint8_t)(i == j0 ? in_tail : s->ex_count[i]);
	c0 = s->ex_count[j0] - in_tail;
	uint64_t hmax = c0 ? s->tail[j0] : s->tail[j0 - (j0 > d)], sq[3] = {0, 0, 0};
	unsigned wide = n > BM_STATS_U16_MAX_N, top = hmax ? bm_st_msb64(hmax) : 0, b0 = 0;
	struct bm_u128 sum = {0, 0};
	for (unsigned i = d; hn && i <= j0; i++) {
		uint64_t v = s->tail[i];
		uint32_t c = i < j0 ? s->ex_count[i] : c0;
		ex_acc(&sum, sq, v, c);
		unsigned b = bm_st_bin_of(wide, top, v);
		if (i < j0)
			s->tail[i] = (uint64_t)c << 10 | b; /* (c < 2^32, b < 1024) */
		else
			b0 = b;
	}
	ex_clear(s);
	s->spill_len = 0;
	s->wide = (uint8_t)wide;
	s->top = hn ? (uint8_t)top : EMPTY_TOP;
	for (unsigned i = d; hn && i < j0; i++)
		bm_st_count_add(s, (unsigned)(s->tail[i] & 1023u), s->tail[i] >> 10);
	if (hn && c0)
		bm_st_count_add(s, b0, c0);
	/* the tail, ascending, from value j0 up */
	unsigned i = j0;
	uint32_t left = tc[0];
	uint64_t cur = s->tail[j0];
	for (unsigned p = 0; p < K; p++) {
		while (!left) {
			i++;
			left = tc[i - j0];
			cur = s->tail[i];
		}
		s->tail[p] = cur;
		left--;
	}
	s->tail_h = K - 1u;
	s->tail_len = K;
	s->ex_m = 0;
	s->min = hn ? s->min : UINT64_MAX; /* the smallest value is the histogram's smallest */
	struct bm_wide s1, s2;
	ex_wide(&s1, &s2, sum, sq);
	bm_st_sums_set(s, &s1, &s2);
	s->nc = hn - BM_ST_NC0;
	bm_st_fast_reset(s);
}

/* n < K samples (merge only: a histogram-mode state arrives): the tail holding them all, as a
 * histogram-mode state fills it (tail[0 .. n) ascending, the rest UINT64_MAX, no histogram),
 * written from the top down: the p-th smallest lies at value index <= p. */
BM_NO_LIBCALLS void bm_st_ex_to_tail(struct bm_stats *s)
{
	unsigned m = s->ex_m, n = s->ex_n, p = n;
	ex_sort(s);
	for (unsigned i = m; i-- > 0;) {
		uint64_t v = s->tail[i];
		for (uint32_t c = s->ex_count[i]; c; c--)
			s->tail[--p] = v;
	}
	for (unsigned k = n; k < K; k++)
		s->tail[k] = UINT64_MAX;
	ex_clear(s);
	s->tail_h = K - 1u;
	s->tail_len = (uint8_t)n;
	s->ex_m = 0;
	s->min = UINT64_MAX;
	s->nc = 0 - (uint64_t)BM_ST_NC0;
}

/* ---- from a record -------------------------------------------------------------------------- */

/* tail[0 .. tail_len) ascending, no histogram (a hist record's n <= K samples): the same
 * samples as exact values, in place (value k's slot is never above the sample it comes from). */
BM_NO_LIBCALLS void bm_st_ex_from_tail(struct bm_stats *s)
{
	unsigned len = s->tail_len, m = 0;
	for (unsigned k = 0; k < len; k++) {
		uint64_t v = s->tail[k];
		if (m && v == s->tail[m - 1u]) {
			s->ex_count[m - 1u]++;
			continue;
		}
		s->tail[m] = v;
		s->ex_count[m++] = 1;
	}
	s->ex_m = (uint8_t)m;
	s->ex_n = len;
	s->tail_len = 0;
	s->tail_h = K - 1u;
	bm_st_ex_ready(s);
}

/* After the values and counts were put in place (a rebuild): min, max, the hash, the window. */
BM_NO_LIBCALLS void bm_st_ex_ready(struct bm_stats *s)
{
	uintptr_t h;
	for (unsigned i = s->ex_m; i < K; i++)
		s->tail[i] = UINT64_MAX;
	for (unsigned i = 0; i < BM_ST_EX_SLOTS; i++)
		s->ex_hash[i] = 0;
	s->min = UINT64_MAX;
	s->ex_max = 0;
	for (unsigned i = 0; i < s->ex_m; i++) {
		uint64_t v = s->tail[i];
		bm_st_ex_find(s, v, &h);
		s->ex_hash[h] = (uint8_t)(i + 1u);
		s->min = v < s->min ? v : s->min;
		s->ex_max = v > s->ex_max ? v : s->ex_max;
	}
	bm_st_ex_window(s);
}

/* ---- what the report and the records read ---------------------------------------------------- */

/* The index of the value of each rank (ascending ranks, each <= n), in one walk. */
void bm_st_ex_ranks(const struct bm_stats *s, const uint64_t *rank, unsigned k, unsigned *at)
{
	uint8_t perm[K];
	uint64_t upto = 0;
	unsigned i = 0;
	ex_order(s, perm);
	for (unsigned r = 0; r < k; r++) {
		while (i + 1u < s->ex_m && upto + s->ex_count[perm[i]] < rank[r])
			upto += s->ex_count[perm[i++]];
		at[r] = s->ex_m ? perm[i] : 0;
	}
}

void bm_st_ex_totals(const struct bm_stats *s, struct bm_wide *s1, struct bm_wide *s2)
{
	struct bm_u128 sum = {0, 0};
	uint64_t sq[3] = {0, 0, 0};
	for (unsigned i = 0; i < s->ex_m; i++)
		ex_acc(&sum, sq, s->tail[i], s->ex_count[i]);
	ex_wide(s1, s2, sum, sq);
}

static void view_bin(const struct bm_stats_view *v, unsigned wide, unsigned top, unsigned b, uint64_t c)
{
	uint64_t lo, hi;
	bm_st_bin_range(wide, top, b, &lo, &hi);
	v->bin(v->ctx, lo, hi, c);
}

/* The bins and tail of the histogram-mode state of these samples (bm_stats_view): the values
 * below the K largest samples, bin by bin in the layout of their top octave and n, then the K
 * largest (or all n <= K) one by one; and the values with their counts, ascending. */
void bm_st_ex_view(const struct bm_stats *s, const struct bm_stats_view *v)
{
	uint8_t perm[K];
	uint64_t n = s->ex_n;
	ex_order(s, perm);
	uint32_t in_tail = s->ex_m ? s->ex_count[perm[0]] : 0;
	unsigned j0 = 0;
	if (n > K) {
		j0 = ex_split(s, perm, &in_tail);
		uint32_t c0 = s->ex_count[perm[j0]] - in_tail;
		uint64_t hmax = s->tail[perm[c0 ? j0 : j0 - 1u]], acc = 0;
		unsigned wide = n > BM_STATS_U16_MAX_N, top = hmax ? bm_st_msb64(hmax) : 0, cur = 0;
		for (unsigned i = 0; i <= j0; i++) {
			uint32_t c = i < j0 ? s->ex_count[perm[i]] : c0;
			unsigned b = bm_st_bin_of(wide, top, s->tail[perm[i]]);
			if (!c)
				continue;
			if (acc && b != cur) {
				view_bin(v, wide, top, cur, acc);
				acc = 0;
			}
			cur = b;
			acc += c;
		}
		if (acc)
			view_bin(v, wide, top, cur, acc);
	}
	for (unsigned i = j0; i < s->ex_m; i++)
		for (uint32_t c = i == j0 ? in_tail : s->ex_count[perm[i]]; c; c--)
			v->tail(v->ctx, s->tail[perm[i]]);
	for (unsigned i = 0; v->value && i < s->ex_m; i++)
		v->value(v->ctx, s->tail[perm[i]], s->ex_count[perm[i]]);
}
