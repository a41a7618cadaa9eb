/* SPDX-License-Identifier: Apache-2.0 */
// The kit's benchmarks under Google Benchmark: every descriptor in the bm_bench registry becomes
// a Google benchmark "<name>/<K>" whose loop calls the kit's own batch function (the same object
// code as host-linux's) with iters = K: the body K times in the kit's batch loop, plus one call
// and the batch's two counter reads (~15 ns, under 0.2% of a 256-body batch) per Google
// iteration; compare divides by K. K = 256, or 1 where the benchmark allows no batching.
#include <benchmark/benchmark.h>

#include <cstdio>

extern "C" {
#include "bm/bench.h"
#include "bm/port.h"
void bm_scratch_reset(size_t declared);
}

// What the core objects linked here refer to: a board with a console that prints, no libc name.
static void gb_putc(struct bm_console *, char c)
{
	std::fputc(c, stdout);
}
static struct bm_console gb_console = {.name = "stdout", .init = nullptr, .putc = gb_putc, .write = nullptr, .lf_only = 1};
extern "C" const struct bm_board board_desc = {.name = "compare-gbench", .console = &gb_console};
extern "C" const char bm_libc_name[] = "glibc (Google Benchmark side)";

static void run_kit_bench(benchmark::State &state, const struct bm_bench *b)
{
	const uint32_t k = (uint32_t)state.range(0);
	bm_scratch_reset(b->scratch_bytes ? *b->scratch_bytes : 0);
	if (b->setup && b->setup() != 0) {
		state.SkipWithError("setup failed");
		return;
	}
	struct bm_delta d;
	for (auto _ : state)
		b->batch(k, &d);
	if (b->verify() != 0)
		state.SkipWithError("verify failed");
	if (b->teardown)
		b->teardown();
}

int main(int argc, char **argv)
{
	for (const struct bm_bench *const *p = __start_bm_bench; p < __stop_bm_bench; p++)
		benchmark::RegisterBenchmark((*p)->name, run_kit_bench, *p)->Arg((*p)->max_iters == 1 ? 1 : 256);
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
