/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image (BM_LIBC=newlib): a benchmark's own printf and malloc, from its setup. Where
 * benchmark code runs unprivileged (Cortex-M with an MPU), the C library's system calls reach the
 * console through the kit (its service) and grow the heap in the benchmarks' own memory: the line
 * is printed and the block is theirs to write. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm/bench.h"

static unsigned char *block;

static int libc_setup(void)
{
	printf("libc_calls: printf from benchmark code, %d\n", 42);
	fflush(stdout);
	block = malloc(256);
	if (!block)
		return -1;
	memset(block, 0x5a, 256);
	return 0;
}

static int block_written(void)
{
	return block && block[0] == 0x5a && block[255] == 0x5a ? 0 : -1;
}

static void libc_teardown(void)
{
	free(block);
}

BM_BENCHMARK(libc_calls, block_written, .setup = libc_setup, .teardown = libc_teardown, .max_iters = 1)
{
	bm_clobber_memory();
}
