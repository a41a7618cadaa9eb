/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark of the image's own sources (it runs). */
#include "bm/bench.h"

static volatile unsigned s;

static int ok(void)
{
	return 0;
}

BM_BENCHMARK(in_image, ok)
{
	s++;
}
