/* SPDX-License-Identifier: Apache-2.0 */
/* The run's records (docs/records.md): meta, then per benchmark start, result and hist, then
 * end. Each writer formats figures the run computed (core/run/: bm_measure.c's summarize,
 * bm_run.c's tally); nothing is derived here. */
#include "bm/build_info.h"
#include "bm/out.h"
#include "bm/record.h"
#include "bm_board.h"
#include "libc/heap.h"
#include "report/report.h"

#define BM_ST_NAME(e, name, word) name,
const char *const bm_status_names[BM_ST_COUNT] = {BM_STATUS_LIST(BM_ST_NAME)};
#undef BM_ST_NAME

static void rec_facts(struct bm_record *r, const char *key, const struct bm_kv *f)
{
	bm_rec_obj_begin(r, key);
	for (unsigned i = 0; f && f[i].key; i++)
		bm_rec_str(r, f[i].key, f[i].value);
	bm_rec_obj_end(r);
}

void bm_record_meta(const struct bm_run_info *run, int hist)
{
	const struct arch_info *ai = run->ai;
	const struct bm_timer *timer = bm_port_timer();
	struct bm_record r;
	bm_rec_begin(&r, "meta");
	bm_rec_str(&r, "kit", "baremark");
	bm_rec_str(&r, "kit_version", BM_KIT_VERSION);
	bm_rec_str(&r, "kit_vcs", bm_build_info.kit_vcs);
	bm_rec_str(&r, "label", bm_build_info.label);
	bm_rec_str(&r, "built_for", bm_build_info.built_for);
	bm_rec_str(&r, "board", board_desc.name);
	rec_facts(&r, "board_facts", board_desc.facts);
	bm_rec_str(&r, "console", bm_port_console_name());
	bm_rec_str(&r, "isa", ai->isa);
	bm_rec_str(&r, "cycle_counter", ai->cycle_counter);
	bm_rec_str(&r, "cycle_unit", bm_cycle_unit(ai));
	bm_rec_str(&r, "instret_counter", ai->instret_counter ? ai->instret_counter : "none");
	bm_rec_str(&r, "timer", timer ? timer->name : "none");
	bm_rec_u64(&r, "timer_hz", timer ? timer->hz : 0);
	bm_rec_u64(&r, "overhead_cycles", run->oh.cycles);
	bm_rec_u64(&r, "overhead_cycles_max", run->oh.cycles_max);
	bm_rec_u64(&r, "overhead_instret", run->oh.instret);
#if ARCH_USER_SNAP_TRAPS
	bm_rec_u64(&r, "overhead_user_cycles", run->oh_user.cycles);
	bm_rec_u64(&r, "overhead_user_cycles_max", run->oh_user.cycles_max);
#endif
	bm_rec_u64(&r, "batch_loop_cycles", run->oh.loop_cycles);
	bm_rec_u64(&r, "batch_loop_instret", run->oh.loop_instret);
	if (run->tick_insns)
		bm_rec_u64(&r, "tick_insns", run->tick_insns);
	bm_rec_str(&r, "libc", bm_libc_name);
	bm_rec_str(&r, "compiler", "GCC " __VERSION__);
	bm_rec_str(&r, "cflags", bm_build_info.cflags);
	bm_rec_str(&r, "opt", bm_build_info.opt);
	bm_rec_u64(&r, "samples", run->cfg->samples);
	bm_rec_u64(&r, "min_batch_cycles", run->cfg->min_batch_cycles);
	bm_rec_u64(&r, "bench_timeout_ms", bm_port_alarm ? run->cfg->bench_timeout_ms : 0);
	bm_rec_u64(&r, "benchmarks", run->n);
	if (BM_SERVE) /* (then benchmarks and samples are what a command runs: docs/records.md) */
		bm_rec_bool(&r, "serve", 1);
	bm_rec_bool(&r, "hist", hist);
	bm_rec_u64(&r, "stats_bytes", sizeof(struct bm_stats));
	rec_facts(&r, "arch_facts", ai->facts);
	bm_events_record_meta(&r);
	bm_rec_end(&r);
}

void bm_record_start(const struct bm_run_info *run, const struct bm_bench *b, unsigned index)
{
	struct bm_record r;
	bm_rec_begin(&r, "start");
	bm_rec_str(&r, "name", b->name);
	bm_rec_u64(&r, "index", index);
	bm_rec_u64(&r, "of", run->n);
	bm_rec_end(&r);
}

/* The C library's heap a benchmark took from (malloc), at most, and its size: only when it did. */
static void heap_fields(struct bm_record *r)
{
	size_t heap_bytes, used = bm_heap_used_bytes(&heap_bytes);
	if (used) {
		bm_rec_u64(r, "heap_used_bytes", used);
		bm_rec_u64(r, "heap_bytes", heap_bytes);
	}
}

/* A benchmark that did not pass reports why, never a number. */
static void failure_fields(struct bm_record *r, const struct bm_bench_result *res)
{
	bm_rec_str(r, "reason", res->reason);
	bm_rec_str(r, "phase", res->phase);
	if (res->fault.kind) {
		char hex[BM_FMT_NUM_MAX];
		bm_rec_obj_begin(r, "trap");
		bm_rec_str(r, "cause", res->fault.cause);
		bm_append_hex(hex, res->fault.pc, 2 * sizeof(uintptr_t)); /* (the ISA's width) */
		bm_rec_str(r, "pc", hex);
		if (res->fault.has_addr) {
			bm_append_hex(hex, res->fault.addr, 2 * sizeof(uintptr_t));
			bm_rec_str(r, "addr", hex);
		}
		bm_append_hex(hex, res->fault.code, 16);
		bm_rec_str(r, "code", hex);
		bm_rec_obj_end(r);
	}
	if (res->stack_used_bytes)
		bm_rec_u64(r, "stack_used_bytes", res->stack_used_bytes);
	heap_fields(r);
}

/* A benchmark compiled with flags other than the meta record's (third-party code) says its own. */
static void bench_cflags(struct bm_record *r, const struct bm_bench *b)
{
	if (b->cflags && b->cflags[0])
		bm_rec_str(r, "cflags", b->cflags);
}

/* An ok result's figures in time and in core cycles (where known). */
static void time_fields(struct bm_record *r, const struct bm_bench_result *res)
{
	if (res->p50_ns_milli || res->mean_ns_milli) {
		bm_rec_milli(r, "p50_ns", res->p50_ns_milli);
		bm_rec_milli(r, "mean_ns", res->mean_ns_milli);
		bm_rec_u64(r, "ops_per_s", res->ops_per_s);
		bm_rec_u64(r, "cycle_hz", res->cycle_hz);
	}
	if (res->core_per_tick_ppm)
		bm_rec_u64(r, "core_per_tick_ppm", res->core_per_tick_ppm);
	if (res->core_cycles_known) {
		bm_rec_milli(r, "core_cycles_p50", res->core_cycles_p50_milli);
		bm_rec_milli(r, "core_cycles_mean", res->core_cycles_mean_milli);
	}
}

/* How an ok result was measured: its warm-up and the marks on its figures. */
static void method_fields(struct bm_record *r, const struct bm_bench_result *res)
{
	bm_rec_obj_begin(r, "warmup");
	bm_rec_u64(r, "batches", res->warmup_batches);
	bm_rec_bool(r, "settled", res->warmup_settled);
	bm_rec_obj_end(r);
	bm_rec_u64(r, "below_overhead", res->below_overhead);
	bm_rec_bool(r, "short_interval", res->short_interval);
	bm_rec_u64(r, "drift_ppm", res->drift_ppm);
	bm_rec_bool(r, "unstable", bm_verdict_unstable(res));
	if (bm_report_noisy(res)) /* (only when so: a flag, as the table's ok%) */
		bm_rec_bool(r, "noisy", 1);
}

void bm_record_result_open(struct bm_record *r, const struct bm_run_info *run, const struct bm_bench *b,
                           const struct bm_bench_result *res)
{
	bm_rec_begin(r, "result");
	bm_rec_str(r, "name", b->name);
	bm_rec_str(r, "status", bm_status_names[res->status]);
	bench_cflags(r, b);
	if (!res->ok) {
		failure_fields(r, res);
		return;
	}
	if (res->stack_used_bytes)
		bm_rec_u64(r, "stack_used_bytes", res->stack_used_bytes);
	heap_fields(r);
	bm_rec_str(r, "unit", bm_cycle_unit(run->ai));
	bm_rec_u64(r, "iters", res->iters);
	bm_rec_u64(r, "cold", res->cold);
	if (b->carries_state) {
		bm_rec_bool(r, "carries_state", 1); /* declared: no verdict to give */
	} else if (bm_build_info.icount) {
		/* (the verdict exists only where runs on the same input cost the same) */
		bm_rec_bool(r, "state_dependent", res->state_reason != 0);
		if (res->state_reason)
			bm_rec_str(r, "state_reason", res->state_reason);
	}
	bm_stats_record_fields(r, &res->rep);
	if (run->ai->instret_counter)
		bm_rec_milli128(r, "insns", res->instret_milli);
	time_fields(r, res);
	if (b->bytes)
		bm_rec_u64(r, "bytes", b->bytes);
	if (b->expect_insns)
		bm_rec_u64(r, "expect_insns", b->expect_insns);
	method_fields(r, res);
	bm_events_record_result(r, res);
}

/* The distribution behind an ok result, exactly as the statistics state holds it, so a host
 * tool can compute any quantile, test or plot from it, and merge runs (docs/records.md, hist). */
void bm_record_hist(const struct bm_run_info *run, const struct bm_bench *b, const struct bm_bench_result *res,
                    const struct bm_stats *st)
{
	struct bm_record r;
	bm_rec_begin(&r, "hist");
	bm_rec_str(&r, "name", b->name);
	bm_rec_str(&r, "unit", bm_cycle_unit(run->ai));
	bm_rec_u64(&r, "div", res->iters);
	bm_stats_hist_fields(&r, st);
	bm_rec_end(&r);
}

void bm_record_tally(struct bm_record *r, const struct bm_tally *t, unsigned results, int status)
{
	bm_rec_u64(r, "results", results);
	for (unsigned i = 0; i < BM_ST_COUNT; i++)
		bm_rec_u64(r, bm_status_names[i], t->by_status[i]);
	if (bm_build_info.icount) /* (where the verdict exists) */
		bm_rec_u64(r, "state_dependent", t->state_dependent);
	bm_rec_u64(r, "exit_status", (uint64_t)status);
	if (t->shares_known) {
		bm_rec_u64(r, "run_cycles", t->run_cycles);
		bm_rec_u64(r, "body_cycles", t->body_cycles);
		bm_rec_u64(r, "user_cycles", t->user_cycles);
	}
}

void bm_record_end(const struct bm_run_info *run, const struct bm_tally *t, int status)
{
	struct bm_record r;
	bm_rec_begin(&r, "end");
	bm_record_tally(&r, t, run->n, status);
	if (run->clk.cycle_hz) {
		bm_rec_u64(&r, "cycle_hz", run->clk.cycle_hz);
		bm_rec_u64(&r, "clock_ticks", run->clk.window_ticks);
	}
	if (t->stack_bytes) {
		bm_rec_u64(&r, "stack_used_bytes", t->stack_used_bytes);
		bm_rec_u64(&r, "stack_bytes", t->stack_bytes);
	}
	bm_rec_end(&r);
}
