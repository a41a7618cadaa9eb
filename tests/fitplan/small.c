/* SPDX-License-Identifier: Apache-2.0 */
/* The benchmark of the over-full image (big.c) that fits hifive1 on its own. */
#include <stdint.h>

#include "bm/bench.h"

static uint32_t small[8];
static uint32_t acc_small;

static int small_verify(void) { return acc_small == 8 ? 0 : -1; }
BM_BENCHMARK(fit_small, small_verify, .max_iters = 1)
{
	uint32_t s = 0;
	for (uint32_t i = 0; i < 8; i++) {
		small[i] = 1;
		s += small[i];
	}
	acc_small = s;
}
