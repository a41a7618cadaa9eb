/* SPDX-License-Identifier: Apache-2.0 */
/* The timed samples: the one loop of the kit that runs once per sample (direct, with setup_each
 * and teardown_each around each batch, or in chunks where benchmark code runs unprivileged), and
 * its accounting; what it keeps apart from the statistics is for bm_verdict.c to check them by. */
#include "run/run.h"

/* The kit's statistics state is still guarded (two words: cheap enough before every write to it). */
static int kit_words_intact(const struct bm_kit_state *kit)
{
	return kit->head == BM_KIT_GUARD_WORD && kit->tail == BM_KIT_GUARD_WORD;
}

/* r more samples whose batch read exactly d, accounted at once, the statistics in one
 * bm_stats_add_n. Returns -1, having written nothing, when the kit state's guard words are gone. */
static __attribute__((noinline)) int add_repeats(const struct bm_delta *d, uint32_t r, uint64_t oh_cycles,
                                                 uint64_t oh_instret, struct bm_kit_state *kit,
                                                 struct bm_samples_out *out, uint64_t *body, uint64_t *ins_lo,
                                                 uint64_t *qmin)
{
	if (!kit_words_intact(kit))
		return -1;
	uint64_t c = bm_account(d, r, oh_cycles, oh_instret, body, ins_lo, out);
	*qmin = c < *qmin ? c : *qmin;
	bm_stats_add_n(&kit->stats, c, r);
	bm_events_add(kit, d, r);
	return 0;
}

/* The next chunk of readings, from the benchmark's side (unprivileged): 0, or why not (take_some's
 * *fail: 2 the readings are not what its batches can have written, 3 its setup_each failed). */
static inline __attribute__((always_inline)) int next_chunk(const struct bm_bench *b, struct bm_user_job *j,
                                                            uint32_t iters, uint32_t n, uint32_t *have)
{
	j->which = BM_USER_SAMPLES;
	j->iters = iters;
	j->ev = (uint32_t)bm_events_live();
	j->n = n;
	bm_model_open();
	uint32_t taken = (uint32_t)bm_user_run(b, j);
	bm_model_close(taken);
	*have = j->n;
	if (j->each_failed)
		return 3;
	return taken == 0 || taken > n || *have == 0 || *have > BM_USER_CHUNK ? 2 : 0;
}

/* n timed samples: the one loop of the kit that runs once per sample. What changes every sample
 * is in locals; the batch function is an opaque call, so each of them needs a register the call
 * preserves, and what changes rarely (a batch under the overhead, a carry) is updated in *out
 * instead of taking one. A sample whose counters read exactly as the one before (on a
 * deterministic core, every sample of a benchmark) is only counted: the run is accounted in one
 * go when it ends (the statistics' state is the one single inserts leave). Returns the smallest
 * sample; stops with *fail set as soon as the kit state's guard words are seen written over
 * (1), which is before anything more is written through it, or (chunked: the benchmark runs
 * unprivileged, BM_USER_CHUNK batches a call) when a chunk's readings are not what the batches
 * wrote (2), or when the benchmark's setup_each failed (3). One body, three copies: the direct one
 * is the kit's hot loop as it always was; each (privileged, with setup_each/teardown_each around
 * every batch) and chunked (the benchmark's side runs those) are the others. */
static inline __attribute__((always_inline)) uint64_t take_some(const struct bm_bench *b, int chunked, int each,
                                                                uint32_t iters,
                                                                uint32_t n, uint64_t oh_cycles, uint64_t oh_instret,
                                                                struct bm_kit_state *kit, struct bm_samples_out *out,
                                                                int *fail)
{
	uint64_t body = out->body_cycles, ins_lo = out->instret_lo, qmin = UINT64_MAX;
	/* The run: the counters of its first sample (accounted), and how many since read the same.
	 * No first yet reads as UINT64_MAX twice; a sample that does is a repeat, and accounting it
	 * from these values is right too. */
	struct bm_delta last = {.cycles = UINT64_MAX, .instret = UINT64_MAX};
	uint32_t repeats = 0, k = 0, have = 0, run = 1;
	struct bm_user_job *j = chunked ? bm_user_job() : 0;
	bm_batch_fn batch = bm_batch_of(b, bm_events_live());
	while (n) {
		struct bm_delta d;
		if (chunked) {
			/* a run of `run` equal readings, from the chunk the benchmark's side filled */
			if (k == have) {
				k = 0;
				if ((*fail = next_chunk(b, j, iters, n, &have)) != 0)
					break;
			}
			if (j->s[k].check != bm_user_check(&j->s[k], k) || j->s[k].count == 0 || j->s[k].count > n) {
				*fail = 2;
				break;
			}
			run = j->s[k].count;
			d = j->s[k++].d;
		} else if (each) {
			if (b->setup_each && b->setup_each() != 0) {
				*fail = 3;
				break;
			}
			bm_model_open();
			batch(iters, &d);
			bm_model_close(1);
			if (b->teardown_each)
				b->teardown_each();
		} else {
			bm_model_open();
			batch(iters, &d);
			bm_model_close(1);
		}
		n -= run;
		if (bm_delta_same(&d, &last)) {
			repeats += run;
			continue;
		}
		if (__builtin_expect(repeats != 0, 0)) {
			if (add_repeats(&last, repeats, oh_cycles, oh_instret, kit, out, &body, &ins_lo, &qmin) != 0) {
				*fail = 1;
				break;
			}
			repeats = 0;
		}
		if (!kit_words_intact(kit)) {
			*fail = 1;
			break;
		}
		last = d;
		uint64_t c = bm_account(&d, 1, oh_cycles, oh_instret, &body, &ins_lo, out);
		qmin = c < qmin ? c : qmin;
		bm_stats_add(&kit->stats, c);
		bm_events_add(kit, &d, 1);
		repeats = run - 1;
	}
	if (repeats && !*fail && add_repeats(&last, repeats, oh_cycles, oh_instret, kit, out, &body, &ins_lo, &qmin) != 0)
		*fail = 1;
	out->body_cycles = body;
	out->instret_lo = ins_lo;
	return qmin;
}

static __attribute__((noinline)) uint64_t take_direct(const struct bm_bench *b, uint32_t iters, uint32_t n,
                                                     uint64_t oh_cycles, uint64_t oh_instret, struct bm_kit_state *kit,
                                                     struct bm_samples_out *out, int *fail)
{
	return take_some(b, 0, 0, iters, n, oh_cycles, oh_instret, kit, out, fail);
}

static __attribute__((noinline)) uint64_t take_each(const struct bm_bench *b, uint32_t iters, uint32_t n,
                                                   uint64_t oh_cycles, uint64_t oh_instret, struct bm_kit_state *kit,
                                                   struct bm_samples_out *out, int *fail)
{
	return take_some(b, 0, 1, iters, n, oh_cycles, oh_instret, kit, out, fail);
}

static __attribute__((noinline)) uint64_t take_chunked(const struct bm_bench *b, uint32_t iters, uint32_t n,
                                                      uint64_t oh_cycles, uint64_t oh_instret,
                                                      struct bm_kit_state *kit, struct bm_samples_out *out, int *fail)
{
	return take_some(b, 1, 0, iters, n, oh_cycles, oh_instret, kit, out, fail);
}

/* The timed samples, a quarter at a time. The smallest batch of each quarter: interrupts and
 * preemption only add time, so the minimum moves only when the machine itself got slower or
 * faster (a frequency or host-scheduling state), which the result then reports as drift, not as
 * one number. Returns -1 as soon as the kit state's guard words are written over, 1 when the
 * benchmark wrote over its chunk's readings, 2 when its setup_each failed, else 0. With
 * setup_each/teardown_each, what the quarters took besides their batches is the benchmark's
 * (out->outside): two counter reads a quarter, none a sample. */
int bm_take_samples(const struct bm_bench *b, uint32_t iters, uint32_t samples, const struct bm_overhead *oh,
                    struct bm_kit_state *kit, struct bm_samples_out *out)
{
	*out = (struct bm_samples_out){0};
	unsigned quarters = samples >= 4 ? 4 : 1;
	uint32_t done = 0;
	int fail = 0;
	bm_model_bench(b);
	for (unsigned q = 0; q < 4; q++)
		out->qmin[q] = UINT64_MAX;
	int each = bm_bench_each(b);
	for (unsigned q = 0; q < quarters; q++) {
		uint32_t end = (uint32_t)((uint64_t)samples * (q + 1) / quarters);
		uint64_t t0 = each ? bm_cycles_now() : 0, body0 = out->body_cycles;
		out->qmin[q] = bm_bench_isolated(b)
		                       ? take_chunked(b, iters, end - done, oh->cycles, oh->instret, kit, out, &fail)
		               : each ? take_each(b, iters, end - done, oh->cycles, oh->instret, kit, out, &fail)
		                      : take_direct(b, iters, end - done, oh->cycles, oh->instret, kit, out, &fail);
		if (fail)
			return fail == 1 ? -1 : fail == 2 ? 1 : 2;
		if (each) {
			uint64_t t = bm_cycles_now() - t0, in = out->body_cycles - body0;
			out->outside += t > in ? t - in : 0;
		}
		done = end;
	}
	return 0;
}
