/* SPDX-License-Identifier: Apache-2.0 */
/* Kernels whose cache misses can be computed by hand, for tools/bench/cache-model: the same code
 * built as benchmarks (bm_cache_kernels.c, under the QEMU cache model) and for Valgrind's cache
 * simulation (../host/callgrind_driver.c). Geometry: the generic 32 KiB 4-way L1D, 64-byte lines. */
#ifndef CACHE_KERNELS_H
#define CACHE_KERNELS_H
#include <stddef.h>
#include <stdint.h>

#define CK_L1D 32768u
#define CK_WAYS 4u
#define CK_LINE 64u
#define CK_SEQ_2X_BYTES (2u * CK_L1D)      /* every line misses on every pass */
#define CK_SEQ_HALF_BYTES (CK_L1D / 2u)    /* no miss after the first pass */
#define CK_STRIDE (CK_L1D / CK_WAYS)       /* lines this far apart share a set */
#define CK_STRIDE_LINES (CK_WAYS + 1u)     /* one more than the set holds: LRU misses every access */
#define CK_STRIDE_ROUNDS 64u
#define CK_STRIDE_BYTES (CK_STRIDE * CK_STRIDE_LINES)

/* A read of every 8-byte word, in address order: bytes / 8 accesses, bytes / 64 lines. */
static inline __attribute__((always_inline)) uint64_t ck_walk(const uint64_t *p, size_t bytes)
{
	uint64_t s = 0;
	for (size_t i = 0; i < bytes / sizeof *p; i++)
		s += p[i];
	return s;
}

/* CK_STRIDE_LINES words CK_STRIDE bytes apart, read round after round: all in one set (volatile:
 * the compiler would otherwise read each word once for several rounds). */
static inline __attribute__((always_inline)) uint64_t ck_stride(const volatile uint64_t *p)
{
	uint64_t s = 0;
	for (unsigned r = 0; r < CK_STRIDE_ROUNDS; r++)
		for (unsigned k = 0; k < CK_STRIDE_LINES; k++)
			s += p[k * (CK_STRIDE / sizeof *p)];
	return s;
}
#endif
