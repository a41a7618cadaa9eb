/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image for BM_LIBC=none: a benchmark that calls malloc must not build, and the
 * message names the option (tests/heap/CMakeLists.txt). */
#include <stdlib.h>

#include "bm/bench.h"

static void *block;

static int block_taken(void)
{
	return block ? 0 : -1;
}

BM_BENCHMARK(no_heap_malloc, block_taken, .max_iters = 1)
{
	block = malloc(16);
}
