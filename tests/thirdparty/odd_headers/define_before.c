/* SPDX-License-Identifier: Apache-2.0 */
/* `#define int32_t int` before the kit's header (found in inc/ of the third-party folder). */
#include "int32_define.h"
#include "bm/bench.h"

static int32_t acc;
static int define_before_verify(void) { return acc == 4950 ? 0 : -1; }
BM_BENCHMARK(tp_define_before, define_before_verify, .max_iters = 1)
{
	int32_t s = 0;
	for (int32_t i = 0; i < 100; i++)
		s += i;
	acc = s;
	bm_do_not_optimize(acc);
}
