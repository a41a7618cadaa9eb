/* SPDX-License-Identifier: Apache-2.0 */
/* An event counter written by the benchmark (tools/bench/events): each iteration zeroes
 * mhpmcounter3, the slot counting instructions (M-mode: a .privileged benchmark). Under -icount the
 * kit knows that slot's exact figure (its own instruction count), so the benchmark must fail,
 * named, instead of reporting a count it spoiled. */
#include "bm/bench.h"

static int always_right(void)
{
	return 0;
}

BM_BENCHMARK(event_counter_write, always_right, .privileged = 1)
{
	__asm__ volatile("csrw mhpmcounter3, zero" : : : "memory");
}
