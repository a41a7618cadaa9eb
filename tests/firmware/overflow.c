/* Self-test image: a user's initialised global (in .data) that a benchmark overflows upward, as
 * far as the first words of .bss. The kit's variables sit there, between guard words
 * (linker/common.ld, core/bm_guard.c): the run must abort naming the benchmark (status 3), not go
 * on with a changed record counter or clock, and print no result for it. */
#include "bm/bench.h"

extern uint8_t __bss_start[];

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
	/* table's 64 bytes, then on past its end: whatever lies between, then .bss's first word */
	for (volatile uint8_t *p = table; p < __bss_start + 8; p++)
		*p = 0x5a;
}
