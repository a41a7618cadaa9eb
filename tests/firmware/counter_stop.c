/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: a benchmark whose teardown stops the cycle counter. It fails, named by that,
 * and the kit starts the counter again (arch_state_restore): the next benchmark measures, instead
 * of reporting 0 cycles as its figure, and the one before keeps its record. */
#include "bm/bench.h" /* (first: arch/test.h asks arch/arch.h whether this is a hosted build) */
#include "arch/test.h"

static int right(void)
{
	return 0;
}

BM_BENCHMARK(a_fine_one, right)
{
	bm_clobber_memory();
}

static void stop(void)
{
	arch_test_counter_stop();
}

BM_BENCHMARK(b_stops_the_counter, right, .teardown = stop, .privileged = 1)
{
	bm_clobber_memory();
}

BM_BENCHMARK(c_would_read_zero, right)
{
	bm_clobber_memory();
}
