/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark in a library: nothing calls it, so the image would never hold it. */
#include "bm/bench.h"

static volatile unsigned s;

static int ok(void)
{
	return 0;
}

BM_BENCHMARK(in_library, ok)
{
	s++;
}
