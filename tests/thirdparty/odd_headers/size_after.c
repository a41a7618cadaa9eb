/* SPDX-License-Identifier: Apache-2.0 */
/* `typedef unsigned size_t;` after the kit's header, with BM_SCRATCH and bm_scratch_alloc, which
 * take the compiler's size type. */
#include "bm/bench.h"
#include "size_typedef.h"

static unsigned char *buf;
static int size_after_setup(void)
{
	buf = bm_scratch_alloc((size_t)32, 4);
	return buf ? 0 : -1;
}
static int size_after_verify(void) { return buf[31] == 31 ? 0 : -1; }
BM_SCRATCH(tp_size_after, 32 + 8);
BM_BENCHMARK(tp_size_after, size_after_verify, .setup = size_after_setup, .max_iters = 1)
{
	for (size_t i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	bm_clobber_memory();
}
