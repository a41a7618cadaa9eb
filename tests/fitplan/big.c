/* SPDX-License-Identifier: Apache-2.0 */
/* An image that does not fit hifive1's 16 KiB: fit_big's 12 KiB table (bss) on top of the kit,
 * beside fit_small (small.c), which fits. The build must go on, print the fit plan naming fit_big
 * and suggest a selection of fit_small alone. */
#include <stdint.h>

#include "bm/bench.h"

uint32_t fit_table[3 * 1024]; /* (global, and written through memory: the compiler keeps it) */
static uint32_t acc_big;

static int big_verify(void) { return acc_big == 3 * 1024 ? 0 : -1; }
BM_BENCHMARK(fit_big, big_verify, .max_iters = 1)
{
	uint32_t s = 0;
	for (uint32_t i = 0; i < 3 * 1024; i++) {
		fit_table[i] = 1;
		bm_clobber_memory();
		s += fit_table[i];
	}
	acc_big = s;
}
