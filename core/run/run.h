/* SPDX-License-Identifier: Apache-2.0 */
/* The run layer (core/run/): the run (bm_run.c), one benchmark's measuring sequence
 * (bm_measure.c) and the verdicts on it (bm_verdict.c), and what they measure with: the counter
 * and the clock (bm_clock.c), calls into the benchmark's code (bm_band.c, bm_user.c), the timed
 * samples (bm_samples.c), the events (bm_events.c) and the cache model's marks (bm_model.c).
 * Core-private: for the report layer (core/report/, which presents what this measures) and the
 * host unit tests. */
#ifndef BM_RUN_H
#define BM_RUN_H

#include <stdint.h>
#include "bm/bench.h"
#include "bm/harness.h"
#include "bm/shared.h"
#include "bm/stats.h"
#include "bm/wide.h"
#include "guard/guard.h"

/* The build's option (cmake/BaremarkOptions.cmake): 1 in a served image (core/serve/). */
#ifndef BM_SERVE
#define BM_SERVE 0
#endif

/* ---- the counter and the clock (bm_clock.c) ---- */

/* Cost of one counter read pair (begin + end with nothing between), measured at boot. */
struct bm_overhead {
	uint64_t cycles;      /* minimum over the probe: the amount subtracted from every batch */
	uint64_t instret;     /* same for instructions retired */
	uint64_t cycles_max;  /* largest seen, to show how noisy the counter is */
	uint64_t loop_cycles, loop_instret; /* one more pass of the batch loop (in batched figures) */
	uint64_t user_call, user_batch; /* isolated: a chunk's span less its readings, per call and batch */
	int cycles_advance;   /* 0: the cycle counter did not move over the whole probe */
#if BM_EVENT_SLOTS
	uint64_t ev[BM_EVENT_SLOTS]; /* each event slot's minimum over the probe (bm/events.h) */
#endif
};
/* _user: the probe run as benchmark code, unprivileged (bm/port.h, ARCH_USER_SNAP_TRAPS): the
 * read path of the benchmarks that run so. */
void bm_measure_overhead(struct bm_overhead *oh);
void bm_measure_overhead_user(struct bm_overhead *oh);
/* The cycle counter now (a serialised read; cold path). */
uint64_t bm_cycles_now(void);

/* Cycle counter frequency, estimated against the board timer over the run itself: each
 * benchmark's measuring (from after its setup to after its last verify) is a window opened and
 * closed on timer tick edges, and the estimate is the cycles over the ticks of all windows so
 * far. It costs no spin of its own (a 10 ms spin would be a tenth of a deterministic run's
 * instructions), its error (under one tick per window) shrinks as the run goes on, and a
 * benchmark that writes the counter in its setup (the wrap self-test does) cannot spoil it. */
struct bm_clock {
	uint64_t cycle_hz;     /* 0 without a timer, or before the first window closed */
	uint64_t window_ticks; /* ticks of all closed windows */
	uint64_t window_cycles;
	uint64_t open_ticks, open_cycles;
	int open;              /* a window is open (its first reading was taken) */
};
/* A window of the clock estimate opens and closes (closing updates cycle_hz). bm_clock_spin is
 * one window of `ms`, for where a time-based batch size needs the clock before any benchmark.
 * bm_clock_close returns -1, leaving the window out, when the counter and the timer disagree
 * over it by more than BM_CLOCK_AGREE_PCT percent (and a tick) of the clock so far; -2 when the
 * estimate was written during the benchmark (sealed at each of the kit's updates, bm_clock_init
 * first: bm_clock_intact says whether it still holds what the kit last wrote); else 0. */
#define BM_CLOCK_AGREE_PCT 10
void bm_clock_init(struct bm_clock *clk);
void bm_clock_open(struct bm_clock *clk);
int bm_clock_close(struct bm_clock *clk);
void bm_clock_spin(struct bm_clock *clk, uint32_t ms);
int bm_clock_intact(const struct bm_clock *clk);
/* The cycle counter's resolution in instructions under -icount (bm_run_info.tick_insns). */
uint32_t bm_clock_tick_insns(const struct arch_info *ai);

/* ---- one benchmark's result (bm_measure.c, bm_verdict.c) ---- */

/* How a benchmark ended (the result record's "status"; what each means: tools/bmlib/shared.py):
 * BM_ST_OK (the only status with figures), FAIL, TRAP, TIMEOUT, STACK_OVERFLOW, SCRATCH_OVERRUN. */
#define BM_ST_ENUM(e, name, word) BM_ST_##e,
enum bm_status { BM_STATUS_LIST(BM_ST_ENUM) BM_ST_COUNT };
#undef BM_ST_ENUM

struct bm_bench_result {
	int ok;                     /* 1: ran and verified (status BM_ST_OK) */
	enum bm_status status;
	const char *reason;         /* why not ok: "setup failed", "verify failed", the trap's cause */
	const char *phase;          /* where: "setup", "calibrate", "warmup", "verify", "samples", "teardown" */
	struct bm_fault fault;      /* trap and timeout: what the arch reported */
	size_t stack_used_bytes;    /* high-water mark from the benchmark's setup on (0: unknown) */
	uint32_t iters;             /* inner repeat count after calibration */
	uint32_t warmup_batches;    /* batches spent warming up */
	int warmup_settled;         /* rolling CV reached the threshold (else hit the cap) */
	uint32_t below_overhead;    /* batches that measured less than the overhead (counted as 0) */
	int short_interval;         /* median batch under BM_SHORT_INTERVAL_FACTOR x the read overhead */
	struct bm_u128 instret_milli; /* mean instructions per iteration x1000 (0 if not counted) */
	struct bm_u128 instret_sum; /* instructions over all samples, overhead subtracted */
	uint32_t samples;           /* timed batches taken */
	uint64_t ops_per_s;         /* iterations per second at the median (0 if unknown) */
	uint64_t p50_ns_milli;      /* median per iteration in ns x1000 (0 if unknown) */
	uint64_t mean_ns_milli;
	uint64_t cycle_hz;          /* the clock estimate those were computed with (0: none) */
	uint32_t core_per_tick_ppm;  /* core cycles per counter tick (0: the counter is the core clock) */
	int core_cycles_known;      /* core_cycles_*: the median and mean in core cycles x1000 (a counter */
	uint64_t core_cycles_p50_milli, core_cycles_mean_milli; /* that is not the core clock) */
	uint64_t cold;              /* the first run after setup (and setup_each), net of the overhead */
	uint64_t warm1;             /* one run alone after the warm-up, net of the overhead */
	const char *state_reason;   /* deterministic build: why the cold run differs from the warm
	                             * ones (the body's work depends on state it changes), or NULL */
	uint32_t drift_ppm;         /* spread of the four quarters' fastest batches (machine speed drift) */
	uint64_t body_cycles;       /* counter cycles inside the timed batches (all of them: calibration, warm-up, samples) */
	uint64_t user_cycles;       /* ... in the benchmark's setup, verify and teardown (a fault or the
	                             * watchdog ended it: all of its time outside the batches) */
	uint64_t start_cycles;      /* the counter when the kit started it */
	struct bm_stats_report rep; /* statistics of cycles per iteration */
#if BM_EVENT_SLOTS
	struct bm_event_fig {
		struct bm_u128 mean_milli, p50_milli; /* per iteration, x1000 */
		uint32_t p50_bound_ppm;               /* 0: p50 exact */
		uint32_t below;                       /* samples under the slot's overhead */
	} ev[BM_EVENT_SLOTS];
	const char *ev_wrong; /* an event counter that disagreed with what the kit knows exactly, or NULL */
#endif
};

/* A value of this build's (a size) for the linker script: an absolute symbol (no section: kept). */
#define BM_LINKER_VALUE(name, value)                                                                \
	__attribute__((used)) static void name##_value(void)                                        \
	{                                                                                          \
		__asm__(".globl " #name "\n\t.equ " #name ", %c0" : : "i"(value));                    \
	}

/* A benchmark with fresh input before every timed run (bm/bench.h): one run per batch. */
static inline int bm_bench_each(const struct bm_bench *b)
{
	return b->setup_each || b->teardown_each;
}

/* A benchmark whose code runs unprivileged, on its own stack (bm/port.h; not .privileged). */
static inline int bm_bench_isolated(const struct bm_bench *b)
{
	return ARCH_USER_ISOLATED && !b->privileged;
}

/* Runs one benchmark end to end, filling the kit's (shared) statistics state. Returns 0, or -1
 * when the benchmark wrote over the kit's own state: then nothing about it can be trusted. */
int bm_run_one(const struct bm_bench *b, const struct bm_config *cfg, const struct bm_overhead *oh,
               struct bm_clock *clk, struct bm_kit_state *kit, struct bm_bench_result *res);
/* Rolling-CV test used by the warm-up: 1 when stddev/mean of w[0..n) <= cv_ppm. */
int bm_window_settled(const uint64_t *w, unsigned n, uint32_t cv_ppm);

/* ---- verdicts: why a result cannot stand (bm_verdict.c) ---- */

/* What the measuring sequence's own steps can find (each a FAIL, in the current phase). */
enum bm_verdict {
	BM_V_NO_VERIFY = 1,  /* it has no verify step (0: no verdict) */
	BM_V_SETUP,          /* its setup said it failed (a refused scratch allocation says why) */
	BM_V_SETUP_EACH,     /* its setup_each said it failed */
	BM_V_VERIFY_WARM,    /* its verify failed after the warm-up */
	BM_V_VERIFY_SAMPLES, /* its verify failed after the timed samples */
	BM_V_READINGS,       /* (unprivileged) it wrote over its batches' readings in the kit's job */
	BM_V_UNREAD,         /* (unprivileged) its call ended before its batch did: no reading */
	BM_V_LONG,           /* (unprivileged) its readings add up to more than the kit timed the call */
	BM_V_SHORT,          /* (unprivileged) ... to less, past the kit's bookkeeping */
};
/* Fails res for v; returns 1 (so a step can end with `return bm_verdict(res, v)`). */
int bm_verdict(struct bm_bench_result *res, enum bm_verdict v);
struct bm_samples_out;
/* Right after the timed samples: 1 (res failed) when the statistics disagree with what the
 * sampling loop kept of the same samples (a benchmark wrote into them), else 0. */
int bm_verdict_stats(const struct bm_kit_state *kit, uint32_t samples, const struct bm_overhead *oh,
                     const struct bm_samples_out *so, struct bm_bench_result *res);
/* After the last verify: 1 (res failed, in the samples) when the timed readings cannot be
 * figures (the counter went backwards, a batch read longer than the benchmark ran, the counter
 * disagreed with the timer: this closes the clock's window), else 0. */
int bm_verdict_readings(const struct bm_kit_state *kit, struct bm_clock *clk, struct bm_bench_result *res);

/* A fault or the watchdog ended the benchmark: the fault kept in res, and timeout, stack overflow
 * or trap. */
void bm_verdict_fault(struct bm_bench_result *res, const struct bm_fault *f);
/* 1 when the benchmark wrote over the kit's own state (its guard words, its sealed statistics, the
 * arch's record of its set-up: core is what arch_state_restore returned): the run must end. */
int bm_verdict_kit_lost(const struct bm_kit_state *kit, const struct bm_bench_result *res, const char *core);
/* Once the benchmark's code has run for the last time (core: what arch_state_restore found), and
 * once the figures of one that passed are computed: the checks of bm_verdict.c's tables, in
 * their order. The first also takes the stack's high-water mark and puts the console back. */
void bm_verdict_after_code(const struct bm_bench *b, struct bm_bench_result *res, const char *core);
void bm_verdict_after_figures(const struct bm_bench *b, struct bm_bench_result *res);
/* The spread of the quarters' fastest batches, in ppm (0 with fewer than 4 quarters). Drift past
 * BM_DRIFT_UNSTABLE_PPM (bm/shared.h) makes a result `unstable`: the machine's speed changed while
 * it ran, or the workload's own cost did (under deterministic QEMU only the latter). */
uint32_t bm_verdict_drift_ppm(const uint64_t *qmin, unsigned n);
static inline int bm_verdict_unstable(const struct bm_bench_result *res)
{
	return res->drift_ppm > BM_DRIFT_UNSTABLE_PPM;
}

/* ---- events (bm_events.c, bm/events.h) ---- */

/* Parses BM_EVENTS_LIST and asks the arch (arch_events_setup, bm/port.h); once, at bring-up. */
void bm_events_init(void);
/* The batch copy a run times: the one that reads the event slots where they count. */
typedef void (*bm_batch_fn)(uint32_t, struct bm_delta *);
#if BM_EVENT_SLOTS
int bm_events_live(void);
static inline bm_batch_fn bm_batch_of(const struct bm_bench *b, int ev)
{
	return ev ? b->batch_ev : b->batch;
}
#else
static inline int bm_events_live(void)
{
	return 0;
}
static inline bm_batch_fn bm_batch_of(const struct bm_bench *b, int ev)
{
	(void)ev;
	return b->batch;
}
#endif
/* Two readings alike (runs of them are counted), in one branch or a word at a time (bm/port.h);
 * instret only where the core counts it (elsewhere the word is 0, and left unread). */
static inline int bm_delta_same(const struct bm_delta *a, const struct bm_delta *b)
{
	uint64_t diff = 0;
#if BM_EVENT_SLOTS
#pragma GCC unroll 8
	for (int i = 0; i < BM_EVENT_SLOTS; i++)
		diff |= a->ev[i] ^ b->ev[i];
#endif
	return ARCH_CMP_BRANCH ? a->cycles == b->cycles && (!ARCH_COUNTS_INSTRET || a->instret == b->instret) && !diff
	                       : !((a->cycles ^ b->cycles) | (ARCH_COUNTS_INSTRET ? a->instret ^ b->instret : 0) | diff);
}
/* Before a benchmark: its event statistics emptied, each slot's overhead set. A reading taken r
 * times: each event slot's count net of its overhead into its statistics. After a benchmark that
 * passed: each event's per-iteration figures into res. (Nothing at all without event slots: the
 * sampling loop stays as it was.) */
#if BM_EVENT_SLOTS
void bm_events_begin(struct bm_kit_state *kit, const struct bm_overhead *oh);
void bm_events_add(struct bm_kit_state *kit, const struct bm_delta *d, uint32_t r);
void bm_events_summarize(const struct bm_kit_state *kit, struct bm_bench_result *res);
#else
static inline void bm_events_begin(struct bm_kit_state *kit, const struct bm_overhead *oh)
{
	(void)kit;
	(void)oh;
}
static inline void bm_events_add(struct bm_kit_state *kit, const struct bm_delta *d, uint32_t r)
{
	(void)kit;
	(void)d;
	(void)r;
}
static inline void bm_events_summarize(const struct bm_kit_state *kit, struct bm_bench_result *res)
{
	(void)kit;
	(void)res;
}
#endif
/* The records' "events" (meta: counted and not; an ok result: its figures), for the report. */
void bm_events_record_meta(struct bm_record *r);
void bm_events_record_result(struct bm_record *r, const struct bm_bench_result *res);

/* ---- calls into the benchmark's own code (bm_band.c) ---- */

/* A call into the benchmark's own code under a painted band: a batch of `iters` into *d (0, or a
 * verdict: its setup_each failed; isolated, bm_user_batches's, bounded by oh), or its setup,
 * verify or teardown (their result; their cycles added to *user_cycles when given). A write into
 * the band ends the benchmark as a trap. */
enum bm_user_fn { BM_USER_BATCH, BM_USER_SETUP, BM_USER_VERIFY, BM_USER_TEARDOWN, BM_USER_SAMPLES };
int bm_band_call(const struct bm_bench *b, enum bm_user_fn which, uint32_t iters, struct bm_delta *d,
                 uint64_t *user_cycles, const struct bm_overhead *oh);

/* Where the arch runs benchmark code with the kit's memory out of its reach (ARCH_USER_ISOLATED,
 * bm/port.h), a call into it carries what it needs in a job at the top of the benchmark's own
 * stack (its frames below it, the kit's memory on both sides); batches come back in chunks of up
 * to BM_USER_CHUNK runs of equal readings: the kit's state is written only by the kit, a call made
 * per chunk, not per sample. 32 runs: a counter that steps every few instructions (SysTick under
 * QEMU) alternates between two readings, a run each; a board short of RAM sets fewer (24 bytes a
 * run, on the benchmarks' stack: BM_BOARD_DEFINES, hifive1's). */
#ifndef BM_USER_CHUNK
#define BM_USER_CHUNK 32u
#endif
struct bm_user_sample {
	struct bm_delta d;        /* the batches' reading */
	uint32_t count;           /* how many batches in a row read it (>= 1) */
};
struct bm_user_job {
	uint32_t which;           /* enum bm_user_fn */
	uint32_t iters;           /* the batch size */
	uint32_t n;               /* BM_USER_SAMPLES: at most this many batches; on return, how many runs */
	uint32_t each_failed;     /* on return: the benchmark's setup_each said it failed */
	uint32_t ev;              /* the batches to run read the event slots (bm_batch_of) */
	uint32_t key, seal;       /* the kit's, fresh every call; on return the runs' (bm_user_seal) */
	struct bm_user_sample s[BM_USER_CHUNK];
};
struct bm_user_job *bm_user_job(void); /* the job: at the top of the benchmark's stack */
uint32_t bm_user_seal(uint32_t key, const struct bm_user_sample *s, uint32_t runs, uint32_t taken);
/* Up to n batches of b at iters in one call into its code (timed: the samples, in the cache
 * model's window): 0 and its runs in *c, or the verdict (bm_user.c says how each is found:
 * BM_V_SETUP_EACH, BM_V_READINGS, BM_V_UNREAD, BM_V_LONG, BM_V_SHORT). oh NULL: the calibration of the bound
 * on the kit's bookkeeping (bm_clock.c, with the empty probe: oh's user_call, user_batch). */
struct bm_user_chunk {
	const struct bm_user_sample *s;   /* its runs: runs of them, taken batches */
	uint32_t runs, taken;
	uint64_t span, sum;               /* the kit's cycles over the call; the readings' sum */
};
int bm_user_batches(const struct bm_bench *b, uint32_t iters, uint32_t n, int timed, const struct bm_overhead *oh,
                    struct bm_user_chunk *c);
/* What a fault says of the benchmark's code that ran unprivileged when it came (read once after
 * the fault): *overflow when its stack ran past its bottom; the reason of a write past the top of
 * its frames (into the kit's memory above its stack), or NULL. */
const char *bm_user_fault(const struct bm_fault *f, int *overflow);

/* ---- the timed samples (bm_samples.c) ---- */

/* What the batches leave besides the statistics state. */
struct bm_samples_out {
	uint64_t body_cycles;          /* counter cycles inside the batches, overhead included */
	uint64_t instret_lo;           /* sum of the batches' net instructions: lo + 2^64 hi */
	uint32_t instret_hi;           /*   (< 2^24: at most 10^7 samples of < 2^64 each) */
	uint32_t below;                /* batches under the overhead (counted as 0) */
	int verdict;                   /* bm_take_samples returned 1: the benchmark's (enum bm_verdict) */
	uint64_t qmin[4];              /* the smallest batch of each quarter of the samples */
	uint64_t outside;              /* setup_each: the loops' cycles outside the batches (its own) */
};

/* The accounting of one batch's reading d, taken r times (1: a sample; more: a run of equal
 * readings; always_inline, so r == 1 folds to a few instructions): its cycles added to *body
 * (mod 2^64, as r single adds would), its instructions net of the overhead to the 96-bit sum
 * *ins_lo + 2^64 out->instret_hi. Returns its cycles net of the overhead; a reading under the
 * overhead counts 0, and out->below counts it. The one place a batch's figures are derived. */
static inline __attribute__((always_inline)) uint64_t bm_account(const struct bm_delta *d, uint32_t r,
                                                                 uint64_t oh_cycles, uint64_t oh_instret,
                                                                 uint64_t *body, uint64_t *ins_lo,
                                                                 struct bm_samples_out *out)
{
	*body += d->cycles * r;
	uint64_t c = d->cycles - oh_cycles;
	if (__builtin_expect(d->cycles < oh_cycles, 0)) {
		c = 0;
		out->below += r;
	}
	uint64_t ins = d->instret - oh_instret;
	if (!ARCH_COUNTS_INSTRET || __builtin_expect(d->instret < oh_instret, 0))
		ins = 0;
	struct bm_u128 p = bm_u128_mul64(ins, r); /* < 2^96 */
	*ins_lo += p.lo;
	/* A branch, not an add of the carry: a store less per sample, and the carry is rare. */
	if (__builtin_expect(*ins_lo < p.lo, 0))
		out->instret_hi++;
	out->instret_hi += (uint32_t)p.hi;
	return c;
}

/* The timed samples, a quarter at a time: -1 as soon as the kit state's guard words are written over,
 * 1 when the benchmark has failed (out->verdict: why), else 0. */
int bm_take_samples(const struct bm_bench *b, uint32_t iters, uint32_t samples, const struct bm_overhead *oh,
                    struct bm_kit_state *kit, struct bm_samples_out *out);

/* ---- the QEMU cache model's marks (bm_model.c) ---- */

/* Marks for the QEMU cache model (tools/qemu-plugins/bmcache.c, docs/cache-model.md): stores to a
 * kit-owned marker area whose address the plugin is told, because in QEMU 7.2 a plugin cannot
 * read registers or memory. Built in only with -DBM_QEMU_MODEL=cache; otherwise empty. */
#if BM_MODEL
/* Its offsets (BM_MODEL_MARK_*, bm/shared.h, which the plugin includes too): a window opens,
 * closes, counts one sample; a benchmark's index follows bit by bit (the plugin sees which
 * address was written, never the value). Every mark is a store by bm_model_mark, the one function
 * whose stores the plugin takes for marks (`bm run` tells it where it lies): a benchmark's own
 * loads and stores of the area are its accesses, never marks. */
extern volatile uint8_t bm_model_area[BM_MODEL_AREA_BYTES];
void bm_model_mark(uint32_t offset, uint32_t times);
void bm_model_bench(const struct bm_bench *b);

/* (a call: the compiler keeps the kit's own loads and stores on their side of it) */
static inline void bm_model_open(void)
{
	bm_model_mark(BM_MODEL_MARK_OPEN, 1);
}

/* Closes the window around `samples` timed samples (a chunk of them when the benchmark runs
 * unprivileged). */
static inline void bm_model_close(uint32_t samples)
{
	bm_model_mark(BM_MODEL_MARK_SAMPLE, samples);
	bm_model_mark(BM_MODEL_MARK_CLOSE, 1);
}
#else
static inline void bm_model_bench(const struct bm_bench *b)
{
	(void)b;
}
static inline void bm_model_open(void)
{
}
static inline void bm_model_close(uint32_t samples)
{
	(void)samples;
}
#endif

#endif /* BM_RUN_H */
