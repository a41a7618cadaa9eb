/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: the counters wrap through 2^64 in the middle of the timed samples, and every
 * figure must stay exact (deterministic QEMU: known_loop is exactly its instruction count). The
 * verify step before the samples starts the counters 50,000 cycles below the wrap. */
#include "arch/test.h"
#include "bm/bench.h"

static int preset_near_wrap(void)
{
	arch_test_counter_preset(UINT64_MAX - 50000u);
	return 0;
}

BM_BENCHMARK(wrap_known_loop, preset_near_wrap, .max_iters = 1, .expect_insns = ARCH_KNOWN_LOOP_INSNS, .privileged = 1)
{
	arch_known_loop();
}
