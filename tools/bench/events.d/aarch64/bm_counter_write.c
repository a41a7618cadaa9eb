/* SPDX-License-Identifier: Apache-2.0 */
/* An event counter written by the benchmark (tools/bench/events): each iteration zeroes
 * PMEVCNTR1_EL0, the slot counting instructions (EL0 may write it: PMUSERENR_EL0.EN). Under -icount
 * the kit knows that slot's exact figure (its own instruction count), so the benchmark must fail,
 * named, instead of reporting a count it spoiled. */
#include "bm/bench.h"

static int always_right(void)
{
	return 0;
}

BM_BENCHMARK(event_counter_write, always_right)
{
	__asm__ volatile("msr pmevcntr1_el0, xzr" : : : "memory");
}
