/* SPDX-License-Identifier: Apache-2.0 */
/* Sums of SIZE ints (1000; 250 on small boards) into a volatile local, walked in memory order:
 * from an array (sequential_array_sum) and from a list of nodes allocated one after another
 * (node i-1 after node i, so the walk runs down through memory: sequential_list_sum); Seed 003's
 * "Array vs Linked List" example as it was written. Under the QEMU cache model
 * (docs/cache-model.md) the records carry their cache figures beside the cycles. */
#include "bm/bench.h"

#if BM_SUITE_SMALL
#define SEQ_SIZE 250 /* boards with little RAM: a quarter of the seed's SIZE */
#else
#define SEQ_SIZE 1000 /* the seed's SIZE */
#endif

typedef struct seq_node {
	int value;
	struct seq_node *next;
} seq_node_t;

static int *seq_array;
static seq_node_t *seq_head;
static int seq_sum;

static int seq_array_setup(void)
{
	seq_array = bm_scratch_alloc(SEQ_SIZE * sizeof *seq_array, sizeof(int));
	if (!seq_array)
		return -1;
	for (int i = 0; i < SEQ_SIZE; i++)
		seq_array[i] = (int)bm_seed((uint32_t)i);
	return 0;
}

/* The seed's setup_list: for i from SIZE-1 down to 0, a new node in front of the list; the
 * allocator's successive blocks are successive nodes here (without a malloc header between). */
static int seq_list_setup(void)
{
	seq_node_t *pool = bm_scratch_alloc(SEQ_SIZE * sizeof *pool, sizeof(void *));
	if (!pool)
		return -1;
	seq_head = 0;
	for (int i = SEQ_SIZE - 1, k = 0; i >= 0; i--, k++) {
		seq_node_t *node = &pool[k];
		node->value = (int)bm_seed((uint32_t)i);
		node->next = seq_head;
		seq_head = node;
	}
	return 0;
}

/* Both sum 0 + 1 + ... + SIZE-1. */
static int seq_verify(void)
{
	return seq_sum == SEQ_SIZE * (SEQ_SIZE - 1) / 2 ? 0 : -1;
}

BM_SCRATCH(sequential_array_sum, SEQ_SIZE * sizeof(int) + 8);
BM_BENCHMARK(sequential_array_sum, seq_verify, .setup = seq_array_setup,
             .bytes = SEQ_SIZE * sizeof(int))
{
	volatile int sum = 0;
	for (int i = 0; i < SEQ_SIZE; i++)
		sum += seq_array[i];
	seq_sum = sum;
	bm_clobber_memory();
}

BM_SCRATCH(sequential_list_sum, SEQ_SIZE * sizeof(seq_node_t) + 16);
BM_BENCHMARK(sequential_list_sum, seq_verify, .setup = seq_list_setup,
             .bytes = SEQ_SIZE * sizeof(seq_node_t))
{
	volatile int sum = 0;
	seq_node_t *curr = seq_head;
	while (curr) {
		sum += curr->value;
		curr = curr->next;
	}
	seq_sum = sum;
	bm_clobber_memory();
}
