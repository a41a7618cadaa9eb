/* SPDX-License-Identifier: Apache-2.0 */
/* The hand-computable kernels as benchmarks (tools/bench/cache-model builds them with
 * BM_BENCHMARK_DIRS): per iteration, seq_2x reads 8192 words and misses 1024 lines, seq_half reads
 * 2048 words and misses none once warm, stride5 reads 320 words and misses all 320. The arrays are
 * static, so a body reads nothing but them (their addresses are constants, the sum stays in a
 * register): its accesses are the kernel's own. */
#include "bm/bench.h"
#include "bm/shared.h"
#include "cache_kernels.h"

#define CK_MARKER_BYTES BM_MODEL_AREA_BYTES
#define CK_MARK_OPEN BM_MODEL_MARK_OPEN
#define CK_MARK_SAMPLE BM_MODEL_MARK_SAMPLE
#define CK_MARK_CLOSE BM_MODEL_MARK_CLOSE
#define CK_TRAP_AT 600u /* (after the warm-up: inside the samples) */

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

/* Probes of the model's marks (docs/cache-model.md, "How the windows are marked"): each reads
 * ck_half as ck_seq_half does (2048 reads, no miss once warm) and does one more thing that must
 * not move the marks. A body that reads the cycle counter (arch_snap_end: its two stores are the
 * body's), one whose setup_each does, a privileged one that loads every byte of the marker area
 * and stores to three of its marks: their accesses are theirs, their windows the kit's. */
BM_BENCHMARK(ck_probe_body_reads_cycles, ck_verify, .setup = ck_setup)
{
	struct arch_snap s;
	arch_snap_end(&s); /* (the end snapshot: it only reads the counters) */
	bm_clobber_memory();
	bm_do_not_optimize(ck_walk(ck_half, CK_SEQ_HALF_BYTES));
}

static volatile uint64_t ck_seed;

static int ck_seed_from_cycles(void)
{
	struct arch_snap s;
	arch_snap_end(&s); /* (the end snapshot: it only reads the counters) */
	ck_seed = s.cycles;
	return 0;
}

BM_BENCHMARK(ck_probe_each_reads_cycles, ck_verify, .setup = ck_setup, .setup_each = ck_seed_from_cycles)
{
	bm_clobber_memory();
	bm_do_not_optimize(ck_walk(ck_half, CK_SEQ_HALF_BYTES));
}

extern volatile uint8_t bm_model_area[];

BM_BENCHMARK(ck_probe_marker_touch, ck_verify, .setup = ck_setup, .privileged = 1)
{
	uint32_t s = 0;
	for (uint32_t i = 0; i < CK_MARKER_BYTES; i++)
		s += bm_model_area[i];
	bm_model_area[CK_MARK_OPEN] = 0;
	bm_model_area[CK_MARK_SAMPLE] = 0;
	bm_model_area[CK_MARK_CLOSE] = 0;
	bm_do_not_optimize(s);
	bm_clobber_memory();
	bm_do_not_optimize(ck_walk(ck_half, CK_SEQ_HALF_BYTES));
}

/* A benchmark that traps inside a timed batch, once its samples have begun (its CK_TRAP_AT-th
 * body), then one that hangs there (ended by the watchdog): the window each leaves open carries
 * nothing into the next benchmark's (ck_seq_2x and ck_seq_half follow them). */
static uint32_t ck_bodies;

static int ck_bodies_reset(void)
{
	ck_bodies = 0;
	return ck_setup();
}

BM_BENCHMARK(ck_probe_hang_in_window, ck_verify, .setup = ck_bodies_reset, .timeout_ms = 300)
{
	bm_clobber_memory();
	bm_do_not_optimize(ck_walk(ck_half, CK_SEQ_HALF_BYTES));
	if (++ck_bodies == CK_TRAP_AT)
		for (;;)
			bm_clobber_memory();
}

BM_BENCHMARK(ck_probe_trap_in_window, ck_verify, .setup = ck_bodies_reset)
{
	bm_clobber_memory();
	bm_do_not_optimize(ck_walk(ck_half, CK_SEQ_HALF_BYTES));
	if (++ck_bodies == CK_TRAP_AT)
		__builtin_trap();
}
