/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: a benchmark that writes over the kit's own state (all of .bss) in the middle of
 * its timed samples, in a call that takes exactly as many instructions as every other call, so
 * that on a deterministic core its samples still read the same and the harness only counts them
 * (the kit state is written, and its guard words checked, when the run of equal samples ends).
 * The run must still end with a clear message and exit status 3 and report nothing of it. All
 * ones: the statistics' fast window then takes every sample and its layout pointer points nowhere,
 * so a write through the state before the guard check would fault on an MMU board. */
#include "bm/bench.h"

extern uint8_t __kit_bss_start[], __kit_bss_end[];

/* In .data (initialised), so the writes over .bss leave it alone. */
static volatile uint32_t calls = 1;

#define LATE_CALL 300u /* past calibration and warm-up: inside the timed samples */

static int right(void)
{
	return 0;
}

BM_BENCHMARK(a_fine_one, right)
{
	bm_clobber_memory();
}

BM_BENCHMARK(b_overwrites_the_kit_late, right, .max_iters = 1)
{
	uint32_t n = calls;
	calls = n + 1;
	/* all ones from call LATE_CALL on, else zero; no branch, so every call runs the same code */
	uint8_t m = (uint8_t)(0u - ((LATE_CALL - 1u - n) >> 31));
	for (volatile uint8_t *p = __kit_bss_start; p < __kit_bss_end; p++)
		*p = (uint8_t)(*p | m);
}
