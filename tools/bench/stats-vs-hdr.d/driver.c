/* SPDX-License-Identifier: Apache-2.0 */
/* Driver of tools/bench/stats-vs-hdr: one insert loop per library, each library in its own
 * translation unit (the loops call bm_add, bm_stats_add's inline fast path behind one call in
 * lib_bm.c, and hdr_record_value through the linker, never inlined), and an empty loop (the same fetch, no insert) to subtract.
 *
 *   driver ir LIB SHAPE      runs one loop once (LIB: bm, hdr, none); callgrind counts it with
 *                            --toggle-collect=run_LIB
 *   driver ns SHAPE ROUNDS   native: interleaved rounds (none, bm, hdr, none, bm, hdr, ...), a
 *                            fresh state each round, min of the rounds; prints ns per insert
 *   driver info              state sizes and the shape list */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hdr_histogram.h"
#include "libs.h"
#include "shapes.h"

__attribute__((noinline)) void run_bm(void *s, const uint64_t *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		bm_add(s, x[i]);
}

__attribute__((noinline)) void run_hdr(void *h, const uint64_t *x, size_t n)
{
	for (size_t i = 0; i < n; i++)
		hdr_record_value(h, (int64_t)x[i]);
}

__attribute__((noinline)) void run_none(void *unused, const uint64_t *x, size_t n)
{
	(void)unused;
	for (size_t i = 0; i < n; i++) {
		uint64_t v = x[i];
		__asm__ volatile("" : : "r"(v) : "memory");
	}
}

static double now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static uint64_t *input(const char *name, int *k)
{
	*k = shape_find(name);
	if (*k < 0) {
		fprintf(stderr, "driver: unknown shape %s\n", name);
		exit(2);
	}
	uint64_t *x = malloc(shapes[*k].n * sizeof *x);
	if (!x)
		exit(2);
	shape_fill(*k, x, shapes[*k].n);
	return x;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "info")) {
		void *h = hdr_new();
		printf("bm_stats state %zu B; HdrHistogram_c (1..2^32, 2 significant figures) %zu B\n", bm_bytes(),
		       hdr_bytes(h));
		for (int k = 0; k < n_shapes; k++)
			printf("shape %s %zu\n", shapes[k].name, shapes[k].n);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "ir")) {
		int k;
		uint64_t *x = input(argv[3], &k);
		size_t n = shapes[k].n;
		if (!strcmp(argv[2], "bm")) {
			void *s = bm_new();
			run_bm(s, x, n);
			if (bm_count(s) != n)
				return 1;
		} else if (!strcmp(argv[2], "hdr")) {
			void *h = hdr_new();
			run_hdr(h, x, n);
			if (hdr_count(h) != n)
				return 1;
		} else {
			run_none(0, x, n);
		}
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "ns")) {
		int k, rounds = atoi(argv[3]);
		uint64_t *x = input(argv[2], &k);
		size_t n = shapes[k].n;
		double best[3] = {1e300, 1e300, 1e300};
		for (int r = 0; r < rounds; r++) {
			void *s = bm_new(), *h = hdr_new();
			double t0 = now_ns();
			run_none(0, x, n);
			double t1 = now_ns();
			run_bm(s, x, n);
			double t2 = now_ns();
			run_hdr(h, x, n);
			double t3 = now_ns();
			if (bm_count(s) != n || hdr_count(h) != n)
				return 1;
			double d[3] = {t1 - t0, t2 - t1, t3 - t2};
			for (int i = 0; i < 3; i++)
				if (d[i] < best[i])
					best[i] = d[i];
			free(s);
			hdr_close(h);
		}
		/* net: the empty loop's time subtracted */
		printf("%.3f %.3f %.3f\n", (best[1] - best[0]) / (double)n, (best[2] - best[0]) / (double)n,
		       best[0] / (double)n);
		return 0;
	}
	fprintf(stderr, "usage: driver info | ir bm|hdr|none SHAPE | ns SHAPE ROUNDS\n");
	return 2;
}
