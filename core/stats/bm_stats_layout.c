/* Statistics core, the histogram itself (see bm_stats_internal.h): its layout anchored at the
 * top octave, bin arithmetic, counts in 16-bit storage with a spill table or in 32-bit storage,
 * and the in-place folds when the top rises or the counts widen. */
#include "bm_stats_internal.h"

_Static_assert(K >= 1 && K <= 65535, "BM_STATS_TOPK must be 1..65535");
_Static_assert(BM_STATS_SPILL <= 255, "spill_len is 8-bit");

const struct layout bm_st_geo[2] = {
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

/* Deep octaves have one bin (shift 6: 45 >> 6 = 0). */
unsigned bm_st_block_of(const struct layout *L, unsigned top, unsigned e, unsigned *shift)
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

unsigned bm_st_bin_of(const struct layout *L, unsigned top, uint64_t v)
{
	if (!v)
		return 0;
	unsigned e = bm_st_msb64(v), sh, start = bm_st_block_of(L, top, e, &sh);
	return start + (bm_st_fine_of(v, e) >> sh);
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
int bm_st_bin_range(const struct layout *L, unsigned top, unsigned i, uint64_t *lo, uint64_t *hi)
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

uint64_t bm_st_count_get(const struct bm_stats *s, unsigned i)
{
	if (s->wide)
		return s->bins.c32[i];
	int k = spill_find(s, i);
	return s->bins.c16[i] + (k < 0 ? 0 : (uint64_t)s->spill_hi[k] << 16);
}

/* Store count c in bin i (16-bit storage: the high half goes to the spill table). */
void bm_st_count_set(struct bm_stats *s, unsigned i, uint64_t c)
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

void bm_st_count_add(struct bm_stats *s, unsigned i, uint64_t c)
{
	bm_st_count_set(s, i, bm_st_count_get(s, i) + c);
}

/* ---- layout changes -------------------------------------------------------------------------- */

/* Move every bin from layout `from` (top octave from_top) to layout `to` (top to_top >= from_top,
 * `to` no finer anywhere), in the current storage, one octave at a time: bin k of an octave
 * becomes bin k >> (new shift - old shift) of the same octave. A bin's new index is never above
 * its old one, so an ascending pass (lowest octave up; the zero bin never moves) is in place:
 * every target was visited already. */
BM_NO_LIBCALLS void bm_st_relayout(struct bm_stats *s, const struct layout *from, unsigned from_top,
                                    const struct layout *to, unsigned to_top)
{
	/* octaves below the smallest sample hold nothing */
	for (unsigned e = s->min && s->min != UINT64_MAX ? bm_st_msb64(s->min) : 0; e <= from_top; e++) {
		unsigned osh, nsh;
		unsigned os = bm_st_block_of(from, from_top, e, &osh), ns = bm_st_block_of(to, to_top, e, &nsh);
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
					bm_st_count_set(s, j, c16);
				else
					s->bins.c16[j] = (uint16_t)c16;
				continue;
			}
			uint64_t c = bm_st_count_get(s, i);
			if (!c)
				continue;
			bm_st_count_set(s, i, 0);
			bm_st_count_add(s, j, c);
		}
	}
}

/* 16-bit to 32-bit counts (once, when n passes BM_STATS_U16_MAX_N): fold into the wide layout
 * in 16-bit storage (the spill table suffices: the histogram holds <= BM_STATS_U16_MAX_N), then
 * bm_st_widen from the top down (32-bit bin j covers 16-bit bins 2j and 2j+1, both read already). */
BM_NO_LIBCALLS void bm_st_widen(struct bm_stats *s)
{
	if (s->e_top != EMPTY_TOP)
		bm_st_relayout(s, &bm_st_geo[0], s->e_top, &bm_st_geo[1], s->e_top);
	for (unsigned j = bm_st_geo[1].bins; j-- > 0;) {
		uint64_t c = bm_st_count_get(s, j);
		s->bins.c32[j] = (uint32_t)c;
	}
	for (unsigned j = bm_st_geo[1].bins; j < BM_STATS_SLOTS16 / 2; j++)
		s->bins.c32[j] = 0;
	s->spill_len = 0;
	s->wide = 1;
}

/* Count c samples of value v in the histogram, raising the top first if v is above it. */
void bm_st_hist_insert(struct bm_stats *s, uint64_t v, uint64_t c)
{
	const struct layout *L = &bm_st_geo[s->wide];
	unsigned e = v ? bm_st_msb64(v) : 0;
	if (s->e_top == EMPTY_TOP)
		s->e_top = (uint8_t)e;
	else if (e > s->e_top) {
		bm_st_relayout(s, L, s->e_top, L, e);
		s->e_top = (uint8_t)e;
	}
	bm_st_count_add(s, bm_st_bin_of(L, s->e_top, v), c);
}

