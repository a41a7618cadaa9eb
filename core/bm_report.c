/* Presentation of a run: the human header and the meta record, then per benchmark its start
 * record, its table row and its result record, then the end record and the closing line. Rows
 * are printed as each benchmark ends (no row is kept, so the table has no length limit); human
 * lines never start with '{', so a log reader takes every line that does as a record. */
#include "bm/harness_internal.h"
#include "bm/out.h"
#include "bm/record.h"
#include "bm/wide.h"
#include "bm/build_info.h"

#define LABEL_WIDTH 14

enum { COL_N, COL_MIN, COL_P50, COL_P99, COL_MAX, COL_MEAN, COL_INSN, COL_NS, COL_OPS, COL_COUNT };

static const struct {
	const char *title;
	unsigned width; /* wide enough for typical figures; a wider one widens its row, never cut */
} cols[COL_COUNT] = {
	{"n", 6}, {"min", 11}, {"p50", 11}, {"p99", 11}, {"max", 11},
	{"mean", 11}, {"insn/it", 10}, {"ns/it", 10}, {"ops/s", 11},
};

#define STATUS_WIDTH 6
#define ITERS_WIDTH 8

static int short_seen; /* a row was marked '*': the closing legend explains it */
static int drift_seen; /* a row was marked '~' */

static int want_table(const struct bm_run_info *run)
{
	return (run->cfg->format & BM_FORMAT_TABLE) != 0;
}

static int want_records(const struct bm_run_info *run)
{
	return (run->cfg->format & BM_FORMAT_RECORDS) != 0;
}

static int want_hist(const struct bm_run_info *run)
{
	return want_records(run) && (run->cfg->format & BM_FORMAT_HIST) != 0;
}

static void out_line(const char *label, const char *value)
{
	bm_out_padded(label, LABEL_WIDTH, 0);
	bm_out_str(value);
	bm_out_char('\n');
}

static void out_hz(uint64_t hz)
{
	char b[BM_FMT_NUM_MAX];
	/* MHz with 3 decimals: hz / 1000 is kHz = MHz x 1000, i.e. milli-MHz. */
	bm_fmt_milli(b, hz / 1000, 3);
	bm_out_str(b);
	bm_out_str(" MHz");
}

/* part / whole as a percentage with one decimal ("12.3%"). */
static void out_pct(uint64_t part, uint64_t whole)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_milli(b, whole ? bm_muldiv64(part, 100000, whole) : 0, 1);
	bm_out_str(b);
	bm_out_char('%');
}

static void out_facts(const struct bm_kv *f)
{
	for (unsigned i = 0; f && f[i].key; i++) {
		bm_out_str(i ? ", " : " (");
		bm_out_str(f[i].key);
		bm_out_char('=');
		bm_out_str(f[i].value);
		if (!f[i + 1].key)
			bm_out_char(')');
	}
}

static void rec_facts(struct bm_record *r, const char *key, const struct bm_kv *f)
{
	bm_rec_obj_begin(r, key);
	for (unsigned i = 0; f && f[i].key; i++)
		bm_rec_str(r, f[i].key, f[i].value);
	bm_rec_obj_end(r);
}

/* The first line, as soon as the console is up (before the arch probes its counters, which takes
 * a while on some cores): the user sees at once that the kit started, and on which board. */
void bm_report_hello(const struct bm_config *cfg)
{
	if (!(cfg->format & BM_FORMAT_TABLE))
		return;
	bm_out_str("baremark " BM_KIT_VERSION ": bare-metal benchmarks on ");
	bm_out_str(board_desc.name);
	bm_out_char('\n');
}

static void print_header(const struct bm_run_info *run)
{
	const struct arch_info *ai = run->ai;
	const struct bm_timer *timer = bm_port_timer();
	bm_out_padded("results", LABEL_WIDTH, 0);
	bm_out_str(arch_cycle_unit(ai));
	bm_out_str(" per iteration\n");
	bm_out_padded("board", LABEL_WIDTH, 0);
	bm_out_str(board_desc.name);
	out_facts(board_desc.facts);
	bm_out_char('\n');
	bm_out_padded("build", LABEL_WIDTH, 0);
	bm_out_str(bm_build_info.built_for);
	bm_out_str(" build of kit " BM_KIT_VERSION " ");
	bm_out_str(bm_build_info.kit_vcs);
	if (bm_build_info.label[0]) {
		bm_out_str(", label ");
		bm_out_str(bm_build_info.label);
	}
	bm_out_char('\n');
	out_line("console", board_desc.console->name);
	bm_out_padded("arch", LABEL_WIDTH, 0);
	bm_out_str(ai->isa);
	out_facts(ai->facts);
	bm_out_char('\n');
	bm_out_padded("cycles", LABEL_WIDTH, 0);
	bm_out_str(ai->cycle_counter);
	bm_out_char('\n');
	out_line("instructions", ai->instret_counter ? ai->instret_counter : "not counted on this core");
	bm_out_padded("timer", LABEL_WIDTH, 0);
	if (timer) {
		bm_out_str(timer->name);
		bm_out_str(", ");
		out_hz(timer->hz);
	} else {
		bm_out_str("none (no ns or ops/s figures)");
	}
	bm_out_char('\n');
	bm_out_padded("watchdog", LABEL_WIDTH, 0);
	if (bm_port_alarm && run->cfg->bench_timeout_ms) {
		bm_out_str(bm_port_alarm->name);
		bm_out_str(", ");
		bm_out_u64(run->cfg->bench_timeout_ms);
		bm_out_str(" ms per benchmark unless it sets its own");
	} else {
		bm_out_str("none (a benchmark that hangs stops the run)");
	}
	bm_out_char('\n');
	bm_out_padded("overhead", LABEL_WIDTH, 0);
	bm_out_u64(run->oh.cycles);
	bm_out_str(" cycles, ");
	bm_out_u64(run->oh.instret);
	bm_out_str(" instructions per counter read pair and loop pass (subtracted; max seen ");
	bm_out_u64(run->oh.cycles_max);
	bm_out_str(" cycles); each further pass of a batch's loop, ");
	bm_out_u64(run->oh.loop_cycles);
	bm_out_str(" cycles, ");
	bm_out_u64(run->oh.loop_instret);
	bm_out_str(" instructions, is in its figures\n");
	out_line("libc", bm_libc_name);
	out_line("compiler", "GCC " __VERSION__);
	out_line("flags", bm_build_info.cflags);
	bm_out_padded("method", LABEL_WIDTH, 0);
	bm_out_u64(run->cfg->samples);
	bm_out_str(" samples per benchmark; batches of >= ");
	bm_out_u64(run->cfg->min_batch_cycles);
	bm_out_str(" cycles; ");
	bm_out_u64(run->n);
	bm_out_str(run->n == 1 ? " benchmark\n\n" : " benchmarks\n\n");
}

static void meta_record(const struct bm_run_info *run)
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
	bm_rec_str(&r, "console", board_desc.console->name);
	bm_rec_str(&r, "isa", ai->isa);
	bm_rec_str(&r, "cycle_counter", ai->cycle_counter);
	bm_rec_str(&r, "cycle_unit", arch_cycle_unit(ai));
	bm_rec_str(&r, "instret_counter", ai->instret_counter ? ai->instret_counter : "none");
	bm_rec_str(&r, "timer", timer ? timer->name : "none");
	bm_rec_u64(&r, "timer_hz", timer ? timer->hz : 0);
	bm_rec_u64(&r, "overhead_cycles", run->oh.cycles);
	bm_rec_u64(&r, "overhead_cycles_max", run->oh.cycles_max);
	bm_rec_u64(&r, "overhead_instret", run->oh.instret);
	bm_rec_u64(&r, "batch_loop_cycles", run->oh.loop_cycles);
	bm_rec_u64(&r, "batch_loop_instret", run->oh.loop_instret);
	bm_rec_str(&r, "libc", bm_libc_name);
	bm_rec_str(&r, "compiler", "GCC " __VERSION__);
	bm_rec_str(&r, "cflags", bm_build_info.cflags);
	bm_rec_str(&r, "opt", bm_build_info.opt);
	bm_rec_u64(&r, "samples", run->cfg->samples);
	bm_rec_u64(&r, "min_batch_cycles", run->cfg->min_batch_cycles);
	bm_rec_u64(&r, "bench_timeout_ms", bm_port_alarm ? run->cfg->bench_timeout_ms : 0);
	bm_rec_u64(&r, "benchmarks", run->n);
	bm_rec_bool(&r, "hist", want_hist(run));
	bm_rec_u64(&r, "stats_bytes", sizeof(struct bm_stats));
	rec_facts(&r, "arch_facts", ai->facts);
	bm_rec_end(&r);
}

static void table_header(const struct bm_run_info *run)
{
	bm_out_padded("benchmark", run->name_width, 0);
	bm_out_str("  ");
	bm_out_padded("status", STATUS_WIDTH, 0);
	bm_out_padded("iters", ITERS_WIDTH, 1);
	for (unsigned c = 0; c < COL_COUNT; c++) {
		bm_out_str("  ");
		bm_out_padded(cols[c].title, cols[c].width, 1);
	}
	bm_out_char('\n');
}

void bm_report_begin(const struct bm_run_info *run)
{
	short_seen = drift_seen = 0; /* a new run (host-linux --repetitions) */
	if (want_table(run))
		print_header(run);
	if (want_records(run))
		meta_record(run);
	if (want_table(run) && run->oh.cycles_advance)
		table_header(run);
}

void bm_report_bench_begin(const struct bm_run_info *run, const struct bm_bench *b, unsigned index)
{
	if (want_records(run)) {
		struct bm_record r;
		bm_rec_begin(&r, "start");
		bm_rec_str(&r, "name", b->name);
		bm_rec_u64(&r, "index", index);
		bm_rec_u64(&r, "of", run->n);
		bm_rec_end(&r);
	}
	/* The row starts now, so a console shows what is running; the figures follow at the end. */
	if (want_table(run))
		bm_out_padded(b->name, run->name_width, 0);
}

static void result_record(const struct bm_run_info *run, const struct bm_bench *b,
                          const struct bm_bench_result *res)
{
	struct bm_record r;
	bm_rec_begin(&r, "result");
	bm_rec_str(&r, "name", b->name);
	bm_rec_str(&r, "status", bm_status_names[res->status]);
	if (!res->ok) {
		/* A benchmark that did not pass reports why, never a number. */
		bm_rec_str(&r, "reason", res->reason);
		bm_rec_str(&r, "phase", res->phase);
		if (res->fault.kind) {
			char hex[BM_FMT_NUM_MAX];
			bm_rec_obj_begin(&r, "trap");
			bm_rec_str(&r, "cause", res->fault.cause);
			bm_append_hex(hex, res->fault.pc, 16);
			bm_rec_str(&r, "pc", hex);
			if (res->fault.has_addr) {
				bm_append_hex(hex, res->fault.addr, 16);
				bm_rec_str(&r, "addr", hex);
			}
			bm_append_hex(hex, res->fault.code, 16);
			bm_rec_str(&r, "code", hex);
			bm_rec_obj_end(&r);
		}
		if (res->stack_used_bytes)
			bm_rec_u64(&r, "stack_used_bytes", res->stack_used_bytes);
		bm_port_bench_end(b->name, 0);
		bm_rec_end(&r);
		return;
	}
	if (res->stack_used_bytes)
		bm_rec_u64(&r, "stack_used_bytes", res->stack_used_bytes);
	bm_rec_str(&r, "unit", arch_cycle_unit(run->ai));
	bm_rec_u64(&r, "iters", res->iters);
	bm_stats_record_fields(&r, &res->rep);
	if (run->ai->instret_counter)
		bm_rec_milli(&r, "insns", res->instret_milli);
	if (res->p50_ns_milli || res->mean_ns_milli) {
		bm_rec_milli(&r, "p50_ns", res->p50_ns_milli);
		bm_rec_milli(&r, "mean_ns", res->mean_ns_milli);
		bm_rec_u64(&r, "ops_per_s", res->ops_per_s);
		bm_rec_u64(&r, "cycle_hz", res->cycle_hz);
	}
	if (res->core_per_tick_ppm) {
		bm_rec_u64(&r, "core_per_tick_ppm", res->core_per_tick_ppm);
		bm_rec_milli(&r, "core_cycles_p50",
		             bm_muldiv64(res->rep.p50.value_milli, res->core_per_tick_ppm, 1000000));
		bm_rec_milli(&r, "core_cycles_mean",
		             bm_muldiv64(res->rep.mean_milli, res->core_per_tick_ppm, 1000000));
	}
	if (b->bytes)
		bm_rec_u64(&r, "bytes", b->bytes);
	if (b->expect_insns)
		bm_rec_u64(&r, "expect_insns", b->expect_insns);
	bm_rec_obj_begin(&r, "warmup");
	bm_rec_u64(&r, "batches", res->warmup_batches);
	bm_rec_bool(&r, "settled", res->warmup_settled);
	bm_rec_obj_end(&r);
	bm_rec_u64(&r, "below_overhead", res->below_overhead);
	bm_rec_bool(&r, "short_interval", res->short_interval);
	bm_rec_u64(&r, "drift_ppm", res->drift_ppm);
	bm_rec_bool(&r, "unstable", res->drift_ppm > BM_DRIFT_UNSTABLE_PPM);
	bm_port_bench_end(b->name, &r);
	bm_rec_end(&r);
}

/* One cell: per-iteration figures with 2 decimals when they are averages over a batch
 * (iters > 1), as integers otherwise; '-' for instructions a core cannot count. */
static void cell(char *buf, const struct bm_run_info *run, const struct bm_bench_result *res, unsigned col)
{
	static const uint8_t rep_cols[] = {COL_MIN, COL_P50, COL_P99, COL_MAX, COL_MEAN};
	const struct bm_stats_report *rep = &res->rep;
	const uint64_t v[] = {rep->min_milli, rep->p50.value_milli, rep->p99.value_milli,
	                      rep->max_milli, rep->mean_milli};
	switch (col) {
	case COL_N:
		bm_fmt_u64(buf, rep->n);
		return;
	case COL_INSN:
		if (!run->ai->instret_counter) {
			buf[0] = '-', buf[1] = 0;
			return;
		}
		bm_fmt_milli(buf, res->instret_milli, 1);
		return;
	case COL_NS:
		bm_fmt_milli(buf, res->p50_ns_milli, 1);
		return;
	case COL_OPS:
		bm_fmt_u64(buf, res->ops_per_s);
		return;
	}
	for (unsigned i = 0; i < sizeof rep_cols; i++)
		if (rep_cols[i] == col)
			bm_fmt_milli(buf, v[i], res->iters > 1 ? 2 : 0);
}


static void table_row(const struct bm_run_info *run, const struct bm_bench_result *res)
{
	char b[BM_FMT_NUM_MAX];
	static const char *const shown[BM_ST_COUNT] = {"ok", "FAIL", "TRAP", "TIMEOUT", "STACK", "SCRATCH"};
	bm_out_str("  ");
	if (!res->ok) {
		bm_out_padded(shown[res->status], STATUS_WIDTH, 0);
		bm_out_str("  ");
		bm_out_str(res->reason);
		bm_out_str(" (in ");
		bm_out_str(res->phase);
		if (res->fault.kind == BM_FAULT_TRAP) {
			bm_out_str(", pc 0x");
			bm_out_hex(res->fault.pc, 0);
			if (res->fault.has_addr) {
				bm_out_str(", address 0x");
				bm_out_hex(res->fault.addr, 0);
			}
		}
		bm_out_str(")\n");
		return;
	}
	int unstable = res->drift_ppm > BM_DRIFT_UNSTABLE_PPM;
	bm_out_padded(res->short_interval ? (unstable ? "ok*~" : "ok*") : (unstable ? "ok~" : "ok"), STATUS_WIDTH, 0);
	short_seen |= res->short_interval;
	drift_seen |= unstable;
	bm_fmt_u64(b, res->iters);
	bm_out_padded(b, ITERS_WIDTH, 1);
	for (unsigned c = 0; c < COL_COUNT; c++) {
		bm_out_str("  ");
		cell(b, run, res, c);
		bm_out_padded(b, cols[c].width, 1);
	}
	bm_out_char('\n');
}

/* The distribution behind an ok result, exactly as the statistics state holds it, so a host
 * tool can compute any quantile, test or plot from it, and merge runs (docs/records.md, hist). */
static void hist_record(const struct bm_run_info *run, const struct bm_bench *b,
                        const struct bm_bench_result *res, const struct bm_stats *st)
{
	struct bm_record r;
	bm_rec_begin(&r, "hist");
	bm_rec_str(&r, "name", b->name);
	bm_rec_str(&r, "unit", arch_cycle_unit(run->ai));
	bm_rec_u64(&r, "div", res->iters);
	bm_stats_hist_fields(&r, st);
	bm_rec_end(&r);
}

void bm_report_bench_end(const struct bm_run_info *run, const struct bm_bench *b,
                         const struct bm_bench_result *res, const struct bm_stats *st)
{
	if (want_table(run))
		table_row(run, res);
	if (want_records(run)) {
		result_record(run, b, res);
		if (res->ok && want_hist(run))
			hist_record(run, b, res, st);
	} else {
		bm_port_bench_end(b->name, 0);
	}
}

/* The main stack's high-water mark over the run: bytes below the top that no longer hold the
 * start-up's paint (a byte rewritten with the paint value can only make it under-count by a
 * few). 0 with *size 0 when the runtime does not paint its stack (hosted). */
static size_t stack_used(size_t *size)
{
	struct bm_stack s;
	bm_rt_stack(&s);
	*size = 0;
	if (!s.painted || s.lo == s.hi)
		return 0;
	*size = s.hi - s.lo;
	const volatile uint8_t *p = (const volatile uint8_t *)s.lo;
	while ((uintptr_t)p < s.hi && *p == s.paint)
		p++;
	return s.hi - (uintptr_t)p;
}

/* The parts of the run fit in the run: not so when a benchmark wrote the cycle counter (the
 * wrap self-test does, in its setup), and then no share is printed rather than a made-up one. */
static int shares_known(const struct bm_tally *t)
{
	return t->body_cycles <= t->run_cycles && t->user_cycles <= t->run_cycles - t->body_cycles;
}

static void end_record(const struct bm_run_info *run, const struct bm_tally *t, int status)
{
	struct bm_record r;
	bm_rec_begin(&r, "end");
	bm_rec_u64(&r, "results", run->n);
	for (unsigned i = 0; i < BM_ST_COUNT; i++)
		bm_rec_u64(&r, bm_status_names[i], t->by_status[i]);
	bm_rec_u64(&r, "exit_status", (uint64_t)status);
	if (shares_known(t)) {
		bm_rec_u64(&r, "run_cycles", t->run_cycles);
		bm_rec_u64(&r, "body_cycles", t->body_cycles);
		bm_rec_u64(&r, "user_cycles", t->user_cycles);
	}
	if (run->clk.cycle_hz) {
		bm_rec_u64(&r, "cycle_hz", run->clk.cycle_hz);
		bm_rec_u64(&r, "clock_ticks", run->clk.window_ticks);
	}
	size_t size, used = stack_used(&size);
	if (size) {
		bm_rec_u64(&r, "stack_used_bytes", used);
		bm_rec_u64(&r, "stack_bytes", size);
	}
	bm_rec_end(&r);
}

void bm_report_end(const struct bm_run_info *run, const struct bm_tally *t, int status)
{
	if (want_table(run)) {
		bm_out_str("(");
		bm_out_str(arch_cycle_unit(run->ai));
		bm_out_str(" per iteration after overhead subtraction; insn/it = instructions retired");
		if (short_seen)
			bm_out_str("; ok* = the median batch is under 100x the counter read overhead, so its "
			           "figure rests on the overhead subtraction");
		if (drift_seen)
			bm_out_str("; ok~ = UNSTABLE: the fastest batch of one quarter of the samples differs from "
			           "another's by more than 5% (the machine's speed changed during the benchmark, "
			           "or the benchmark's own cost changes from sample to sample: its figures mix "
			           "two states)");
		bm_out_str(")\n");
		if (run->clk.cycle_hz) {
			bm_out_str("clock: ");
			out_hz(run->clk.cycle_hz);
			bm_out_str(", estimated against the timer over the benchmarks' windows (");
			bm_out_u64(run->clk.window_ticks);
			bm_out_str(" ticks)\n");
		}
		if (shares_known(t)) {
			bm_out_str("time: timed batches ");
			out_pct(t->body_cycles, t->run_cycles);
			bm_out_str(", the benchmarks' code outside them ");
			out_pct(t->user_cycles, t->run_cycles);
			bm_out_str(", the kit itself ");
			out_pct(t->run_cycles - t->body_cycles - t->user_cycles, t->run_cycles);
			bm_out_str(" of the run's cycles\n");
		} else {
			bm_out_str("time: not known (the cycle counter was written during the run)\n");
		}
	}
	if (want_records(run))
		end_record(run, t, status);
	if (want_table(run)) {
		unsigned ok = t->by_status[BM_ST_OK];
		bm_out_str(ok == run->n ? "baremark: PASS (" : "baremark: FAIL (");
		bm_out_u64(ok);
		bm_out_char('/');
		bm_out_u64(run->n);
		bm_out_str(" benchmarks verified");
		for (unsigned i = 1; i < BM_ST_COUNT; i++)
			if (t->by_status[i]) {
				bm_out_str(", ");
				bm_out_u64(t->by_status[i]);
				bm_out_char(' ');
				bm_out_str(bm_status_names[i]);
			}
		bm_out_char(')');
		size_t size, used = stack_used(&size);
		if (size) {
			bm_out_str("; stack used ");
			bm_out_u64(used);
			bm_out_str(" of ");
			bm_out_u64(size);
			bm_out_str(" bytes");
		}
		bm_out_char('\n');
	}
}
