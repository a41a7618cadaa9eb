/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: a benchmark whose body needs 1.5 KiB of stack below it (a library's frame, as
 * a crypto routine's), built with STACK_BYTES 4096 (BM_STACK_BYTES): it verifies on every board,
 * the HiFive1's 256-byte default included; built with the board's size there, it stops with
 * stack_overflow (tests/heap/CMakeLists.txt). */
#include <stdint.h>

#include "bm/bench.h"

static uint32_t deep_sum;

/* 1,536 bytes of frame, every word written and read back. */
__attribute__((noinline)) static uint32_t deep_frame(uint32_t seed)
{
	volatile uint32_t buf[384];
	for (unsigned i = 0; i < 384; i++)
		buf[i] = seed + i;
	uint32_t s = 0;
	for (unsigned i = 0; i < 384; i++)
		s += buf[i];
	return s;
}

static int deep_verify(void)
{
	return deep_sum == 384u * 3u + 384u * 383u / 2u ? 0 : -1;
}

BM_BENCHMARK(stack_deep, deep_verify)
{
	deep_sum = deep_frame(bm_seed(3));
}
