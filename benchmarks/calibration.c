/* SPDX-License-Identifier: Apache-2.0 */
/* The kit's self-checks, run like any benchmark: `empty` must report 0 cycles once the
 * counter overhead is subtracted, and `known_loop` (an asm loop of known length from the arch)
 * must report exactly ARCH_KNOWN_LOOP_INSNS under deterministic QEMU. */
#include "bm/bench.h"

/* Nothing runs, so there is nothing that could be wrong. */
static int nothing_to_verify(void)
{
	return 0;
}

/* One pass: the counter reads and the batch loop's pass, all subtracted: exactly 0 when the
 * subtraction is right (at larger batches it would measure the loop's own per-iteration cost). */
BM_BENCHMARK(empty, nothing_to_verify, .max_iters = 1)
{
}

/* The loop's outcome is its instruction count, which the deterministic test checks exactly. */
BM_BENCHMARK(known_loop, nothing_to_verify, .max_iters = 1, .expect_insns = ARCH_KNOWN_LOOP_INSNS)
{
	arch_known_loop();
}
