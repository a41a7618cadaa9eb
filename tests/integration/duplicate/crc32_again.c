/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark that takes a name the kit's suite already uses (benchmarks/kernels.c): the build
 * must fail, naming both files (tests/integration). */
#include "bm/bench.h"

static int right(void)
{
	return 0;
}

BM_BENCHMARK(crc32, right)
{
}
