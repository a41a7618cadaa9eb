/* SPDX-License-Identifier: Apache-2.0 */
/* C++ objects with constructors at namespace scope (not constexpr: they call bm_seed, which the
 * compiler cannot see through): the kit runs the image's static constructors before the first
 * benchmark, once each, so the body reads a table the constructor filled and a pointer it set
 * (without the constructor the pointer is NULL and the body traps). */
#include <stdint.h>

#include "bm/bench.h"

namespace {

uint32_t storage[16];
unsigned constructed; /* how many times the constructor ran: exactly once */

struct table {
	uint32_t *values;
	uint32_t sum;
	table() : values(storage), sum(0)
	{
		for (unsigned i = 0; i < 16; i++) {
			values[i] = bm_seed(i) * 3u + 1u;
			sum += values[i];
		}
		constructed++;
	}
};

table squares; /* constructed by the start-up: storage filled, values set */
uint32_t seen;

int ctor_verify() { return constructed == 1 && squares.sum == 3u * 120u + 16u && seen == squares.sum ? 0 : -1; }

} // namespace

BM_BENCHMARK(cpp_static_ctor, ctor_verify)
{
	uint32_t s = 0;
	for (unsigned i = 0; i < 16; i++)
		s += squares.values[i];
	seen = s;
	bm_do_not_optimize(seen);
}
