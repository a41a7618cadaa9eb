/* SPDX-License-Identifier: Apache-2.0 */
/* The kit's run: its configuration's defaults, the benchmarks in name order, the board and the
 * arch brought up, the counter read overhead and the cycle clock measured, each selected
 * benchmark run (bm_measure.c) and every outcome handed to the report (core/report/). The exit
 * status follows from the tally. A served image (BM_SERVE) takes the same steps from its command
 * loop (core/serve/). */
#include "bm/out.h"
#include "bm/wide.h"
#include "bm_board.h"
#include "report/report.h"
#include "run/run.h"
#include "serve/serve.h"

/* The build's options (cmake/BaremarkOptions.cmake); without them, the same defaults (bm/shared.h). */
#ifndef BM_SAMPLES
#define BM_SAMPLES BM_DEFAULT_SAMPLES
#endif
#ifndef BM_MIN_BATCH_CYCLES
#define BM_MIN_BATCH_CYCLES BM_DEFAULT_MIN_BATCH_CYCLES
#endif
#ifndef BM_BENCH_TIMEOUT_MS
#define BM_BENCH_TIMEOUT_MS BM_DEFAULT_BENCH_TIMEOUT_MS
#endif
#ifndef BM_HIST
#define BM_HIST BM_DEFAULT_HIST /* hist records; BM_HIST=OFF for slow links */
#endif

void bm_config_defaults(struct bm_config *cfg)
{
	cfg->samples = BM_SAMPLES;
	cfg->warmup_min = BM_WARMUP_MIN;
	cfg->warmup_max = BM_WARMUP_MAX;
	cfg->warmup_cv_ppm = BM_WARMUP_CV_PPM;
	cfg->min_batch_cycles = BM_MIN_BATCH_CYCLES;
	cfg->min_batch_ns = 0;
	cfg->min_batch_reads = 0;
	cfg->max_iters = 1u << 20;
	cfg->bench_timeout_ms = BM_BENCH_TIMEOUT_MS;
	cfg->format = BM_FORMAT_TABLE | BM_FORMAT_RECORDS | (BM_HIST ? BM_FORMAT_HIST : 0);
	cfg->select = 0;
	cfg->select_ctx = 0;
	cfg->constructors = 0;
}

/* One statistics state, reused by every benchmark in turn, between guard words: a benchmark that
 * wrote over the kit's own state must not have its (or any later) figures reported. */
static struct bm_kit_state kit;

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

static int selected(const struct bm_config *cfg, const struct bm_bench *b)
{
	return !cfg || !cfg->select || cfg->select(b->name, cfg->select_ctx);
}

/* Whether the registry is already in name order (tools/bm-link lays it out sorted): then the next
 * benchmark is in the next slots, found from where the last answer was, instead of a scan of
 * every name per call. Checked once; any other layout takes bm_bench_next's scan. */
static int registry_sorted(void)
{
	static int known; /* 0: not checked yet, 1: not sorted, 2: sorted (zero at reset: .bss, not
	                   * .data, whose alignment costs hifive1 16 bytes of RAM) */
	if (!known) {
		known = 2;
		for (const struct bm_bench *const *q = __start_bm_bench; q + 1 < __stop_bm_bench; q++)
			if (!bench_before(q[0], q[1]))
				known = 1;
	}
	return known == 2;
}

static const struct bm_bench *next_in_sorted(const struct bm_bench *prev, const struct bm_config *cfg)
{
	static const struct bm_bench *const *last;
	const struct bm_bench *const *p = __start_bm_bench;
	if (prev) {
		if (!(last && last < __stop_bm_bench && *last == prev))
			for (last = p; last < __stop_bm_bench && *last != prev; last++)
				;
		if (last == __stop_bm_bench)
			return 0;
		p = last + 1;
	}
	for (; p < __stop_bm_bench; p++)
		if (selected(cfg, *p)) {
			last = p;
			return *p;
		}
	last = 0;
	return 0;
}

/* Benchmarks run in name order: link order depends on the compiler and its flags, and the order
 * should not. Selection by scan needs no RAM (the registry is read-only). */
const struct bm_bench *bm_bench_next(const struct bm_bench *prev, const struct bm_config *cfg)
{
	if (registry_sorted())
		return next_in_sorted(prev, cfg);
	const struct bm_bench *best = 0;
	for (const struct bm_bench *const *p = __start_bm_bench; p < __stop_bm_bench; p++)
		if (selected(cfg, *p) && (!prev || bench_before(prev, *p)) && (!best || bench_before(*p, best)))
			best = *p;
	return best;
}

/* Whether the cycle counter still moves: read until it does, a bounded number of times (a
 * counter slower than the core, e.g. a board timer, may read the same twice in a row). */
static int counter_advances(void)
{
	uint64_t t0 = bm_cycles_now();
	for (unsigned i = 0; i < 100000; i++)
		if (bm_cycles_now() != t0)
			return 1;
	return 0;
}

/* The board and the arch up, in bm_board.h's order: the first console line comes before the
 * arch probes its counters (slow on some cores), the timer is up before the arch (a core whose
 * fallback counter is the board's timer takes it with its rate). */
static void bring_up(const struct bm_config *cfg)
{
	bm_port_board_init();
	bm_port_console_init();
	bm_report_hello(cfg);
	bm_port_timer_init();
	arch_init();
	bm_events_init(); /* (programs the counters: part of what arch_state_save records) */
	bm_port_alarm_init();
	arch_state_save();
}

/* Before the first benchmark: the selection (counted, its longest name) and the configuration
 * checked, the counter's read overhead measured, the calibration target this machine needs.
 * Returns 0, or the exit status of a configuration error (said on the console). */
static int prepare(const struct bm_config *cfg, struct bm_config *eff, struct bm_run_info *run)
{
	for (const struct bm_bench *b = bm_bench_next(0, cfg); b; b = bm_bench_next(b, cfg)) {
		unsigned l = (unsigned)bm_strlen(b->name);
		run->n++;
		if (l > run->name_width)
			run->name_width = l;
	}
	if (run->n == 0) {
		bm_out_str("baremark: error: no benchmarks selected (none registered, or the filter matches none)\n");
		return BM_EXIT_CONFIG;
	}
	if (cfg->samples == 0) {
		bm_out_str("baremark: error: samples must be at least 1\n");
		return BM_EXIT_CONFIG;
	}
	bm_measure_overhead(&run->oh);
#if ARCH_USER_SNAP_TRAPS
	bm_measure_overhead_user(&run->oh_user);
#endif
	run->tick_insns = bm_clock_tick_insns(run->ai);
	if (cfg->min_batch_ns) /* a batch size in time needs the clock before the first benchmark */
		bm_clock_spin(&run->clk, 1);
	/* The batch target: the largest of the configured cycles, the time asked for, and the
	 * read-overhead floor. */
	if (cfg->min_batch_ns && run->clk.cycle_hz)
		eff->min_batch_cycles = bm_muldiv64(cfg->min_batch_ns, run->clk.cycle_hz, 1000000000u);
	if (cfg->min_batch_reads && eff->min_batch_cycles < cfg->min_batch_reads * run->oh.cycles)
		eff->min_batch_cycles = cfg->min_batch_reads * run->oh.cycles;
	bm_report_begin(run);
	if (!run->oh.cycles_advance) {
		bm_out_str("baremark: error: the cycle counter (");
		bm_out_str(run->ai->cycle_counter);
		bm_out_str(") does not advance on this core; no figures can be measured\n");
		return BM_EXIT_CONFIG;
	}
	return 0;
}

/* The read overhead of the path b's batches read the counters on (bm/port.h, ARCH_USER_SNAP_TRAPS). */
static inline const struct bm_overhead *overhead_of(const struct bm_run_info *run, const struct bm_bench *b)
{
#if ARCH_USER_SNAP_TRAPS
	if (bm_bench_isolated(b))
		return &run->oh_user;
#else
	(void)b;
#endif
	return &run->oh;
}

/* Everything before the first benchmark: bring-up, the selection and the configuration checked,
 * the counter's overhead, the header and the meta record. eff becomes cfg with the calibration
 * target this machine needs, run the run's facts, *start_cycles the counter when the devices were
 * up. Returns 0, or the exit status of a configuration error. */
static int begin(const struct bm_config *cfg, struct bm_config *eff, struct bm_run_info *run, uint64_t *start_cycles)
{
	bring_up(cfg);
	if (cfg->constructors)
		cfg->constructors();
	*start_cycles = bm_cycles_now();
	*eff = *cfg; /* with the calibration target this machine needs */
	/* (names shorter than the column's title still leave the title its width) */
	*run = (struct bm_run_info){.cfg = eff, .ai = arch_get_info(), .name_width = sizeof "benchmark" - 1};
	bm_clock_init(&run->clk);
	int err = prepare(cfg, eff, run);
	if (!err)
		bm_guard_kit_init(&kit);
	return err;
}

/* The run's own state around each benchmark: its facts but the clock (the read overhead
 * subtracted from every batch; the clock seals itself, bm_clock.c), the configuration in effect and
 * the tallies, hashed. Code that runs as the kit does (a .privileged benchmark, a hosted one) could
 * write them and move every later figure; unprivileged code cannot reach them (the kit's stack).
 * No copy to put back (hifive1's RAM): a benchmark that wrote over them ends the run, named. */
static uintptr_t run_sum(const struct bm_run_info *run, const struct bm_tally *tally)
{
	struct bm_run_info r = *run;
	r.clk = (struct bm_clock){0};
	uintptr_t h = bm_guard_hash(&r, sizeof r);
	h = h * 31u ^ bm_guard_hash(run->cfg, sizeof *run->cfg);
	return h * 31u ^ bm_guard_hash(tally, sizeof *tally);
}

void bm_run_bench(struct bm_run_info *run, const struct bm_bench *b, unsigned index, struct bm_tally *tally)
{
	struct bm_bench_result res;
	bm_report_bench_begin(run, b, index);
	bm_port_bench_begin(b->name);
	uintptr_t sum = run_sum(run, tally);
	if (bm_run_one(b, run->cfg, overhead_of(run, b), &run->clk, &kit, &res) != 0)
		bm_fatal_abort((const char *const[]){"baremark: benchmark ", b->name, " wrote over the kit's own state "
		                                      "(its guard words);\n*** no figure of it can be trusted", 0});
	if (run_sum(run, tally) != sum || !bm_clock_intact(&run->clk))
		bm_fatal_abort((const char *const[]){"baremark: benchmark ", b->name, " wrote over the kit's run state (the "
		                                      "read overhead, the clock estimate, the configuration, the tallies);"
		                                      "\n*** no later figure could be trusted", 0});
	tally->by_status[res.status]++;
	tally->state_dependent += res.status == BM_ST_OK && res.state_reason;
	tally->body_cycles += res.body_cycles;
	tally->user_cycles += res.user_cycles;
	bm_report_bench_end(run, b, &res, &kit.stats);
	/* A benchmark may have stopped the counter (mcountinhibit, PMCR, a HAL's DWT set-up):
	 * every later benchmark would read 0 cycles and report it as its figure. */
	if (!counter_advances())
		bm_fatal_abort((const char *const[]){"baremark: the cycle counter (", run->ai->cycle_counter,
		                                      ") stopped during benchmark ", b->name,
		                                      ";\n*** no later figure could be measured", 0});
}

void bm_tally_close(struct bm_tally *tally, uint64_t start_cycles)
{
	tally->run_cycles = bm_cycles_now() - start_cycles;
	tally->shares_known = tally->body_cycles <= tally->run_cycles &&
	                      tally->user_cycles <= tally->run_cycles - tally->body_cycles;
	tally->stack_used_bytes = bm_guard_stack_mark(&tally->stack_bytes);
}

int bm_run_end(struct bm_run_info *run, struct bm_tally *tally, uint64_t start_cycles)
{
	int status = tally->by_status[BM_ST_OK] == run->n && !tally->state_dependent ? BM_EXIT_PASS : BM_EXIT_FAIL;
	bm_tally_close(tally, start_cycles);
	bm_report_end(run, tally, status);
	return status;
}

int bm_run(const struct bm_config *cfg)
{
	struct bm_config eff;
	struct bm_run_info run;
	uint64_t start_cycles;
	int err = begin(cfg, &eff, &run, &start_cycles);
	if (err)
		return err;
	if (BM_SERVE) /* (a served image runs what the console's commands name: core/serve/) */
		return bm_serve(cfg, &run, start_cycles);
	struct bm_tally tally = {0};
	unsigned index = 0;
	for (const struct bm_bench *b = bm_bench_next(0, cfg); b; b = bm_bench_next(b, cfg))
		bm_run_bench(&run, b, ++index, &tally);
	return bm_run_end(&run, &tally, start_cycles);
}

void bm_main(void (*constructors)(void))
{
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.constructors = constructors;
	bm_board_exit(bm_run(&cfg));
}
