/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark that faults (UDF: Thumb and A64 alike), for an application that forwards its faults
 * to the kit (examples/library/sched-mps2 or bare-aarch64 with APP_BENCHMARK_DIRS=
 * tests/library/faulty): the kit reports it as a trap, and the benchmarks after it in name order
 * (crc32) still run (run-example). */
#include "bm/bench.h"

static int never_right(void)
{
	return -1;
}

BM_BENCHMARK(app_fault_undefined, never_right)
{
	__asm__ volatile("udf #0");
}
