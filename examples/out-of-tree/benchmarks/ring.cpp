/* SPDX-License-Identifier: Apache-2.0 */
/* A C++ benchmark, as firmware teams write them: a class template (a fixed-size ring buffer with a
 * running sum), no heap, no exceptions, no RTTI, registered with the same BM_BENCHMARK as C. Built
 * with the board's g++ (docs/firmware.md, "C++ benchmarks"). */
#include <stdint.h>

#include "bm/bench.h"

namespace {

template <typename T, unsigned N>
class ring {
public:
	void push(T x)
	{
		sum_ += x - buf_[head_];
		buf_[head_] = x;
		head_ = (head_ + 1) % N;
	}
	T sum() const { return sum_; }

private:
	T buf_[N] = {};
	T sum_ = 0;
	unsigned head_ = 0;
};

constexpr unsigned kSamples = 64;
int32_t input[kSamples];
int32_t last_sum;

int ring_setup()
{
	for (unsigned i = 0; i < kSamples; i++)
		input[i] = static_cast<int32_t>(bm_seed(i) % 1000u) - 500;
	return 0;
}

/* The moving sum of the last 8 samples, computed directly. */
int ring_verify()
{
	int32_t want = 0;
	for (unsigned i = kSamples - 8; i < kSamples; i++)
		want += input[i];
	return last_sum == want ? 0 : -1;
}

} // namespace

BM_BENCHMARK(oot_ring_cpp, ring_verify, .setup = ring_setup, .bytes = kSamples * sizeof(int32_t))
{
	ring<int32_t, 8> r;
	for (unsigned i = 0; i < kSamples; i++)
		r.push(input[i]);
	last_sum = r.sum();
	bm_do_not_optimize(last_sum);
}
