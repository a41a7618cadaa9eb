/* SPDX-License-Identifier: Apache-2.0 */
/* `typedef unsigned size_t;` before the kit's header: it must not meet <stddef.h>'s. */
#include "size_typedef.h"
#include "bm/bench.h"

static size_t n;
static int size_before_verify(void) { return n == 64 ? 0 : -1; }
BM_BENCHMARK(tp_size_before, size_before_verify, .max_iters = 1)
{
	size_t k = 0;
	for (size_t i = 0; i < 64; i++)
		k++;
	n = k;
	bm_do_not_optimize(n);
}
