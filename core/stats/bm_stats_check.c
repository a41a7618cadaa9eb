/* SPDX-License-Identifier: Apache-2.0 */
/* The statistics state against what its caller kept of the same samples apart from it: where
 * benchmark code runs with the kit's rights (Cortex-M, x86_64, host-linux), a stray write into the
 * state during the timed samples would otherwise change the figures it prints, the guard words
 * around it untouched. Once per benchmark, after its samples: a walk of the nonzero bins. */
#include "bm_stats_internal.h"

/* Exact mode: every value counted, its extremes where the state keeps them. */
static int exact_disagree(const struct bm_stats *s, uint64_t n, uint64_t min, int have_sum, uint64_t sum)
{
	unsigned m = s->ex_m;
	if (m > BM_STATS_TOPK || s->ex_n != n)
		return BM_STATS_DISAGREE_COUNT;
	uint64_t total = 0, vsum = 0, lo = UINT64_MAX, hi = 0;
	for (unsigned i = 0; i < m; i++) {
		uint64_t v = bm_st_ex_val(s, i);
		if (!s->ex_count[i])
			return BM_STATS_DISAGREE_BINS;
		total += s->ex_count[i];
		vsum += v * s->ex_count[i];
		lo = v < lo ? v : lo;
		hi = v > hi ? v : hi;
	}
	if (total != n)
		return BM_STATS_DISAGREE_BINS;
	if (n && hi != s->ex_max)
		return BM_STATS_DISAGREE_TAIL;
	if (n && (s->min != min || lo != min))
		return BM_STATS_DISAGREE_MIN;
	return have_sum && vsum != sum ? BM_STATS_DISAGREE_SUM : 0;
}

int bm_stats_disagree(const struct bm_stats *s, uint64_t n, uint64_t min, int have_sum, uint64_t sum)
{
	if (!s->tail_len)
		return exact_disagree(s, n, min, have_sum, sum);
	unsigned len = s->tail_len;
	if (len > BM_STATS_TOPK || bm_stats_count(s) != n)
		return BM_STATS_DISAGREE_COUNT;
	/* the histogram's samples lie in the bins from the smallest's to the tail's smallest's (a count
	 * written outside them moves no figure the report reads first: bm check sees it) */
	uint64_t in_bins = 0;
	if (n > len) {
		if (s->top > 63 || bm_st_msb64(s->min | 1) > s->top)
			return BM_STATS_DISAGREE_MIN;
		unsigned nb = NBINS(s->wide), i = bm_st_bin_of(s->wide, s->top, s->min), hi = nb;
		if (len && bm_st_msb64(bm_st_tail_at(s, 0) | 1) <= s->top)
			hi = bm_st_bin_of(s->wide, s->top, bm_st_tail_at(s, 0)) + 1; /* (bins ascend with value) */
		if (i >= nb || hi > nb)
			return BM_STATS_DISAGREE_BINS;
		for (i = bm_st_next_bin(s, i, hi); i < hi; i = bm_st_next_bin(s, i + 1, hi))
			in_bins += bm_st_count_get(s, i);
	}
	if (in_bins != n - len)
		return BM_STATS_DISAGREE_BINS;
	/* the tail: the largest samples, ascending, none below the histogram's smallest */
	uint64_t tail_sum = 0, prev = 0;
	for (unsigned j = 0; j < len; j++) {
		uint64_t v = bm_st_tail_at(s, j);
		if (v < prev)
			return BM_STATS_DISAGREE_TAIL;
		prev = v;
		tail_sum += v;
	}
	uint64_t lo = in_bins ? s->min : len ? bm_st_tail_at(s, 0) : min;
	if (lo != min || (in_bins && len && bm_st_tail_at(s, 0) < s->min))
		return BM_STATS_DISAGREE_MIN;
	/* sum x of the histogram's samples, mod 2^64: sum_lo + 2^63 sum_hi */
	if (have_sum && !(s->flags & BM_STATS_F_SUM_SATURATED) && s->sum_lo + (s->sum_hi << 63) + tail_sum != sum)
		return BM_STATS_DISAGREE_SUM;
	return 0;
}
