/* SPDX-License-Identifier: Apache-2.0 */
/* Internals of the statistics core, shared by its parts: the histogram's layout and counts
 * (bm_stats_layout.c), the insert slow paths, the tail and merge (bm_stats_insert.c), the exact
 * mode (bm_stats_exact.c), the report (bm_stats_report.c) and the hist record both ways
 * (bm_stats_record.c). The insert fast path is in bm/stats.h. Design and figures:
 * docs/statistics.md. */
#ifndef BM_STATS_INTERNAL_H
#define BM_STATS_INTERNAL_H

#include "bm/port.h"
#include "bm/stats.h"

#include "bm_stats_tables.h" /* constants only here: the tables are used through bm_st_tab_x */

#define K BM_STATS_TOPK
#define KM (BM_STATS_TOPK - 1) /* ring index mask */
#define EMPTY_TOP 0xffu
#define GRID_LO (1u << BM_ST_GRID_BITS)
#define BM_ST_HI 341 /* 32-bit counts: bin i's high half is c16[BM_ST_HI + i] */

#if defined(__GNUC__) && !defined(__clang__)
/* Keep GCC from turning the zeroing/copy loops into memset/memmove calls (no libc here). */
#define BM_NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define BM_NO_LIBCALLS
#endif

/* The layout, one table for both count widths: entry [64 wide + 63 - d] describes the octave d
 * below the top: its first bin (<< 6) and the shift that maps a fine bin (0..45) to its bin
 * within the octave (0: 46 bins, 1: 23, 3: 6, 6: one). Bins are indexed by depth, so the table
 * does not depend on the top, and a bin's index only falls as the top rises (in-place folds).
 * Bin 0 holds the value 0. The fast path indexes a row with the octave itself:
 * row = table + 64 wide + 63 - top, row[e] describes octave e. */
extern const uint16_t bm_st_depth[128];
#define DEPTH(w, d) bm_st_depth[64u * (w) + 63u - (d)]
#define PER(sh) (((BM_ST_FINE - 1u) >> (sh)) + 1u)
#define NBINS(w) ((w) ? 339u : (unsigned)BM_STATS_SLOTS16)
extern const uint16_t bm_st_edge_x[BM_ST_FINE + 1];

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
	return r + bm_st_tab_x[x];
}
#else
static inline unsigned bm_st_msb64(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}
#endif

/* Bin of v (its octave e <= top) with counts of width w under top octave top. */
unsigned bm_st_bin_of(unsigned w, unsigned top, uint64_t v);
/* Values [lo, hi] of bin i; 0 for a bin that holds no value at this top. */
int bm_st_bin_range(unsigned w, unsigned top, unsigned i, uint64_t *lo, uint64_t *hi);

/* Counts, whatever the storage (16-bit with spill, or split 32-bit). */
/* Bin i's count. Inline: the report walks every bin several times. Only 16-bit storage with a
 * spilled bin (more than 65,535 samples in one bin) needs the spill table's lookup. */
uint64_t bm_st_count_spilled(const struct bm_stats *s, unsigned i);
static inline uint64_t bm_st_count_get(const struct bm_stats *s, unsigned i)
{
	if (s->wide)
		return s->c16[i] | (uint64_t)s->c16[BM_ST_HI + i] << 16;
	return s->spill_len ? bm_st_count_spilled(s, i) : s->c16[i];
}
/* The first bin at or after i whose count is not 0, or nb (<= NBINS) if none. The report's walks
 * go over all 682 bins; a run's samples sit in a few of them, and whole zero words are skipped. */
unsigned bm_st_next_bin(const struct bm_stats *s, unsigned i, unsigned nb);
void bm_st_count_set(struct bm_stats *s, unsigned i, uint64_t c);
void bm_st_count_add(struct bm_stats *s, unsigned i, uint64_t c);

/* Fold every bin from (width fw, top ft) into (width tw, top tt), tt >= ft, tw >= fw. */
void bm_st_relayout(struct bm_stats *s, unsigned fw, unsigned ft, unsigned tw, unsigned tt);
/* 16-bit to 32-bit counts, once, when n passes BM_STATS_U16_MAX_N. */
void bm_st_widen(struct bm_stats *s);
/* Count c samples of value v in the histogram's bins, raising the top first if v is above it
 * (no sums, no n). */
void bm_st_bin_add(struct bm_stats *s, uint64_t v, uint64_t c);
/* Sums: move the fast path's overflow room back (sum_lo, sq_mid < 2^63); add one value; set
 * them from exact totals (sum < 2^127, sum of squares < 2^191). */
void bm_st_fold(struct bm_stats *s);
void bm_st_sums_add(struct bm_stats *s, uint64_t v);
void bm_st_sums_set(struct bm_stats *s, const struct bm_wide *s1, const struct bm_wide *s2);
/* The fast path's fields, from the state (after every change the fast path did not make). */
void bm_st_fast_reset(struct bm_stats *s);

/* The tail ring: logical j (0 = smallest); while it fills, the values are tail[0 .. len) and
 * tail_h is K-1, so one formula serves both. */
static inline uint64_t bm_st_tail_at(const struct bm_stats *s, unsigned j)
{
	return s->tail[(s->tail_h + 1u + j) & KM];
}

/* ---- exact mode (bm_stats_exact.c) ---- */

/* Value i of an exact-mode state (in the order they came). */
static inline uint64_t bm_st_ex_val(const struct bm_stats *s, unsigned i)
{
	return s->tail[i];
}
/* The hash table of the values: Fibonacci hashing (one multiply: of v on a 64-bit core, of its
 * two words folded on a 32-bit one), linear probing in 2K slots. */
#define BM_ST_EX_SLOTS (2u * K)
#define BM_ST_EX_BITS                                                                                     \
	(BM_ST_EX_SLOTS >= 256 ? 8 : BM_ST_EX_SLOTS >= 128 ? 7 : BM_ST_EX_SLOTS >= 64 ? 6 : BM_ST_EX_SLOTS >= 32 ? 5 \
	 : BM_ST_EX_SLOTS >= 16 ? 4 : BM_ST_EX_SLOTS >= 8 ? 3 : BM_ST_EX_SLOTS >= 4 ? 2 : 1)

static inline __attribute__((always_inline)) uintptr_t bm_st_ex_probe(uint64_t v)
{
	if (BM_ST_NARROW)
		return (uint32_t)(((uint32_t)v ^ (uint32_t)(v >> 32)) * 0x9e3779b1u) >> (32 - BM_ST_EX_BITS);
	return (uintptr_t)((v * 0x9e3779b97f4a7c15ull) >> (64 - BM_ST_EX_BITS));
}

/* v's index among the values + 1, or 0 and in *slot the free slot of the hash table where it
 * would go. (1-based: the index's -1 folds into the addressing.) */
static inline __attribute__((always_inline)) uintptr_t bm_st_ex_find(const struct bm_stats *s, uint64_t v,
                                                                     uintptr_t *slot)
{
	for (uintptr_t h = bm_st_ex_probe(v);; h = (h + 1u) & (BM_ST_EX_SLOTS - 1u)) {
		uintptr_t e = s->ex_hash[h];
		if (!e || s->tail[e - 1u] == v) {
			*slot = h;
			return e;
		}
	}
}
/* One sample of v >= 1 in exact mode (bm_st_widen_add's). */
void bm_st_ex_sample(struct bm_stats *s, uint64_t v);
/* Counts c samples of v: returns how many it took (c, or fewer when the state switched to
 * histogram mode: a value past K, or 2^32 - 1 samples; the caller adds the rest there). */
uint64_t bm_st_ex_add(struct bm_stats *s, uint64_t v, uint64_t c);
/* The exact mode's insert window and pinned count (after every change to its values). */
void bm_st_ex_window(struct bm_stats *s);
/* To histogram mode: the state these samples give there (n >= K). */
void bm_st_ex_to_hist(struct bm_stats *s);
/* To a tail holding every sample, no histogram (n < K: merge only). */
void bm_st_ex_to_tail(struct bm_stats *s);
/* From a tail holding every sample (tail[0 .. tail_len) ascending, no histogram). */
void bm_st_ex_from_tail(struct bm_stats *s);
/* After the values and counts were put in place (a rebuild): min, max, the hash, the window. */
void bm_st_ex_ready(struct bm_stats *s);
/* The index of the value of each of k ascending ranks (1-based, <= n), in one walk. */
void bm_st_ex_ranks(const struct bm_stats *s, const uint64_t *rank, unsigned k, unsigned *at);
/* Sum x and sum x^2 over every sample, exactly. */
void bm_st_ex_totals(const struct bm_stats *s, struct bm_wide *s1, struct bm_wide *s2);
void bm_st_ex_view(const struct bm_stats *s, const struct bm_stats_view *v);

/* ---- exact arithmetic of the report (bm_stats_wide.c) ---- */

#define WN BM_WIDE_WORDS /* the largest intermediate (1e12 * N * (N*S2 - S1^2)) needs ~362 bits */

static inline struct bm_u128 bm_st_u128_of(uint64_t lo, uint64_t hi)
{
	struct bm_u128 r = {lo, hi};
	return r;
}

/* (for a figure the record holds in 64 bits: a ppm ratio) */
static inline uint64_t bm_st_sat64(struct bm_u128 v)
{
	return v.hi ? UINT64_MAX : v.lo;
}

/* In place on WN 32-bit words (no 56-byte values copied around): a = lo + 2^64 hi; r = a * b
 * (b of nb words); a *= m. */
void bm_st_wset(uint32_t *a, uint64_t lo, uint64_t hi);
void bm_st_wmulw(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned nb);
void bm_st_wmul(uint32_t *a, uint64_t m);
/* *out = x / d rounded to nearest, or with root: round(sqrt(x / d)); x and d are clobbered. */
void bm_st_wratio(uint32_t *x, uint32_t *d, int root, struct bm_u128 *out);
/* *out = round((lo + 2^64 hi) * m / div): the unit-carrying figures (m = 1000, or 500 for half
 * units). */
void bm_st_scaled(uint64_t lo, uint64_t hi, uint64_t m, uint64_t div, struct bm_u128 *out);
/* The total sums (histogram + tail) in wide words: sum x (4 words), sum x^2 (7 words). */
void bm_st_totals(const struct bm_stats *s, struct bm_wide *s1, struct bm_wide *s2);

#endif /* BM_STATS_INTERNAL_H */
