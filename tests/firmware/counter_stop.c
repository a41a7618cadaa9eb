/* Self-test image: a benchmark whose teardown stops the cycle counter. The run must end right
 * after it (exit status 3) naming it, not report the next benchmark's 0 cycles as its figure; the
 * benchmark before it keeps its record. */
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

BM_BENCHMARK(b_stops_the_counter, right, .teardown = stop)
{
	bm_clobber_memory();
}

BM_BENCHMARK(c_would_read_zero, right)
{
	bm_clobber_memory();
}
