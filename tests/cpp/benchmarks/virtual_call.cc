/* SPDX-License-Identifier: Apache-2.0 */
/* C++ in a benchmark folder (.cc): a virtual call through a base class, with -fno-rtti and no C++
 * library (the vtable needs neither), and a constexpr table computed by the compiler. */
#include <stdint.h>

#include "bm/bench.h"

namespace {

struct shape {
	virtual uint32_t area() const { return 0; } /* (not pure: that would need __cxa_pure_virtual) */
};
struct rect : shape {
	uint32_t w, h;
	constexpr rect(uint32_t w_, uint32_t h_) : w(w_), h(h_) {}
	uint32_t area() const override { return w * h; }
};
struct square : shape {
	uint32_t s;
	constexpr square(uint32_t s_) : s(s_) {}
	uint32_t area() const override { return s * s; }
};

constexpr uint32_t squares_sum(unsigned n)
{
	uint32_t t = 0;
	for (unsigned i = 1; i <= n; i++)
		t += i * i;
	return t;
}
static_assert(squares_sum(3) == 14, "constexpr evaluates at compile time");

rect r1(3, 4);
square s1(5);
const shape *shapes[2];
uint32_t total;

int vc_setup()
{
	shapes[bm_seed(0) & 1] = &r1;
	shapes[(bm_seed(0) & 1) ^ 1] = &s1;
	return 0;
}
int vc_verify() { return total == 8 * (3 * 4) + 8 * (5 * 5) ? 0 : -1; } /* 16 calls, each shape 8 times */

} // namespace

BM_BENCHMARK(cpp_virtual_call, vc_verify, .setup = vc_setup)
{
	uint32_t t = 0;
	for (unsigned i = 0; i < 16; i++)
		t += shapes[i & 1]->area();
	total = t;
	bm_do_not_optimize(total);
}
