/* Scratch memory shared by benchmarks, which run one at a time: a bump allocator over one
 * board-sized array, reset before each benchmark's setup. Fixed memory, no malloc. */
#include "bm/bench.h"
#include "bm/harness_internal.h"

#ifndef BM_SCRATCH_BYTES
#define BM_SCRATCH_BYTES 16384
#endif

static uint8_t scratch[BM_SCRATCH_BYTES] __attribute__((aligned(64)));
static size_t scratch_used;

void bm_scratch_reset(void)
{
	scratch_used = 0;
}

size_t bm_scratch_size(void)
{
	return sizeof scratch;
}

void *bm_scratch_alloc(size_t bytes, size_t align)
{
	if (align == 0 || (align & (align - 1)) != 0 || align > 64)
		return NULL;
	size_t start = (scratch_used + align - 1) & ~(align - 1);
	if (start > sizeof scratch || bytes > sizeof scratch - start)
		return NULL;
	scratch_used = start + bytes;
	return scratch + start;
}

/* The volatile read hides the value from the optimizer, so inputs built from it are not
 * folded at compile time (CoreMark's volatile seeds). */
static volatile uint32_t seed_source = 0;

uint32_t bm_seed(uint32_t x)
{
	return x ^ seed_source;
}
