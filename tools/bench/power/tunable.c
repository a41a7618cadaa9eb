/* SPDX-License-Identifier: Apache-2.0 */
/* A benchmark whose cost is set at build time, for measuring what `bm compare` can tell apart
 * (tools/bench/power-figures): a dependent chain of POWER_STEPS multiply-adds, so every extra
 * step costs the same and a build with POWER_STEPS 103 is 3% slower than one with 100, by
 * construction. Each run continues the previous run's chain (it starts from its result): with a
 * fresh start every run, an out-of-order core overlaps consecutive chains, and 100 and 103
 * steps took the same time. Not part of any default suite: built through BM_BENCHMARK_DIRS. */
#include "bm/bench.h"

#ifndef POWER_STEPS
#define POWER_STEPS 100
#endif

static uint64_t chain_in, chain_out;

static int chain_setup(void)
{
	chain_out = bm_seed(12345);
	return 0;
}

/* The last run's chain, recomputed the plain way from where it started. */
static int chain_verify(void)
{
	uint64_t x = chain_in;
	for (unsigned i = 0; i < POWER_STEPS; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	return x == chain_out ? 0 : -1;
}

BM_BENCHMARK(tunable_chain, chain_verify, .setup = chain_setup)
{
	uint64_t x = chain_out;
	chain_in = x;
	for (unsigned i = 0; i < POWER_STEPS; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		bm_do_not_optimize(x); /* one step at a time: no folding, no vectorising */
	}
	chain_out = x;
}
