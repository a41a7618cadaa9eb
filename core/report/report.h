/* SPDX-License-Identifier: Apache-2.0 */
/* The report layer (core/report/): presentation of a run, computed by nothing here. The table
 * rows and closing lines, and what goes out when (bm_report.c), the human header
 * (bm_report_header.c) and the run's records (bm_report_records.c, docs/records.md).
 * Core-private: the run layer (core/run/) hands it each outcome as it comes. */
#ifndef BM_REPORT_H
#define BM_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "run/run.h"

/* What the run hands the report once, at its start. */
struct bm_run_info {
	const struct bm_config *cfg;
	const struct arch_info *ai;
	struct bm_overhead oh;
#if ARCH_USER_SNAP_TRAPS
	struct bm_overhead oh_user; /* the read path of benchmark code that runs unprivileged */
#endif
	struct bm_clock clk;
	uint32_t tick_insns; /* under -icount, instructions per step of a counter slower than the
	                      * core (SysTick, a timer): its resolution; 0 where that does not apply */
	unsigned n;          /* benchmarks selected */
	unsigned name_width; /* longest selected name (the table's first column) */
};

/* Outcomes so far, by status, for the end record and the closing line; where the run's cycles
 * went, so the kit's own share (everything that is neither a timed batch nor the benchmark's own
 * setup/verify/teardown) is measured on every run, not guessed. */
struct bm_tally {
	unsigned by_status[BM_ST_COUNT];
	/* ok results whose figures time runs on their own output, undeclared (ok?): they fail the
	 * run as a benchmark that is not ok does */
	unsigned state_dependent;
	uint64_t run_cycles;  /* from bm_run's start (devices up) to the end record */
	uint64_t body_cycles;
	uint64_t user_cycles;
	/* The parts fit in the run: not so when a benchmark wrote the cycle counter (the wrap
	 * self-test does, in its setup), and then no share is printed rather than a made-up one. */
	int shares_known;
	size_t stack_used_bytes, stack_bytes; /* the main stack's high-water mark (0 0: not known) */
};

/* The first console line, before the arch is brought up. */
void bm_report_hello(const struct bm_config *cfg);
void bm_report_begin(const struct bm_run_info *run);
/* A benchmark starts (its start record, the beginning of its table row). */
void bm_report_bench_begin(const struct bm_run_info *run, const struct bm_bench *b, unsigned index);
/* A benchmark ended: the rest of its row and its result record. */
void bm_report_bench_end(const struct bm_run_info *run, const struct bm_bench *b,
                         const struct bm_bench_result *res, const struct bm_stats *st);
void bm_report_end(const struct bm_run_info *run, const struct bm_tally *t, int status);

/* ---- between bm_report.c, bm_report_header.c and bm_report_records.c ---- */

/* The human header's lines (bm_report_header.c). */
void bm_report_header(const struct bm_run_info *run);
/* A rate as MHz with 3 decimals ("999.999 MHz"). */
void bm_report_mhz(uint64_t hz);

/* An ok result whose samples spread over BM_CV_NOISY_PPM (bm/shared.h): the table's ok%, the
 * record's "noisy":true. (Its warm-up's verdict, the table's ok^, is the record's warmup.) */
static inline int bm_report_noisy(const struct bm_bench_result *res)
{
	return res->rep.cv_ppm > BM_CV_NOISY_PPM;
}

/* The record's word for each status (bm/shared.h, BM_STATUS_LIST). */
extern const char *const bm_status_names[BM_ST_COUNT];

/* The unit of the cycles figures ("cycles" unless the arch says otherwise). */
static inline const char *bm_cycle_unit(const struct arch_info *ai)
{
	return ai->cycle_unit ? ai->cycle_unit : "cycles";
}

/* The records themselves. A result record is left open for the board's keys (its bench_end
 * hook); the caller ends it. */
void bm_record_meta(const struct bm_run_info *run, int hist);
void bm_record_start(const struct bm_run_info *run, const struct bm_bench *b, unsigned index);
void bm_record_result_open(struct bm_record *r, const struct bm_run_info *run, const struct bm_bench *b,
                           const struct bm_bench_result *res);
void bm_record_hist(const struct bm_run_info *run, const struct bm_bench *b, const struct bm_bench_result *res,
                    const struct bm_stats *st);
void bm_record_end(const struct bm_run_info *run, const struct bm_tally *t, int status);
/* The end record's tally (results, each status's count, the exit status, where the cycles went),
 * into an open record: the end's, and a served run command's done record. */
void bm_record_tally(struct bm_record *r, const struct bm_tally *t, unsigned results, int status);

#endif /* BM_REPORT_H */
