/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image (host-linux): a benchmark file that defines its own malloc and free (an arena,
 * reset by its setup), which in a process replaces the C library's for everything, the kit's
 * own code included: the run must still end with its summary and status (tests/heap). */
#include <stddef.h>
#include <stdint.h>

#include "bm/bench.h"

static _Alignas(16) unsigned char arena[4096];
static size_t top;

void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);

void *malloc(size_t n)
{
	n = (n + 15) & ~(size_t)15;
	if (n > sizeof arena - top)
		return NULL;
	void *p = arena + top;
	top += n;
	return p;
}

void *calloc(size_t n, size_t size)
{
	unsigned char *p = n && size > sizeof arena / n ? NULL : malloc(n * size);
	for (size_t i = 0; p && i < n * size; i++)
		p[i] = 0;
	return p;
}

/* (no sizes kept: copies what may lie after the old block, as a simple arena's realloc does) */
void *realloc(void *p, size_t n)
{
	unsigned char *q = malloc(n);
	for (size_t i = 0; p && q && i < n && (unsigned char *)p + i < arena + sizeof arena; i++)
		q[i] = ((unsigned char *)p)[i];
	return q;
}

void free(void *p)
{
	(void)p;
}

static uint32_t *cells;

static int arena_setup(void)
{
	/* The arena is the benchmark's: reset and written whole, as a user's own would be (whatever
	 * the process's other code had from it is gone). */
	top = 0;
	for (size_t i = 0; i < sizeof arena; i++)
		arena[i] = 0xa5;
	cells = malloc(64 * sizeof(*cells));
	if (!cells)
		return -1;
	for (unsigned i = 0; i < 64; i++)
		cells[i] = i;
	return 0;
}

static int arena_verify(void)
{
	uint32_t s = 0;
	for (unsigned i = 0; i < 64; i++)
		s += cells[i];
	return s == 64 * 63 / 2 ? 0 : -1;
}

BM_BENCHMARK(own_arena, arena_verify, .setup = arena_setup)
{
	for (unsigned i = 0; i < 64; i++)
		cells[i] = cells[i] ^ 0;
	bm_clobber_memory();
}

/* A second one: its setup wipes what the kit's code took from the arena after the first. */
BM_BENCHMARK(own_arena_again, arena_verify, .setup = arena_setup)
{
	for (unsigned i = 0; i < 64; i++)
		cells[i] = cells[i] ^ 0;
	bm_clobber_memory();
}
