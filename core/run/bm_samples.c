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

/* n timed samples: the one loop of the kit that runs once per sample. What changes every sample
 * is in locals; the batch function is an opaque call, so each of them needs a register the call
 * preserves, and what changes rarely (a batch under the overhead, a carry) is updated in *out
 * instead of taking one. A sample whose counters read exactly as the one before (on a
 * deterministic core, every sample of a benchmark) is only counted: the run is accounted in one
 * go when it ends (the statistics' state is the one single inserts leave). Returns the smallest
 * sample; stops with *fail set as soon as the kit state's guard words are seen written over
 * (1), which is before anything more is written through it, or (chunked: the benchmark runs
 * unprivileged, BM_USER_CHUNK runs a call) when a chunk is refused (its verdict + 1: its
 * setup_each failed, or the readings are not what its batches wrote, bm_user_batches). One body, three copies: the direct one
 * is the kit's hot loop as it always was; each (privileged, with setup_each/teardown_each around
 * every batch) and chunked (the benchmark's side runs those) are the others. */
static inline __attribute__((always_inline)) uint64_t take_some(const struct bm_bench *b, int chunked, int each,
                                                                uint32_t iters,
                                                                uint32_t n, uint64_t oh_cycles, uint64_t oh_instret,
                                                                const struct bm_overhead *oh, struct bm_kit_state *kit,
                                                                struct bm_samples_out *out, int *fail)
{
	uint64_t body = out->body_cycles, ins_lo = out->instret_lo, qmin = UINT64_MAX;
	/* The run: the counters of its first sample (accounted), and how many since read the same.
	 * No first yet reads as UINT64_MAX twice; a sample that does is a repeat, and accounting it
	 * from these values is right too. */
	struct bm_delta last = {.cycles = UINT64_MAX, .instret = UINT64_MAX};
	uint32_t repeats = 0, k = 0, run = 1;
	struct bm_user_chunk c = {0};
	bm_batch_fn batch = bm_batch_of(b, bm_events_live());
	while (n) {
		struct bm_delta d;
		if (chunked) {
			/* a run of `run` equal readings, from the chunk the benchmark's side filled */
			if (k == c.runs) {
				k = 0;
				int v = bm_user_batches(b, iters, n, 1, oh, &c);
				if (v) {
					*fail = v + 1;
					break;
				}
			}
			run = c.s[k].count;
			d = c.s[k++].d;
			if (!ARCH_COUNTS_INSTRET) /* (outside the chunk's seal there: bm_user.c) */
				d.instret = 0;
		} else if (each) {
			if (b->setup_each && b->setup_each() != 0) {
				*fail = BM_V_SETUP_EACH + 1;
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
	return take_some(b, 0, 0, iters, n, oh_cycles, oh_instret, 0, kit, out, fail);
}

static __attribute__((noinline)) uint64_t take_each(const struct bm_bench *b, uint32_t iters, uint32_t n,
                                                   uint64_t oh_cycles, uint64_t oh_instret, struct bm_kit_state *kit,
                                                   struct bm_samples_out *out, int *fail)
{
	return take_some(b, 0, 1, iters, n, oh_cycles, oh_instret, 0, kit, out, fail);
}

static __attribute__((noinline)) uint64_t take_chunked(const struct bm_bench *b, uint32_t iters, uint32_t n,
                                                      const struct bm_overhead *oh, struct bm_kit_state *kit,
                                                      struct bm_samples_out *out, int *fail)
{
	return take_some(b, 1, 0, iters, n, oh->cycles, oh->instret, oh, kit, out, fail);
}

/* The timed samples, a quarter at a time. The smallest batch of each quarter: interrupts and
 * preemption only add time, so the minimum moves only when the machine itself got slower or
 * faster (a frequency or host-scheduling state), which the result then reports as drift, not as
 * one number. Returns -1 as soon as the kit state's guard words are written over, 1 when the
 * benchmark has failed (out->verdict says why), else 0. With
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
		                       ? take_chunked(b, iters, end - done, oh, kit, out, &fail)
		               : each ? take_each(b, iters, end - done, oh->cycles, oh->instret, kit, out, &fail)
		                      : take_direct(b, iters, end - done, oh->cycles, oh->instret, kit, out, &fail);
		if (fail == 1)
			return -1;
		if (fail) {
			out->verdict = fail - 1;
			return 1;
		}
		if (each) {
			uint64_t t = bm_cycles_now() - t0, in = out->body_cycles - body0;
			out->outside += t > in ? t - in : 0;
		}
		done = end;
	}
	return 0;
}
