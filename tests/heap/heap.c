/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: the C library's malloc family in a benchmark's setup, body, verify and
 * teardown (core/libc/heap.c), exhaustion (NULL, never an overrun), the reset between benchmarks
 * and the high-water mark of the result record (tests/heap/heap-check judges the records). Run
 * in name order: heap_reset after heap_exhaust filled the heap. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bm/bench.h"

void *sbrk(ptrdiff_t incr); /* core/libc/heap.c */
extern char __heap_start[], __heap_end[];

#define N 32

static uint32_t *table;
static uint32_t churn_sum;

static int churn_setup(void)
{
	table = calloc(N, sizeof(*table));
	if (!table)
		return -1;
	for (unsigned i = 0; i < N; i++)
		table[i] = i * 7u;
	churn_sum = 0;
	return 0;
}

static int churn_verify(void)
{
	uint32_t *copy = malloc(N * sizeof(*copy));
	if (!copy)
		return -1;
	memcpy(copy, table, N * sizeof(*copy));
	int bad = 0;
	for (unsigned i = 0; i < N; i++)
		bad |= copy[i] != i * 7u;
	free(copy);
	return bad || churn_sum != (N - 1) * 7u * 2 ? -1 : 0;
}

static void churn_teardown(void)
{
	free(table);
	table = NULL;
}

/* malloc, realloc and free in the body: a block grown with its contents kept. The first run takes
 * its memory from sbrk, the later ones from the free list: runs on the allocator's own state. */
BM_BENCHMARK(heap_churn, churn_verify, .setup = churn_setup, .teardown = churn_teardown, .carries_state = 1)
{
	uint32_t *p = malloc(8 * sizeof(*p));
	if (!p)
		return;
	p[7] = table[N - 1];
	uint32_t *q = realloc(p, N * sizeof(*q));
	if (!q) {
		free(p);
		return;
	}
	q[N - 1] = table[N - 1];
	churn_sum = q[7] + q[N - 1];
	free(q);
}

static unsigned blocks;
static int exhausted;

/* More than the heap holds: NULL (and ENOMEM from sbrk); then blocks until none is left, each
 * written whole (benchmark code's own memory, to its last byte). */
static int exhaust_setup(void)
{
	size_t heap_bytes = (size_t)(__heap_end - __heap_start);
	if (malloc(heap_bytes + 1) != NULL)
		return -1;
	errno = 0;
	if (sbrk((ptrdiff_t)heap_bytes + 1) != (void *)-1 || errno != ENOMEM)
		return -1;
	blocks = 0;
	for (;;) {
		unsigned char *b = malloc(128);
		if (!b)
			break;
		memset(b, 0x5a, 128);
		blocks++;
	}
	exhausted = 1;
	return 0;
}

static int exhaust_verify(void)
{
	return exhausted && blocks > 0 && malloc(128) == NULL ? 0 : -1;
}

BM_BENCHMARK(heap_exhaust, exhaust_verify, .setup = exhaust_setup, .max_iters = 1)
{
	bm_clobber_memory();
}

static char *mark;

/* sbrk itself: 1000 bytes, 400 given back, 100 more: the high-water mark is 1000 bytes (the
 * record's heap_used_bytes; nothing else in this image takes from the heap before). */
static int mark_setup(void)
{
	mark = sbrk(1000);
	if (mark == (void *)-1)
		return -1;
	memset(mark, 0x11, 1000);
	if (sbrk(-400) == (void *)-1 || sbrk(100) == (void *)-1)
		return -1;
	return 0;
}

static int mark_verify(void)
{
	return (char *)sbrk(0) == mark + 700 ? 0 : -1;
}

BM_BENCHMARK(heap_mark, mark_verify, .setup = mark_setup, .max_iters = 1)
{
	bm_clobber_memory();
}

static unsigned char *fresh;

/* After heap_exhaust: the heap is whole again (a block near its start), and holds the kit's
 * pattern (newlib's malloc) or zeros (picolibc's clears a block), not what the benchmarks before
 * wrote. */
static int reset_setup(void)
{
	fresh = malloc(64);
	if (!fresh || (size_t)((char *)fresh - __heap_start) >= 64)
		return -1;
	const unsigned char *v = fresh;
	__asm__("" : "+r"(v)); /* (what malloc left there, read on purpose: not the compiler's business) */
	for (unsigned i = 0; i < 64; i++)
		if (v[i] != (v[0] == 0 ? 0 : 0xcb))
			return -1;
	return 0;
}

static int reset_verify(void)
{
	return fresh ? 0 : -1;
}

static void reset_teardown(void)
{
	free(fresh);
}

BM_BENCHMARK(heap_reset, reset_verify, .setup = reset_setup, .teardown = reset_teardown, .max_iters = 1)
{
	bm_clobber_memory();
}
