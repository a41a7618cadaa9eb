/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: a heap of 0 bytes (HEAP_BYTES 0): malloc returns NULL and sets ENOMEM, as an
 * exhausted heap does; sbrk reads no state (the linker keeps none for a heap of 0, and on hifive1
 * the user region ends where it would be: a read there was a trap). */
#include <errno.h>
#include <stdlib.h>

#include "bm/bench.h"

static int refused;

static int try_malloc(void)
{
	errno = 0;
	void *p = malloc(64);
	refused = p == NULL && errno == ENOMEM;
	free(p);
	return 0;
}

static int was_refused(void)
{
	return refused ? 0 : -1;
}

BM_BENCHMARK(heap_zero, was_refused, .setup = try_malloc)
{
	bm_clobber_memory();
}
