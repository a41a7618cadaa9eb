/* SPDX-License-Identifier: Apache-2.0 */
/* Presentation of a run: the human header and the meta record, then per benchmark its start
 * record, its table row and its result record, then the end record and the closing line. Rows
 * are printed as each benchmark ends (no row is kept, so the table has no length limit); human
 * lines never start with '{', so a log reader takes every line that does as a record. The
 * records are written by bm_report_records.c, the header's lines by bm_report_header.c; this file
 * writes the table and the closing lines and decides what goes out when. Nothing here computes a
 * figure. */
#include "bm/out.h"
#include "bm/record.h"
#include "bm_board.h"
#include "report/report.h"

enum { COL_N, COL_COLD, COL_MIN, COL_P50, COL_P99, COL_MAX, COL_MEAN, COL_INSN, COL_NS, COL_OPS, COL_COUNT };

static const struct {
	const char *title;
	unsigned width; /* wide enough for typical figures; a wider one widens its row, never cut */
} cols[COL_COUNT] = {
	{"n", 6}, {"cold", 11}, {"min", 11}, {"p50", 11}, {"p99", 11}, {"max", 11},
	{"mean", 11}, {"insn/it", 10}, {"ns/it", 10}, {"ops/s", 11},
};

#define STATUS_WIDTH 6
#define ITERS_WIDTH 8

/* The marks a row can carry after "ok", in this order; `seen` has the bit of each a row carried
 * in this run, for the closing legend (one byte: hifive1's RAM is counted to the byte). */
enum { MARK_SHORT = 1, MARK_DRIFT = 2, MARK_STATE = 4, MARK_NOISY = 8, MARK_WARM = 16 };
static const char mark_chars[] = "*~?%^";
static unsigned char seen;

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

/* part / whole as a percentage with one decimal ("12.3%"). */
static void out_pct(uint64_t part, uint64_t whole)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_milli(b, whole ? bm_muldiv64(part, 100000, whole) : 0, 1);
	bm_out_str(b);
	bm_out_char('%');
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
	seen = 0; /* a new run (host-linux --repetitions) */
	if (want_table(run))
		bm_report_header(run);
	if (want_records(run))
		bm_record_meta(run, want_hist(run));
	if (want_table(run) && run->oh.cycles_advance)
		table_header(run);
}

void bm_report_bench_begin(const struct bm_run_info *run, const struct bm_bench *b, unsigned index)
{
	if (want_records(run))
		bm_record_start(run, b, index);
	/* The row starts now, so a console shows what is running; the figures follow at the end. */
	if (want_table(run))
		bm_out_padded(b->name, run->name_width, 0);
}

/* One cell: per-iteration figures with 2 decimals when they are averages over a batch
 * (iters > 1), as integers otherwise; '-' for instructions a core cannot count. */
static void cell(char *buf, const struct bm_run_info *run, const struct bm_bench_result *res, unsigned col)
{
	static const uint8_t rep_cols[] = {COL_MIN, COL_P50, COL_P99, COL_MAX, COL_MEAN};
	const struct bm_stats_report *rep = &res->rep;
	const struct bm_u128 v[] = {rep->min_milli, rep->p50.value_milli, rep->p99.value_milli,
	                            rep->max_milli, rep->mean_milli};
	switch (col) {
	case COL_N:
		bm_fmt_u64(buf, rep->n);
		return;
	case COL_COLD:
		bm_fmt_u64(buf, res->cold);
		return;
	case COL_INSN:
		if (!run->ai->instret_counter) {
			buf[0] = '-', buf[1] = 0;
			return;
		}
		bm_fmt_milli128(buf, res->instret_milli, 1);
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
			bm_fmt_milli128(buf, v[i], res->iters > 1 ? 2 : 0);
}

static void table_row(const struct bm_run_info *run, const struct bm_bench_result *res)
{
	char b[BM_FMT_NUM_MAX];
#define BM_ST_WORD(e, name, word) word,
	static const char *const shown[BM_ST_COUNT] = {BM_STATUS_LIST(BM_ST_WORD)};
#undef BM_ST_WORD
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
	unsigned marks = (res->short_interval ? MARK_SHORT : 0u) | (bm_verdict_unstable(res) ? MARK_DRIFT : 0u) |
	                 (res->state_reason ? MARK_STATE : 0u) | (bm_report_noisy(res) ? MARK_NOISY : 0u) |
	                 (res->warmup_settled ? 0u : MARK_WARM);
	char mark[8] = "ok", *m = mark + 2; /* (every mark at once: 7 characters, past the column) */
	for (unsigned k = 0; mark_chars[k]; k++)
		if (marks >> k & 1u)
			*m++ = mark_chars[k];
	*m = 0;
	bm_out_padded(mark, STATUS_WIDTH, 0);
	seen |= (unsigned char)marks;
	bm_fmt_u64(b, res->iters);
	bm_out_padded(b, ITERS_WIDTH, 1);
	for (unsigned c = 0; c < COL_COUNT; c++) {
		bm_out_str("  ");
		cell(b, run, res, c);
		bm_out_padded(b, cols[c].width, 1);
	}
	bm_out_char('\n');
}

void bm_report_bench_end(const struct bm_run_info *run, const struct bm_bench *b,
                         const struct bm_bench_result *res, const struct bm_stats *st)
{
	if (want_table(run))
		table_row(run, res);
	if (!want_records(run)) {
		bm_port_bench_end(b->name, 0);
		return;
	}
	struct bm_record r;
	bm_record_result_open(&r, run, b, res);
	bm_port_bench_end(b->name, res->ok ? &r : 0); /* the board's own keys */
	bm_rec_end(&r);
	if (res->ok && want_hist(run))
		bm_record_hist(run, b, res, st);
}

/* The table's legend: the units, and each mark a row carried. */
static void legend(const struct bm_run_info *run)
{
	bm_out_str("(");
	bm_out_str(bm_cycle_unit(run->ai));
	bm_out_str(" per iteration after overhead subtraction; cold = the first run after setup (and "
	           "setup_each), alone; insn/it = instructions retired");
	if (seen & MARK_SHORT)
		bm_out_str("; ok* = the median batch is under " BM_SHORT_INTERVAL_FACTOR_TEXT "x the counter read "
		           "overhead or " BM_SHORT_INTERVAL_FACTOR_TEXT " ticks, so its figure rests on the overhead "
		           "subtraction or the counter's resolution");
	if (seen & MARK_DRIFT)
		bm_out_str("; ok~ = UNSTABLE: the fastest batch of one quarter of the samples differs from "
		           "another's by more than " BM_DRIFT_UNSTABLE_PCT_TEXT " (the machine's speed changed during the benchmark, "
		           "or the benchmark's own cost changes from sample to sample: its figures mix "
		           "two states)");
	if (seen & MARK_STATE)
		bm_out_str("; ok? = STATE-DEPENDENT, which fails the run: under deterministic QEMU its cold run "
		           "cost other than a warm one, so the body's work depends on state it changes itself and "
		           "the figures time runs on its own output: give it a setup_each that restores its input "
		           "(or, when runs on its own output are what it measures, declare .carries_state = 1)");
	if (seen & MARK_NOISY)
		bm_out_str("; ok% = NOISY: its samples' cv is over " BM_CV_NOISY_PCT_TEXT " (they spread so widely "
		           "that no one figure stands for them: see its percentiles, or bm plot)");
	if (seen & MARK_WARM)
		bm_out_str("; ok^ = UNSETTLED: its warm-up stopped at its cap of " BM_WARMUP_MAX_TEXT " batches "
		           "before the last " BM_WARMUP_WINDOW_TEXT " agreed within " BM_WARMUP_CV_PCT_TEXT
		           " (its cost was still moving when the samples began)");
	bm_out_str(")\n");
}

/* The clock's estimate, and where the run's cycles went (the kit's own share among them). */
static void clock_and_time(const struct bm_run_info *run, const struct bm_tally *t)
{
	if (run->clk.cycle_hz) {
		bm_out_str("clock: ");
		bm_report_mhz(run->clk.cycle_hz);
		bm_out_str(", estimated against the timer over the benchmarks' windows (");
		bm_out_u64(run->clk.window_ticks);
		bm_out_str(" ticks)\n");
	}
	if (t->shares_known) {
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

/* The closing line: PASS or FAIL, the outcomes by status and the undeclared state-dependent
 * results, the stack used. */
static void closing_line(const struct bm_run_info *run, const struct bm_tally *t)
{
	unsigned ok = t->by_status[BM_ST_OK];
	bm_out_str(ok == run->n && !t->state_dependent ? "baremark: PASS (" : "baremark: FAIL (");
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
	if (t->state_dependent) {
		bm_out_str(", ");
		bm_out_u64(t->state_dependent);
		bm_out_str(" state-dependent (ok?)");
	}
	bm_out_char(')');
	if (t->stack_bytes) {
		bm_out_str("; stack used ");
		bm_out_u64(t->stack_used_bytes);
		bm_out_str(" of ");
		bm_out_u64(t->stack_bytes);
		bm_out_str(" bytes");
	}
	bm_out_char('\n');
}

void bm_report_end(const struct bm_run_info *run, const struct bm_tally *t, int status)
{
	if (want_table(run)) {
		legend(run);
		clock_and_time(run, t);
	}
	if (want_records(run))
		bm_record_end(run, t, status);
	if (want_table(run))
		closing_line(run, t);
}
