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

/* A teardown that programs another event on the instructions slot's counter and passes: it fails,
 * named by the selector it changed, and the kit programs its own again before the next benchmark
 * (left so, every later instructions figure would count cycles). */
static void select_cycles(void)
{
	__asm__ volatile("csrw mhpmevent3, %0" : : "r"(0x1ul) : "memory");
}

BM_BENCHMARK(event_select_change, always_right, .teardown = select_cycles, .max_iters = 1, .privileged = 1)
{
	__asm__ volatile("" : : : "memory");
}
