/* SPDX-License-Identifier: Apache-2.0 */
/* Test-side helpers for the statistics tests: a seeded PRNG, the distribution list, an exact
 * sort-based nearest-rank reference and the checks every case runs. Host only (libm, doubles,
 * __int128 are fine here; the code under test uses none of them). */
#ifndef STATS_REF_H
#define STATS_REF_H

#include <stdint.h>
#include <stddef.h>
#include "bm/stats.h"

struct dist {
	const char *name;
	void (*gen)(uint64_t *x, size_t n, uint64_t seed);
};

extern const struct dist stats_dists[];
extern const size_t stats_n_dists;

/* One quantile q = num/den checked against the exact answer. */
struct qcheck {
	uint64_t num, den;
	const char *label;
};
extern const struct qcheck stats_qs[];
extern const size_t stats_n_qs;

/* Results of checking one (distribution, N) case. */
struct case_result {
	double err[16];          /* relative error per stats_qs entry (0 when exact) */
	uint64_t exact_v[16], got_v[16];
	uint32_t bound[16];
	int failures;            /* checks that failed */
	uint8_t bins_per_octave;
	int band[16];            /* octaves below the histogram top of the exact answer (-1: exact) */
	uint32_t flags;
};

uint64_t ref_rng(uint64_t *st);
void ref_shuffle(uint64_t *x, size_t n, uint64_t seed);
/* Runs every check on one data set (x is not modified); prints failures; fills res. */
/* Octaves the histogram top lies above v (for the bound each band promises). */
int ref_depth(const struct bm_stats *s, uint64_t v);
/* Equal histograms: same layout and the same count in every bin (the spill table's order may
 * differ). */
int ref_same_bins(const struct bm_stats *a, const struct bm_stats *b);
uint64_t ref_bin_count(const struct bm_stats *s, unsigned i);
void ref_check_case(const char *name, const uint64_t *x, size_t n, struct case_result *res, int verbose);

#endif
