/* SPDX-License-Identifier: Apache-2.0 */
/* The harness: runs every selected benchmark with warm-up, calibration of the inner repeat
 * count, overhead subtraction and verification, and reports each one as a table row and
 * records. bm_run() is the whole kit; a bare-metal start-up calls bm_main(), the hosted arch's
 * main() (arch/hosted/main.c) calls bm_run() with its own configuration. */
#ifndef BM_HARNESS_H
#define BM_HARNESS_H

#include <stdint.h>

#include "bm/bench.h"
#include "bm/port.h" /* the port contract the harness and the start-up drive */

#ifdef __cplusplus
extern "C" {
#endif

#define BM_FORMAT_TABLE   0x1u  /* human header, table rows and the closing line */
#define BM_FORMAT_RECORDS 0x2u  /* JSON records */
#define BM_FORMAT_HIST    0x4u  /* with RECORDS: a hist record after each ok result (the distribution) */

struct bm_config {
	/** Timed batches per benchmark (the statistics' N). */
	uint32_t samples;
	/** Warm-up: at least this many batches... */
	uint32_t warmup_min;
	/** ...then until the rolling CV of the last 8 is at most warmup_cv_ppm, or this cap. */
	uint32_t warmup_max;
	/** Rolling coefficient of variation (ppm) at which warm-up counts as settled. */
	uint32_t warmup_cv_ppm;
	/** Calibration: double the inner repeat count until one batch takes this many cycles. */
	uint64_t min_batch_cycles;
	/** Optional: calibrate to this many ns instead (converted with the estimated cycle clock;
	 *  0 = use min_batch_cycles). */
	uint64_t min_batch_ns;
	/** Optional: a batch lasts at least this many counter read overheads (0 = no floor). */
	uint32_t min_batch_reads;
	/** Calibration cap on the inner repeat count (a power of two). */
	uint32_t max_iters;
	/** Watchdog: a benchmark's time budget in ms, setup to teardown (0 = none); a benchmark's
	 *  own .timeout_ms overrides it. Needs a board with an alarm. */
	uint32_t bench_timeout_ms;
	/** BM_FORMAT_* bits. */
	uint32_t format;
	/** Optional: run only benchmarks for which this returns non-zero. */
	int (*select)(const char *name, void *ctx);
	void *select_ctx;
	/** Optional: the static constructors (C++ objects at namespace scope), run once the board and
	 *  the arch are up, before the first benchmark (a bare-metal start-up's; a hosted C library
	 *  has run them before main). */
	void (*constructors)(void);
};

/* Defaults from the build (BM_SAMPLES etc., see cmake/BaremarkOptions.cmake). */
void bm_config_defaults(struct bm_config *cfg);

/* The registered benchmarks in run order (by name; ties by address), NULL after the last;
 * bm_bench_next(0, cfg) is the first. Only those cfg selects (cfg may be NULL: all). */
const struct bm_bench *bm_bench_next(const struct bm_bench *prev, const struct bm_config *cfg);

/* Runs the selected benchmarks; returns a bm_exit_status. */
int bm_run(const struct bm_config *cfg);

/* Bare-metal entry after C runtime set-up: defaults, the start-up's constructors, bm_run, board exit. */
__attribute__((noreturn)) void bm_main(void (*constructors)(void));

#ifdef __cplusplus
}
#endif

#endif /* BM_HARNESS_H */
