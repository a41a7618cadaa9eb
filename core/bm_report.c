/* The kit's run: header and meta record, a progress line and a result record per benchmark,
 * the aligned human table, the end record, and the exit status. Human lines never start with
 * '{', so a log reader can take every line that does as a record. */
#include "bm/board.h"
#include "bm/harness_internal.h"
#include "bm/out.h"
#include "bm/record.h"
#include "bm/u128.h"
#include "bm_build_info.h"

#ifndef BM_MAX_ROWS
#define BM_MAX_ROWS 24
#endif

extern const char bm_libc_name[];
/* Bare-metal builds have it (core/bm_crt.c); hosted builds do not, hence weak. */
size_t bm_crt_stack_used(size_t *size) __attribute__((weak));

/* One table row, kept until the end (the statistics state itself is reused per benchmark). */
struct bm_row {
	const char *name;
	const char *reason;
	uint32_t iters;
	uint64_t v[9]; /* n, min, p50, p99, max, mean, insn, ns, ops */
};

enum { COL_N, COL_MIN, COL_P50, COL_P99, COL_MAX, COL_MEAN, COL_INSN, COL_NS, COL_OPS };

static struct bm_stats stats;
static struct bm_row rows[BM_MAX_ROWS];

__attribute__((noreturn)) void bm_board_exit(int status)
{
	if (board_desc.exit)
		board_desc.exit(status);
	for (;;)
		;
}

static int name_cmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

/* (name, address) order, a total order even if two benchmarks share a name. */
static int bench_before(const struct bm_bench *a, const struct bm_bench *b)
{
	int c = name_cmp(a->name, b->name);
	return c < 0 || (c == 0 && a < b);
}

/* Benchmarks run in name order: link order depends on the compiler and its flags, and the
 * order should not. Selection by scan needs no RAM (the registry is read-only). */
static const struct bm_bench *next_bench(const struct bm_bench *prev)
{
	const struct bm_bench *best = 0;
	for (const struct bm_bench *const *p = __start_bm_bench; p < __stop_bm_bench; p++)
		if ((!prev || bench_before(prev, *p)) && (!best || bench_before(*p, best)))
			best = *p;
	return best;
}

static int selected(const struct bm_config *cfg, const struct bm_bench *b)
{
	return !cfg->select || cfg->select(b->name, cfg->select_ctx);
}

static void out_line(const char *label, const char *value)
{
	bm_out_padded(label, 14, 0);
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

static void print_header(const struct bm_config *cfg, const struct arch_info *ai,
                         const struct bm_overhead *oh, const struct bm_clock *clk, unsigned n)
{
	bm_out_str("baremark " BM_KIT_VERSION ": bare-metal benchmarks, results in ");
	bm_out_str(arch_cycle_unit(ai));
	bm_out_str(" per iteration\n");
	out_line("board", board_desc.name);
	out_line("console", board_desc.console);
	bm_out_padded("arch", 14, 0);
	bm_out_str(ai->isa);
	for (unsigned i = 0; i < ai->n_facts; i++) {
		bm_out_str(i ? ", " : " (");
		bm_out_str(ai->facts[i].key);
		bm_out_char('=');
		bm_out_str(ai->facts[i].value);
		if (i + 1 == ai->n_facts)
			bm_out_char(')');
	}
	bm_out_char('\n');
	bm_out_padded("cycles", 14, 0);
	bm_out_str(ai->cycle_counter);
	if (clk->cycle_hz) {
		bm_out_str(", ");
		out_hz(clk->cycle_hz);
		bm_out_str(" (estimated against the timer)");
	}
	bm_out_char('\n');
	out_line("instructions", ai->instret_counter ? ai->instret_counter : "not counted on this core");
	bm_out_padded("timer", 14, 0);
	if (bm_board_has_timer()) {
		bm_out_str(board_desc.timer_name);
		bm_out_str(", ");
		out_hz(board_desc.timer_hz);
	} else {
		bm_out_str("none (no ns or ops/s figures)");
	}
	bm_out_char('\n');
	bm_out_padded("overhead", 14, 0);
	bm_out_u64(oh->cycles);
	bm_out_str(" cycles, ");
	bm_out_u64(oh->instret);
	bm_out_str(" instructions per counter read pair (subtracted; max seen ");
	bm_out_u64(oh->cycles_max);
	bm_out_str(" cycles)\n");
	out_line("libc", bm_libc_name);
	out_line("compiler", "GCC " __VERSION__);
	out_line("flags", BM_BUILD_CFLAGS);
	bm_out_padded("method", 14, 0);
	bm_out_u64(cfg->samples);
	bm_out_str(" samples per benchmark; batches of >= ");
	bm_out_u64(cfg->min_batch_cycles);
	bm_out_str(" cycles; ");
	bm_out_u64(n);
	bm_out_str(" benchmarks\n\n");
}

static void meta_record(const struct bm_config *cfg, const struct arch_info *ai,
                        const struct bm_overhead *oh, const struct bm_clock *clk, unsigned n)
{
	struct bm_record r;
	bm_rec_begin(&r, "meta", 0);
	bm_rec_str(&r, "kit", "baremark");
	bm_rec_str(&r, "kit_version", BM_KIT_VERSION);
	bm_rec_str(&r, "board", board_desc.name);
	bm_rec_str(&r, "console", board_desc.console);
	bm_rec_str(&r, "isa", ai->isa);
	bm_rec_str(&r, "cycle_counter", ai->cycle_counter);
	bm_rec_str(&r, "cycle_unit", arch_cycle_unit(ai));
	bm_rec_u64(&r, "cycle_hz", clk->cycle_hz);
	bm_rec_str(&r, "instret_counter", ai->instret_counter ? ai->instret_counter : "none");
	bm_rec_str(&r, "timer", bm_board_has_timer() ? board_desc.timer_name : "none");
	bm_rec_u64(&r, "timer_hz", bm_board_has_timer() ? board_desc.timer_hz : 0);
	bm_rec_u64(&r, "overhead_cycles", oh->cycles);
	bm_rec_u64(&r, "overhead_cycles_max", oh->cycles_max);
	bm_rec_u64(&r, "overhead_instret", oh->instret);
	bm_rec_str(&r, "libc", bm_libc_name);
	bm_rec_str(&r, "compiler", "GCC " __VERSION__);
	bm_rec_str(&r, "cflags", BM_BUILD_CFLAGS);
	bm_rec_u64(&r, "samples", cfg->samples);
	bm_rec_u64(&r, "min_batch_cycles", cfg->min_batch_cycles);
	bm_rec_u64(&r, "benchmarks", n);
	bm_rec_u64(&r, "stats_bytes", sizeof(struct bm_stats));
	bm_rec_obj_begin(&r, "arch_facts");
	for (unsigned i = 0; i < ai->n_facts; i++)
		bm_rec_str(&r, ai->facts[i].key, ai->facts[i].value);
	bm_rec_obj_end(&r);
	bm_rec_end(&r);
}

static void result_record(uint32_t seq, const struct bm_bench *b, const struct bm_bench_result *res,
                          const struct arch_info *ai)
{
	struct bm_record r;
	bm_rec_begin(&r, "result", seq);
	bm_rec_str(&r, "name", b->name);
	bm_rec_str(&r, "status", res->ok ? "ok" : "fail");
	if (!res->ok) {
		/* A failed benchmark reports why, never a number. */
		bm_rec_str(&r, "reason", res->reason);
		if (board_desc.bench_end)
			board_desc.bench_end(b->name, 0);
		bm_rec_end(&r);
		return;
	}
	bm_rec_str(&r, "unit", arch_cycle_unit(ai));
	bm_rec_u64(&r, "iters", res->iters);
	bm_stats_record_fields(&r, &res->rep);
	if (ai->instret_counter)
		bm_rec_milli(&r, "insns", res->instret_milli);
	if (res->p50_ns_milli || res->mean_ns_milli) {
		bm_rec_milli(&r, "p50_ns", res->p50_ns_milli);
		bm_rec_milli(&r, "mean_ns", res->mean_ns_milli);
		bm_rec_u64(&r, "ops_per_s", res->ops_per_s);
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
	if (board_desc.bench_end)
		board_desc.bench_end(b->name, &r);
	bm_rec_end(&r);
}

/* Format a table cell; milli values print with 2 decimals when the figure is an average over
 * a batch (iters > 1), as integers otherwise. */
static int table_has_insns = 1;

static size_t cell(char *buf, const struct bm_row *row, unsigned col)
{
	if (row->reason)
		return col == COL_N ? (size_t)(buf[0] = '-', buf[1] = 0, 1) : (size_t)(buf[0] = 0);
	if (col == COL_INSN && !table_has_insns)
		return (size_t)(buf[0] = '-', buf[1] = 0, 1); /* the core cannot count them */
	uint64_t v = row->v[col];
	switch (col) {
	case COL_N:
	case COL_OPS:
		return bm_fmt_u64(buf, v);
	case COL_INSN:
	case COL_NS:
		return bm_fmt_milli(buf, v, 1);
	default:
		return bm_fmt_milli(buf, v, row->iters > 1 ? 2 : 0);
	}
}

static const char *const col_names[] = {"n", "min", "p50", "p99", "max", "mean", "insn/it", "ns/it", "ops/s"};

static void print_table(unsigned nrows, unsigned total, const char *unit)
{
	unsigned wname = 9, witers = 5, wcol[9];
	char b[BM_FMT_NUM_MAX];
	for (unsigned c = 0; c < 9; c++)
		wcol[c] = (unsigned)bm_strlen(col_names[c]);
	for (unsigned i = 0; i < nrows; i++) {
		unsigned l = (unsigned)bm_strlen(rows[i].name);
		if (l > wname)
			wname = l;
		l = (unsigned)bm_fmt_u64(b, rows[i].iters);
		if (l > witers)
			witers = l;
		for (unsigned c = 0; c < 9; c++) {
			unsigned w = (unsigned)cell(b, &rows[i], c);
			if (w > wcol[c])
				wcol[c] = w;
		}
	}
	bm_out_char('\n');
	bm_out_padded("benchmark", wname, 0);
	bm_out_str("  status  ");
	bm_out_padded("iters", witers, 1);
	for (unsigned c = 0; c < 9; c++) {
		bm_out_str("  ");
		bm_out_padded(col_names[c], wcol[c], 1);
	}
	bm_out_char('\n');
	for (unsigned i = 0; i < nrows; i++) {
		const struct bm_row *row = &rows[i];
		bm_out_padded(row->name, wname, 0);
		bm_out_str(row->reason ? "  FAIL  " : "  ok    ");
		bm_fmt_u64(b, row->iters);
		bm_out_padded(row->reason ? "-" : b, witers, 1);
		for (unsigned c = 0; c < 9; c++) {
			bm_out_str("  ");
			cell(b, row, c);
			bm_out_padded(b, wcol[c], 1);
		}
		if (row->reason) {
			bm_out_str("  ");
			bm_out_str(row->reason);
		}
		bm_out_char('\n');
	}
	if (total > nrows) {
		bm_out_str("(");
		bm_out_u64(total - nrows);
		bm_out_str(" more benchmarks are in the records only)\n");
	}
	bm_out_str("(");
	bm_out_str(unit);
	bm_out_str(" per iteration after overhead subtraction; insn/it = instructions retired)\n");
}

int bm_run(const struct bm_config *cfg)
{
	if (board_desc.init)
		board_desc.init();
	arch_init();
	const struct arch_info *ai = arch_get_info();
	int table = (cfg->format & BM_FORMAT_TABLE) != 0;
	int records = (cfg->format & BM_FORMAT_RECORDS) != 0;

	unsigned n = 0;
	for (const struct bm_bench *const *p = __start_bm_bench; p < __stop_bm_bench; p++)
		n += selected(cfg, *p);
	if (n == 0) {
		bm_out_str("baremark: error: no benchmarks selected (none registered, or the filter matches none)\n");
		return BM_EXIT_CONFIG;
	}
	if (cfg->samples == 0) {
		bm_out_str("baremark: error: samples must be at least 1\n");
		return BM_EXIT_CONFIG;
	}

	struct bm_overhead oh;
	struct bm_clock clk;
	bm_measure_overhead(&oh);
	bm_estimate_clock(&clk);
	if (table)
		print_header(cfg, ai, &oh, &clk, n);
	if (records)
		meta_record(cfg, ai, &oh, &clk, n);
	if (!clk.cycles_advance) {
		bm_out_str("baremark: error: the cycle counter (");
		bm_out_str(ai->cycle_counter);
		bm_out_str(") does not advance on this core; no figures can be measured\n");
		return BM_EXIT_CONFIG;
	}

	unsigned idx = 0, failed = 0, nrows = 0;
	for (const struct bm_bench *b = next_bench(0); b; b = next_bench(b)) {
		if (!selected(cfg, b))
			continue;
		idx++;
		if (table) {
			bm_out_char('[');
			bm_out_u64(idx);
			bm_out_char('/');
			bm_out_u64(n);
			bm_out_str("] ");
			bm_out_str(b->name);
			bm_out_str(" ...\n");
		}
		struct bm_bench_result res;
		if (board_desc.bench_begin)
			board_desc.bench_begin(b->name);
		bm_run_one(b, cfg, &oh, &clk, &stats, &res);
		if (!res.ok) {
			failed++;
			if (table) {
				bm_out_str("    FAIL: ");
				bm_out_str(res.reason);
				bm_out_char('\n');
			}
		} else if (table && res.short_interval) {
			bm_out_str("    note: the median batch is under 100x the counter read overhead, so its "
			           "figure rests on the overhead subtraction\n");
		}
		if (records)
			result_record(idx, b, &res, ai);
		else if (board_desc.bench_end)
			board_desc.bench_end(b->name, 0);
		if (nrows < BM_MAX_ROWS) {
			struct bm_row *row = &rows[nrows++];
			row->name = b->name;
			row->reason = res.ok ? 0 : res.reason;
			row->iters = res.iters;
			const uint64_t v[9] = {res.rep.n, res.rep.min_milli, res.rep.p50.value_milli,
			                       res.rep.p99.value_milli, res.rep.max_milli, res.rep.mean_milli,
			                       res.instret_milli, res.p50_ns_milli, res.ops_per_s};
			for (unsigned c = 0; c < 9; c++)
				row->v[c] = v[c];
		}
	}
	if (table) {
		table_has_insns = ai->instret_counter != 0;
		print_table(nrows, n, arch_cycle_unit(ai));
	}
	if (records) {
		struct bm_record r;
		bm_rec_begin(&r, "end", n + 1);
		bm_rec_u64(&r, "results", n);
		bm_rec_u64(&r, "failed", failed);
		if (bm_crt_stack_used) {
			size_t size, used = bm_crt_stack_used(&size);
			bm_rec_u64(&r, "stack_used_bytes", used);
			bm_rec_u64(&r, "stack_bytes", size);
		}
		bm_rec_end(&r);
	}
	if (table) {
		bm_out_str(failed ? "baremark: FAIL (" : "baremark: PASS (");
		bm_out_u64(n - failed);
		bm_out_char('/');
		bm_out_u64(n);
		bm_out_str(" benchmarks verified)");
		if (bm_crt_stack_used) {
			size_t size, used = bm_crt_stack_used(&size);
			bm_out_str("; stack used ");
			bm_out_u64(used);
			bm_out_str(" of ");
			bm_out_u64(size);
			bm_out_str(" bytes");
		}
		bm_out_char('\n');
	}
	return failed ? BM_EXIT_FAIL : BM_EXIT_PASS;
}

void bm_main(void)
{
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	bm_board_exit(bm_run(&cfg));
}
