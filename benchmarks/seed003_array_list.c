/* SPDX-License-Identifier: Apache-2.0 */
/* Seed 003's "Array vs Linked List" example as the seed wrote it: SIZE = 1000 ints summed into a
 * volatile local, from an array and from a list of nodes allocated one after another in the
 * seed's order (node i-1 after node i, so the walk runs down through memory). Under the QEMU
 * cache model (docs/cache-model.md) the records carry their cache figures beside the cycles. */
#include "bm/bench.h"

#if BM_SUITE_SMALL
#define SEED3_SIZE 250 /* boards with little RAM: a quarter of the seed's SIZE */
#else
#define SEED3_SIZE 1000 /* the seed's SIZE */
#endif

typedef struct seed3_node {
	int value;
	struct seed3_node *next;
} seed3_node_t;

static int *seed3_array;
static seed3_node_t *seed3_head;
static int seed3_sum;

static int seed3_array_setup(void)
{
	seed3_array = bm_scratch_alloc(SEED3_SIZE * sizeof *seed3_array, sizeof(int));
	if (!seed3_array)
		return -1;
	for (int i = 0; i < SEED3_SIZE; i++)
		seed3_array[i] = (int)bm_seed((uint32_t)i);
	return 0;
}

/* The seed's setup_list: for i from SIZE-1 down to 0, a new node in front of the list; the
 * allocator's successive blocks are successive nodes here (without a malloc header between). */
static int seed3_list_setup(void)
{
	seed3_node_t *pool = bm_scratch_alloc(SEED3_SIZE * sizeof *pool, sizeof(void *));
	if (!pool)
		return -1;
	seed3_head = 0;
	for (int i = SEED3_SIZE - 1, k = 0; i >= 0; i--, k++) {
		seed3_node_t *node = &pool[k];
		node->value = (int)bm_seed((uint32_t)i);
		node->next = seed3_head;
		seed3_head = node;
	}
	return 0;
}

/* Both sum 0 + 1 + ... + SIZE-1. */
static int seed3_verify(void)
{
	return seed3_sum == SEED3_SIZE * (SEED3_SIZE - 1) / 2 ? 0 : -1;
}

BM_SCRATCH(seed003_array_sequential, SEED3_SIZE * sizeof(int) + 8);
BM_BENCHMARK(seed003_array_sequential, seed3_verify, .setup = seed3_array_setup,
             .bytes = SEED3_SIZE * sizeof(int))
{
	volatile int sum = 0;
	for (int i = 0; i < SEED3_SIZE; i++)
		sum += seed3_array[i];
	seed3_sum = sum;
	bm_clobber_memory();
}

BM_SCRATCH(seed003_list_sequential, SEED3_SIZE * sizeof(seed3_node_t) + 16);
BM_BENCHMARK(seed003_list_sequential, seed3_verify, .setup = seed3_list_setup,
             .bytes = SEED3_SIZE * sizeof(seed3_node_t))
{
	volatile int sum = 0;
	seed3_node_t *curr = seed3_head;
	while (curr) {
		sum += curr->value;
		curr = curr->next;
	}
	seed3_sum = sum;
	bm_clobber_memory();
}
