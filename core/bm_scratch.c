/* Scratch memory shared by benchmarks, which run one at a time: a bump allocator over one region,
 * reset before each benchmark's setup. The region is as large as the largest BM_SCRATCH a linked
 * benchmark declares (tools/bm-link sizes it; the linker script or the hosted registry script
 * places it), so an image pays only for what its selection uses. Fixed memory, no malloc. */
#include "bm/bench.h"
#include "bm/harness_internal.h"

extern uint8_t __bm_scratch_start[], __bm_scratch_end[];

static size_t scratch_used;

void bm_scratch_reset(void)
{
	scratch_used = 0;
}

size_t bm_scratch_size(void)
{
	return (size_t)(__bm_scratch_end - __bm_scratch_start);
}

void *bm_scratch_alloc(size_t bytes, size_t align)
{
	size_t size = bm_scratch_size();
	if (align == 0 || (align & (align - 1)) != 0 || align > 64)
		return NULL;
	size_t start = (scratch_used + align - 1) & ~(align - 1);
	if (start > size || bytes > size - start)
		return NULL;
	scratch_used = start + bytes;
	return __bm_scratch_start + start;
}

/* The volatile read hides the value from the optimizer, so inputs built from it are not
 * folded at compile time (CoreMark's volatile seeds). */
static volatile uint32_t seed_source = 0;

uint32_t bm_seed(uint32_t x)
{
	return x ^ seed_source;
}
