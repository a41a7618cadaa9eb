/* SPDX-License-Identifier: Apache-2.0 */
/* Scratch memory shared by benchmarks, which run one at a time: a bump allocator over one region,
 * reset (and the whole region filled with one pattern) before each benchmark's setup. The region is as large as the largest BM_SCRATCH a linked
 * benchmark declares, plus room for canaries (tools/bm-link sizes it; the linker script or the
 * hosted registry script places it), so an image pays only for what its selection uses.
 *
 * Every byte no allocation owns is a canary: 8 bytes before each allocation, the alignment
 * padding, everything after the last one and a red zone at the end hold a pattern once setup is
 * done (bm_scratch_seal), and bm_scratch_intact() checks them after the benchmark, so a write
 * past (or before) an allocation is reported, not measured. Fixed memory, no malloc (the C
 * library's heap, which benchmark code's malloc uses, is reset here too: core/libc/heap.c). */
#include "bm/bench.h"
#include "bm/out.h"
#include "guard/guard.h"
#include "libc/heap.h"

extern uint8_t __bm_scratch_start[], __bm_scratch_end[];

#define GAP 8u            /* canary bytes before each allocation */
#define RED_ZONE 64u      /* canary bytes at the end of the region, never allocated */
#define MAX_ALLOCS 16u    /* allocations tracked per benchmark (tools/bm-link reserves their gaps) */
#define PATTERN 0xcbu

/* The allocator's own state, between guard words (a benchmark that writes over it must not
 * make the canary check read garbage: bm_scratch_state_intact() is asked first). */
static struct {
	uint64_t head;
	size_t used;
	size_t declared, charged; /* the benchmark's BM_SCRATCH, and what it has used of it */
	const char *refusal;
	unsigned n;
	unsigned sealed; /* the canaries are laid (setup passed): only then can they be checked; 2: checked
	                  * and found intact (every byte but the allocations is the pattern) */
	struct {
		size_t start, len;
	} allocs[MAX_ALLOCS];
	uint64_t tail;
} sc;

static int fill(volatile uint8_t *p, size_t n);

/* The whole region holds the pattern again: a benchmark that reads bytes its setup did not write
 * reads the same whatever ran before it (its figures and verdict do not depend on the order of
 * the image's benchmarks). After a benchmark whose canaries were found intact only its
 * allocations need it (the rest is the pattern already); else every byte. */
void bm_scratch_reset(size_t declared)
{
	size_t size = (size_t)(__bm_scratch_end - __bm_scratch_start);
	int partial = sc.sealed == 2 && bm_scratch_state_intact();
	for (unsigned i = 0; partial && i < sc.n; i++)
		partial = sc.allocs[i].start <= size && sc.allocs[i].len <= size - sc.allocs[i].start;
	if (partial) {
		for (unsigned i = 0; i < sc.n; i++)
			fill(__bm_scratch_start + sc.allocs[i].start, sc.allocs[i].len);
	} else {
		fill(__bm_scratch_start, size);
	}
	sc.head = sc.tail = BM_KIT_GUARD;
	sc.used = 0;
	sc.declared = declared;
	sc.charged = 0;
	sc.refusal = NULL;
	sc.n = 0;
	sc.sealed = 0;
	bm_heap_reset();
}

const char *bm_scratch_refusal(void)
{
	return sc.refusal;
}

int bm_scratch_state_intact(void)
{
	return sc.head == BM_KIT_GUARD && sc.tail == BM_KIT_GUARD && sc.n <= MAX_ALLOCS;
}

size_t bm_scratch_size(void)
{
	size_t size = (size_t)(__bm_scratch_end - __bm_scratch_start);
	return size > RED_ZONE ? size - RED_ZONE : 0;
}

static void *refuse(const char *why)
{
	sc.refusal = why;
	return NULL;
}

static void *scratch_alloc(size_t bytes, size_t align)
{
	size_t size = bm_scratch_size();
	if (align == 0 || (align & (align - 1)) != 0 || align > 64)
		return refuse("setup failed: bm_scratch_alloc: the alignment is not a power of two up to 64");
	if (sc.n == MAX_ALLOCS)
		return refuse("setup failed: bm_scratch_alloc: more than 16 allocations");
	/* Charged as the declaration counts it: the allocations back to back from an aligned start,
	 * with their alignment padding (the canary gaps between them are the kit's). Checked against
	 * the declaration, not against the region: the region is the largest declaration of the
	 * image, so a benchmark that took more than its own would work in one image and not in
	 * another. */
	if (sc.declared == 0)
		return refuse("setup failed: bm_scratch_alloc without a BM_SCRATCH declaration for this benchmark");
	size_t at = (sc.charged + align - 1) & ~(align - 1);
	if (at > sc.declared || bytes > sc.declared - at)
		return refuse("setup failed: bm_scratch_alloc past what this benchmark's BM_SCRATCH declares");
	size_t start = (sc.used + GAP + align - 1) & ~(align - 1);
	if (start > size || bytes > size - start)
		return refuse("setup failed: bm_scratch_alloc: the allocations and their canaries do not fit the region");
	sc.charged = at + bytes;
	sc.allocs[sc.n].start = start;
	sc.allocs[sc.n].len = bytes;
	sc.n++;
	sc.used = start + bytes;
	return __bm_scratch_start + start;
}

/* Calls f on every byte range no allocation owns (allocations are in ascending order). */
/* Benchmark code asks the kit (its state is the kit's): a plain call, or, where benchmark code runs
 * unprivileged, through the arch (arch_kit_call). */
void *bm_scratch_alloc(size_t bytes, size_t align)
{
	return (void *)arch_kit_call(BM_KIT_SCRATCH_ALLOC, bytes, align);
}

uintptr_t bm_kit_service(unsigned service, uintptr_t a, uintptr_t b)
{
	if (service == BM_KIT_SCRATCH_ALLOC)
		return (uintptr_t)scratch_alloc(a, b);
	if (service == BM_KIT_CONSOLE_WRITE) {
		bm_out_mem((const char *)a, b);
		return b;
	}
	return 0;
}

static int each_free(int (*f)(volatile uint8_t *p, size_t n))
{
	size_t at = 0, end = (size_t)(__bm_scratch_end - __bm_scratch_start);
	for (unsigned i = 0; i < sc.n; i++) {
		if (!f(__bm_scratch_start + at, sc.allocs[i].start - at))
			return 0;
		at = sc.allocs[i].start + sc.allocs[i].len;
	}
	return f(__bm_scratch_start + at, end - at);
}

/* Byte by byte up to a word boundary, then by words (the scratch is sealed and checked around
 * every benchmark: a byte loop over 8 KiB would be ~2% of a default run's instructions). */
typedef uintptr_t word;
#define PATTERN_WORD ((word)0x0101010101010101ull * PATTERN)

static int fill(volatile uint8_t *p, size_t n)
{
	for (; n && ((uintptr_t)p & (sizeof(word) - 1)); n--)
		*p++ = PATTERN;
	volatile word *w = (volatile word *)p;
	bm_guard_fill(w, w + n / sizeof(word), PATTERN_WORD);
	w += n / sizeof(word);
	for (p = (volatile uint8_t *)w, n %= sizeof(word); n; n--)
		*p++ = PATTERN;
	return 1;
}

static int holds(volatile uint8_t *p, size_t n)
{
	for (; n && ((uintptr_t)p & (sizeof(word) - 1)); n--)
		if (*p++ != PATTERN)
			return 0;
	const volatile word *w = (const volatile word *)p, *end = w + n / sizeof(word);
	if (bm_guard_first_unlike(w, end, PATTERN_WORD) != end)
		return 0;
	for (p = (volatile uint8_t *)end, n %= sizeof(word); n; n--)
		if (*p++ != PATTERN)
			return 0;
	return 1;
}

void bm_scratch_seal(void)
{
	each_free(fill);
	sc.sealed = 1;
}

/* Unsealed (its setup failed, or it had no verify) there is nothing to check: what the region
 * holds then is whatever the last benchmark left, and the failure is the setup's, not an
 * overrun (the first benchmark of an image found the region never painted). */
int bm_scratch_intact(void)
{
	if (!sc.sealed)
		return 1;
	int held = each_free(holds);
	sc.sealed = held ? 2 : 1;
	return held;
}

/* The empty asm hides the value from the optimizer, so inputs built from it are not folded at
 * compile time (CoreMark's volatile seeds), without reading memory (benchmark code may not read
 * the kit's). */
uint32_t bm_seed(uint32_t x)
{
	__asm__ volatile("" : "+r"(x));
	return x;
}
