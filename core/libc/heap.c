/* SPDX-License-Identifier: Apache-2.0 */
/* The heap of picolibc's and newlib-nano's malloc: their sbrk over the image's heap region
 * (linker/common.ld: __heap_start to __heap_end, BM_HEAP_BYTES), in the user region, which
 * benchmark code reaches where it runs unprivileged (malloc runs there, so does sbrk: its break
 * lives in that memory too). Before each benchmark the kit puts the allocator back as it was
 * before the first one: the break, and the malloc's own state (both libraries' malloc is the
 * "nano" one: a free list and where its memory from sbrk starts; nothing else). */
#include <errno.h>
#include <stdint.h>

#include "bm/port.h"
#include "libc/heap.h"

extern char __heap_start[], __heap_end[], __bm_heap_state[];

/* The break, its high-water mark, and where a reset puts it back (above what static constructors
 * took, which stays theirs); in the 32 bytes linker/common.ld keeps below __heap_start. */
struct heap_state {
	uintptr_t brk, high, base;
};
_Static_assert(sizeof(struct heap_state) <= 32, "linker/common.ld keeps 32 bytes for the heap's state");
#define HEAP ((volatile struct heap_state *)__bm_heap_state)
#define PATTERN_WORD ((uintptr_t)0xcbcbcbcbcbcbcbcbull)

/* The malloc's state (picolibc 1.8 and newlib 4 nano-malloc: nano-malloc*.c), weak: an image
 * whose benchmarks never call malloc does not link it. */
extern void *__malloc_free_list __attribute__((weak));
extern void *__malloc_sbrk_start __attribute__((weak));
extern void *__malloc_sbrk_top __attribute__((weak));

static void fill(uintptr_t from, uintptr_t to)
{
	for (volatile uintptr_t *p = (volatile uintptr_t *)from; (uintptr_t)p < to; p++)
		*p = PATTERN_WORD;
}

/* Called by the C library's start-up (core/libc/<libc>.c): every byte of the heap holds the
 * pattern, so what a benchmark reads of a block it did not write does not depend on the order. */
void bm_heap_init(void)
{
	uintptr_t start = (uintptr_t)__heap_start, end = (uintptr_t)__heap_end;
	if (end == start)
		return;
	HEAP->brk = HEAP->high = start;
	HEAP->base = 0;
	fill(start, end);
}

void bm_heap_reset(void)
{
	uintptr_t start = (uintptr_t)__heap_start, end = (uintptr_t)__heap_end;
	if (end == start)
		return;
	uintptr_t base = HEAP->base, high = HEAP->high;
	if (base == 0) /* the first benchmark: what the constructors took stays */
		base = HEAP->brk;
	if (base < start || base > end) /* (a benchmark wrote over the state: all of it back) */
		base = start;
	if (high < base || high > end)
		high = end;
	fill(base, high);
	HEAP->brk = HEAP->high = HEAP->base = base;
	if (&__malloc_free_list)
		__malloc_free_list = 0;
	if (&__malloc_sbrk_start)
		__malloc_sbrk_start = 0;
	if (&__malloc_sbrk_top)
		__malloc_sbrk_top = 0;
}

size_t bm_heap_used_bytes(size_t *heap_bytes)
{
	uintptr_t start = (uintptr_t)__heap_start, end = (uintptr_t)__heap_end;
	*heap_bytes = end - start;
	if (end == start) /* (no heap: no state either, linker/common.ld) */
		return 0;
	uintptr_t high = HEAP->high, base = HEAP->base;
	/* (state a benchmark wrote over says nothing: no figure rather than a wrong one) */
	if (high <= base || base < start || high > end)
		return 0;
	return high - start;
}

/* picolibc's malloc calls sbrk, newlib's _sbrk (through _sbrk_r). Never past the heap's end:
 * (void *)-1 and ENOMEM, and malloc returns NULL. */
void *sbrk(ptrdiff_t incr);
void *_sbrk(ptrdiff_t incr) __attribute__((alias("sbrk")));
void *sbrk(ptrdiff_t incr)
{
	uintptr_t start = (uintptr_t)__heap_start, end = (uintptr_t)__heap_end;
	if (end == start) { /* a heap of 0 bytes: no state to read (linker/common.ld keeps none) */
		errno = ENOMEM;
		return (void *)-1;
	}
	uintptr_t brk = HEAP->brk;
	if (brk < start || brk > end ||
	    (incr < 0 ? (uintptr_t)-incr > brk - start : (uintptr_t)incr > end - brk)) {
		errno = ENOMEM;
		return (void *)-1;
	}
	HEAP->brk = brk + (uintptr_t)incr;
	if (HEAP->brk > HEAP->high)
		HEAP->high = HEAP->brk;
	return (void *)brk;
}
