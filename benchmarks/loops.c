/* SPDX-License-Identifier: Apache-2.0 */
/* Loop structure: summing two arrays in two separate loops versus one merged loop (the merged
 * loop halves the loop overhead but interleaves two streams), and sequential array traversal
 * versus a linked list in shuffled order (a dependent load chain defeats prefetch and ILP). */
#include "bm/bench.h"

#define SUM_N 256u
#if BM_SUITE_SMALL
#define WALK_N 256u /* boards with little RAM: the walks over 256 elements */
#else
#define WALK_N 512u
#endif

static uint32_t *arr_a, *arr_b;
static uint32_t sum_a, sum_b;

/* Inputs come through bm_seed() so the compiler cannot fold the sums at build time. */
static int sums_setup(void)
{
	arr_a = bm_scratch_alloc(SUM_N * sizeof *arr_a, 8);
	arr_b = bm_scratch_alloc(SUM_N * sizeof *arr_b, 8);
	if (!arr_a || !arr_b)
		return -1;
	for (uint32_t i = 0; i < SUM_N; i++) {
		arr_a[i] = bm_seed(7 * i + 3);
		arr_b[i] = bm_seed(5 * i + 1);
	}
	return 0;
}

/* Closed forms: sum(7i + 3) and sum(5i + 1) over i < N. */
static int sums_verify(void)
{
	const uint32_t n = SUM_N;
	return sum_a == 7 * n * (n - 1) / 2 + 3 * n && sum_b == 5 * n * (n - 1) / 2 + n ? 0 : -1;
}

BM_SCRATCH(sum_two_loops, 2 * 4 * SUM_N + 8);
BM_BENCHMARK(sum_two_loops, sums_verify, .setup = sums_setup, .bytes = 2 * SUM_N * 4)
{
	uint32_t sa = 0, sb = 0;
	for (uint32_t i = 0; i < SUM_N; i++)
		sa += arr_a[i];
	bm_clobber_memory();
	for (uint32_t i = 0; i < SUM_N; i++)
		sb += arr_b[i];
	sum_a = sa;
	sum_b = sb;
	bm_clobber_memory();
}

BM_SCRATCH(sum_merged_loop, 2 * 4 * SUM_N + 8);
BM_BENCHMARK(sum_merged_loop, sums_verify, .setup = sums_setup, .bytes = 2 * SUM_N * 4)
{
	uint32_t sa = 0, sb = 0;
	for (uint32_t i = 0; i < SUM_N; i++) {
		sa += arr_a[i];
		sb += arr_b[i];
	}
	sum_a = sa;
	sum_b = sb;
	bm_clobber_memory();
}

struct node {
	struct node *next;
	uint32_t value;
};

static uint32_t *walk_arr;
static struct node *walk_head;
static uint32_t walk_sum;

static int array_setup(void)
{
	walk_arr = bm_scratch_alloc(WALK_N * sizeof *walk_arr, 8);
	if (!walk_arr)
		return -1;
	for (uint32_t i = 0; i < WALK_N; i++)
		walk_arr[i] = bm_seed(i);
	return 0;
}

/* The nodes are linked in a pseudo-random order (a full-period LCG over the indices), so each
 * step depends on the previous load and jumps around memory. */
static int list_setup(void)
{
	struct node *nodes = bm_scratch_alloc(WALK_N * sizeof *nodes, 8);
	if (!nodes)
		return -1;
	uint32_t idx = 0, prev = 0;
	for (uint32_t i = 0; i < WALK_N; i++) {
		idx = (idx * 5 + 3) & (WALK_N - 1); /* full period mod 2^k: c odd, a-1 divisible by 4 */
		nodes[idx].value = bm_seed(idx);
		nodes[idx].next = 0;
		if (i == 0)
			walk_head = &nodes[idx];
		else
			nodes[prev].next = &nodes[idx];
		prev = idx;
	}
	return 0;
}

/* Every index 0..N-1 appears once, so both walks sum to N(N-1)/2. */
static int walk_verify(void)
{
	return walk_sum == WALK_N * (WALK_N - 1) / 2 ? 0 : -1;
}

BM_SCRATCH(array_walk, 4 * WALK_N);
BM_BENCHMARK(array_walk, walk_verify, .setup = array_setup, .bytes = WALK_N * 4)
{
	uint32_t s = 0;
	for (uint32_t i = 0; i < WALK_N; i++)
		s += walk_arr[i];
	walk_sum = s;
	bm_clobber_memory();
}

BM_SCRATCH(list_walk, WALK_N * sizeof(struct node));
BM_BENCHMARK(list_walk, walk_verify, .setup = list_setup)
{
	uint32_t s = 0;
	for (const struct node *p = walk_head; p; p = p->next)
		s += p->value;
	walk_sum = s;
	bm_clobber_memory();
}
