/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: a benchmark that writes over the kit's own state (all of its .bss, where the
 * statistics state and the allocator's and recovery's bookkeeping live, between guard words). The
 * run must end right after it with a clear message and exit status 3, not report anything from
 * the corrupted state, and the benchmark before it must still have its record. */
#include "bm/bench.h"

extern uint8_t __kit_bss_start[], __kit_bss_end[];

static int right(void)
{
	return 0;
}

BM_BENCHMARK(a_fine_one, right)
{
	bm_clobber_memory();
}

BM_BENCHMARK(b_overwrites_the_kit, right, .max_iters = 1)
{
	for (volatile uint8_t *p = __kit_bss_start; p < __kit_bss_end; p++)
		*p = 0x5a;
}
