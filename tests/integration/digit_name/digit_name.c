/* SPDX-License-Identifier: Apache-2.0 */
/* A name that starts with a digit compiles (the macros paste it after a prefix), but is no C
 * identifier: the registry refuses it and says why. */
#include "bm/bench.h"

static volatile unsigned s;

static int ok(void)
{
	return 0;
}

BM_BENCHMARK(9lives, ok)
{
	s++;
}
