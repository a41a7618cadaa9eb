/* SPDX-License-Identifier: Apache-2.0 */
/* `#define int32_t int` after the kit's header: the code after it uses the macro, the kit's
 * declarations were read before. */
#include "bm/bench.h"
#include "int32_define.h"

static int32_t acc;
static int define_after_verify(void) { return acc == 4950 ? 0 : -1; }
BM_BENCHMARK(tp_define_after, define_after_verify, .max_iters = 1)
{
	int32_t s = 0;
	for (int32_t i = 0; i < 100; i++)
		s += i;
	acc = s;
	bm_do_not_optimize(acc);
}
