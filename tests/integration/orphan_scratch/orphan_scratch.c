/* SPDX-License-Identifier: Apache-2.0 */
/* A BM_SCRATCH whose name is a typo of its benchmark's: the build must name it (the benchmark
 * would have no declaration, and every allocation of it would be refused at run time). */
#include "bm/bench.h"

static uint8_t *buf;
static int sum_setup(void)
{
	buf = bm_scratch_alloc(64, 8);
	return buf ? 0 : -1;
}
static int sum_verify(void)
{
	return 0;
}
BM_SCRATCH(my_sun, 64);
BM_BENCHMARK(my_sum, sum_verify, .setup = sum_setup)
{
	buf[0]++;
}
