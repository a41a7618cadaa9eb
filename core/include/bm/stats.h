/* Online statistics in fixed memory: every sample of every benchmark goes through here.
 * Integer only (no FPU, no division on the insert path), bounded state, exact moments from
 * integer sums, exact-tail quantiles from a top-K buffer, log-linear histogram beyond it. */
#ifndef BM_STATS_H
#define BM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bm/u128.h"

/* Geometry, fixed at compile time. See docs/statistics.md for the error bounds they give.
 * Default: 2^6 sub-bins per octave (bin error <= 0.78%), a 356-bin window (5.5 octaves at m=6,
 * 11.1 at m=5, 22 at m=4, 44 at m=3), K=64 exact tail: sizeof(struct bm_stats) = 2,032 B on
 * 64-bit cores, 2,016 B on 32-bit ones. */
#ifndef BM_STATS_SUB_BITS
#define BM_STATS_SUB_BITS 6   /* 2^m sub-bins per octave at full resolution (m, 1..7) */
#endif
#ifndef BM_STATS_BINS
#define BM_STATS_BINS 356     /* histogram window, in bins (130..65534) */
#endif
#ifndef BM_STATS_TOPK
#define BM_STATS_TOPK 64      /* exact tail: the K largest samples (1..65535) */
#endif

/* One statistics state. Treat as opaque; the size is what a tracked benchmark costs in RAM.
 * The K largest samples live in the heap only; every other sample is counted in the histogram
 * (so one huge outlier never costs histogram range). The histogram geometry (sub_bits, base)
 * is a pure function of the range of the samples it holds: any order gives the same bins. */
struct bm_stats {
	uint64_t n;               /* samples added */
	uint64_t min, max;        /* exact extremes (valid when n > 0) */
	struct bm_u128 sum;       /* sum of x (exact; saturates, flagged) */
	struct bm_u128 sum_sq_lo; /* sum of x^2, low 128 bits */
	uint64_t sum_sq_hi;       /* sum of x^2, bits 128..191 (exact; saturates, flagged) */
	uint64_t heap_gate;       /* samples >= this go to the heap (derived from the heap) */
	uint32_t flags;           /* BM_STATS_F_* */
	uint8_t sub_bits;         /* current resolution m (drops when the range needs it) */
	uint8_t fast_s0;          /* fast path (no effect on results): octave of the window's base */
	uint8_t fast_shift;       /*   and sub_bits + fast_s0 (see fast_reset in bm_stats.c) */
	uint16_t heap_len;        /* samples held in the top-K heap */
	uint16_t base;            /* histogram index of bins[0] (= lowest occupied bin); 0xffff: empty */
	uint64_t heap[BM_STATS_TOPK];   /* min-heap of the K largest samples */
	uint32_t bins[BM_STATS_BINS];   /* histogram counts; a bin saturating sets a flag */
};

#define BM_STATS_F_SUM_SATURATED   0x1u  /* sum or sum of squares hit its ceiling */
#define BM_STATS_F_COARSENED       0x2u  /* resolution was lowered to keep every sample */
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
	uint8_t sub_bits;         /* resolution in force at report time */
	uint32_t flags;           /* BM_STATS_F_* */
};

struct bm_record;

void bm_stats_init(struct bm_stats *s);

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
 * "tukey":{..},"flags":{..},"sub_bits". Firmware and bm-stats print identical keys. */
void bm_stats_record_fields(struct bm_record *r, const struct bm_stats_report *rep);

#endif /* BM_STATS_H */
