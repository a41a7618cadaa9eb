/* Between the harness's parts (bm_run.c runs, bm_harness.c measures one benchmark, bm_report.c
 * prints) and the host unit tests. Not for benchmarks. */
#ifndef BM_HARNESS_INTERNAL_H
#define BM_HARNESS_INTERNAL_H

#include <stdint.h>

#include "bm/bench.h"
#include "bm/harness.h"
#include "bm/stats.h"

/* Cost of one counter read pair (begin + end with nothing between), measured at boot. */
struct bm_overhead {
	uint64_t cycles;      /* minimum over the probe: the amount subtracted from every batch */
	uint64_t instret;     /* same for instructions retired */
	uint64_t cycles_max;  /* largest seen, to show how noisy the counter is */
};

/* Cycle counter frequency, estimated against the board timer. */
struct bm_clock {
	uint64_t cycle_hz;    /* 0 when the board has no timer */
	uint64_t window_ticks;
	int cycles_advance;   /* 0: the cycle counter did not move during the estimate */
};

struct bm_bench_result {
	int ok;                     /* 1: ran and verified */
	const char *reason;         /* why not ok: "setup failed", "verify failed", ... */
	const char *phase;          /* where: "setup", "calibrate", "warmup", "verify", "samples", "teardown" */
	uint32_t iters;             /* inner repeat count after calibration */
	uint32_t warmup_batches;    /* batches spent warming up */
	int warmup_settled;         /* rolling CV reached the threshold (else hit the cap) */
	uint32_t below_overhead;    /* batches that measured less than the overhead (counted as 0) */
	int short_interval;         /* median batch under BM_SHORT_INTERVAL_FACTOR x the read overhead */
	uint64_t instret_milli;     /* mean instructions per iteration x1000 (0 if not counted) */
	uint64_t ops_per_s;         /* iterations per second at the median (0 if unknown) */
	uint64_t p50_ns_milli;      /* median per iteration in ns x1000 (0 if unknown) */
	uint64_t mean_ns_milli;
	uint32_t core_per_tick_ppm;  /* core cycles per counter tick (0: the counter is the core clock) */
	struct bm_stats_report rep; /* statistics of cycles per iteration */
};

/* A median batch (before subtraction) shorter than this many read overheads leans on the
 * overhead subtraction for most of its figure: the record says so (short_interval). */
#define BM_SHORT_INTERVAL_FACTOR 100u

void bm_scratch_reset(void);
void bm_measure_overhead(struct bm_overhead *oh);
void bm_estimate_clock(struct bm_clock *clk);
/* Runs one benchmark end to end; `st` is the (shared) statistics state it fills. */
void bm_run_one(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
                const struct bm_clock *clk, struct bm_stats *st, struct bm_bench_result *res);
/* Rolling-CV test used by the warm-up: 1 when stddev/mean of w[0..n) <= cv_ppm. */
int bm_window_settled(const uint64_t *w, unsigned n, uint32_t cv_ppm);

/* ---- what the run hands the report (bm_report.c) ---- */

struct bm_run_info {
	const struct bm_config *cfg;
	const struct arch_info *ai;
	struct bm_overhead oh;
	struct bm_clock clk;
	unsigned n;          /* benchmarks selected */
	unsigned name_width; /* longest selected name (the table's first column) */
};

/* Outcomes so far, for the end record and the closing line. */
struct bm_tally {
	unsigned ok, fail;
};

void bm_report_begin(const struct bm_run_info *run);
/* A benchmark starts (its start record, the beginning of its table row). */
void bm_report_bench_begin(const struct bm_run_info *run, const struct bm_bench *b, unsigned index);
/* A benchmark ended: the rest of its row and its result record. */
void bm_report_bench_end(const struct bm_run_info *run, const struct bm_bench *b,
                         const struct bm_bench_result *res, const struct bm_stats *st);
void bm_report_end(const struct bm_run_info *run, const struct bm_tally *t, int status);

#endif /* BM_HARNESS_INTERNAL_H */
