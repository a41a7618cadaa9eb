/* SPDX-License-Identifier: Apache-2.0 */
/* Input shapes for tools/bench/stats-vs-hdr: the same values for both libraries, generated
 * before anything is timed (host C, libm). */
#include "shapes.h"

#include <math.h>
#include <string.h>

static uint64_t rng(uint64_t *st) /* splitmix64 */
{
	uint64_t z = (*st += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unif(uint64_t *st) /* (0, 1) */
{
	return ((double)(rng(st) >> 11) + 0.5) / 9007199254740992.0;
}

static double gauss(uint64_t *st)
{
	return sqrt(-2.0 * log(unif(st))) * cos(6.283185307179586 * unif(st));
}

static uint64_t lognormal(uint64_t *st, double sigma)
{
	double v = 10000.0 * exp(sigma * gauss(st));
	return v >= 4294967295.0 ? 4294967295u : (uint64_t)llround(v);
}

const struct shape shapes[] = {
	{"constant", 1000000},
	{"uniform", 1000000},
	{"lognormal-s1", 1000000},
	{"lognormal-s2", 1000000},
	{"spikes-1%", 1000000},
	{"ascending", 1000000},
	{"descending", 1000000},
	{"uniform-4M", 4000000},   /* 2.9 M of them past 1,114,111 samples (32-bit counts) */
	{"lognormal-s1-4M", 4000000},
	/* few values (the exact mode): a counter at its resolution, a cache's hit or miss */
	{"two-ticks", 1000000},    /* 2222 once in 1,000, else 2223 */
	{"hit-miss", 1000000},     /* 12, or 150 three times in 100 */
	{"64-values", 1000000},    /* 1000 + 997 k, k uniform in 0..63 */
};
const int n_shapes = sizeof shapes / sizeof shapes[0];

int shape_find(const char *name)
{
	for (int i = 0; i < n_shapes; i++)
		if (!strcmp(shapes[i].name, name))
			return i;
	return -1;
}

void shape_fill(int k, uint64_t *x, size_t n)
{
	uint64_t st = 0x5eed0000u + (uint64_t)k;
	const char *nm = shapes[k].name;
	for (size_t i = 0; i < n; i++) {
		uint64_t v;
		if (!strcmp(nm, "constant"))
			v = 12345;
		else if (!strncmp(nm, "uniform", 7))
			v = 1000 + rng(&st) % 99000;
		else if (!strncmp(nm, "lognormal-s1", 12))
			v = lognormal(&st, 1.0);
		else if (!strcmp(nm, "lognormal-s2"))
			v = lognormal(&st, 2.0);
		else if (!strcmp(nm, "spikes-1%"))
			v = i % 100 == 99 ? 20000 + rng(&st) % 64 : 1000 + rng(&st) % 16;
		else if (!strcmp(nm, "two-ticks"))
			v = rng(&st) % 1000 == 0 ? 2222 : 2223;
		else if (!strcmp(nm, "hit-miss"))
			v = rng(&st) % 100 < 3 ? 150 : 12;
		else if (!strcmp(nm, "64-values"))
			v = 1000 + 997 * (rng(&st) % 64);
		else if (!strcmp(nm, "ascending"))
			v = 1000 + i;
		else /* descending */
			v = 1000 + (n - i);
		x[i] = v;
	}
}
