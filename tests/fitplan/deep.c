/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark whose own frames are small and whose library's (deep_lib.c) are not: the fit plan's
 * stack figure is the deepest chain below it, the library's frame included. tests/heap builds it
 * with STACK_BYTES 4096: it verifies on every board, the HiFive1 (256 B by default) included. */
#include <stdint.h>

#include "bm/bench.h"

uint32_t fit_deep_frame(uint32_t seed);

static uint32_t deep_sum;

static int deep_verify(void) { return deep_sum == 384u * 3u + 384u * 383u / 2u ? 0 : -1; }
BM_BENCHMARK(fit_deep, deep_verify, .max_iters = 1)
{
	deep_sum = fit_deep_frame(bm_seed(3));
}
