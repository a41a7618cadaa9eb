/* SPDX-License-Identifier: Apache-2.0 */
/* GCC takes a $ in an identifier; the registry (section names, records, selections) does not. */
#include "bm/bench.h"

static volatile unsigned s;

static int ok(void)
{
	return 0;
}

BM_BENCHMARK(odd$name, ok)
{
	s++;
}
