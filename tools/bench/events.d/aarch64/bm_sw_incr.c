/* SPDX-License-Identifier: Apache-2.0 */
/* SW_INCR counted exactly (tools/bench/events): each iteration writes PMSWINC_EL0 three times, with
 * a bit for every event counter; only a counter programmed with SW_INCR (0x00) moves, by one a
 * write, so its figure per iteration must be exactly 3 and every other event's what it would be
 * without the writes. Benchmark code may write PMSWINC_EL0 at EL0 (PMUSERENR_EL0.EN, set by the kit). */
#include "bm/bench.h"

#define SW_INCR_WRITES 3

static int sw_incr_verify(void)
{
	return 0;
}

BM_BENCHMARK(sw_incr_3, sw_incr_verify)
{
	__asm__ volatile("msr pmswinc_el0, %0\n\tmsr pmswinc_el0, %0\n\tmsr pmswinc_el0, %0" : : "r"(0x7fffffffull));
}
