// The kit's benchmarks under Google Benchmark: every descriptor in the bm_bench registry
// becomes a Google benchmark whose loop calls the kit's batch function with iters == 1 (the
// counter reads are compiled out, see noarch/arch/arch.h): one call plus the body per iteration.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

extern "C" {
#include "bm/bench.h"
#include "bm/port.h"
void bm_scratch_reset(void);
// The core objects linked from the host-linux build refer to a board; this one only prints.
static void gb_putc(char c) { std::fputc(c, stdout); }
extern const struct bm_board board_desc;
const struct bm_board board_desc = {"compare-gbench", "stdout", nullptr, gb_putc, nullptr, 0, "none", nullptr};
extern const char bm_libc_name[];
const char bm_libc_name[] = "system";
}

static void run_kit_bench(benchmark::State &state, const struct bm_bench *b)
{
	bm_scratch_reset();
	if (b->setup && b->setup() != 0) {
		state.SkipWithError("setup failed");
		return;
	}
	struct bm_delta d;
	for (auto _ : state)
		b->batch(1, &d);
	if (b->verify() != 0)
		state.SkipWithError("verify failed");
	if (b->teardown)
		b->teardown();
}

int main(int argc, char **argv)
{
	for (const struct bm_bench *const *p = __start_bm_bench; p < __stop_bm_bench; p++)
		benchmark::RegisterBenchmark((*p)->name, run_kit_bench, *p);
	benchmark::Initialize(&argc, argv);
	if (benchmark::ReportUnrecognizedArguments(argc, argv))
		return 2;
	benchmark::RunSpecifiedBenchmarks();
	benchmark::Shutdown();
	return 0;
}
