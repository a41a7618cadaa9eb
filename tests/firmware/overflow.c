/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test images: a user's global written past its bounds, three ways, each in an image of its
 * own (SELECT, tests/firmware/CMakeLists.txt): an initialised one (in .data) overflowed upward
 * to the end of .data, which stays in the user's memory (the kit's lies below it: the run goes
 * on); the same written below its start, into the kit's high guard; and one word of
 * the kit's statistics, between their guard words, changed by a verify after the timed samples.
 * The kit's variables sit behind guard words and its statistics are sealed after the last sample
 * (linker/common.ld, core/guard/bm_guard.c): the last two must abort the run naming the benchmark
 * (status 3), not go on with a changed record counter, clock or figure, and print no result for
 * it. */
#include "bm/bench.h"
#include "bm/stats.h"

extern uint8_t __data_end[], __kit_bss_start[], __kit_bss_end[];

static uint8_t table[64] = {1};

static int right(void)
{
	return 0;
}

BM_BENCHMARK(a_fine_one, right)
{
	table[0]++;
	bm_clobber_memory();
}

BM_BENCHMARK(b_overflows_its_table, right, .max_iters = 1)
{
	/* table's 64 bytes, then on past its end to the end of .data: the user's memory, away from the
	 * kit's below it */
	for (volatile uint8_t *p = table; p < __data_end; p++)
		*p = 0x5a;
}

BM_BENCHMARK(c_underflows_its_table, right, .max_iters = 1)
{
	/* below table's start (the user region's first variable), word by word, into the kit's memory
	 * below it */
	uintptr_t at = (uintptr_t)table + bm_seed(0); /* (bm_seed(0) is 0: no bound the compiler knows) */
	for (unsigned k = 1; k <= 8; k++) /* 32 bytes: the band's length */
		*(volatile uint32_t *)(at - 4 * k) = 0x5a5a5a5au;
}

/* The kit's statistics between their guard words: found by the guard pair's distance. */
static int poke_stats(void)
{
	static unsigned calls;
	if (++calls != 2) /* the verify after the timed samples */
		return 0;
	/* head, the statistics at their alignment, tail (core/guard/guard.h) */
	const size_t al = _Alignof(struct bm_stats), at = (sizeof(uintptr_t) + al - 1) / al * al;
	const uintptr_t g = (uintptr_t)0x6b69745f67756172ull, gap = (at + sizeof(struct bm_stats)) / sizeof(uintptr_t);
	for (volatile uintptr_t *w = (volatile uintptr_t *)(uintptr_t)__kit_bss_start;
	     w + gap < (volatile uintptr_t *)(uintptr_t)__kit_bss_end; w++)
		if (w[0] == g && w[gap] == g) {
			w[gap / 2] ^= 1;
			break;
		}
	return 0;
}

BM_BENCHMARK(d_changes_its_figures, poke_stats)
{
	table[1]++;
	bm_clobber_memory();
}
