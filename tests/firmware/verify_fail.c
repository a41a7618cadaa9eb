/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: one benchmark that verifies and one whose result is wrong. The run must
 * report the wrong one as FAIL with no figures, and exit with status 1 (BM_EXIT_FAIL). */
#include "bm/bench.h"

static uint32_t result;

static int result_is_42(void)
{
	return result == 42 ? 0 : -1;
}

BM_BENCHMARK(right_answer, result_is_42)
{
	result = bm_seed(42);
	bm_clobber_memory();
}

BM_BENCHMARK(wrong_answer, result_is_42)
{
	result = bm_seed(41);
	bm_clobber_memory();
}
