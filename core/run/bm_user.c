/* SPDX-License-Identifier: Apache-2.0 */
/* Calls into a benchmark's code where the arch runs it unprivileged (ARCH_USER_ISOLATED) and it is
 * not .privileged: on its own stack, the call's job and the band at its top, the kit's memory out
 * of its reach on both sides. Both sides of a call for batches: the benchmark's (runs of equal
 * readings, sealed as written) and the kit's (the chunk against its seal and its own timing). */
#include "bm/build_info.h"
#include "run/band.h"

/* (a board's BM_BOARD_DEFINES may set it: a chunk's last run may go on into the next, so two at
 * least; the job sits on the benchmarks' stack, so not without bound) */
_Static_assert(BM_USER_CHUNK >= 2 && BM_USER_CHUNK <= 1024,
               "BM_USER_CHUNK: 2 to 1024 runs a chunk (run/run.h)");

#define FRAME_FAULT "wrote past the top of its stack frame, into the kit's memory above its stack (the write " \
                    "faulted: benchmark code runs unprivileged)"

/* The seal of a chunk (bm_user_batches): each reading and each run's count folded in as the
 * benchmark's side writes them, from the kit's key for the call, the running value in the job's
 * seal (not a register: the samples loop has none to spare): a write into the chunk afterwards (a
 * stray store of its code, during later batches), or into the seal, leaves the chunk unlike its
 * seal; a chunk from an earlier call (another key) too. Not a secret: code that reads the key
 * can seal what it likes; the kit's own timing of the call (bm_user_batches) catches made-up ones. */
static inline __attribute__((always_inline)) uint32_t seal_word(uint32_t h, uint64_t w)
{
	/* (one-to-one in h and in each half of w: a change in any one word always shows; a
	 * multiply-accumulate on most cores) */
	return (h ^ (uint32_t)w) * 0x9e3779b1u + (uint32_t)(w >> 32);
}

static inline __attribute__((always_inline)) uint32_t seal_delta(uint32_t h, const struct bm_delta *d)
{
	h = seal_word(h, d->cycles);
	if (ARCH_COUNTS_INSTRET) /* (else the kit reads the word as 0 whatever it holds: bm_samples.c) */
		h = seal_word(h, d->instret);
#if BM_EVENT_SLOTS
	for (int i = 0; i < BM_EVENT_SLOTS; i++)
		h = seal_word(h, d->ev[i]);
#endif
	return h;
}

/* A run's count and the next run's reading into the seal: a call only when a run ends. */
static __attribute__((noinline)) uint32_t seal_run(uint32_t h, uint32_t count, const struct bm_delta *d)
{
	return seal_delta(seal_word(h, count), d);
}

uint32_t bm_user_seal(uint32_t key, const struct bm_user_sample *s, uint32_t runs, uint32_t taken)
{
	for (uint32_t i = 0; i < runs; i++)
		key = seal_word(seal_delta(key, &s[i].d), s[i].count);
	return seal_word(key, (uint64_t)runs << 32 | taken);
}

/* The batches' side of a call (BM_USER_SAMPLES; BM_USER_BATCH is one of them): runs of equal
 * readings, up to j->n batches; a chunk ends at its BM_USER_CHUNK-th run (which may go on in the
 * next chunk), or at a failed setup_each (each_failed). Few values live across the batch's call
 * (the batches left, the run's count and slot; each a constant), so that a batch that reads
 * as the one before costs the call, a compare and a count, as in the kit's own sampling loop; a
 * new run costs its seal. */
static inline __attribute__((always_inline)) uint32_t user_samples(const struct bm_bench *b, struct bm_user_job *j,
                                                                  int each)
{
	const uint32_t n = j->n, iters = j->iters;
	const int ev = (int)j->ev;
	struct bm_user_sample *run = j->s; /* the current run's */
	uint32_t left = n, count = 1;
	struct bm_delta d;
	j->each_failed = 0;
	if (!left || bm_each_batch(b, each, ev, iters, &d) != 0) {
		j->each_failed = left != 0;
		j->n = 0;
		return 0;
	}
	run->d = d;
	j->seal = seal_delta(j->key, &d);
	for (left--; left; left--) {
		if (bm_each_batch(b, each, ev, iters, &d) != 0) {
			j->each_failed = 1;
			break;
		}
		if (bm_delta_same(&d, &run->d)) {
			count++;
			continue;
		}
		run->count = count;
		j->seal = seal_run(j->seal, count, &d);
		(++run)->d = d;
		count = 1;
		if (run == j->s + BM_USER_CHUNK - 1) {
			left--;
			break;
		}
	}
	run->count = count;
	uint32_t k = (uint32_t)(run - j->s) + 1;
	j->n = k;
	j->seal = seal_word(seal_word(j->seal, count), (uint64_t)k << 32 | (n - left));
	return n - left;
}

/* (each copy a function of its own: few enough values for the registers a call preserves) */
static __attribute__((noinline)) uint32_t user_samples_direct(const struct bm_bench *b, struct bm_user_job *j)
{
	return user_samples(b, j, 0);
}

static __attribute__((noinline)) uint32_t user_samples_each(const struct bm_bench *b, struct bm_user_job *j)
{
	return user_samples(b, j, 1);
}

/* Where the arch runs benchmark code unprivileged, a call into it runs on the benchmark's own
 * stack (bm_rt_user_stack), the kit's memory below and above it: at its top the job, then the
 * band, then the benchmark's frames. A write past the top of its frames meets the band first,
 * read when the call returns, whatever the job's size (BM_USER_CHUNK); further up the job, whose
 * readings are sealed (a write into a run no call wrote is seen by nothing: no figure reads it),
 * then the kit's memory, where it faults. */
struct user_top {
	uintptr_t band[CALL_BAND_WORDS];
	struct bm_user_job job;
};

static struct user_top *top_of(struct bm_user_job *j)
{
	return (struct user_top *)((char *)j - offsetof(struct user_top, job));
}
#define USER_TOP_BYTES ((sizeof(struct user_top) + 15) & ~(size_t)15)

/* The benchmark's side of a call into it (user_run): runs as the benchmark's code, so it
 * reads and writes nothing of the kit's but the job (at the top of the benchmark's stack) and b
 * (in read-only memory). */
static uintptr_t user_side(uintptr_t bp, uintptr_t tp)
{
	const struct bm_bench *b = (const struct bm_bench *)bp;
	struct bm_user_job *j = &((struct user_top *)tp)->job;
	switch (j->which) {
	case BM_USER_SETUP:
		return (uintptr_t)b->setup();
	case BM_USER_VERIFY:
		return (uintptr_t)b->verify();
	case BM_USER_TEARDOWN:
		b->teardown();
		return 0;
	default: /* (BM_USER_BATCH, BM_USER_SAMPLES) */
		return bm_bench_each(b) ? user_samples_each(b, j) : user_samples_direct(b, j);
	}
}

/* The linker gives the benchmarks' stack its frames' bytes (the board's __user_stack_size) and
 * these (linker/common.ld), whatever this build's job holds (event slots make it larger). */
BM_LINKER_VALUE(__bm_user_job_bytes, USER_TOP_BYTES)

/* 1 while benchmark code runs unprivileged: a fault then is its own, read against its stack. */
static int in_call;

struct bm_user_job *bm_user_job(void)
{
	struct bm_stack s;
	bm_rt_user_stack(&s);
	/* (16-byte aligned: the benchmark's stack pointer starts at the band) */
	return &((struct user_top *)((s.hi - USER_TOP_BYTES) & ~(uintptr_t)15))->job;
}

/* Runs j (for b) as the benchmark's code, on its stack from just below the band below j: its
 * result. The kit's counters are read on its own side right before and after the call (*span),
 * and the seal's key for the call taken from the first reading. A write into the band ends the
 * benchmark as a trap. */
static uintptr_t user_run(const struct bm_bench *b, struct bm_user_job *j, struct bm_delta *span, uint32_t *key,
                          int timed)
{
	struct user_top *top = top_of(j);
	volatile uintptr_t *band = top->band;
	uint32_t which = j->which; /* (the job is the benchmark's to write) */
	bm_guard_fill(band, band + CALL_BAND_WORDS, BM_KIT_GUARD_WORD);
	struct arch_snap s0, s1;
	arch_snap_end(&s0);
	j->key = *key = seal_word(0x5eed5eedu ^ (uint32_t)s0.instret, s0.cycles);
	if (timed) /* (the cache model's window inside the kit's counter reads: it takes them for a batch's) */
		bm_model_open();
	in_call = 1;
	uintptr_t r = arch_user_call(user_side, (uintptr_t)b, (uintptr_t)top);
	if (timed)
		bm_model_close((uint32_t)r);
	arch_snap_end(&s1);
	in_call = 0;
	span->cycles = s1.cycles - s0.cycles;
	span->instret = s1.instret - s0.instret;
	const volatile uintptr_t *hit = bm_guard_first_unlike(band, band + CALL_BAND_WORDS, BM_KIT_GUARD_WORD);
	if (hit != band + CALL_BAND_WORDS)
		bm_band_written((uintptr_t)hit, bm_band_entry(b, which));
	return r;
}

const char *bm_user_fault(const struct bm_fault *f, int *overflow)
{
	*overflow = 0;
	if (!ARCH_USER_ISOLATED || !in_call)
		return 0;
	in_call = 0;
	if (bm_guard_stack_fault(f, 1)) {
		*overflow = 1;
		return 0;
	}
	struct bm_stack s;
	bm_rt_user_stack(&s);
	/* (above its stack, the kit's memory: a fault there, while its code runs, is a write past the
	 * top of its frames, contiguous or sparse: an index past a local array's end) */
	return f->has_addr && f->addr >= s.hi && f->addr - s.hi < s.above ? FRAME_FAULT : 0;
}

/* The kit's mark in the first reading before a call for batches, still there when the call ended
 * before its first batch did (its code returned to the kit from within): longer than any call. */
#define UNWRITTEN UINT64_MAX

/* What the kit allows a chunk's readings to fall short of its own timing of the call by: the
 * bookkeeping the empty probe's calls took (bm_clock.c, user_calibrate), per call and per batch,
 * and as much again for what differs between benchmarks (a batch function's own saves and
 * restores, the event slots' copies, each new run's seal and store), in the counter's own units
 * (a counter that steps every tens of instructions, SysTick under QEMU, rounds each reading: four
 * steps more a batch). Under deterministic QEMU all of it is exact: a body that shaves more than
 * that off every reading, or writes fewer batches than it ran, is caught. On hardware, where the
 * bookkeeping meets caches and interrupts: four times as much, and an eighth of the call. */
static uint64_t short_allowed(const struct bm_overhead *oh, const struct bm_user_chunk *c)
{
	uint64_t batch = 2 * oh->user_batch + 4;
	uint64_t a = 2 * oh->user_call + 16 + (uint64_t)c->runs * (batch + 8) + (uint64_t)c->taken * batch;
	return bm_build_info.icount ? a : 4 * a + c->span / 8;
}

/* The chunk against its seal and the kit's timing of the call: 0, or the verdict. */
static int chunk_verdict(const struct bm_user_job *j, uint32_t n, uint32_t key, const struct bm_delta *span,
                         const struct bm_overhead *oh, int each, struct bm_user_chunk *c)
{
	c->s = j->s;
	c->runs = j->n;
	c->span = span->cycles;
	c->sum = 0;
	if (j->s[0].d.cycles == UNWRITTEN && j->s[0].d.instret == UNWRITTEN)
		return BM_V_UNREAD;
	if (!c->taken || c->taken > n || !c->runs || c->runs > BM_USER_CHUNK)
		return BM_V_READINGS;
	/* One pass: the counts, the seal, the sum (each product checked against what is left of the
	 * span: no sum wraps); a chunk unlike its seal named so before one longer than the call. */
	uint32_t seen = 0, h = key;
	uint64_t sum = 0; /* (a local: through c, reloaded and stored every run) */
	int v = 0;
	for (uint32_t i = 0; i < c->runs; i++) {
		const struct bm_user_sample *s = &j->s[i];
		if (!s->count || s->count > c->taken - seen)
			return BM_V_READINGS;
		seen += s->count;
		h = seal_word(seal_delta(h, &s->d), s->count);
		struct bm_u128 p = {s->d.cycles * s->count, 0}; /* (a reading under 2^32: one multiply) */
		if (s->d.cycles >> 32)
			p = bm_u128_mul64(s->d.cycles, s->count);
		if (p.hi || p.lo > c->span - sum)
			v = BM_V_LONG;
		else
			sum += p.lo;
	}
	c->sum = sum;
	if (seen != c->taken || j->seal != seal_word(h, (uint64_t)c->runs << 32 | c->taken))
		return BM_V_READINGS;
	return v ? v : oh && !each && c->span - c->sum > short_allowed(oh, c) ? BM_V_SHORT : 0;
}

int bm_user_batches(const struct bm_bench *b, uint32_t iters, uint32_t n, int timed, const struct bm_overhead *oh,
                    struct bm_user_chunk *c)
{
	struct bm_user_job *j = bm_user_job();
	j->which = BM_USER_SAMPLES;
	j->iters = iters;
	j->ev = (uint32_t)bm_events_live();
	j->n = n;
	j->s[0].d.cycles = j->s[0].d.instret = UNWRITTEN;
	struct bm_delta span;
	uint32_t key;
	c->taken = (uint32_t)user_run(b, j, &span, &key, timed);
	/* (each_failed only where there is a setup_each: elsewhere a stray write into it names none) */
	int each = bm_bench_each(b);
	return each && j->each_failed ? BM_V_SETUP_EACH : chunk_verdict(j, n, key, &span, oh, each, c);
}

/* Calls `which` of b as unprivileged code, on its own stack: the arch restores the kit's
 * registers on the way back, and the band and the job sit where the benchmark's frames end. A
 * batch is a chunk of one, checked as any. */
int bm_user_call(const struct bm_bench *b, enum bm_user_fn which, uint32_t iters, struct bm_delta *d,
                 uint64_t *user_cycles, const struct bm_overhead *oh)
{
	if (which == BM_USER_BATCH) {
		struct bm_user_chunk c;
		int v = bm_user_batches(b, iters, 1, 0, oh, &c);
		*d = c.s[0].d;
		return v;
	}
	struct bm_user_job *j = bm_user_job();
	j->which = which;
	struct bm_delta span;
	uint32_t key;
	uint64_t t0 = user_cycles ? bm_cycles_now() : 0;
	int r = (int)user_run(b, j, &span, &key, 0);
	if (user_cycles)
		*user_cycles += bm_cycles_now() - t0;
	return r;
}
