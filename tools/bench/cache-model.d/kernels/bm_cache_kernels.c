/* SPDX-License-Identifier: Apache-2.0 */
/* The hand-computable kernels as benchmarks (tools/bench/cache-model builds them with
 * BM_BENCHMARK_DIRS): per iteration, seq_2x reads 8192 words and misses 1024 lines, seq_half reads
 * 2048 words and misses none once warm, stride5 reads 320 words and misses all 320. The arrays are
 * static, so a body reads nothing but them (their addresses are constants, the sum stays in a
 * register): its accesses are the kernel's own. */
#include "bm/bench.h"
#include "cache_kernels.h"

static uint64_t ck_2x[CK_SEQ_2X_BYTES / 8] __attribute__((aligned(CK_LINE)));
static uint64_t ck_half[CK_SEQ_HALF_BYTES / 8] __attribute__((aligned(CK_LINE)));
static volatile uint64_t ck_strided[CK_STRIDE_BYTES / 8] __attribute__((aligned(CK_LINE)));

static void ck_fill(volatile uint64_t *p, size_t bytes)
{
	for (size_t i = 0; i < bytes / sizeof *p; i++)
		p[i] = bm_seed((uint32_t)i);
}

static int ck_setup(void)
{
	ck_fill(ck_2x, sizeof ck_2x);
	ck_fill(ck_half, sizeof ck_half);
	ck_fill(ck_strided, sizeof ck_strided);
	return 0;
}

/* The arrays still hold what setup wrote (the bodies only read). */
static int ck_intact(const volatile uint64_t *p, size_t bytes)
{
	for (size_t i = 0; i < bytes / sizeof *p; i++)
		if (p[i] != bm_seed((uint32_t)i))
			return -1;
	return 0;
}

static int ck_verify(void)
{
	return ck_intact(ck_2x, sizeof ck_2x) || ck_intact(ck_half, sizeof ck_half) ||
	               ck_intact(ck_strided, sizeof ck_strided)
	               ? -1
	               : 0;
}

BM_BENCHMARK(ck_seq_2x, ck_verify, .setup = ck_setup, .bytes = CK_SEQ_2X_BYTES)
{
	bm_clobber_memory();
	bm_do_not_optimize(ck_walk(ck_2x, CK_SEQ_2X_BYTES));
}

BM_BENCHMARK(ck_seq_half, ck_verify, .setup = ck_setup, .bytes = CK_SEQ_HALF_BYTES)
{
	bm_clobber_memory();
	bm_do_not_optimize(ck_walk(ck_half, CK_SEQ_HALF_BYTES));
}

BM_BENCHMARK(ck_stride5, ck_verify, .setup = ck_setup)
{
	bm_clobber_memory();
	bm_do_not_optimize(ck_stride(ck_strided));
}
