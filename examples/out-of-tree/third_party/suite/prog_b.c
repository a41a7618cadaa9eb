/* SPDX-License-Identifier: Apache-2.0 */
/* Another program of the same third-party suite: the same entry points, other warnings. */
#include <stdint.h>

static const char text[] = "the quick brown fox jumps over the lazy dog";

void initialise_benchmark()
{
}

int benchmark()
{
	uint32_t h = 2166136261u;
	int i, unused_total;
	for (i = 0; i < sizeof text - 1; i++) {
		switch (text[i]) {
		case ' ':
			h ^= 0x20;
		default:
			h = (h ^ (uint8_t)text[i]) * 16777619u;
		}
	}
	return (int)(h & 0x7fffffff);
}

int verify_benchmark(int r)
{
	return r == 0x43b9c0f0;
}
