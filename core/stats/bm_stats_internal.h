/* Internals of the statistics core, shared by its three parts: the histogram's layout and
 * counts (bm_stats_layout.c), the insert path and merge (bm_stats_insert.c), and the report
 * (bm_stats_report.c). Design and figures: docs/statistics.md. */
#ifndef BM_STATS_INTERNAL_H
#define BM_STATS_INTERNAL_H

#include "bm/port.h"
#include "bm/stats.h"

#include "bm_stats_tables.h"

#define K BM_STATS_TOPK
#define EMPTY_TOP 0xffu
#define GRID_LO (1u << BM_ST_GRID_BITS)
#define GRID_SHIFT (63 - BM_ST_GRID_BITS) /* (v << (63 - e)) >> GRID_SHIFT: grid step of v */

#if defined(__GNUC__) && !defined(__clang__)
/* Keep GCC from turning the zeroing/copy loops into memset/memmove calls (no libc here). */
#define BM_NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define BM_NO_LIBCALLS
#endif

/* One band of octaves below the top: `octaves` octaves, each cut into the fine bins >> shift
 * (46, 23 or 6 bins), stored from bin `start` on, lowest octave first. Bands are listed from the
 * top down; below the last band every octave e has the single bin 1 + e, and bin 0 holds the
 * value 0. Bin indices fall as a sample's octave sinks below the top (band by band, and within a
 * band), which is what lets a re-layout run in place (see bm_st_relayout). */
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
extern const struct layout bm_st_geo[2];

#if !ARCH_HAS_CLZ64
/* No count-leading-zeros instruction (the arch says so): GCC would call libgcc's __clzdi2. Two
 * word tests, two halvings and the byte table instead (branch-light, no call). */
static inline unsigned bm_st_msb64(uint64_t v)
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
static inline unsigned bm_st_msb64(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}
#endif

/* Fine bin (0..45) of v >= 1 within its octave e. */
static inline unsigned bm_st_fine_of(uint64_t v, unsigned e)
{
	return bm_st_tab[256 + ((v << (63 - e)) >> GRID_SHIFT) - GRID_LO];
}

/* Where octave e (<= top) lives under layout L: its first bin, and the shift that maps a fine
 * bin (0..45) to its bin within the octave. */
unsigned bm_st_block_of(const struct layout *L, unsigned top, unsigned e, unsigned *shift);
/* Histogram bin of v under layout L with top octave top (v's octave must be <= top). */
unsigned bm_st_bin_of(const struct layout *L, unsigned top, uint64_t v);
/* Values [lo, hi] of bin i under layout L with top octave top; 0 for a bin that holds no value. */
int bm_st_bin_range(const struct layout *L, unsigned top, unsigned i, uint64_t *lo, uint64_t *hi);

/* Counts, whatever the storage (16-bit with spill, or 32-bit). */
uint64_t bm_st_count_get(const struct bm_stats *s, unsigned i);
void bm_st_count_set(struct bm_stats *s, unsigned i, uint64_t c);
void bm_st_count_add(struct bm_stats *s, unsigned i, uint64_t c);

/* Layout changes: fold every bin from layout `from` (top from_top) into `to` (top to_top). */
void bm_st_relayout(struct bm_stats *s, const struct layout *from, unsigned from_top,
                    const struct layout *to, unsigned to_top);
/* 16-bit to 32-bit counts, once, when n passes BM_STATS_U16_MAX_N. */
void bm_st_widen(struct bm_stats *s);
/* Count c samples of value v in the histogram, raising the top first if v is above it. */
void bm_st_hist_insert(struct bm_stats *s, uint64_t v, uint64_t c);

#endif /* BM_STATS_INTERNAL_H */
