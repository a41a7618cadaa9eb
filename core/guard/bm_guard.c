/* SPDX-License-Identifier: Apache-2.0 */
/* Guards around each benchmark, so that no corrupted number is ever reported as good: the free
 * stack is painted before the benchmark and read after it (its high-water mark; a touched guard
 * band at the bottom is a stack overflow, even one that did not fault), and the kit's own
 * statistics state sits between guard words checked after every benchmark. The scratch's own
 * canaries are in bm_scratch.c. */
#include "guard/guard.h"

#define STACK_BAND 256u     /* bytes at the bottom of the kit's stack that must stay painted */
#define STACK_MARGIN 256u   /* left unpainted below the caller's frame (its own calls) */

typedef uintptr_t word;

static word paint_word(const struct bm_stack *s)
{
	word w = 0;
	for (unsigned i = 0; i < sizeof w; i++)
		w = (w << 8) | s->paint;
	return w;
}

/* The stack benchmark code runs on: the kit's, or (user) its own, where the arch isolates it.
 * Returns the band at its bottom that must stay painted: none on the benchmarks' own, whose every
 * store below its bottom faults (the kit's memory is out of their code's reach), so that an
 * overflow is seen by its stack pointer. */
static uintptr_t stack_of(int user, struct bm_stack *s)
{
	if (ARCH_USER_ISOLATED && user) {
		bm_rt_user_stack(s);
		return 0;
	}
	bm_rt_stack(s);
	return STACK_BAND;
}

/* Paints the free stack: the kit's from its bottom up to a little below the current frame; the
 * benchmark's own whole (nothing runs on it between calls). */
__attribute__((noinline)) void bm_guard_stack_paint(int user)
{
	struct bm_stack s;
	int own = stack_of(user, &s) == 0;
	if (s.lo == s.hi || !s.painted)
		return;
	uintptr_t top = own ? s.hi
	                    : ((uintptr_t)__builtin_frame_address(0) - STACK_MARGIN) & ~(uintptr_t)(sizeof(word) - 1);
	bm_guard_fill((volatile word *)s.lo, (volatile word *)top, paint_word(&s));
}

size_t bm_guard_stack_check(int user, int *band_touched)
{
	struct bm_stack s;
	uintptr_t band = stack_of(user, &s);
	*band_touched = 0;
	if (s.lo == s.hi || !s.painted)
		return 0;
	uintptr_t p = (uintptr_t)bm_guard_first_unlike((const volatile word *)s.lo, (const volatile word *)s.hi,
	                                               paint_word(&s));
	*band_touched = p < s.lo + band;
	return s.hi - p;
}

/* (a byte rewritten with the paint value can only make it under-count by a few) Word by word to
 * the first word written, then by bytes within it: the free stack is most of it. */
size_t bm_guard_stack_mark(size_t *size)
{
	struct bm_stack s;
	bm_rt_stack(&s);
	*size = 0;
	if (!s.painted || s.lo == s.hi)
		return 0;
	*size = s.hi - s.lo;
	const volatile uint8_t *p = (const volatile uint8_t *)bm_guard_first_unlike(
		(const volatile word *)s.lo, (const volatile word *)(s.lo + ((s.hi - s.lo) & ~(sizeof(word) - 1))),
		paint_word(&s));
	while ((uintptr_t)p < s.hi && *p == s.paint)
		p++;
	return s.hi - (uintptr_t)p;
}

int bm_guard_stack_fault(const struct bm_fault *f, int user)
{
	struct bm_stack s;
	uint64_t band = stack_of(user, &s);
	if (s.lo == s.hi)
		return 0;
	uint64_t lo = s.lo - s.guard, hi = s.lo + band;
	return (f->sp && f->sp < hi) || (f->has_addr && f->addr >= lo && f->addr < hi);
}

/* Around all of the kit's .bss on bare metal (linker/common.ld places them): the high one is the
 * last of the kit's memory below the user region, so one of your arrays written below its start
 * meets it before any of the kit's variables. 32 bytes there, caught whole: the smallest boards'
 * RAM budget (BM_REQUIRE_RAM_FREE_BYTES) has no room for a longer one. Sections of their own (not
 * .bss.*) so that the linker script can put one at each end. */
#define HI_WORDS 4
static volatile uint64_t bss_lo __attribute__((section(".bm_kit_guard.lo"), used));
static volatile uint64_t bss_hi[HI_WORDS] __attribute__((section(".bm_kit_guard.hi"), used));

static int bss_hi_intact(void)
{
	uint64_t x = 0;
	for (unsigned i = 0; i < HI_WORDS; i++)
		x |= bss_hi[i] ^ BM_KIT_GUARD;
	return x == 0;
}

void bm_guard_kit_init(struct bm_kit_state *k)
{
	k->head = BM_KIT_GUARD_WORD;
	k->tail = BM_KIT_GUARD_WORD;
	bss_lo = BM_KIT_GUARD;
	for (unsigned i = 0; i < HI_WORDS; i++)
		bss_hi[i] = BM_KIT_GUARD;
}

int bm_guard_kit_intact(const struct bm_kit_state *k)
{
	return k->head == BM_KIT_GUARD_WORD && k->tail == BM_KIT_GUARD_WORD && bss_lo == BM_KIT_GUARD &&
	       bss_hi_intact() && bm_scratch_state_intact() &&
	       bm_recover_state_intact();
}

/* The state's words summed and xored, in lanes: any one changed word changes both, two changed
 * words cancel in both only by a pattern no stray write makes. Not a checksum against an
 * adversary, a detector of stray writes, at about an instruction a word where the core has
 * vectors (GCC's vector extension: SSE2 on x86-64, plain word pairs elsewhere): it runs twice per
 * benchmark, and the kit's own share of a run is held under 5% (tools/bench/harness-share). */
#define LANES 2
typedef uintptr_t hash_lanes __attribute__((vector_size(LANES * sizeof(uintptr_t)), aligned(sizeof(uintptr_t)), may_alias));

uintptr_t bm_guard_hash(const void *words, size_t bytes)
{
	__asm__ volatile("" : : : "memory"); /* (read the words now, whatever was cached) */
	const uintptr_t *p = (const uintptr_t *)words;
	const size_t n = bytes / sizeof *p;
	hash_lanes sum = {0}, x = {0};
	for (size_t i = 0; i < n / LANES; i++) {
		hash_lanes w = ((const hash_lanes *)p)[i];
		sum += w;
		x ^= w;
	}
	uintptr_t s = 0, y = 0;
	for (unsigned l = 0; l < LANES; l++) {
		s += sum[l];
		y ^= x[l];
	}
	for (size_t i = n / LANES * LANES; i < n; i++) {
		s += p[i];
		y ^= p[i];
	}
	return s ^ (y * (uintptr_t)0x9e3779b97f4a7c15ull);
}

/* (the event slots' statistics follow stats, up to the tail guard) */
static uintptr_t stats_hash(const struct bm_kit_state *k)
{
	return bm_guard_hash(&k->stats, (size_t)((const char *)&k->tail - (const char *)&k->stats));
}

void bm_guard_stats_seal(struct bm_kit_state *k)
{
	k->sealed = stats_hash(k);
}

int bm_guard_stats_sealed(const struct bm_kit_state *k)
{
	return k->sealed == stats_hash(k);
}
