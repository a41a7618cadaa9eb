/* Self-test image: a benchmark whose setup executes a trapping instruction. The run must end
 * with the trap report and exit status 3 (BM_EXIT_TRAP), not hang. */
#include "bm/bench.h"

static int trap_setup(void)
{
	__builtin_trap();
}

static int never_reached(void)
{
	return -1;
}

BM_BENCHMARK(trap_in_setup, never_reached, .setup = trap_setup)
{
}
