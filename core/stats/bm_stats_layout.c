/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics core, the histogram itself (see bm_stats_internal.h): its layout anchored at the
 * top octave, bin arithmetic, counts in 16-bit storage with a spill table or in split 32-bit
 * storage, the in-place folds when the top rises or the counts widen, and the sums. */
#include "bm_stats_internal.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Nothing here runs per sample (a carry is once per 65,536 increments of a bin, a re-layout
 * once per octave the top rises): size first. */
#pragma GCC optimize("Os")
#endif

_Static_assert(K >= 1 && K <= 128 && (K & (K - 1)) == 0, "BM_STATS_TOPK must be a power of two, 1..128");
_Static_assert(BM_STATS_SPILL <= 255, "spill_len is 8-bit");
_Static_assert(BM_ST_GRID_BITS == 9 && BM_ST_FINE == 46, "the insert path assumes 9 grid bits, 46 fine bins");
_Static_assert(BM_ST_HI + 339 <= BM_STATS_SLOTS16 && BM_ST_HI >= 339, "split 32-bit counts fit");

/* The one copy of the generated tables, under names the other parts (and the inline insert) can
 * link to. */
extern const uint8_t bm_st_tab_x[256 + 512] __attribute__((alias("bm_st_tab")));
extern const uint16_t bm_st_edge_x[BM_ST_FINE + 1] __attribute__((alias("bm_st_edge")));

/* The layout by depth (tools/gen-stats-tables, from bmlib/layout.py's depth): 682 bins with
 * 16-bit counts, 339 with 32-bit ones. */
const uint16_t bm_st_depth[128] = BM_ST_DEPTH_TABLE;

/* Fine bin (0..45) of v >= 1 within its octave e. */
static unsigned fine_of(uint64_t v, unsigned e)
{
	return bm_st_tab_x[256 + ((v << (63 - e)) >> 54) - GRID_LO];
}

unsigned bm_st_bin_of(unsigned w, unsigned top, uint64_t v)
{
	if (!v)
		return 0;
	unsigned e = bm_st_msb64(v), d = DEPTH(w, top - e);
	return (d >> 6) + (fine_of(v, e) >> (d & 63));
}

int bm_st_bin_range(unsigned w, unsigned top, unsigned i, uint64_t *lo, uint64_t *hi)
{
	*lo = *hi = 0;
	if (i == 0)
		return 1;
	for (unsigned d = 0; d <= top; d++) {
		unsigned x = DEPTH(w, d), base = x >> 6, sh = x & 63;
		if (i < base || i >= base + PER(sh))
			continue;
		unsigned e = top - d, ga = (i - base) << sh, gb = ga + (1u << sh);
		uint64_t ta = bm_st_edge_x[ga], tb = bm_st_edge_x[gb < BM_ST_FINE ? gb : BM_ST_FINE];
		/* values whose grid step (v << (63 - e)) >> 54 lies in [ta, tb) */
		if (e >= BM_ST_GRID_BITS) {
			*lo = ta << (e - BM_ST_GRID_BITS);
			*hi = (tb << (e - BM_ST_GRID_BITS)) - 1; /* wraps to 2^64-1 at the top */
		} else {
			unsigned s = BM_ST_GRID_BITS - e;
			*lo = (ta + (1u << s) - 1) >> s;
			*hi = ((tb + (1u << s) - 1) >> s) - 1;
		}
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

/* Four 16-bit counts at a time where no spill entry can make a zero low half a non-zero count
 * (16-bit storage, nothing spilled: the usual case), one by one otherwise. */
unsigned bm_st_next_bin(const struct bm_stats *s, unsigned i, unsigned nb)
{
	typedef uint64_t __attribute__((may_alias)) quad;
	_Static_assert(offsetof(struct bm_stats, c16) % 8 == 0, "c16 must be 8-byte aligned");
	if (!s->wide && !s->spill_len) {
		for (; i < nb && (i & 3); i++)
			if (s->c16[i])
				return i;
		while (i + 4 <= nb && !*(const quad *)&s->c16[i])
			i += 4;
	}
	while (i < nb && !bm_st_count_get(s, i))
		i++;
	return i;
}

uint64_t bm_st_count_spilled(const struct bm_stats *s, unsigned i)
{
	int k = spill_find(s, i);
	return s->c16[i] + (k < 0 ? 0 : (uint64_t)s->spill_hi[k] << 16);
}

/* Store count c in bin i (16-bit storage: the high half goes to the spill table). */
void bm_st_count_set(struct bm_stats *s, unsigned i, uint64_t c)
{
	if (c > UINT32_MAX) {
		c = UINT32_MAX;
		s->flags |= BM_STATS_F_BIN_SATURATED;
	}
	s->c16[i] = (uint16_t)c;
	if (s->wide) {
		s->c16[BM_ST_HI + i] = (uint16_t)(c >> 16);
		return;
	}
	int k = spill_find(s, i);
	if (c >> 16) {
		if (k < 0) {
			if (s->spill_len == BM_STATS_SPILL) {
				/* Cannot happen: at most BM_STATS_U16_MAX_N samples are held in 16-bit
				 * storage, so no more than BM_STATS_SPILL bins exceed 65,535. */
				s->c16[i] = UINT16_MAX;
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

void bm_st_count_add(struct bm_stats *s, unsigned i, uint64_t c)
{
	bm_st_count_set(s, i, bm_st_count_get(s, i) + c);
}

/* The fast path's u16 increment wrapped bin `slot` to 0: carry into its high half. Also folds
 * the sums: the fast path has added at most 682 x 65,535 values since the last fold. */
void bm_st_carry(struct bm_stats *s, uintptr_t slot)
{
	bm_st_fold(s);
	s->c16[slot] = UINT16_MAX; /* 65,535 + the carry = the count before the increment + 1 */
	bm_st_count_add(s, (unsigned)slot, 1);
}

/* ---- layout changes -------------------------------------------------------------------------- */

/* Move every bin, one octave at a time from the lowest up: bin k of an octave becomes bin
 * (k << old shift) >> new shift of the same octave at its new depth. A bin's new index is never
 * above its old one, so the ascending pass is in place: every target was visited already. The
 * octaves that stay in the top band (all the highest ones, as the top rises) keep their bins:
 * they move as one block, a copy down (what an ascending input pays once per octave). */
/* O2 here: an ascending input pays one of these per octave it climbs. */
BM_NO_LIBCALLS __attribute__((optimize("O2"))) void bm_st_relayout(struct bm_stats *s, unsigned fw, unsigned ft,
                                                                   unsigned tw, unsigned tt)
{
	bm_st_fold(s);
	unsigned wide = s->wide, band = DEPTH(tw, 0) & 63;
	/* octaves below the smallest sample hold nothing */
	for (unsigned e = s->min && s->min != UINT64_MAX ? bm_st_msb64(s->min) : 0; e <= ft; e++) {
		unsigned xo = DEPTH(fw, ft - e), xn = DEPTH(tw, tt - e);
		unsigned os = xo >> 6, osh = xo & 63, ns = xn >> 6, nsh = xn & 63;
		if (os == ns && osh == nsh)
			continue;
		if (osh == band && nsh == band) {
			/* this octave and every one above it: [os, end) moves down to ns */
			unsigned end = (DEPTH(fw, 0) >> 6) + PER(band), d = os - ns;
			uint16_t *c = s->c16;
			for (int h = 0; h <= (int)wide; h++, c += BM_ST_HI) {
				for (unsigned i = os; i < end; i++)
					c[i - d] = c[i];
				for (unsigned i = end - d > os ? end - d : os; i < end; i++)
					c[i] = 0;
			}
			for (unsigned k = 0; !wide && k < s->spill_len; k++)
				if (s->spill_bin[k] >= os)
					s->spill_bin[k] = (uint16_t)(s->spill_bin[k] - d);
			return;
		}
		for (unsigned k = 0; k < PER(osh); k++) {
			unsigned i = os + k, j = ns + ((k << osh) >> nsh);
			uint64_t c = bm_st_count_get(s, i);
			if (!c)
				continue;
			bm_st_count_set(s, i, 0);
			bm_st_count_add(s, j, c);
		}
	}
}

/* 16-bit to 32-bit counts (once, when n passes BM_STATS_U16_MAX_N): fold into the 32-bit layout
 * in 16-bit storage (the spill table suffices: the histogram holds <= BM_STATS_U16_MAX_N), which
 * leaves every slot from 339 up empty; the spilled high halves then move to their slots. */
BM_NO_LIBCALLS void bm_st_widen(struct bm_stats *s)
{
	if (s->top != EMPTY_TOP)
		bm_st_relayout(s, 0, s->top, 1, s->top);
	for (unsigned k = 0; k < s->spill_len; k++)
		s->c16[BM_ST_HI + s->spill_bin[k]] = s->spill_hi[k];
	s->spill_len = 0;
	s->wide = 1;
}

void bm_st_bin_add(struct bm_stats *s, uint64_t v, uint64_t c)
{
	unsigned e = v ? bm_st_msb64(v) : 0;
	if (s->top == EMPTY_TOP)
		s->top = (uint8_t)e;
	else if (e > s->top) {
		bm_st_relayout(s, s->wide, s->top, s->wide, e);
		s->top = (uint8_t)e;
	}
	bm_st_count_add(s, bm_st_bin_of(s->wide, s->top, v), c);
}

/* ---- sums ----------------------------------------------------------------------------------- */

static void saturate_sums(struct bm_stats *s)
{
	s->sum_lo = s->sq_lo = s->sq_mid = UINT64_MAX >> 1;
	s->sum_hi = s->sq_top = UINT64_MAX;
	s->flags |= BM_STATS_F_SUM_SATURATED;
}

void bm_st_fold(struct bm_stats *s)
{
	uint64_t h = s->sum_hi + (s->sum_lo >> 63), t = s->sq_top + (s->sq_mid >> 63);
	if (h < s->sum_hi || t < s->sq_top) {
		saturate_sums(s);
		return;
	}
	s->sum_hi = h;
	s->sq_top = t;
	s->sum_lo &= UINT64_MAX >> 1;
	s->sq_mid &= UINT64_MAX >> 1;
}

/* Add one value of any size to the sums (exact; saturates only past n = 2^63). */
void bm_st_sums_add(struct bm_stats *s, uint64_t v)
{
	if (s->flags & BM_STATS_F_SUM_SATURATED)
		return;
	bm_st_fold(s);
	struct bm_u128 sq = bm_u128_mul64(v, v);
	s->sum_lo += v; /* < 2^64 + 2^63: the carry is worth two units of sum_hi */
	uint64_t c = s->sum_lo < v;
	s->sq_lo += sq.lo;
	uint64_t mid = s->sq_mid + sq.hi + (s->sq_lo < sq.lo); /* < 2^63 + 2^64: no wrap */
	uint64_t c2 = mid < sq.hi;
	s->sq_mid = mid;
	uint64_t h = s->sum_hi + 2 * c, t = s->sq_top + 2 * c2;
	if (h < s->sum_hi || t < s->sq_top) {
		saturate_sums(s);
		return;
	}
	s->sum_hi = h;
	s->sq_top = t;
	bm_st_fold(s);
}

/* sum = lo + 2^63 hi, sumsq = lo + 2^64 mid + 2^127 top, from their exact values */
void bm_st_sums_set(struct bm_stats *s, const struct bm_wide *s1, const struct bm_wide *s2)
{
	const uint32_t *a = s1->w, *b = s2->w;
	s->sum_lo = ((uint64_t)a[1] << 32 | a[0]) & (UINT64_MAX >> 1);
	s->sum_hi = (uint64_t)a[3] << 33 | (uint64_t)a[2] << 1 | a[1] >> 31;
	s->sq_lo = (uint64_t)b[1] << 32 | b[0];
	s->sq_mid = ((uint64_t)b[3] << 32 | b[2]) & (UINT64_MAX >> 1);
	s->sq_top = (uint64_t)b[5] << 33 | (uint64_t)b[4] << 1 | b[3] >> 31;
}
