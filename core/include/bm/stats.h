/* Online statistics in fixed memory: every sample of every benchmark goes through here.
 * Integer only (no FPU, no division on the insert path), bounded state, exact moments from
 * integer sums, exact-tail quantiles from a top-K buffer, log-linear histogram beyond it. */
#ifndef BM_STATS_H
#define BM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm/wide.h"

/* Geometry, fixed at compile time (docs/statistics.md has the figures). The histogram is anchored
 * at its top octave (the largest sample outside the exact tail): every octave [2^e, 2^(e+1)) is
 * cut into 46 quasi-geometric bins (relative error <= 0.80%) for the 13 octaves below and
 * including the top, 23 bins (<= 1.59%) for the next one, 6 bins for two more, one bin per octave
 * beyond (a sample that far below costs resolution; the record says so). Counts are 16-bit with
 * a spill table for the few bins that pass 65,535; beyond BM_STATS_U16_MAX_N samples the state
 * switches to 32-bit counts and 23 bins per octave (<= 1.59%) for 12 octaves. */
#ifndef BM_STATS_TOPK
#define BM_STATS_TOPK 64      /* exact tail: the K largest samples (1..65535) */
#endif

#define BM_STATS_SPILL 16     /* 16-bit bins that may hold more than 65,535 */
#define BM_STATS_SLOTS16 682  /* bins of the 16-bit layout (see geo[] in bm_stats.c) */
/* Most samples the 16-bit layout holds: no more than BM_STATS_SPILL of its bins can then pass
 * 65,535, whatever the data. */
#define BM_STATS_U16_MAX_N ((BM_STATS_SPILL + 1) * 65536ull - 1)

/* One statistics state. Treat as opaque; the size is what a tracked benchmark costs in RAM.
 * The K largest samples live in the heap only; every other sample is counted in the histogram
 * (so a few huge outliers never cost histogram resolution). The histogram's layout is a pure
 * function of its top octave and of n: any order of the same samples gives the same bins. */
struct bm_stats {
	/* read by the insert fast path first (small offsets) */
	uint64_t fast_gate;       /* samples >= this take the slow path (heap, empty, 32-bit, ...) */
	uint64_t fast_left;       /* inserts the fast path may still take; n counts them already */
	uint64_t n;               /* samples added, plus fast_left (see bm_stats_count) */
	uint64_t min, max;        /* exact extremes (valid when n > 0) */
	struct bm_u128 sum;       /* sum of x (exact) */
	uint64_t sq_lo, sq_mid;   /* sum of x^2 = sq_lo + 2^64 sq_mid + 2^127 sq_top (exact; */
	uint64_t sq_top;          /*   sq_mid < 2^63 after every slow path, see sq_add) */
	uint16_t fast_off;        /* fast path: bin of the fast window's lowest octave */
	uint16_t fast_lim;        /*   its octave span: 1 <= v >> fast_lo <= fast_lim */
	uint8_t fast_lo, fast_k;  /*   its lowest octave, and 63 - fast_lo (stored: saves the insert a subtraction) */
	uint8_t e_top;            /* octave of the largest histogram sample; 0xff: histogram empty */
	uint8_t wide;             /* 0: 16-bit counts, 1: 32-bit counts (n > BM_STATS_U16_MAX_N) */
	uint16_t heap_len;        /* samples held in the top-K heap */
	uint8_t spill_len;        /* spill entries in use */
	uint8_t flags;            /* BM_STATS_F_* */
	uint16_t spill_bin[BM_STATS_SPILL]; /* 16-bit layout: bin index ... */
	uint16_t spill_hi[BM_STATS_SPILL];  /*   ... and its count >> 16 */
	uint64_t heap[BM_STATS_TOPK];       /* min-heap of the K largest samples */
	union {
		uint16_t c16[BM_STATS_SLOTS16];
		uint32_t c32[BM_STATS_SLOTS16 / 2];
	} bins;
};

#define BM_STATS_F_SUM_SATURATED   0x1u  /* sum or sum of squares hit its ceiling */
#define BM_STATS_F_COARSENED       0x2u  /* report: some samples are held below full resolution */
#define BM_STATS_F_BIN_SATURATED   0x4u  /* a histogram bin count hit 2^32-1 */

/* One quantile answer. Values are divided by the report divisor and scaled by 1000. */
struct bm_quantile {
	uint64_t value_milli;     /* value / div, x1000, rounded to nearest */
	uint64_t raw;             /* the undivided sample value (or bin representative) */
	bool exact;               /* true: exactly the nearest-rank answer */
	uint32_t bound_ppm;       /* worst-case relative value error in ppm; 0 when exact */
};

/* Everything a result record and the human table print for one state. Values that carry a
 * unit are the sample values divided by `div` (the inner repeat count), x1000 (milli-units). */
struct bm_stats_report {
	uint64_t n;
	uint64_t min_milli, max_milli;
	uint64_t mean_milli;
	uint64_t stddev_milli;    /* sample standard deviation (n-1); 0 when n < 2 */
	uint64_t cv_ppm;          /* stddev / mean in ppm; 0 when mean is 0 */
	uint64_t ci95_milli;      /* half-width of the 95% confidence interval of the mean */
	struct bm_quantile p50, p90, p99, p999;
	/* Tukey fences (Q1 - 1.5 IQR, Q3 + 1.5 IQR) and the summary of samples inside them. */
	uint64_t fence_lo_milli, fence_hi_milli;
	uint64_t outliers_lo, outliers_hi;
	uint64_t filtered_mean_milli;
	uint64_t outliers_uncertain; /* samples in histogram bins that straddle a fence (0: counts exact) */
	bool filtered_mean_exact; /* true: no outlier had to be estimated from a histogram bin */
	uint8_t bins_per_octave;  /* resolution at the top of the histogram: 46, or 23 when wide */
	uint32_t flags;           /* BM_STATS_F_* */
};

struct bm_record;

void bm_stats_init(struct bm_stats *s);

/* Samples added so far. */
static inline uint64_t bm_stats_count(const struct bm_stats *s)
{
	return s->n - s->fast_left;
}

/* Add one sample. No floating point, no division; cost is measured by benchmarks/kit_stats.c. */
void bm_stats_add(struct bm_stats *s, uint64_t value);

/* Merge src into dst (e.g. two runs). Same guarantees as if every sample went into dst. */
void bm_stats_merge(struct bm_stats *dst, const struct bm_stats *src);

/* Nearest-rank quantile num/den (0 < num/den <= 1), values divided by div (>= 1). */
void bm_stats_quantile(const struct bm_stats *s, uint64_t num, uint64_t den, uint64_t div,
                       struct bm_quantile *q);

/* Fill a report; div >= 1 divides every value (per-iteration figures from batch samples). */
void bm_stats_report(const struct bm_stats *s, uint64_t div, struct bm_stats_report *r);

/* The value range [*lo, *hi] of the histogram bin that `value` falls in at the state's current
 * resolution (what a histogram answer near `value` can be off by). For tests and tools. */
void bm_stats_bin_range(const struct bm_stats *s, uint64_t value, uint64_t *lo, uint64_t *hi);

/* Writes every statistics key of a result record, from "n" onward (core/stats/bm_stats_record.c):
 * "n","min","p50","p90","p99","p999","max","mean","stddev","cv_ppm","ci95","bound_ppm":{..},
 * "tukey":{..},"flags":{..},"bins_per_octave". Firmware and bm-stats print identical keys. */
void bm_stats_record_fields(struct bm_record *r, const struct bm_stats_report *rep);

#endif /* BM_STATS_H */
