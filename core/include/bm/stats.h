/* SPDX-License-Identifier: Apache-2.0 */
/* Online statistics in fixed memory: every sample of every benchmark goes through here.
 * Integer only (no FPU, no division on the insert path), bounded state, exact moments from
 * integer sums. While the samples take few distinct values (at most K, the usual case on a
 * counter at its resolution) the state counts each value exactly; beyond, an exact top-K tail
 * and a top-anchored quasi-geometric histogram for the rest. Design, costs and accuracy:
 * docs/statistics.md. */
#ifndef BM_STATS_H
#define BM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm/port.h"
#include "bm/shared.h"
#include "bm/wide.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Geometry, fixed at compile time (docs/statistics.md has the figures). The histogram is anchored
 * at its top octave (that of the largest sample outside the exact tail): every octave
 * [2^e, 2^(e+1)) is cut into 46 quasi-geometric bins (relative error <= 0.80%) for the 13 octaves
 * below and including the top, 23 bins (<= 1.59%) for the next one, 6 bins for two more, one bin
 * per octave beyond (a sample that far below costs resolution; the record says so). Counts are
 * 16-bit with a spill table for the few bins that pass 65,535; beyond BM_STATS_U16_MAX_N samples
 * the state switches to 32-bit counts and 23 bins per octave (<= 1.59%) for 12 octaves. */
#ifndef BM_STATS_TOPK
#define BM_STATS_TOPK 64      /* exact tail: the K largest samples (a power of two, 1..128); and
                               * the distinct values the exact mode holds */
#endif

#define BM_STATS_SPILL 16     /* 16-bit bins that may hold more than 65,535 */
#define BM_STATS_SLOTS16 682  /* 16-bit count slots (the 16-bit layout's bins) */
/* Most samples the 16-bit layout holds: no more than BM_STATS_SPILL of its bins can then pass
 * 65,535, whatever the data. */
#define BM_STATS_U16_MAX_N ((BM_STATS_SPILL + 1) * 65536ull - 1)

/* One statistics state. Treat as opaque; the size is what a tracked benchmark costs in RAM.
 * Two modes, the first while it can (order-independent either way: the same samples in any order
 * give the same report):
 * - exact (tail_len 0): up to K distinct values, each with its exact count, and fewer than 2^32
 *   samples. The values are in tail[0 .. ex_m) as they came, their counts in ex_count[], and
 *   ex_hash[] finds a value's index. The insert window takes every value but 0
 *   and `nc` stays UINT64_MAX, so the inline insert's count increment hands every sample to
 *   bm_st_widen_add, which counts it (or, a new value past K, switches to histogram mode).
 * - histogram (tail_len K): the K largest samples live in the tail only; every other sample is
 *   counted in the histogram (so a few huge outliers never cost histogram resolution). The
 *   histogram's layout is a pure function of its top octave and of n; the switch from exact mode
 *   builds exactly the state these samples give in it. */
struct bm_stats {
	/* Read by the insert fast path (bm_stats_add), first so their offsets are small. All of
	 * them are derived (bm_st_fast_reset) and never change a result. */
	uint64_t fast_lo;         /* the fast path takes fast_lo <= v < fast_lo + fast_span */
	uint64_t fast_span;       /*   (0: every sample takes the slow path) */
	const uint16_t *fast_row; /* layout-table row of the top octave and count width, by octave */
	uint64_t nc;              /* samples in the histogram - BM_ST_NC0 (mod 2^64): hits 0 as n
	                           * passes BM_STATS_U16_MAX_N, see bm_stats_count(); UINT64_MAX in
	                           * exact mode */
	/* Sums over the histogram's samples (the tail's are added at report time): sum x is
	 * sum_lo + 2^63 sum_hi, sum x^2 is sq_lo + 2^64 sq_mid + 2^127 sq_top. sum_lo and sq_mid
	 * are below 2^63 after every slow path, so the fast path adds without carrying out of them
	 * (it runs at most 682 x 65,535 times between two slow paths: a bin count then carries).
	 * 0 in exact mode: its sums come from its values and counts, exactly, at report time. */
	uint64_t sum_lo;
	uint32_t cap;             /* min(2^32, 2^(top+1)) - 1, 0 while the fast path is off: a
	                           * value the tail evicts below it is placed by the fast path's code
	                           * (between sum_lo and sq_lo: adjacent, GCC pairs their adds into
	                           * SSE, which costs instructions and time) */
	uint32_t tail_h;          /* ring index of the tail's largest: a word, because a byte's store
	                           * and reload, once per ascending insert, cost that insert 20% of
	                           * its time (x86-64) */
	uint64_t sq_lo, sq_mid;
	uint64_t sum_hi, sq_top;
	uint64_t min;             /* smallest histogram sample (UINT64_MAX: none); exact mode: the
	                           * smallest value */
	uint8_t fast_sh;          /* no CLZ: the fast window's lowest octave */
	uint8_t ex_m;             /* exact mode: distinct values held (0 .. K) */
	uint8_t top;              /* octave of the largest histogram sample; 0xff: histogram empty */
	uint8_t wide;             /* 0: 16-bit counts, 1: 32-bit counts (n > BM_STATS_U16_MAX_N) */
	uint8_t tail_len;         /* samples in the tail: K in histogram mode, 0 in exact mode */
	uint8_t spare2;           /* (padding) */
	uint8_t spill_len;        /* spill entries in use */
	uint8_t flags;            /* BM_STATS_F_* */
	union {
		struct {                            /* histogram mode, 16-bit counts: */
			uint16_t spill_bin[BM_STATS_SPILL]; /* bin index ... */
			uint16_t spill_hi[BM_STATS_SPILL];  /*   ... and its count >> 16 */
		};
		struct {                            /* exact mode: */
			uint32_t ex_n;                  /* samples (< 2^32) */
			uint32_t ex_spare;
			uint64_t ex_max;                /* the largest value (`min` the smallest) */
		};
	};
	uint64_t tail[BM_STATS_TOPK];       /* the K largest, ascending from tail_h (a ring) */
	union {
		/* 16-bit counts: bin i holds c16[i] (+ its spill entry << 16). 32-bit counts: bin i
		 * holds c16[i] + (c16[BM_ST_HI + i] << 16), so the fast path increments one u16
		 * either way. */
		uint16_t c16[BM_STATS_SLOTS16];
		struct {                                  /* exact mode: */
			uint32_t ex_count[BM_STATS_TOPK];     /* ex_count[i]: tail[i]'s count */
			uint8_t ex_hash[2 * BM_STATS_TOPK];   /* open addressing: a value's index + 1 */
		};
	};
};

#define BM_STATS_F_SUM_SATURATED   0x1u  /* sum or sum of squares hit its ceiling */
#define BM_STATS_F_COARSENED       0x2u  /* report: some samples are held below full resolution */
#define BM_STATS_F_BIN_SATURATED   0x4u  /* a histogram bin count hit 2^32-1 */

/* One quantile answer. */
struct bm_quantile {
	struct bm_u128 value_milli; /* value / div, x1000, rounded to nearest, exact */
	uint64_t raw;             /* the undivided sample value (or bin representative) */
	bool exact;               /* true: exactly the nearest-rank answer */
	uint32_t bound_ppm;       /* worst-case relative value error in ppm; 0 when exact */
};

/* Everything a result record and the human table print for one state, each figure once and
 * exact. Values that carry a unit are the sample values divided by `div` (the inner repeat
 * count), x1000 (milli-units), rounded to nearest: 128 bits, since the Tukey fences and ci95 can
 * pass 2^64 and no figure is ever saturated. */
struct bm_stats_report {
	uint64_t n;
	uint64_t div;             /* the divisor the figures were computed with (>= 1) */
	struct bm_u128 sum;       /* the samples' exact sum, undivided (< 2^128 for n < 2^64) */
	struct bm_u128 min_milli, max_milli;
	struct bm_u128 mean_milli;
	struct bm_u128 stddev_milli; /* sample standard deviation (n-1); 0 when n < 2 */
	uint64_t cv_ppm;          /* stddev / mean in ppm; 0 when mean is 0 */
	struct bm_u128 ci95_milli;   /* half-width of the 95% confidence interval of the mean */
	/* p50, p90, p99, p999: the reported quantiles (BM_QUANTILE_LIST, bm/shared.h) */
#define BM_STATS_Q_FIELD(name, num, den, rank) struct bm_quantile name;
	BM_QUANTILE_LIST(BM_STATS_Q_FIELD)
#undef BM_STATS_Q_FIELD
	/* Tukey fences (Q1 - 1.5 IQR, Q3 + 1.5 IQR) and the summary of samples inside them. */
	struct bm_u128 fence_lo_milli, fence_hi_milli;
	uint64_t outliers_lo, outliers_hi;
	struct bm_u128 filtered_mean_milli;
	uint64_t outliers_uncertain; /* samples in histogram bins that straddle a fence (0: counts exact) */
	bool filtered_mean_exact; /* true: no outlier had to be estimated from a histogram bin */
	uint8_t bins_per_octave;  /* resolution at the top of the histogram: 46, or 23 when wide */
	uint32_t flags;           /* BM_STATS_F_* */
};

void bm_stats_init(struct bm_stats *s);

/* ---- the insert fast path (static inline: it is most of what a timed sample costs) ---------- */

#define BM_ST_NC0 (BM_STATS_U16_MAX_N + 1 - BM_STATS_TOPK)
extern const uint8_t bm_st_tab_x[256 + 512]; /* bm_stats_tables.h's bm_st_tab: msb, fine bins */
void bm_st_add_slow(struct bm_stats *s, uint64_t v);
void bm_st_carry(struct bm_stats *s, uintptr_t slot);
void bm_st_widen_add(struct bm_stats *s, uint64_t v);

/* Samples added so far (every sample is in the tail or counted once in the histogram, or one of
 * the exact mode's counts). */
static inline uint64_t bm_stats_count(const struct bm_stats *s)
{
	return s->tail_len ? s->nc + BM_ST_NC0 + s->tail_len : s->ex_n;
}

/* The largest sample (0: none): the tail ring's last, or the exact mode's largest value. */
static inline uint64_t bm_stats_max(const struct bm_stats *s)
{
	if (s->tail_len)
		return s->tail[(s->tail_h + s->tail_len) & (BM_STATS_TOPK - 1u)];
	return s->ex_m ? s->ex_max : 0;
}

/* 1: the fast path computes in 32-bit words where v < 2^32 allows (on a 32-bit core a 64-bit
 * square or shift is several instructions). Follows the word size; the host tests build both. */
#ifndef BM_ST_NARROW
#define BM_ST_NARROW (UINTPTR_MAX <= 0xffffffffu)
#endif

/* One more sample in count slot `slot`. Read as signed: the increment wraps (a carry into the
 * high half) exactly when it makes 0, one test on every ISA (lh/addi/sh/beqz on RISC-V). */
static inline __attribute__((always_inline)) void bm_st_slot_inc(struct bm_stats *s, uintptr_t slot)
{
	int16_t *c = (int16_t *)&s->c16[slot];
	int c1 = *c + 1;
	*c = (int16_t)c1;
	if (__builtin_expect(c1 == 0, 0))
		bm_st_carry(s, slot);
}

/* The count slot of v, 1 <= v <= cap (< 2^32), v's octave in the fast window. */
static inline __attribute__((always_inline)) uintptr_t bm_st_fast_slot(const struct bm_stats *s, uint64_t v)
{
	const uint32_t v32 = (uint32_t)v; /* == v */
#if ARCH_HAS_CLZ64
	uintptr_t e = 63 ^ (uintptr_t)(unsigned)__builtin_clzll(v); /* octave: one bsr on x86 */
#else
	/* No CLZ: the window is the 16 octaves from fast_sh up, w < 2^16, two byte lookups at most. */
	uintptr_t w = BM_ST_NARROW ? (uintptr_t)(v32 >> s->fast_sh) : (uintptr_t)(v >> s->fast_sh); /* sh < 32 */
	uintptr_t e = s->fast_sh + (w >> 8 ? 8 + (uintptr_t)bm_st_tab_x[w >> 8] : (uintptr_t)bm_st_tab_x[w]);
#endif
	/* grid step: 512 .. 1023, v's top ten bits (32-bit: its top bit moved to bit 31, e <= 31) */
	uintptr_t t = BM_ST_NARROW ? (uintptr_t)((v32 << (31 - e)) >> 22) : (uintptr_t)((v << 9) >> e);
	uintptr_t f = bm_st_tab_x[256 - 512 + t];                    /* fine bin 0 .. 45 */
	uintptr_t x = s->fast_row[e];                                /* base << 6 | shift */
	/* x86-64 and RV64 take a 64-bit shift's count mod 64 themselves: no mask is emitted */
	return (x >> 6) + (f >> (x & 63));
}

/* Count v in the histogram: 1 <= v <= cap (< 2^32), v's octave in the fast window. Sums, the
 * 32-bit switch's countdown, and one 16-bit increment; everything rare is out of line. */
static inline __attribute__((always_inline)) void bm_st_hist_fast(struct bm_stats *s, uint64_t v)
{
	if (__builtin_expect(++s->nc == 0, 0)) { /* n passes BM_STATS_U16_MAX_N: once */
		bm_st_widen_add(s, v);
		return;
	}
	const uint32_t v32 = (uint32_t)v; /* == v */
	s->sum_lo += BM_ST_NARROW ? v32 : v; /* v < 2^32: see sum_lo */
	uint64_t sq = BM_ST_NARROW ? (uint64_t)v32 * v32 : v * v;
	s->sq_lo += sq;
	/* A branch, not an add of the carry: a store less per sample (stores bound the native
	 * time), and the carry is rare (once per 2^64 / v^2 samples). */
	if (__builtin_expect(s->sq_lo < sq, 0))
		s->sq_mid++;
	bm_st_slot_inc(s, bm_st_fast_slot(s, v));
}

/* Add one sample. No floating point, no division. The fast path takes a sample that belongs in
 * the histogram's current range (not a new tail member, not below the minimum, not above the
 * top octave or 2^32); everything else is the out-of-line slow path. In exact mode the window
 * takes every value but 0, and the count's increment (nc pinned at UINT64_MAX) hands
 * it to bm_st_widen_add, which counts it. Cost: benchmarks/kit_stats.c and tools/bench/stats-vs-hdr. */
static inline __attribute__((always_inline)) void bm_stats_add(struct bm_stats *s, uint64_t v)
{
	if (v - s->fast_lo >= s->fast_span) {
		bm_st_add_slow(s, v);
		return;
	}
	bm_st_hist_fast(s, v);
}

/* Add n samples of value v: the same state as n calls of bm_stats_add(s, v), at the cost of one
 * where v belongs in the histogram (a run of equal samples: a deterministic core's every sample
 * of a benchmark, or an empty body's zeros). Out of line; bm/stats.h's harness use is a run's end. */
void bm_stats_add_n(struct bm_stats *s, uint64_t v, uint64_t n);

/* Merge src into dst (e.g. two runs). Same guarantees as if every sample went into dst. */
void bm_stats_merge(struct bm_stats *dst, const struct bm_stats *src);

/* 0 when s holds n samples whose smallest is min (and, with have_sum, whose sum is sum mod
 * 2^64) and is whole (its bins hold n less the tail, the tail ascends); else which part disagrees.
 * What the caller kept of the samples apart from s (bm_stats_check.c). */
enum {
	BM_STATS_DISAGREE_COUNT = 1,
	BM_STATS_DISAGREE_BINS,
	BM_STATS_DISAGREE_TAIL,
	BM_STATS_DISAGREE_MIN,
	BM_STATS_DISAGREE_SUM,
};
int bm_stats_disagree(const struct bm_stats *s, uint64_t n, uint64_t min, int have_sum, uint64_t sum);

/* Nearest-rank quantile num/den (0 < num/den <= 1), values divided by div (>= 1). */
void bm_stats_quantile(const struct bm_stats *s, uint64_t num, uint64_t den, uint64_t div,
                       struct bm_quantile *q);

/* Fill a report; div >= 1 divides every value (per-iteration figures from batch samples). */
void bm_stats_report(const struct bm_stats *s, uint64_t div, struct bm_stats_report *r);

/* Writes every statistics key of a result record, from "n" onward (core/stats/bm_stats_record.c):
 * "n","min","p50","p90","p99","p999","max","mean","stddev","cv_ppm","ci95","bound_ppm":{..},
 * "tukey":{..} ("out_uncertain" only when > 0),"flags":{..},"bins_per_octave". Firmware and
 * bm-stats print identical keys. */
void bm_stats_record_fields(struct bm_record *r, const struct bm_stats_report *rep);

/* ---- the state as a record, and back (docs/records.md, "hist") ------------------------------ */

/* Writes the keys of a hist record after the caller's "type"/"name"/"unit"/"div": "n","min",
 * "max","sum","sumsq","topk","bins_per_octave","saturated":{"sum","bins"}, "bins":[[lo,hi,count],
 * ...] (the non-empty bins, ascending, inclusive raw ranges exactly as held) and "tail":[...]
 * (the exact K largest, ascending); in exact mode also "values":[[v,count],...] (every distinct
 * value with its count, ascending), with "bins" and "tail" as a histogram-mode state of these
 * samples would hold them (bm_stats_view). Raw values (batch totals, not divided). */
void bm_stats_hist_fields(struct bm_record *r, const struct bm_stats *s);

/* The samples as a histogram-mode state holds them: each non-empty bin [lo, hi] with its count,
 * ascending, then each tail value, ascending. An exact-mode state gives the bins and tail the
 * state would have switched to (the layout of its top octave and n, the K largest exactly), then
 * each of its values with its count, ascending (value may be NULL). */
struct bm_stats_view {
	void (*bin)(void *ctx, uint64_t lo, uint64_t hi, uint64_t count);
	void (*tail)(void *ctx, uint64_t v);
	void (*value)(void *ctx, uint64_t v, uint64_t count);
	void *ctx;
};
void bm_stats_view(const struct bm_stats *s, const struct bm_stats_view *v);

/* A state rebuilt from a hist record's values: begin (the head), then either every value of
 * "values" in the record's order (an exact-mode state: nvalues > 0) or every bin and every tail
 * value in order, then end. Each returns 0, or a message saying what is inconsistent (the record
 * is then refused). The rebuilt state gives the same report and merges exactly like the original;
 * an exact one's "bins" and "tail" are the reader's to hold to bm_stats_view. A record without
 * "values" whose samples all sit in its tail (n <= K) rebuilds as an exact-mode state. */
struct bm_stats_hist_head {
	uint64_t n, min, max, topk, bins_per_octave;
	struct bm_u128 sum;        /* sum of all samples */
	uint64_t sumsq[3];         /* sum of their squares, little-endian 64-bit words (< 2^192) */
	bool sum_saturated, bins_saturated;
	uint64_t nbins, last_lo;   /* how many bins, and the lowest value of the last (highest) */
	uint64_t nvalues;          /* how many exact values ("values"; 0: none) */
};
const char *bm_stats_rebuild_begin(struct bm_stats *s, const struct bm_stats_hist_head *h);
const char *bm_stats_rebuild_bin(struct bm_stats *s, uint64_t lo, uint64_t hi, uint64_t count);
const char *bm_stats_rebuild_tail(struct bm_stats *s, uint64_t v);
const char *bm_stats_rebuild_value(struct bm_stats *s, uint64_t v, uint64_t count);
const char *bm_stats_rebuild_end(struct bm_stats *s, const struct bm_stats_hist_head *h);

#ifdef __cplusplus
}
#endif

#endif /* BM_STATS_H */
