/* SPDX-License-Identifier: Apache-2.0 */
/* The marker area of the QEMU cache model (run/run.h): its address and that of the one function
 * that stores to it (bm_model_mark) are read from the ELF by `bm run`, which tells the plugin;
 * those stores tell the plugin where the timed windows are. */
#include "run/run.h"

#if BM_MODEL
volatile uint8_t bm_model_area[BM_MODEL_AREA_BYTES] __attribute__((used, aligned(64)));

/* The kit's marks: `times` stores to the area at `offset`. Not inlined: the plugin takes for marks
 * the stores of this function's code only (its address and size, from the ELF). */
__attribute__((noinline, used)) void bm_model_mark(uint32_t offset, uint32_t times)
{
	for (uint32_t i = 0; i < times; i++)
		bm_model_area[offset] = 0;
}

/* An empty batch made by the benchmarks' own macro: its windows (a benchmark's first
 * BM_MODEL_PROBES) are what each timed window costs besides the benchmark (the call, the counter
 * reads, the marks), which `bm run` subtracts as the harness subtracts the read overhead from
 * cycles. */
static inline __attribute__((always_inline)) void bm_body_model_probe(void);
static __attribute__((noipa)) void bm_batch_model_probe(uint32_t iters, struct bm_delta *d);
BM_DEFINE_BATCH(model_probe)
static inline __attribute__((always_inline)) void bm_body_model_probe(void)
{
}

/* Which benchmark the windows that follow belong to: its registry index, one store per set bit. */
void bm_model_bench(const struct bm_bench *b)
{
	uint32_t index = 0;
	while (__start_bm_bench + index < __stop_bm_bench && __start_bm_bench[index] != b)
		index++;
	bm_model_mark(BM_MODEL_MARK_INDEX_BEGIN, 1);
	for (uint32_t k = 0; k < BM_MODEL_INDEX_BITS; k++)
		bm_model_mark(BM_MODEL_MARK_INDEX_BIT + k, index >> k & 1u);
	bm_model_mark(BM_MODEL_MARK_INDEX_END, 1);
	/* measured here, in the cache state the benchmark's warm-up left, as its windows see it;
	 * BM_MODEL_PROBES times (2: the second finds the probe's own code in the cache as a window
	 * finds its batch's) */
	struct bm_delta d;
	static const struct bm_bench desc = {.name = "model_probe", .batch = bm_batch_model_probe,
	                                     BM_BATCH_EV_INIT_(model_probe) .verify = 0};
	bm_batch_fn probe = bm_batch_of(&desc, bm_events_live());
	for (int k = 0; k < BM_MODEL_PROBES; k++) {
		bm_model_open();
		probe(1, &d);
		bm_model_close(1);
	}
}
#endif
