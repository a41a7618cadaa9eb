/* Measuring one benchmark: setup, calibration of the inner repeat count (doubling until a
 * batch lasts BM_MIN_BATCH_CYCLES), warm-up until the rolling CV settles, verification, timed
 * samples with the counter overhead subtracted, verification again, teardown. Nothing here
 * runs inside a timed region except the generated batch functions. */
#include "bm/build_info.h"
#include "bm/harness_internal.h"
#include "bm_board.h"
#include "bm/out.h"
#include "bm/wide.h"


#ifndef BM_SAMPLES
#define BM_SAMPLES 1000
#endif
#ifndef BM_MIN_BATCH_CYCLES
#define BM_MIN_BATCH_CYCLES 2000
#endif
#ifndef BM_BENCH_TIMEOUT_MS
#define BM_BENCH_TIMEOUT_MS 10000
#endif
#ifndef BM_HIST
#define BM_HIST 1 /* hist records on by default; BM_HIST=OFF for slow links */
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
}

int bm_window_settled(const uint64_t *w, unsigned n, uint32_t cv_ppm)
{
	if (n < 2)
		return 0;
	/* Scale down so the sums fit in 64 bits; 24 significant bits is plenty for a CV test. */
	uint64_t mx = 0;
	for (unsigned i = 0; i < n; i++)
		if (w[i] > mx)
			mx = w[i];
	unsigned sh = 0;
	while ((mx >> sh) >= (1u << 24))
		sh++;
	uint64_t sum = 0;
	for (unsigned i = 0; i < n; i++)
		sum += w[i] >> sh;
	uint64_t mean = sum / n, ss = 0;
	for (unsigned i = 0; i < n; i++) {
		uint64_t x = w[i] >> sh;
		uint64_t d = x > mean ? x - mean : mean - x;
		ss += d * d;
	}
	/* stddev / mean <= cv_ppm / 1e6, squared so no square root is needed (this runs after every
	 * warm-up batch): var x 1e12 <= (cv_ppm x mean)^2, exact in 128 bits (var < 2^51, cv x mean < 2^44). */
	uint64_t cm = (uint64_t)cv_ppm * mean;
	return bm_u128_cmp(bm_u128_mul64(ss / (n - 1), 1000000000000ull), bm_u128_mul64(cm, cm)) <= 0;
}

static void fail(struct bm_bench_result *res, enum bm_status status, const char *why);

/* One batch of the calibration or the warm-up: its cycles net of the overhead, its raw cycles
 * added to the benchmark's time in batches (the timed samples have their own loop, take_some).
 * A benchmark with setup_each/teardown_each has them around the batch, their cycles counted as
 * its own code's; a failed setup_each fails the benchmark (0 returned). */
static uint64_t run_batch(const struct bm_bench *b, uint32_t iters, int banded, const struct bm_overhead *oh,
                          struct bm_bench_result *res)
{
	struct bm_delta d;
	int each = bm_bench_each(b);
	if (banded || each || (ARCH_USER_ISOLATED && !b->privileged)) {
		uint64_t t0 = each ? bm_cycles_now() : 0;
		if (bm_band_call(b, BM_USER_BATCH, iters, &d, 0) != 0) {
			fail(res, BM_ST_FAIL, "setup_each failed");
			return 0;
		}
		if (each) {
			uint64_t t = bm_cycles_now() - t0;
			res->user_cycles += t > d.cycles ? t - d.cycles : 0;
		}
	} else {
		bm_batch_of(b, bm_events_live())(iters, &d);
	}
	struct bm_samples_out unused = {0}; /* (instructions are not counted before the samples) */
	uint64_t ins_unused = 0;
	return bm_account(&d, 1, oh->cycles, d.instret, &res->body_cycles, &ins_unused, &unused);
}

/* The benchmark's own untimed code (setup, verify, teardown), its cycles counted apart from the
 * kit's. */
static int user_call(const struct bm_bench *b, enum bm_user_fn which, struct bm_bench_result *res)
{
	return bm_band_call(b, which, 0, 0, &res->user_cycles);
}

#define BM_ST_NAME(e, name, word) name,
const char *const bm_status_names[BM_ST_COUNT] = {BM_STATUS_LIST(BM_ST_NAME)};
#undef BM_ST_NAME

static void fail(struct bm_bench_result *res, enum bm_status status, const char *why)
{
	res->ok = 0;
	res->status = status;
	res->reason = why;
	res->phase = bm_recover_current_phase();
}

/* (largest - smallest) / smallest of the quarters' minima, in ppm (0 with fewer than 4 samples
 * or a zero minimum: nothing to compare). */
static uint32_t quarter_drift_ppm(const uint64_t *qmin, unsigned n)
{
	uint64_t lo = UINT64_MAX, hi = 0;
	for (unsigned i = 0; i < n; i++) {
		lo = qmin[i] < lo ? qmin[i] : lo;
		hi = qmin[i] > hi ? qmin[i] : hi;
	}
	if (n < 4 || lo == 0 || lo == UINT64_MAX)
		return 0;
	uint64_t ppm = bm_muldiv64(hi - lo, 1000000, lo);
	return ppm > UINT32_MAX ? UINT32_MAX : (uint32_t)ppm;
}

/* Setup, outside any timed region: 0, or the benchmark has failed (no verify step, or its setup
 * said so). The scratch is sealed and the clock window opened once it is done. */
static int set_up(const struct bm_bench *b, struct bm_clock *clk, struct bm_bench_result *res)
{
	bm_recover_phase(BM_PHASE_SETUP);
	if (!b->verify) {
		fail(res, BM_ST_FAIL, "no verify step");
		return -1;
	}
	if (b->setup && user_call(b, BM_USER_SETUP, res) != 0) {
		/* (a refused scratch allocation is the likely reason, and only the kit knows it) */
		const char *why = bm_scratch_refusal();
		fail(res, BM_ST_FAIL, why ? why : "setup failed");
		return -1;
	}
	bm_scratch_seal();
	bm_clock_open(clk);
	return 0;
}

/* Calibration: the inner repeat count doubles until a batch lasts min_batch_cycles (best of two
 * at each step, so a cold first run does not stop it early), up to the benchmark's cap. Its first
 * batch, one run right after setup (and setup_each), is the cold figure. A benchmark with
 * setup_each/teardown_each times one run per batch: its calibration is that run. */
static uint32_t calibrate(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
                          struct bm_bench_result *res)
{
	bm_recover_phase(BM_PHASE_CALIBRATE);
	uint32_t cap = cfg->max_iters;
	if (b->max_iters && b->max_iters < cap)
		cap = b->max_iters;
	uint32_t iters = 1;
	res->cold = run_batch(b, 1, 1, oh, res);
	if (bm_bench_each(b))
		return 1;
	for (;;) {
		uint64_t c0 = iters == 1 ? res->cold : run_batch(b, iters, 0, oh, res);
		uint64_t c1 = run_batch(b, iters, 0, oh, res);
		uint64_t c = c0 < c1 ? c0 : c1;
		if (c >= cfg->min_batch_cycles || iters >= cap || iters > UINT32_MAX / 2)
			break;
		iters *= 2;
	}
	return iters > cap ? cap : iters;
}

/* Warm-up at the calibrated size until the last BM_WARMUP_WINDOW batches agree, tested every
 * BM_WARMUP_STEP batches (a workload that never settles, e.g. one whose input changes every call,
 * would spend more in the test than in its batches; a settled one runs at most BM_WARMUP_STEP - 1
 * batches more), or until the cap. */
static void warm_up(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
                    struct bm_bench_result *res)
{
	bm_recover_phase(BM_PHASE_WARMUP);
	uint64_t window[BM_WARMUP_WINDOW];
	uint32_t n = 0;
	for (;;) {
		window[n % BM_WARMUP_WINDOW] = run_batch(b, res->iters, 0, oh, res);
		n++;
		if (!res->ok)
			break;
		if (n >= cfg->warmup_min && n >= BM_WARMUP_WINDOW && (n % BM_WARMUP_STEP == 0 || n >= cfg->warmup_max) &&
		    bm_window_settled(window, BM_WARMUP_WINDOW, cfg->warmup_cv_ppm)) {
			res->warmup_settled = 1;
			break;
		}
		if (n >= cfg->warmup_max)
			break;
	}
	res->warmup_batches = n;
}

/* After the samples and the second verify: why the samples cannot be figures, or NULL. No batch
 * takes 2^63 cycles (292 years at 1 GHz): a delta that large is the counter going backwards,
 * written during the batch (a csrw mcycle, a HAL's SysTick set-up). No batch lasts longer than
 * the benchmark has run: one that read so had its first reading (a local of its batch function)
 * overwritten, e.g. zeros written past a local array of the body, and its figures would be the
 * counter since boot. And the counter must agree with the timer over the benchmark's window. */
static const char *samples_wrong(const struct bm_kit_state *kit, struct bm_clock *clk,
                                 const struct bm_bench_result *res)
{
	if (bm_stats_max(&kit->stats) >> 63)
		return "the cycle counter went backwards during a timed batch (written by the benchmark, or "
		       "a software extension's wraps missed with interrupts masked?)";
	if (bm_stats_max(&kit->stats) > bm_cycles_now() - res->start_cycles)
		return "a timed batch read more cycles than the benchmark had run: its first counter "
		       "reading was overwritten (a write past a local array of the body?)";
	if (bm_clock_close(clk) != 0)
		return "the cycle counter disagreed with the timer by more than a tenth over this "
		       "benchmark (the counter written or stopped, a software extension's wraps missed "
		       "with interrupts masked, or the core slept or changed clock): no figure";
	return 0;
}

/* The measuring itself: setup, calibration, warm-up, verify, samples, verify, teardown. Runs
 * under bm_run_one's recovery point and watchdog. Returns -1 as soon as the benchmark is seen to
 * have written over the kit's state (nothing computed from it may be used), else 0. */
static int measure(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
                   struct bm_clock *clk, struct bm_kit_state *kit, struct bm_bench_result *res)
{
	if (set_up(b, clk, res) != 0)
		return 0;
	res->iters = calibrate(b, cfg, oh, res);
	if (res->ok)
		warm_up(b, cfg, oh, res);
	/* One warm run, alone: the cold run's like (a batch's further loop passes are no difference). */
	if (res->ok)
		res->warm1 = run_batch(b, 1, 0, oh, res);
	if (!res->ok)
		goto out;
	/* Where the counter is not the core clock, measure the ratio now, per benchmark, so a
	 * frequency change during the run shows up in the figures of the benchmark it hit. */
	const struct arch_info *ai = arch_get_info();
	if (ai->core_per_tick_ppm)
		res->core_per_tick_ppm = ai->core_per_tick_ppm();

	bm_recover_phase(BM_PHASE_VERIFY);
	if (user_call(b, BM_USER_VERIFY, res) != 0) {
		fail(res, BM_ST_FAIL, "verify failed (after warm-up)");
		goto out;
	}
	bm_recover_phase(BM_PHASE_SAMPLES);
	struct bm_samples_out so;
	int taken = bm_take_samples(b, res->iters, cfg->samples, oh, kit, &so);
	if (taken < 0)
		return -1;
	if (taken > 0) {
		fail(res, BM_ST_FAIL, taken == 2 ? "setup_each failed"
		                                 : "wrote over the readings of its timed batches (the kit's chunk above its stack)");
		goto out;
	}
	const char *stats_wrong = bm_samples_stats_wrong(kit, cfg->samples, oh, &so);
	if (stats_wrong) {
		fail(res, BM_ST_FAIL, stats_wrong);
		goto out;
	}
	res->user_cycles += so.outside;
	bm_guard_stats_seal(kit);
	res->body_cycles += so.body_cycles;
	res->below_overhead += so.below;
	res->drift_ppm = quarter_drift_ppm(so.qmin, cfg->samples >= 4 ? 4 : 1);
	/* The workload must still be right after the timed runs, or no number is reported. */
	bm_recover_phase(BM_PHASE_VERIFY);
	if (user_call(b, BM_USER_VERIFY, res) != 0) {
		fail(res, BM_ST_FAIL, "verify failed (after the timed samples)");
		goto out;
	}
	if (!bm_guard_kit_intact(kit))
		return -1;
	const char *wrong = samples_wrong(kit, clk, res);
	if (wrong) {
		bm_recover_phase(BM_PHASE_SAMPLES);
		fail(res, BM_ST_FAIL, wrong);
		goto out;
	}
	res->instret_sum = (struct bm_u128){so.instret_lo, so.instret_hi};
	res->samples = cfg->samples;
out:
	bm_recover_phase(BM_PHASE_TEARDOWN);
	if (b->teardown)
		user_call(b, BM_USER_TEARDOWN, res);
	return 0;
}

/* The figures of a benchmark that passed, from the statistics state. Called once its measuring
 * frame (recovery point, warm-up window) is gone: the statistics report is the deepest call chain
 * of a run, and on a 16 KiB board the two together would be a fifth of its stack. */
static void summarize(const struct bm_overhead *oh, const struct bm_clock *clk, const struct bm_stats *st,
                      struct bm_bench_result *res)
{
	bm_stats_report(st, res->iters, &res->rep);
	/* The median batch as measured, overhead included (raw is undivided; the report's value
	 * is per iteration). */
	/* A median batch (before subtraction) shorter than 100 read overheads leans on the subtraction
	 * for most of its figure, one shorter than 100 ticks on the counter's resolution (SysTick: 0
	 * overhead, 40 instructions a tick under QEMU): the record says so (short_interval). */
	res->short_interval = res->rep.p50.raw + oh->cycles <
	                      (uint64_t)BM_SHORT_INTERVAL_FACTOR * (oh->cycles ? oh->cycles : 1);
	struct bm_u128 total_iters = bm_u128_mul64(res->samples, res->iters);
	struct bm_u128 scaled = bm_u128_mul64(res->instret_sum.lo, 1000);
	scaled.hi += res->instret_sum.hi * 1000;
	bm_u128_add(&scaled, bm_u128_from64(total_iters.lo / 2));
	res->instret_milli = bm_u128_divmod(scaled, total_iters, 0);
	/* Figures in time and in core cycles, where the per-iteration median and mean fit 64 bits
	 * (a median past 2^64 thousandths has none: not a saturated one). */
	uint64_t p50 = res->rep.p50.value_milli.lo, mean = res->rep.mean_milli.lo;
	int fit = !res->rep.p50.value_milli.hi && !res->rep.mean_milli.hi;
	if (clk->cycle_hz && fit) {
		res->cycle_hz = clk->cycle_hz;
		res->p50_ns_milli = bm_muldiv64(p50, 1000000000u, clk->cycle_hz);
		res->mean_ns_milli = bm_muldiv64(mean, 1000000000u, clk->cycle_hz);
		if (p50)
			res->ops_per_s = bm_muldiv64(clk->cycle_hz, 1000, p50);
	}
	if (res->core_per_tick_ppm && fit) {
		res->core_cycles_known = 1;
		res->core_cycles_p50_milli = bm_muldiv64(p50, res->core_per_tick_ppm, 1000000);
		res->core_cycles_mean_milli = bm_muldiv64(mean, res->core_per_tick_ppm, 1000000);
	}
}

/* After a benchmark: what the kit set up of the core (bm/port.h, arch_state_restore) and its
 * console, as they were. A benchmark that changed them and did not put them back fails, named
 * by what it changed, and the kit sets them up again: the benchmarks after it keep their figures
 * (a replaced trap vector would skip their faults, a changed rounding mode change their results).
 * core: what arch_state_restore found, called as soon as the benchmark's code had run (before the
 * kit's own code could need an FPU the benchmark turned off). */
static void check_setup(struct bm_bench_result *res, const char *core)
{
	int console = bm_port_console_restore();
	if (res->status != BM_ST_OK)
		return;
	if (core)
		fail(res, BM_ST_FAIL, core);
	else if (console)
		fail(res, BM_ST_FAIL, "changed the console (it no longer transmitted as set up) and did not put it back "
		                      "(restored)");
}

/* Under deterministic QEMU, where both count every instruction once, the benchmark's cycles and
 * instructions over its samples must be equal; on a core, instructions above 16 a cycle are a
 * written instruction counter (a real core retires a few a cycle). NULL when they agree. */
static const char *instret_wrong(const struct arch_info *ai, const struct bm_bench_result *res)
{
	if (!ai->instret_counter)
		return 0;
	if (bm_build_info.icount && ai->icount_cycles_are_insns) {
		if (bm_u128_cmp(res->rep.sum, res->instret_sum) != 0)
			return "the instruction counter disagreed with the cycle counter over the samples (under "
			       "-icount both count every instruction once): written or stopped by the benchmark?";
		return 0;
	}
	if (ai->cycle_unit)
		return 0;
	struct bm_u128 bound = bm_u128_mul64(res->rep.sum.lo, 16);
	bound.hi += res->rep.sum.hi * 16;
	bm_u128_add(&bound, bm_u128_mul64(res->samples, 16));
	if (bm_u128_cmp(res->instret_sum, bound) > 0)
		return "the instruction counter read more than 16 instructions a cycle over the samples: "
		       "written by the benchmark?";
	return 0;
}

static __attribute__((noinline)) int run_guarded(const struct bm_bench *b, const struct bm_config *cfg,
                                                 const struct bm_overhead *oh, struct bm_clock *clk,
                                                 struct bm_kit_state *kit, struct bm_bench_result *res)
{
	*res = (struct bm_bench_result){0};
	res->ok = 1;
	res->start_cycles = bm_cycles_now();
	bm_recover_set((void *)b, res, kit);
	bm_stats_init(&kit->stats);
	bm_events_begin(kit, oh);
	bm_scratch_reset(b->scratch_bytes ? *b->scratch_bytes : 0);
	bm_guard_stack_paint();
	bm_recover_phase(BM_PHASE_SETUP);

	const char *changed;
	if (BM_RECOVERY_POINT()) {
		/* A fault or the watchdog ended the benchmark. No teardown: its state is unknown. The
		 * registers that held the arguments are gone: take them back from the recovery's
		 * state, once its guard words say the benchmark did not write over it. */
		changed = arch_state_restore();
		if (!bm_recover_state_intact())
			return -1;
		b = bm_recover_get(0);
		res = bm_recover_get(1);
		kit = bm_recover_get(2);
		const struct bm_fault *f = bm_recover_taken();
		res->fault = *f;
		/* Where the time went is the benchmark's, not the kit's (a hang's budget was most of a
		 * run): all of it outside the batches counted, as its own code's. */
		uint64_t spent = bm_cycles_now() - res->start_cycles;
		if (spent >> 63 == 0 && spent >= res->body_cycles)
			res->user_cycles = spent - res->body_cycles;
		if (f->kind == BM_FAULT_TIMEOUT)
			fail(res, BM_ST_TIMEOUT, "over its time budget (watchdog)");
		else if (bm_guard_stack_fault(f))
			fail(res, BM_ST_STACK_OVERFLOW, f->cause);
		else
			fail(res, BM_ST_TRAP, bm_band_fault(f) ? bm_band_fault(f) : f->cause);
	} else {
		struct bm_alarm *alarm = bm_port_alarm;
		uint32_t ms = b->timeout_ms ? b->timeout_ms : cfg->bench_timeout_ms;
		/* Armed inside the recovery's reach, disarmed before it ends: arming and disarming
		 * unmask interrupts (Cortex-M), and one the benchmark left pending is then its own
		 * trap, not the run's abort. Disarmed with or without a budget, for the same unmask. */
		bm_recover_arm();
		if (alarm && ms)
			alarm->arm(alarm, ms);
		int intact = measure(b, cfg, oh, clk, kit, res) == 0;
		changed = arch_state_restore();
		if (alarm)
			alarm->disarm(alarm);
		bm_recover_disarm();
		if (!intact)
			return -1;
	}

	/* The kit's own state first: if the benchmark wrote over it, no check below can be trusted.
	 * The statistics (its figures) are final from its last sample: its verify and teardown ran
	 * after that, and must have left them as they were. */
	if (changed == bm_state_lost || !bm_guard_kit_intact(kit) ||
	    (res->status == BM_ST_OK && !bm_guard_stats_sealed(kit)))
		return -1;
	check_setup(res, changed);
	/* Whatever the benchmark said, a write outside its stack or scratch voids its figures. Found
	 * only now, so named by the last of its own code that ran (not "teardown" when it has none). */
	if (!b->teardown && res->status == BM_ST_OK)
		bm_recover_phase(BM_PHASE_VERIFY);
	int band_touched;
	res->stack_used_bytes = bm_guard_stack_check(&band_touched);
	if (band_touched && res->status != BM_ST_STACK_OVERFLOW)
		fail(res, BM_ST_STACK_OVERFLOW, "the stack's guard band at its bottom was written");
	else if (!bm_scratch_intact() && (res->status == BM_ST_OK || res->status == BM_ST_FAIL))
		fail(res, BM_ST_SCRATCH_OVERRUN, "wrote outside its scratch allocations");
	return 0;
}

/* Under deterministic QEMU every run of a body on the same input costs the same: a cold run (the
 * first after setup and setup_each) that differs from a warm one, single run against single run,
 * means the body's work depends on state it changes itself (an in-place sort timed on its own
 * output). Compared against the single warm run and, at one run a sample, against every sample;
 * within one tick where the counter is a timer (its phase moves a run's reading by one). NULL
 * when they agree, or where runs may differ for other reasons (caches, an OS). */
static const char *state_changed(const struct arch_info *ai, const struct bm_bench *b,
                                 const struct bm_bench_result *res)
{
	if (!bm_build_info.icount)
		return 0;
	uint64_t tol = ai->icount_cycles_are_insns ? 0 : 1, c = res->cold;
	int differs = c > res->warm1 + tol || c + tol < res->warm1;
	if (res->iters == 1) {
		uint64_t lo = res->rep.min_milli.lo / 1000, hi = res->rep.max_milli.lo / 1000;
		differs |= c > hi + tol || c + tol < lo;
	}
	if (!differs)
		return 0;
	return bm_bench_each(b) ? "under deterministic QEMU the first run after setup_each cost other than the later "
	                          "runs: the body's work depends on state its setup_each does not restore"
	                        : "under deterministic QEMU the first run after setup cost other than the later runs: "
	                          "the body's work depends on state it changes itself (timed on its own output?); "
	                          "give it a setup_each that restores its input";
}

int bm_run_one(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
               struct bm_clock *clk, struct bm_kit_state *kit, struct bm_bench_result *res)
{
	if (run_guarded(b, cfg, oh, clk, kit, res) != 0)
		return -1;
	if (res->status != BM_ST_OK)
		return 0;
	summarize(oh, clk, &kit->stats, res);
	bm_events_summarize(kit, res);
	res->state_reason = state_changed(arch_get_info(), b, res);
	const char *why = instret_wrong(arch_get_info(), res);
	if (why) {
		bm_recover_phase(BM_PHASE_SAMPLES);
		fail(res, BM_ST_FAIL, why);
	}
	return 0;
}
