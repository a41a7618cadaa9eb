/* SPDX-License-Identifier: Apache-2.0 */
/* Why a result cannot stand, in one place: every check that voids a benchmark's figures (its
 * status and its words, the table row's and the record's reason) or marks them (state-dependent,
 * unstable). The measuring sequence (bm_measure.c) asks at each of its steps; what is asked once
 * the benchmark's code has run for the last time, and once its figures are computed, are the
 * tables after_code and after_figures below, in their order. A benchmark that wrote over the
 * kit's own state gets no verdict: the run ends (bm_verdict_kit_lost). */
#include "bm/build_info.h"
#include "bm_board.h"
#include "run/run.h"

static void fail(struct bm_bench_result *res, enum bm_status status, const char *why)
{
	res->ok = 0;
	res->status = status;
	res->reason = why;
	res->phase = bm_recover_current_phase();
}

/* ---- the sequence's own steps ---- */

static const char *const step_reason[] = {
	[BM_V_NO_VERIFY] = "no verify step",
	[BM_V_SETUP] = "setup failed",
	[BM_V_SETUP_EACH] = "setup_each failed",
	[BM_V_VERIFY_WARM] = "verify failed (after warm-up)",
	[BM_V_VERIFY_SAMPLES] = "verify failed (after the timed samples)",
	[BM_V_READINGS] = "wrote over the readings of its timed batches (the kit's job at the top of its stack)",
	[BM_V_UNREAD] = "its batch came back to the kit without a reading (its code returned from within the batch)",
	[BM_V_LONG] = "its batches' readings add up to more than the kit's own timing of the call into its code "
	              "(made up, or a count of batches it did not run)",
	[BM_V_SHORT] = "its batches' readings add up to less than the kit's own timing of the call into its code, "
	               "by more than the kit's bookkeeping (made up: forged down)",
};

int bm_verdict(struct bm_bench_result *res, enum bm_verdict v)
{
	/* (a refused scratch allocation is the likely reason a setup failed, and only the kit knows it) */
	const char *why = v == BM_V_SETUP ? bm_scratch_refusal() : 0;
	fail(res, BM_ST_FAIL, why ? why : step_reason[v]);
	return 1;
}

/* The statistics against what the sampling loop kept of the same samples in its own frame (their
 * count, smallest, and sum: the raw cycles less the overhead, where no batch was under it): a
 * benchmark that wrote into the kit's statistics during its samples fails, before a figure is
 * computed from them. Where benchmark code runs isolated it cannot (the check then costs a walk
 * of the few nonzero bins, once). */
int bm_verdict_stats(const struct bm_kit_state *kit, uint32_t samples, const struct bm_overhead *oh,
                     const struct bm_samples_out *so, struct bm_bench_result *res)
{
	uint64_t lo = so->qmin[0];
	for (unsigned q = 1; q < (samples >= 4 ? 4u : 1u); q++)
		lo = so->qmin[q] < lo ? so->qmin[q] : lo;
	static const char *const reason[] = {
		"", "the kit's statistics were written over during its timed samples: their count disagrees with the "
		    "sampling loop's (no figure)",
		"the kit's statistics were written over during its timed samples: their histogram's counts do not add "
		"up (no figure)",
		"the kit's statistics were written over during its timed samples: their largest samples are out of "
		"order (no figure)",
		"the kit's statistics were written over during its timed samples: their smallest sample disagrees "
		"with the sampling loop's (no figure)",
		"the kit's statistics were written over during its timed samples: their sum disagrees with the "
		"sampling loop's (no figure)",
	};
	int what = bm_stats_disagree(&kit->stats, samples, lo, so->below == 0,
	                             so->body_cycles - (uint64_t)samples * oh->cycles);
	if (!what)
		return 0;
	fail(res, BM_ST_FAIL, reason[what]);
	return 1;
}

/* After the samples and the second verify: why the samples cannot be figures, or NULL. No batch
 * takes 2^63 cycles (292 years at 1 GHz): a delta that large is the counter going backwards,
 * written during the batch (a csrw mcycle, a HAL's SysTick set-up). No batch lasts longer than
 * the benchmark has run: one that read so had its first reading (a local of its batch function)
 * overwritten, e.g. zeros written past a local array of the body, and its figures would be the
 * counter since boot. And the counter must agree with the timer over the benchmark's window. */
static const char *readings_wrong(const struct bm_kit_state *kit, struct bm_clock *clk,
                                  const struct bm_bench_result *res)
{
	if (bm_stats_max(&kit->stats) >> 63)
		return "the cycle counter went backwards during a timed batch (written by the benchmark, or "
		       "a software extension's wraps missed with interrupts masked?)";
	if (bm_stats_max(&kit->stats) > bm_cycles_now() - res->start_cycles)
		return "a timed batch read more cycles than the benchmark had run: its first counter "
		       "reading was overwritten (a write past a local array of the body?)";
	int c = bm_clock_close(clk);
	if (c == -2)
		return "wrote over the kit's clock estimate during its samples: no figure";
	if (c != 0)
		return "the cycle counter disagreed with the timer by more than a tenth over this "
		       "benchmark (the counter written or stopped, a software extension's wraps missed "
		       "with interrupts masked, or the core slept or changed clock): no figure";
	return 0;
}


int bm_verdict_readings(const struct bm_kit_state *kit, struct bm_clock *clk, struct bm_bench_result *res)
{
	const char *wrong = readings_wrong(kit, clk, res);
	if (!wrong)
		return 0;
	bm_recover_phase(BM_PHASE_SAMPLES);
	fail(res, BM_ST_FAIL, wrong);
	return 1;
}

void bm_verdict_fault(struct bm_bench_result *res, const struct bm_fault *f)
{
	int overflow;
	const char *past_frame = bm_user_fault(f, &overflow);
	res->fault = *f;
	if (f->kind == BM_FAULT_TIMEOUT)
		fail(res, BM_ST_TIMEOUT, "over its time budget (watchdog)");
	else if (overflow || bm_guard_stack_fault(f, 0))
		fail(res, BM_ST_STACK_OVERFLOW, f->cause);
	else
		fail(res, BM_ST_TRAP, past_frame ? past_frame : f->cause);
}

/* The kit's own state first: if the benchmark wrote over it, no check after it can be trusted.
 * The statistics (its figures) are final from its last sample: its verify and teardown ran after
 * that, and must have left them as they were. */
int bm_verdict_kit_lost(const struct bm_kit_state *kit, const struct bm_bench_result *res, const char *core)
{
	return core == bm_state_lost || !bm_guard_kit_intact(kit) ||
	       (res->status == BM_ST_OK && !bm_guard_stats_sealed(kit));
}

uint32_t bm_verdict_drift_ppm(const uint64_t *qmin, unsigned n)
{
	/* (largest - smallest) / smallest of the quarters' minima (0 with fewer than 4 samples or a
	 * zero minimum: nothing to compare) */
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

/* ---- after the benchmark's code, after its figures: the tables ---- */

struct after {
	const struct bm_bench *b;
	struct bm_bench_result *res;
	const char *core; /* what arch_state_restore found changed, or NULL */
};

/* What the kit set up of the core (bm/port.h, arch_state_restore) and its console, as they were.
 * A benchmark that changed them and did not put them back fails, named by what it changed, and
 * the kit sets them up again: the benchmarks after it keep their figures (a replaced trap vector
 * would skip their faults, a changed rounding mode change their results). */
static const char *core_changed(const struct after *a)
{
	return a->core;
}

static const char *console_changed(const struct after *a)
{
	(void)a;
	return bm_port_console_restore() ? "changed the console (it no longer transmitted as set up) and did not "
	                                   "put it back (restored)"
	                                 : 0;
}

/* Whatever the benchmark said, a write outside its stack or scratch voids its figures (the
 * stack's high-water mark is taken here too). */
static const char *stack_band(const struct after *a)
{
	int band_touched;
	a->res->stack_used_bytes = bm_guard_stack_check(bm_bench_isolated(a->b), &band_touched);
	/* (read once its code has ended: which step wrote it is not known, only where it was found) */
	return band_touched ? "the stack's guard band at its bottom was written, found after its last step (any of "
	                      "its steps may have written it)" : 0;
}

static const char *scratch_overrun(const struct after *a)
{
	(void)a;
	return bm_scratch_intact() ? 0 : "wrote outside its scratch allocations";
}

/* Under deterministic QEMU, where both count every instruction once, the benchmark's cycles and
 * instructions over its samples must be equal; on a core, instructions above 16 a cycle are a
 * written instruction counter (a real core retires a few a cycle). NULL when they agree. */
static const char *instret_wrong(const struct after *a)
{
	const struct arch_info *ai = arch_get_info();
	const struct bm_bench_result *res = a->res;
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

/* An event counter the benchmark wrote (bm_events_summarize found it). */
static const char *events_wrong(const struct after *a)
{
#if BM_EVENT_SLOTS
	return a->res->ev_wrong;
#else
	(void)a;
	return 0;
#endif
}

#define ST(s) (1u << BM_ST_##s)
/* The phase a verdict names: the current one, the samples, or the last of the benchmark's own
 * code that ran (found only after it: not "teardown" when it has none). */
enum { PHASE_NOW, PHASE_SAMPLES, PHASE_LAST_CODE };

/* The checks by name, and what each asks (a switch, not pointers: over the constant tables below
 * each check is then inlined where it is asked, around every benchmark, in the kit's own share of
 * the run). */
enum { CORE_CHANGED, CONSOLE_CHANGED, STACK_BAND, SCRATCH_OVERRUN, INSTRET_WRONG, EVENTS_WRONG };
static inline __attribute__((always_inline)) const char *why(unsigned check, const struct after *a)
{
	switch (check) {
	case CORE_CHANGED:
		return core_changed(a);
	case CONSOLE_CHANGED:
		return console_changed(a);
	case STACK_BAND:
		return stack_band(a);
	case SCRATCH_OVERRUN:
		return scratch_overrun(a);
	case EVENTS_WRONG:
		return events_wrong(a);
	default:
		return instret_wrong(a);
	}
}

/* A check: its verdict applies when the status so far is one it overrides. */
struct check {
	uint8_t check;
	uint8_t status;   /* the status its verdict gives */
	uint8_t over;     /* the statuses it overrides */
	uint8_t phase;
};

/* In order, once the benchmark's code has run for the last time; every one is asked (the
 * console's restores it, the stack's takes the high-water mark). */
static const struct check after_code[] = {
	{CORE_CHANGED, BM_ST_FAIL, ST(OK), PHASE_NOW},
	{CONSOLE_CHANGED, BM_ST_FAIL, ST(OK), PHASE_NOW},
	{STACK_BAND, BM_ST_STACK_OVERFLOW, (uint8_t)~ST(STACK_OVERFLOW), PHASE_LAST_CODE},
	{SCRATCH_OVERRUN, BM_ST_SCRATCH_OVERRUN, ST(OK) | ST(FAIL), PHASE_LAST_CODE},
};
/* Once the figures of a benchmark that passed are computed. */
static const struct check after_figures[] = {
	{INSTRET_WRONG, BM_ST_FAIL, ST(OK), PHASE_SAMPLES},
	{EVENTS_WRONG, BM_ST_FAIL, ST(OK), PHASE_SAMPLES},
};

static inline __attribute__((always_inline)) void ask(const struct check *c, const struct check *end,
                                                      const struct after *a)
{
#pragma GCC unroll 8
	for (; c < end; c++) {
		const char *w = why(c->check, a);
		if (!w || !(c->over & (1u << a->res->status)))
			continue;
		if (c->phase == PHASE_SAMPLES)
			bm_recover_phase(BM_PHASE_SAMPLES);
		else if (c->phase == PHASE_LAST_CODE && !a->b->teardown && a->res->status == BM_ST_OK)
			bm_recover_phase(BM_PHASE_VERIFY);
		fail(a->res, c->status, w);
	}
}

void bm_verdict_after_code(const struct bm_bench *b, struct bm_bench_result *res, const char *core)
{
	ask(after_code, after_code + sizeof after_code / sizeof *after_code, &(struct after){b, res, core});
}

/* Under deterministic QEMU every run of a body on the same input costs the same: a cold run (the
 * first after setup and setup_each) that differs from a warm one, single run against single run,
 * means the body's work depends on state it changes itself (an in-place sort timed on its own
 * output). Compared against the single warm run and, at one run a sample, against every sample;
 * within one tick where the counter is a timer (its phase moves a run's reading by one). NULL
 * when they agree, where runs may differ for other reasons (caches, an OS), or for a benchmark
 * that declares it carries state (.carries_state: timing runs on its own output is what it
 * measures). Marks the figures (the record's state_dependent) and fails the run (bm_run.c). */
static const char *state_dependent(const struct arch_info *ai, const struct bm_bench *b,
                                   const struct bm_bench_result *res)
{
	if (!bm_build_info.icount || b->carries_state)
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

void bm_verdict_after_figures(const struct bm_bench *b, struct bm_bench_result *res)
{
	res->state_reason = state_dependent(arch_get_info(), b, res);
	ask(after_figures, after_figures + sizeof after_figures / sizeof *after_figures, &(struct after){b, res, 0});
}
