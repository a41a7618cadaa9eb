/* SPDX-License-Identifier: Apache-2.0 */
/* Measuring one benchmark: setup, calibration of the inner repeat count (doubling until a
 * batch lasts BM_MIN_BATCH_CYCLES), warm-up until the rolling CV settles, verification, timed
 * samples with the counter overhead subtracted, verification again, teardown, all under a
 * recovery point and the watchdog; then the figures. Nothing here runs inside a timed region
 * except the generated batch functions. Whether the result stands is bm_verdict.c's to say. */
#include "bm_board.h"
#include "run/run.h"

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

/* One batch of the calibration or the warm-up: its cycles net of the overhead, its raw cycles
 * added to the benchmark's time in batches (the timed samples have their own loop, take_some).
 * A benchmark with setup_each/teardown_each has them around the batch, their cycles counted as
 * its own code's; a failed setup_each fails the benchmark (0 returned). */
static uint64_t run_batch(const struct bm_bench *b, uint32_t iters, int banded, const struct bm_overhead *oh,
                          struct bm_bench_result *res)
{
	struct bm_delta d;
	int each = bm_bench_each(b);
	if (banded || each || bm_bench_isolated(b)) {
		uint64_t t0 = each ? bm_cycles_now() : 0;
		int v = bm_band_call(b, BM_USER_BATCH, iters, &d, 0, oh);
		if (v) {
			bm_verdict(res, (enum bm_verdict)v);
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
	return bm_band_call(b, which, 0, 0, &res->user_cycles, 0);
}

/* Setup, outside any timed region: 0, or the benchmark has failed (no verify step, or its setup
 * said so). The scratch is sealed and the clock window opened once it is done. */
static int set_up(const struct bm_bench *b, struct bm_clock *clk, struct bm_bench_result *res)
{
	bm_recover_phase(BM_PHASE_SETUP);
	if (!b->verify)
		return bm_verdict(res, BM_V_NO_VERIFY);
	if (b->setup && user_call(b, BM_USER_SETUP, res) != 0)
		return bm_verdict(res, BM_V_SETUP);
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

/* Where the benchmark's code runs isolated: the warm-up's next `want` batches in one call into
 * it (a chunk, bm_user_batches), not a call each, which cost more than the batches of a short
 * body; each batch's net cycles into the window from w[n], its raw ones into the benchmark's
 * time, as run_batch's. Returns how many it ran (0: the benchmark has failed). */
static uint32_t warm_chunk(const struct bm_bench *b, uint32_t want, const struct bm_overhead *oh, uint64_t *w,
                           uint32_t n, struct bm_bench_result *res)
{
	int each = bm_bench_each(b);
	uint64_t t0 = each ? bm_cycles_now() : 0, body0 = res->body_cycles;
	struct bm_user_chunk c;
	int v = bm_user_batches(b, res->iters, want, 0, oh, &c);
	if (v) {
		bm_verdict(res, (enum bm_verdict)v);
		return 0;
	}
	for (uint32_t i = 0, seen = 0; i < c.runs; seen += c.s[i++].count) {
		struct bm_samples_out unused = {0}; /* (instructions are not counted before the samples) */
		uint64_t ins_unused = 0;
		const struct bm_user_sample *s = &c.s[i];
		uint64_t x = bm_account(&s->d, s->count, oh->cycles, s->d.instret, &res->body_cycles, &ins_unused, &unused);
		for (uint32_t r = 0; r < s->count; r++)
			w[(n + seen + r) % BM_WARMUP_WINDOW] = x;
	}
	if (each) {
		uint64_t t = bm_cycles_now() - t0, in = res->body_cycles - body0;
		res->user_cycles += t > in ? t - in : 0;
	}
	return c.taken;
}

/* The batch count at which the warm-up next tests its window, or stops at its cap (after n). */
static uint32_t warm_test_at(uint32_t n, const struct bm_config *cfg)
{
	uint32_t at = n + 1;
	at = at > cfg->warmup_min ? at : cfg->warmup_min;
	at = at > BM_WARMUP_WINDOW ? at : BM_WARMUP_WINDOW;
	at = (at + BM_WARMUP_STEP - 1) / BM_WARMUP_STEP * BM_WARMUP_STEP;
	at = at < cfg->warmup_max ? at : cfg->warmup_max;
	return at > n ? at : n + 1;
}

/* Warm-up at the calibrated size until the last BM_WARMUP_WINDOW batches agree, tested every
 * BM_WARMUP_STEP batches (a workload that never settles, e.g. one whose input changes every call,
 * would spend more in the test than in its batches; a settled one runs at most BM_WARMUP_STEP - 1
 * batches more), or until the cap. Where its code runs isolated, the batches between two tests
 * run in one call (warm_chunk): the same batches, the same readings. */
static void warm_up(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
                    struct bm_bench_result *res)
{
	bm_recover_phase(BM_PHASE_WARMUP);
	uint64_t window[BM_WARMUP_WINDOW];
	uint32_t n = 0;
	int chunked = bm_bench_isolated(b);
	for (;;) {
		if (chunked) {
			n += warm_chunk(b, warm_test_at(n, cfg) - n, oh, window, n, res);
		} else {
			window[n % BM_WARMUP_WINDOW] = run_batch(b, res->iters, 0, oh, res);
			n++;
		}
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

/* Warm: calibration, warm-up, the single warm run, the first verify. 0, or 1: the benchmark has
 * failed. */
static int warm(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
                struct bm_bench_result *res)
{
	res->iters = calibrate(b, cfg, oh, res);
	if (res->ok)
		warm_up(b, cfg, oh, res);
	/* One warm run, alone: the cold run's like (a batch's further loop passes are no difference). */
	if (res->ok)
		res->warm1 = run_batch(b, 1, 0, oh, res);
	if (!res->ok)
		return 1;
	/* Where the counter is not the core clock, measure the ratio now, per benchmark, so a
	 * frequency change during the run shows up in the figures of the benchmark it hit. */
	const struct arch_info *ai = arch_get_info();
	if (ai->core_per_tick_ppm)
		res->core_per_tick_ppm = ai->core_per_tick_ppm();
	bm_recover_phase(BM_PHASE_VERIFY);
	if (user_call(b, BM_USER_VERIFY, res) != 0)
		return bm_verdict(res, BM_V_VERIFY_WARM);
	return 0;
}

/* The timed samples and the checks of them, the second verify among them (the workload must still
 * be right after the timed runs, or no number is reported). 0, 1 when the benchmark has failed,
 * -1 as soon as it is seen to have written over the kit's state (nothing computed from it may be
 * used). */
static int sample(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
                  struct bm_clock *clk, struct bm_kit_state *kit, struct bm_bench_result *res)
{
	bm_recover_phase(BM_PHASE_SAMPLES);
	struct bm_samples_out so;
	int taken = bm_take_samples(b, res->iters, cfg->samples, oh, kit, &so);
	if (taken < 0)
		return -1;
	if (taken > 0)
		return bm_verdict(res, (enum bm_verdict)so.verdict);
	if (bm_verdict_stats(kit, cfg->samples, oh, &so, res) != 0)
		return 1;
	res->user_cycles += so.outside;
	bm_guard_stats_seal(kit);
	res->body_cycles += so.body_cycles;
	res->below_overhead += so.below;
	res->drift_ppm = bm_verdict_drift_ppm(so.qmin, cfg->samples >= 4 ? 4 : 1);
	bm_recover_phase(BM_PHASE_VERIFY);
	if (user_call(b, BM_USER_VERIFY, res) != 0)
		return bm_verdict(res, BM_V_VERIFY_SAMPLES);
	if (!bm_guard_kit_intact(kit))
		return -1;
	if (bm_verdict_readings(kit, clk, res) != 0)
		return 1;
	res->instret_sum = (struct bm_u128){so.instret_lo, so.instret_hi};
	res->samples = cfg->samples;
	return 0;
}

/* The measuring itself. Runs under bm_run_one's recovery point and watchdog. Returns -1 as soon
 * as the benchmark is seen to have written over the kit's state, else 0. A benchmark whose setup
 * failed gets no teardown (its setup did not complete), one that wrote over the kit's state none
 * either (nothing more of its code runs). */
static int measure(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
                   struct bm_clock *clk, struct bm_kit_state *kit, struct bm_bench_result *res)
{
	if (set_up(b, clk, res) != 0)
		return 0;
	if (warm(b, cfg, oh, res) == 0 && sample(b, cfg, oh, clk, kit, res) < 0)
		return -1;
	bm_recover_phase(BM_PHASE_TEARDOWN);
	if (b->teardown)
		user_call(b, BM_USER_TEARDOWN, res);
	return 0;
}

/* Before the benchmark's recovery point: a fresh result, statistics, scratch and stack paint, and
 * what the recovery needs to find them again. */
static void start(const struct bm_bench *b, const struct bm_overhead *oh, struct bm_kit_state *kit,
                  struct bm_bench_result *res)
{
	*res = (struct bm_bench_result){0};
	res->ok = 1;
	res->start_cycles = bm_cycles_now();
	bm_recover_set((void *)b, res, kit);
	bm_stats_init(&kit->stats);
	bm_events_begin(kit, oh);
	bm_scratch_reset(b->scratch_bytes ? *b->scratch_bytes : 0);
	bm_guard_stack_paint(bm_bench_isolated(b));
	bm_recover_phase(BM_PHASE_SETUP);
}

/* A fault or the watchdog ended the benchmark (res as the recovery kept it). Where the time went
 * is the benchmark's, not the kit's (a hang's budget was most of a run): all of it outside the
 * batches counted, as its own code's. */
static void faulted(struct bm_bench_result *res)
{
	uint64_t spent = bm_cycles_now() - res->start_cycles;
	if (spent >> 63 == 0 && spent >= res->body_cycles)
		res->user_cycles = spent - res->body_cycles;
	bm_verdict_fault(res, bm_recover_taken());
}

static __attribute__((noinline)) int run_guarded(const struct bm_bench *b, const struct bm_config *cfg,
                                                 const struct bm_overhead *oh, struct bm_clock *clk,
                                                 struct bm_kit_state *kit, struct bm_bench_result *res)
{
	start(b, oh, kit, res);
	const char *changed;
	if (BM_RECOVERY_POINT()) {
		/* No teardown: its state is unknown. The registers that held the arguments are gone: take
		 * them back from the recovery's state, once its guard words say the benchmark did not
		 * write over it. */
		changed = arch_state_restore();
		if (!bm_recover_state_intact())
			return -1;
		b = bm_recover_get(0);
		res = bm_recover_get(1);
		kit = bm_recover_get(2);
		faulted(res);
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
	if (bm_verdict_kit_lost(kit, res, changed))
		return -1;
	bm_verdict_after_code(b, res, changed);
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

int bm_run_one(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
               struct bm_clock *clk, struct bm_kit_state *kit, struct bm_bench_result *res)
{
	if (run_guarded(b, cfg, oh, clk, kit, res) != 0)
		return -1;
	if (res->status != BM_ST_OK)
		return 0;
	summarize(oh, clk, &kit->stats, res);
	bm_events_summarize(kit, res);
	bm_verdict_after_figures(b, res);
	return 0;
}
