/* SPDX-License-Identifier: Apache-2.0 */
/* The kit-state sweep's image (tools/bench/kit-sweep): a benchmark that, during its timed samples,
 * flips one word of memory (the sweep patches the address and the mask into this image's .data,
 * one run per word of the kit's .data and .bss), then ordinary benchmarks whose figures the
 * sweep compares with a run that flips nothing. Whatever the write does, no figure may be printed
 * wrong as ok. */
#include "bm/bench.h"

/* Patched per run in a copy of the ELF (kit-sweep finds it by name). As built, the reference run:
 * the same write, into a word of the benchmark's own, so the two runs execute the same
 * instructions and only the word written differs. */
static volatile uintptr_t own_word;
volatile struct {
	uintptr_t magic, addr, mask;
} bm_sweep = {0x73776570u /* "swep" */, (uintptr_t)&own_word, 0};

static uint32_t calls;

static int always_right(void)
{
	return 0;
}

/* Its 600th body run (iters 1: 2 calibration batches and at most 256 of warm-up come first) is
 * one of its 1,000 timed samples. */
BM_BENCHMARK(a_sweep_write, always_right, .max_iters = 1)
{
	if (++calls == 600)
		*(volatile uintptr_t *)bm_sweep.addr ^= bm_sweep.mask;
}

static uint32_t acc;

static int acc_right(void)
{
	return acc == 0x5eed ? -1 : 0; /* (any value but a sentinel: the figures are what counts) */
}

/* After it (name order): a short loop whose figures must not change. */
BM_BENCHMARK(z_after, acc_right)
{
	uint32_t s = 0;
	for (uint32_t i = 0; i < 32; i++)
		s += bm_seed(i) * i;
	acc = s;
	bm_clobber_memory();
}
