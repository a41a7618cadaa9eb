/* SPDX-License-Identifier: Apache-2.0 */
/* Harness tests against the fake arch's scripted clock: overhead measurement and subtraction,
 * calibration by doubling, warm-up termination, the verify/setup failure paths (FAIL, never a
 * number), the clock estimate, and a whole bm_run() whose records are parsed back. */
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>
#include <string.h>

#include "bm/port.h"
#include "bm/crc32.h"
#include "bm/out.h"
#include "report/report.h"
#include "run/run.h"
#include "serve/serve.h"
#include "bm_test.h"
#include "fake_platform.h"

static int ok_verify(void)
{
	return 0;
}
static int bad_verify(void)
{
	return -1;
}
static int bad_setup(void)
{
	return -1;
}

BM_BENCHMARK(work100, ok_verify)
{
	fake_work(100, 50);
}
BM_BENCHMARK(empty_fake, ok_verify)
{
}
BM_BENCHMARK(wrong, bad_verify)
{
	fake_work(10, 10);
}
BM_BENCHMARK(badsetup, ok_verify, .setup = bad_setup)
{
}
BM_BENCHMARK(single, ok_verify, .max_iters = 1)
{
	fake_work(7, 7);
}

/* A body whose cost depends on state it changes (100 cycles on fresh input, 10 after), with and
 * without a setup_each that restores it, whose own work (500 cycles) must stay outside the
 * figures; and an empty body between a setup_each and a teardown_each. */
static int spent, each_in, each_out, each_fail_at;
static int restore_state(void)
{
	spent = 0;
	each_in++;
	fake_work(500, 500);
	return each_fail_at && each_in >= each_fail_at ? -1 : 0;
}
static void count_out(void)
{
	each_out++;
	fake_work(300, 300);
}
static int in_equals_out(void)
{
	return each_in == each_out ? 0 : -1;
}
BM_BENCHMARK(stateful_each, ok_verify, .setup_each = restore_state)
{
	fake_work(spent ? 10 : 100, spent ? 10 : 100);
	spent = 1;
}
BM_BENCHMARK(stateful_plain, ok_verify, .setup = restore_state)
{
	fake_work(spent ? 10 : 100, spent ? 10 : 100);
	spent = 1;
}
BM_BENCHMARK(empty_each, in_equals_out, .setup_each = restore_state, .teardown_each = count_out)
{
}

/* The counters wrap through 2^64 during the timed samples: the verify step before them starts
 * both just below the wrap (the x86 TSC and RV32's high halves cannot be set under QEMU, so the
 * subtraction across a wrap is checked here). */
static int wrap_pending;
static int preset_near_wrap(void)
{
	if (wrap_pending) { /* the first verify, just before the samples */
		wrap_pending = 0;
		fake_cycles = UINT64_MAX - 20000;
		fake_instret = UINT64_MAX - 7000;
	}
	return 0;
}
BM_BENCHMARK(wrap100, preset_near_wrap)
{
	fake_work(100, 50);
}

/* Faults as an arch's trap handler reports them: the harness must end the benchmark with the
 * fault's kind and go on. */
static void fake_fault(uint8_t kind, uint64_t addr, uint64_t sp)
{
	struct bm_fault f = {.kind = kind, .has_addr = addr != 0, .cause = "fake fault", .code = 7,
	                     .pc = 0x1234, .addr = addr, .sp = sp};
	if (bm_fault_take(&f))
		bm_recover();
}
BM_BENCHMARK(traps_in_body, ok_verify)
{
	fake_fault(BM_FAULT_TRAP, 0xdead, 0);
}
BM_BENCHMARK(hangs_in_body, ok_verify)
{
	fake_cycles += 5000000; /* its budget, spent */
	fake_fault(BM_FAULT_TIMEOUT, 0, 0);
}

/* Writes the cycle counter back in every batch (a profiler's init): every figure would be ~2^64. */
BM_BENCHMARK(counter_goes_back, ok_verify, .max_iters = 1)
{
	fake_cycles -= 1000000;
}

/* Writes the cycle counter forward in every batch: each batch reads a plausible 1 ms. */
BM_BENCHMARK(counter_jumps, ok_verify, .max_iters = 1)
{
	fake_cycles += 1000000;
	fake_counter_written += 1000000;
}

/* The batch of a benchmark whose first counter reading was zeroed: it reports the counter. */
static void snapshot_lost_batch(uint32_t iters, struct bm_delta *d)
{
	fake_cycles += 100 * (uint64_t)iters;
	fake_instret += 100 * (uint64_t)iters;
	d->cycles = fake_cycles;
	d->instret = fake_instret;
}
static const struct bm_bench snapshot_lost = {
	.name = "snapshot_lost", .batch = snapshot_lost_batch, .verify = ok_verify, .max_iters = 1};

/* Writes just past its scratch allocation. */
BM_SCRATCH(overruns_scratch, 16);
static uint8_t *buf;
static int alloc_setup(void)
{
	buf = bm_scratch_alloc(16, 8);
	return buf ? 0 : -1;
}
BM_BENCHMARK(overruns_scratch, ok_verify, .setup = alloc_setup, .max_iters = 1)
{
	buf[16] = 1;
}

/* A write one word above its own frame (the CFA): into its caller's, past no return address or
 * saved register of its own. In the body (the first calibration batch sees it) and in verify. */
static __attribute__((noinline, no_sanitize_address)) int writes_past_frame(void)
{
	((volatile uint32_t *)__builtin_dwarf_cfa())[1] = 0x5a5a5a5au;
	return 0;
}
BM_BENCHMARK(frame_overrun_verify, writes_past_frame, .max_iters = 1)
{
}
BM_BENCHMARK(frame_overrun_body, ok_verify, .max_iters = 1)
{
	((volatile uint32_t *)__builtin_dwarf_cfa())[1] = 0x5a5a5a5au;
}

/* Each benchmark gets what its own BM_SCRATCH declares, however large the region is (65,536
 * bytes here; overruns_scratch's 16 would not make it so): 8 declared, 8 + 8 taken, a third
 * allocation refused; aligned as the declaration counts (8 bytes then 16-aligned: 16 + 16). */
static void *third;
static int greedy_setup(void)
{
	void *a = bm_scratch_alloc(8, 8), *b = bm_scratch_alloc(8, 8);
	third = bm_scratch_alloc(1, 1);
	return a && b && !third ? -1 : 0;
}
BM_SCRATCH(greedy_scratch, 16);
BM_BENCHMARK(greedy_scratch, ok_verify, .setup = greedy_setup, .max_iters = 1) {}

static int aligned_setup(void)
{
	void *a = bm_scratch_alloc(8, 8), *b = bm_scratch_alloc(16, 16);
	return a && b && bm_scratch_alloc(1, 1) == NULL ? 0 : -1;
}
BM_SCRATCH(aligned_scratch, 32);
BM_BENCHMARK(aligned_scratch, ok_verify, .setup = aligned_setup, .max_iters = 1) {}

static int undeclared_setup(void)
{
	return bm_scratch_alloc(1, 1) ? 0 : -1;
}
BM_BENCHMARK(undeclared_scratch, ok_verify, .setup = undeclared_setup, .max_iters = 1) {}

/* One benchmark leaves its scratch bytes 0; the next reads bytes its setup did not write: it must
 * find the kit's pattern (0xcb), not what ran before (its figures would depend on the order). */
static uint8_t *dirty;
static int dirty_setup(void)
{
	dirty = bm_scratch_alloc(32, 8);
	if (!dirty)
		return -1;
	for (int i = 0; i < 32; i++)
		dirty[i] = 0;
	return 0;
}
BM_SCRATCH(dirties_scratch, 32);
BM_BENCHMARK(dirties_scratch, ok_verify, .setup = dirty_setup, .max_iters = 1) {}

static uint8_t *unwritten;
static int unwritten_setup(void)
{
	unwritten = bm_scratch_alloc(32, 8);
	return unwritten ? 0 : -1;
}
static int reads_pattern(void)
{
	for (int i = 0; i < 32; i++)
		if (unwritten[i] != 0xcb)
			return -1;
	return 0;
}
BM_SCRATCH(reads_unwritten_scratch, 32);
BM_BENCHMARK(reads_unwritten_scratch, reads_pattern, .setup = unwritten_setup, .max_iters = 1) {}

/* Pass, and their teardowns write over the run's own state, as code that runs as the kit does
 * could (the pointers are set by run_state_is_kept): the read overhead, and the clock estimate. */
static struct bm_overhead *poke_oh;
static struct bm_clock *poke_clk;
static void overhead_poke(void)
{
	poke_oh->cycles += 100;
}
static void clock_poke(void)
{
	poke_clk->cycle_hz *= 2;
}
BM_BENCHMARK(writes_overhead, ok_verify, .teardown = overhead_poke, .max_iters = 1) {}
BM_BENCHMARK(writes_clock, ok_verify, .teardown = clock_poke, .max_iters = 1) {}

/* Passes, and its teardown leaves the kit's set-up changed: the arch's, then the console's. */
static void changes_vector(void)
{
	fake_state_changed = "changed the trap vector and did not put it back (restored)";
}
static void changes_console(void)
{
	fake_console_changed = 1;
}
BM_BENCHMARK(leaves_setup_changed, ok_verify, .teardown = changes_vector, .max_iters = 1) {}
BM_BENCHMARK(leaves_console_off, ok_verify, .teardown = changes_console, .max_iters = 1) {}

static const struct bm_bench *find(const char *name)
{
	for (const struct bm_bench *const *p = __start_bm_bench; p < __stop_bm_bench; p++)
		if (strcmp((*p)->name, name) == 0)
			return *p;
	return NULL;
}

static struct bm_kit_state kit;

static void run_named(const char *name, struct bm_config *cfg, struct bm_bench_result *res)
{
	struct bm_overhead oh;
	struct bm_clock clk;
	clk = (struct bm_clock){0};
	bm_measure_overhead(&oh);
	bm_guard_kit_init(&kit);
	BM_CHECK_EQ_U64(bm_run_one(find(name), cfg, &oh, &clk, &kit, res), 0);
}

static void overhead_is_read_cost(void)
{
	fake_reset();
	fake_read_cost_cycles = 7;
	fake_read_cost_instret = 3;
	struct bm_overhead oh;
	bm_measure_overhead(&oh);
	BM_CHECK_EQ_U64(oh.cycles, 7);
	BM_CHECK_EQ_U64(oh.instret, 3);
	BM_CHECK_EQ_U64(oh.cycles_max, 7);
}

static void calibration_and_exact_figures(void)
{
	fake_reset();
	fake_read_cost_cycles = 5;
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 100;
	struct bm_bench_result res;
	run_named("work100", &cfg, &res);
	BM_CHECK(res.ok);
	/* 100 cycles per iteration: doubling stops at the first batch >= 2000 cycles. */
	BM_CHECK_EQ_U64(res.iters, 32);
	BM_CHECK_EQ_U64(res.rep.n, 100);
	BM_CHECK_EQ_U128(res.rep.min_milli, 100000);
	BM_CHECK_EQ_U128(res.rep.p50.value_milli, 100000);
	BM_CHECK_EQ_U128(res.rep.p99.value_milli, 100000);
	BM_CHECK_EQ_U128(res.rep.max_milli, 100000);
	BM_CHECK_EQ_U128(res.rep.mean_milli, 100000);
	BM_CHECK_EQ_U128(res.instret_milli, 50000);
	BM_CHECK_EQ_U64(res.below_overhead, 0);
	BM_CHECK(!res.short_interval); /* 3205 measured vs 100 x 5 */
	BM_CHECK(res.warmup_settled);
	BM_CHECK_EQ_U64(res.warmup_batches, cfg.warmup_min);
	/* 1 GHz core, so ns equal cycles (within the estimate's rounding). */
	BM_CHECK(res.p50_ns_milli > 99000 && res.p50_ns_milli < 101000);
}

/* The same exact figures when both counters wrap through 2^64 in the middle of the samples. */
static void counters_wrap(void)
{
	fake_reset();
	fake_read_cost_cycles = 5;
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 100;
	struct bm_bench_result res;
	wrap_pending = 1;
	run_named("wrap100", &cfg, &res);
	BM_CHECK(res.ok);
	BM_CHECK(!wrap_pending);
	BM_CHECK(fake_cycles < 1000000); /* it did wrap, and went on past it */
	BM_CHECK_EQ_U64(res.iters, 32);
	BM_CHECK_EQ_U128(res.rep.min_milli, 100000);
	BM_CHECK_EQ_U128(res.rep.max_milli, 100000);
	BM_CHECK_EQ_U128(res.rep.mean_milli, 100000);
	BM_CHECK_EQ_U128(res.instret_milli, 50000);
	BM_CHECK_EQ_U64(res.below_overhead, 0);
}

/* A trap and a timeout end their benchmark with that status and no figures; a scratch overrun
 * is caught by the canaries; the next benchmark runs normally. */
static void faults_are_reported(void)
{
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 20;
	struct bm_bench_result res;
	fake_reset();
	run_named("traps_in_body", &cfg, &res);
	BM_CHECK(!res.ok);
	BM_CHECK_EQ_U64(res.status, BM_ST_TRAP);
	BM_CHECK_STR(res.reason, "fake fault");
	BM_CHECK_STR(res.phase, "calibrate");
	BM_CHECK_EQ_U64(res.fault.addr, 0xdead);
	BM_CHECK_EQ_U64(res.rep.n, 0);
	run_named("hangs_in_body", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_TIMEOUT);
	/* The budget it spent is the benchmark's time, not the kit's (the run's time split). */
	BM_CHECK(res.user_cycles >= 5000000 && res.user_cycles < 5100000);
	run_named("overruns_scratch", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_SCRATCH_OVERRUN);
	/* A write past the top of its frame: a trap, by the band above it, named with its phase. */
	run_named("frame_overrun_verify", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_TRAP);
	BM_CHECK_STR(res.phase, "verify");
	BM_CHECK(strstr(res.reason, "wrote past the top of its stack frame") == res.reason);
	run_named("frame_overrun_body", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_TRAP);
	BM_CHECK_STR(res.phase, "calibrate");
	BM_CHECK(strstr(res.reason, "wrote past the top of its stack frame") == res.reason);
	run_named("greedy_scratch", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
	BM_CHECK_STR(res.reason, "setup failed: bm_scratch_alloc past what this benchmark's BM_SCRATCH declares");
	run_named("aligned_scratch", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_OK);
	run_named("undeclared_scratch", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
	BM_CHECK_STR(res.reason, "setup failed: bm_scratch_alloc without a BM_SCRATCH declaration for this benchmark");
	/* Bytes a setup did not write read the kit's pattern, whatever ran before. */
	run_named("dirties_scratch", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_OK);
	run_named("reads_unwritten_scratch", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_OK);
	fake_cycles = 1ull << 40; /* (room to go back) */
	run_named("counter_goes_back", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
	BM_CHECK(strstr(res.reason, "went backwards") != NULL);
	BM_CHECK_STR(res.phase, "samples");
	BM_CHECK_EQ_U64(res.p50_ns_milli, 0);
	run_named("work100", &cfg, &res);
	BM_CHECK(res.ok);
	BM_CHECK_EQ_U128(res.rep.min_milli, 100000);
	{ /* (against a clock estimated first, as bm_run has it) */
		struct bm_overhead oh;
		struct bm_clock clk = {0};
		bm_measure_overhead(&oh);
		bm_clock_spin(&clk, 1);
		uint64_t hz = clk.cycle_hz;
		bm_guard_kit_init(&kit);
		BM_CHECK_EQ_U64(bm_run_one(find("counter_jumps"), &cfg, &oh, &clk, &kit, &res), 0);
		BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
		BM_CHECK(strstr(res.reason, "disagreed with the timer") != NULL);
		BM_CHECK_STR(res.phase, "samples");
		BM_CHECK_EQ_U64(clk.cycle_hz, hz); /* the later benchmarks' ns figures are untouched */
		bm_guard_kit_init(&kit);
		BM_CHECK_EQ_U64(bm_run_one(find("work100"), &cfg, &oh, &clk, &kit, &res), 0);
		BM_CHECK(res.ok);
		BM_CHECK(clk.cycle_hz > 999000000u && clk.cycle_hz < 1001000000u);
	}
	/* A batch whose first reading was overwritten (zeros past a local array of the body): each
	 * sample is the counter since boot, longer than the benchmark has run. */
	{
		struct bm_overhead oh;
		struct bm_clock clk = {0};
		bm_measure_overhead(&oh);
		bm_guard_kit_init(&kit);
		fake_cycles = 1ull << 40;
		BM_CHECK_EQ_U64(bm_run_one(&snapshot_lost, &cfg, &oh, &clk, &kit, &res), 0);
		BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
		BM_CHECK(strstr(res.reason, "its first counter reading was overwritten") != NULL);
		BM_CHECK_EQ_U64(res.p50_ns_milli, 0);
	}
	/* Outside a benchmark nothing can recover: the arch must report and end the run. */
	struct bm_fault f = {.kind = BM_FAULT_TRAP, .cause = "outside"};
	BM_CHECK_EQ_U64(bm_fault_take(&f), 0);
}

static void empty_reports_zero(void)
{
	fake_reset();
	fake_read_cost_cycles = 3;
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 50;
	struct bm_bench_result res;
	run_named("empty_fake", &cfg, &res);
	BM_CHECK(res.ok);
	BM_CHECK_EQ_U128(res.rep.max_milli, 0);
	BM_CHECK_EQ_U128(res.rep.p50.value_milli, 0);
	BM_CHECK_EQ_U64(res.iters, cfg.max_iters); /* never reaches the minimum: capped */
	BM_CHECK(res.short_interval);                /* all of it is overhead */
}

/* setup_each around every timed run: one run a sample, every sample the fresh-input cost, which
 * is also the cold figure; setup_each's and teardown_each's cycles are the benchmark's own, not in
 * the figures; without it the same body's cold run stands apart from its warm ones. */
static void run_fresh(const char *name, struct bm_config *cfg, struct bm_bench_result *res)
{
	fake_reset();
	fake_read_cost_cycles = 5;
	fake_read_cost_instret = 3;
	each_in = each_out = 0;
	run_named(name, cfg, res);
}

static void setup_each_times_fresh_runs(void)
{
	struct bm_bench_result res;
	struct bm_config cfg;
	each_fail_at = 0;
	bm_config_defaults(&cfg);
	cfg.samples = 100;
	run_fresh("stateful_each", &cfg, &res);
	BM_CHECK(res.ok);
	BM_CHECK_EQ_U64(res.iters, 1);
	BM_CHECK_EQ_U64(res.cold, 100);
	BM_CHECK_EQ_U64(res.warm1, 100);
	BM_CHECK_EQ_U128(res.rep.min_milli, 100000);
	BM_CHECK_EQ_U128(res.rep.max_milli, 100000);
	BM_CHECK_EQ_U128(res.instret_milli, 100000);
	/* cold, warm-up, the warm run and the samples: one setup_each each */
	BM_CHECK_EQ_U64((uint64_t)each_in, 1 + res.warmup_batches + 1 + cfg.samples);
	BM_CHECK(res.user_cycles >= (uint64_t)each_in * 500);
	BM_CHECK(res.state_reason == 0); /* (a hosted build gives no verdict) */

	run_fresh("stateful_plain", &cfg, &res);
	BM_CHECK(res.ok);
	BM_CHECK_EQ_U64(res.cold, 100);
	BM_CHECK_EQ_U64(res.warm1, 10);
	BM_CHECK(res.iters > 1);
	BM_CHECK(res.state_reason == 0);

	/* an empty body: exactly 0 whatever its setup_each and teardown_each cost */
	run_fresh("empty_each", &cfg, &res);
	BM_CHECK(res.ok);
	BM_CHECK_EQ_U64(res.iters, 1);
	BM_CHECK_EQ_U64(res.cold, 0);
	BM_CHECK_EQ_U128(res.rep.max_milli, 0);
	BM_CHECK_EQ_U128(res.instret_milli, 0);
	BM_CHECK_EQ_U64(res.below_overhead, 0);
	BM_CHECK(each_in > 1 && each_in == each_out);

	/* a setup_each that fails: FAIL, named, in the phase where it did, no figure */
	const struct {
		int at;
		const char *phase;
	} fails[] = {{1, BM_PHASE_CALIBRATE}, {3, BM_PHASE_WARMUP}, {1 + BM_WARMUP_MIN + 1 + 50, BM_PHASE_SAMPLES}};
	for (unsigned i = 0; i < sizeof fails / sizeof fails[0]; i++) {
		each_fail_at = fails[i].at;
		run_fresh("stateful_each", &cfg, &res);
		BM_CHECK(!res.ok);
		BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
		BM_CHECK_STR(res.reason, "setup_each failed");
		BM_CHECK_STR(res.phase, fails[i].phase);
	}
	each_fail_at = 0;
}

static void max_iters_respected(void)
{
	fake_reset();
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 10;
	struct bm_bench_result res;
	run_named("single", &cfg, &res);
	BM_CHECK_EQ_U64(res.iters, 1);
	BM_CHECK_EQ_U128(res.rep.p50.value_milli, 7000);
}

static void failures_report_no_numbers(void)
{
	fake_reset();
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 10;
	struct bm_bench_result res;
	run_named("wrong", &cfg, &res);
	BM_CHECK(!res.ok);
	BM_CHECK_STR(res.reason, "verify failed (after warm-up)");
	BM_CHECK_STR(res.phase, "verify");
	run_named("badsetup", &cfg, &res);
	BM_CHECK(!res.ok);
	BM_CHECK_STR(res.reason, "setup failed");
	/* As the first benchmark of an image: the scratch was never sealed, and a failed setup
	 * is not an overrun of it (it was reported as one). */
	extern uint8_t __bm_scratch_start[], __bm_scratch_end[];
	memset(__bm_scratch_start, 0, (size_t)(__bm_scratch_end - __bm_scratch_start));
	run_named("badsetup", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
	BM_CHECK_STR(res.reason, "setup failed");
}

/* A benchmark that changed what the kit set up (the trap vector, the console) and did not put it
 * back fails, named by what it changed; the kit restores it, so the next one is ok. */
static void changed_setup_fails_its_benchmark(void)
{
	fake_reset();
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 10;
	struct bm_bench_result res;
	run_named("leaves_setup_changed", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
	BM_CHECK_STR(res.reason, "changed the trap vector and did not put it back (restored)");
	BM_CHECK_STR(res.phase, "teardown");
	run_named("leaves_console_off", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_FAIL);
	BM_CHECK_STR(res.reason, "changed the console (it no longer transmitted as set up) and did not put it "
	                         "back (restored)");
	run_named("work100", &cfg, &res);
	BM_CHECK_EQ_U64(res.status, BM_ST_OK);
}

static void window_cv(void)
{
	uint64_t flat[8] = {1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000};
	uint64_t spread[8] = {1000, 1300, 700, 1000, 1200, 800, 1000, 1000};
	uint64_t huge[8] = {1ull << 60, 1ull << 60, 1ull << 60, 1ull << 60,
	                    1ull << 60, 1ull << 60, 1ull << 60, (1ull << 60) + (1ull << 50)};
	BM_CHECK(bm_window_settled(flat, 8, 20000));
	BM_CHECK(!bm_window_settled(spread, 8, 20000)); /* CV ~ 17% */
	BM_CHECK(bm_window_settled(spread, 8, 200000));
	BM_CHECK(bm_window_settled(huge, 8, 20000)); /* no overflow on large values */
}

static void clock_estimate(void)
{
	fake_reset();
	struct bm_clock clk = {0};
	struct bm_overhead oh;
	bm_measure_overhead(&oh);
	BM_CHECK(oh.cycles_advance);
	/* The fake timer ticks once per 100 cycles at 10 MHz: a 1 GHz core. A window opens and
	 * closes on tick edges, so it is short by less than a tick: exact here after whole ticks. */
	bm_clock_open(&clk);
	BM_CHECK(clk.open);
	BM_CHECK_EQ_U64(clk.cycle_hz, 0); /* nothing to estimate from yet */
	fake_cycles += 1000000; /* 1 ms of "work" */
	bm_clock_close(&clk);
	BM_CHECK(clk.window_ticks >= 10000 && clk.window_ticks <= 10002);
	BM_CHECK(clk.cycle_hz > 999900000u && clk.cycle_hz < 1000100000u);
	/* What happens between windows (a benchmark's setup writing the counter) is not counted. */
	fake_cycles += 123456789;
	bm_clock_open(&clk);
	fake_cycles += 9000000;
	bm_clock_close(&clk);
	BM_CHECK(clk.window_ticks >= 100000 && clk.window_ticks <= 100004);
	BM_CHECK(clk.cycle_hz > 999990000u && clk.cycle_hz < 1000010000u);
	/* A window in which the counter was set back (a benchmark, the counter-wrap self-test) is
	 * left out: it would be a clock of ~2^64 Hz. */
	bm_clock_open(&clk);
	fake_cycles -= 5000000;
	uint64_t ticks_before = clk.window_ticks, hz_before = clk.cycle_hz;
	fake_cycles += 1000;
	bm_clock_close(&clk);
	BM_CHECK_EQ_U64(clk.window_ticks, ticks_before);
	BM_CHECK_EQ_U64(clk.cycle_hz, hz_before);
	/* A window over which the counter was written forward (or lost a software extension's wraps,
	 * which is the same seen from the timer): more than a tenth off the clock so far, left out. A
	 * window a twentieth off (a clock that changed a little) counts. (On a copy of the clock.) */
	struct bm_clock c3 = clk;
	bm_clock_open(&c3);
	fake_cycles += 5000000;
	fake_counter_written += 4000000; /* 1 ms of time, 5 ms counted */
	BM_CHECK_EQ_U64(bm_clock_close(&c3), -1);
	BM_CHECK_EQ_U64(c3.window_ticks, clk.window_ticks);
	BM_CHECK_EQ_U64(c3.cycle_hz, clk.cycle_hz);
	bm_clock_open(&c3);
	fake_cycles += 2100000;
	fake_counter_written += 100000; /* 2 ms of time, 2.1 ms counted */
	BM_CHECK_EQ_U64(bm_clock_close(&c3), 0);
	BM_CHECK(c3.window_ticks > clk.window_ticks);
	bm_clock_open(&c3);
	fake_counter_written -= 250000; /* a counter stopped: 2.5 ms of time, none counted but the */
	fake_cycles += 10000;           /* timer's own reads */
	BM_CHECK_EQ_U64(bm_clock_close(&c3), -1);
	bm_clock_open(&c3);
	fake_cycles += 1000200;
	fake_counter_written += 1000000; /* a window of two ticks: judged all the same */
	BM_CHECK_EQ_U64(bm_clock_close(&c3), -1);
	bm_clock_open(&c3);
	fake_cycles += 200; /* and a plain one of two ticks passes */
	BM_CHECK_EQ_U64(bm_clock_close(&c3), 0);
	/* A window left open by a fault is dropped by the next open. */
	bm_clock_open(&clk);
	fake_cycles += 55555555;
	bm_clock_open(&clk);
	fake_cycles += 1000000;
	bm_clock_close(&clk);
	BM_CHECK(clk.cycle_hz > 999990000u && clk.cycle_hz < 1000010000u);
	/* A time-based batch size asks for an estimate before the first benchmark: 1 ms of spin. */
	struct bm_clock c2 = {0};
	bm_clock_spin(&c2, 1);
	BM_CHECK(c2.window_ticks >= 10000 && c2.window_ticks <= 10002);
	BM_CHECK(c2.cycle_hz > 999000000u && c2.cycle_hz < 1001000000u);
}

static int select_prefix(const char *name, void *ctx)
{
	const char *const *names = ctx;
	for (; *names; names++)
		if (strcmp(name, *names) == 0)
			return 1;
	return 0;
}

/* Every console line that starts with '{' is a record whose CRC checks; returns how many. */
static int check_records(int *failed_seen, int *has_numbers_on_fail)
{
	int n = 0;
	char *save = NULL;
	char *copy = strdup(fake_console);
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '{')
			continue;
		char *crc = strstr(line, "\"crc\":\"");
		BM_CHECK(crc != NULL);
		if (!crc)
			continue;
		char want[9];
		bm_fmt_hex(want, bm_crc32_update(0, line, (size_t)(crc - line)), 8);
		BM_CHECK(strncmp(crc + 7, want, 8) == 0);
		if (strstr(line, "\"status\":\"fail\"")) {
			(*failed_seen)++;
			if (strstr(line, "\"p50\""))
				(*has_numbers_on_fail)++;
		}
		n++;
	}
	free(copy);
	return n;
}

static void whole_run_records(void)
{
	fake_reset();
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 20;
	const char *names[] = {"work100", "empty_fake", "wrong", NULL};
	cfg.select = select_prefix;
	cfg.select_ctx = names;
	int status = bm_run(&cfg);
	BM_CHECK_EQ_U64(status, BM_EXIT_FAIL);
	int failed = 0, numbers = 0;
	/* meta + 3 x (start + result) + 2 hist (after the ok results) + end */
	BM_CHECK_EQ_U64(check_records(&failed, &numbers), 10);
	BM_CHECK_EQ_U64(failed, 1);
	BM_CHECK_EQ_U64(numbers, 0);
	/* Name order, and each table row is printed as its benchmark ends. */
	const char *e = strstr(fake_console, "\nempty_fake  ok"), *w = strstr(fake_console, "\nwork100     ok");
	const char *f = strstr(fake_console, "\nwrong       FAIL    verify failed (after warm-up) (in verify)");
	BM_CHECK(e && w && f && e < w && w < f);
	BM_CHECK(strstr(fake_console, "{\"type\":\"start\",\"format\":2,\"seq\":1,\"name\":\"empty_fake\",\"index\":1,\"of\":3,") != NULL);
	BM_CHECK(strstr(fake_console, "{\"type\":\"end\",\"format\":2,\"seq\":9,\"results\":3,\"ok\":2,\"fail\":1,") != NULL);
	BM_CHECK(strstr(fake_console, "\"hist\":true") != NULL);
	BM_CHECK(strstr(fake_console, "{\"type\":\"hist\",\"format\":2,\"seq\":3,\"name\":\"empty_fake\",") != NULL);
	/* Without hist records: the meta record says so and none follows. */
	fake_reset();
	cfg.format &= ~BM_FORMAT_HIST;
	BM_CHECK_EQ_U64(bm_run(&cfg), BM_EXIT_FAIL);
	failed = numbers = 0;
	BM_CHECK_EQ_U64(check_records(&failed, &numbers), 8);
	BM_CHECK(strstr(fake_console, "\"hist\":false") != NULL);
	BM_CHECK(strstr(fake_console, "{\"type\":\"hist\"") == NULL);
	cfg.format |= BM_FORMAT_HIST;
	fake_reset();
	bm_run(&cfg);
	BM_CHECK(strstr(fake_console, "baremark: FAIL (2/3 benchmarks verified, 1 fail)") != NULL);
	/* Board hooks bracket every benchmark; only passing ones get the board's keys. */
	BM_CHECK_EQ_U64(fake_bench_begins, 3);
	BM_CHECK_EQ_U64(fake_bench_ends, 3);
	int keys = 0;
	for (const char *p = fake_console; (p = strstr(p, "\"fake_board_key\":42")) != NULL; p++)
		keys++;
	BM_CHECK_EQ_U64(keys, 2);
	/* No human line starts with '{' except records (each record has a crc). */
	int records = 0, braces = 0;
	for (const char *p = fake_console; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL) {
		if (*p == '{') {
			braces++;
			const char *eol = strchr(p, '\n');
			const char *crc = strstr(p, "\"crc\":");
			records += crc && (!eol || crc < eol);
		}
	}
	BM_CHECK_EQ_U64(braces, records);
}

/* A benchmark that wrote over the run's overhead or its clock estimate ends the run, named (every
 * later figure would have moved): in a forked run, whose console and exit status come back. */
static int run_poked(const char *name, char *out, size_t size)
{
	int fd[2];
	if (pipe(fd) != 0)
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		close(fd[0]);
		struct bm_config cfg;
		bm_config_defaults(&cfg);
		cfg.samples = 20;
		struct bm_run_info run = {.cfg = &cfg, .ai = arch_get_info(), .n = 1, .name_width = 16};
		bm_clock_init(&run.clk);
		bm_measure_overhead(&run.oh);
		bm_clock_spin(&run.clk, 1);
		struct bm_tally tally = {0};
		poke_oh = &run.oh;
		poke_clk = &run.clk;
		fake_console_len = 0;
		fake_exit_fd = fd[1];
		bm_run_bench(&run, find(name), 1, &tally);
		_exit(99); /* (not aborted) */
	}
	close(fd[1]);
	size_t got = 0;
	for (ssize_t n; got + 1 < size && (n = read(fd[0], out + got, size - 1 - got)) > 0;)
		got += (size_t)n;
	out[got] = '\0';
	close(fd[0]);
	int status;
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void run_state_is_kept(void)
{
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 20;
	const char *names[] = {"work100", NULL};
	cfg.select = select_prefix;
	cfg.select_ctx = names;
	fake_reset();
	BM_CHECK_EQ_U64(bm_run(&cfg), BM_EXIT_PASS); /* (the kit's state set up, as in any run) */
	static char out[1 << 16];
	BM_CHECK_EQ_U64(run_poked("writes_overhead", out, sizeof out), BM_EXIT_TRAP);
	BM_CHECK(strstr(out, "*** baremark: benchmark writes_overhead wrote over the kit's run state") != NULL);
	BM_CHECK_EQ_U64(run_poked("writes_clock", out, sizeof out), BM_EXIT_TRAP);
	BM_CHECK(strstr(out, "*** baremark: benchmark writes_clock wrote over the kit's run state") != NULL);
	BM_CHECK(strstr(out, "\"name\":\"writes_clock\",\"status\":\"fail\",\"reason\":\"wrote over the kit's clock "
	                     "estimate") == NULL); /* (the teardown wrote it after the window: found after it) */
	BM_CHECK_EQ_U64(run_poked("work100", out, sizeof out), 99);
}

static void no_selection_is_config_error(void)
{
	fake_reset();
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	const char *names[] = {"does-not-exist", NULL};
	cfg.select = select_prefix;
	cfg.select_ctx = names;
	BM_CHECK_EQ_U64(bm_run(&cfg), BM_EXIT_CONFIG);
	BM_CHECK(strstr(fake_console, "no benchmarks selected") != NULL);
}

int main(void)
{
	static const struct bm_test_case cases[] = {
		BM_TEST_CASE(overhead_is_read_cost), BM_TEST_CASE(calibration_and_exact_figures),
		BM_TEST_CASE(empty_reports_zero), BM_TEST_CASE(max_iters_respected),
		BM_TEST_CASE(failures_report_no_numbers), BM_TEST_CASE(window_cv),
		BM_TEST_CASE(clock_estimate), BM_TEST_CASE(whole_run_records),
		BM_TEST_CASE(no_selection_is_config_error), BM_TEST_CASE(counters_wrap),
		BM_TEST_CASE(faults_are_reported), BM_TEST_CASE(changed_setup_fails_its_benchmark),
		BM_TEST_CASE(setup_each_times_fresh_runs), BM_TEST_CASE(run_state_is_kept),
	};
	return bm_test_main(cases, sizeof cases / sizeof cases[0]);
}
