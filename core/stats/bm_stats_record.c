/* SPDX-License-Identifier: Apache-2.0 */
/* The statistics in records (docs/records.md): the result record's statistics keys (shared by
 * the firmware report and the bm-stats host tool, so both print identical keys), and the state
 * itself as a hist record, and back (bm-stats parses the record; the state is rebuilt here). */
#include "bm/out.h"
#include "bm/record.h"
#include "bm_stats_internal.h"

#if defined(__GNUC__) && !defined(__clang__)
/* Report time only, never timed: size first (the footprint target is 8 KB with the insert). */
#pragma GCC optimize("Os")
#endif

void bm_stats_record_fields(struct bm_record *r, const struct bm_stats_report *rep)
{
#define Q_PTR(name, num, den, rank) &rep->name,
#define Q_KEY(name, num, den, rank) #name,
	const struct bm_quantile *q[BM_QUANTILES] = {BM_QUANTILE_LIST(Q_PTR)};
	static const char *const qk[BM_QUANTILES] = {BM_QUANTILE_LIST(Q_KEY)};
#undef Q_PTR
#undef Q_KEY
	bm_rec_u64(r, "n", rep->n);
	bm_rec_milli128(r, "min", rep->min_milli);
	for (int k = 0; k < BM_QUANTILES; k++)
		bm_rec_milli128(r, qk[k], q[k]->value_milli);
	bm_rec_milli128(r, "max", rep->max_milli);
	bm_rec_milli128(r, "mean", rep->mean_milli);
	bm_rec_milli128(r, "stddev", rep->stddev_milli);
	bm_rec_u64(r, "cv_ppm", rep->cv_ppm);
	bm_rec_milli128(r, "ci95", rep->ci95_milli);
	bm_rec_obj_begin(r, "bound_ppm"); /* 0 = exact nearest-rank answer */
	for (int k = 0; k < BM_QUANTILES; k++)
		bm_rec_u64(r, qk[k], q[k]->bound_ppm);
	bm_rec_obj_end(r);
	bm_rec_obj_begin(r, "tukey");
	bm_rec_milli128(r, "lo", rep->fence_lo_milli);
	bm_rec_milli128(r, "hi", rep->fence_hi_milli);
	bm_rec_u64(r, "out_lo", rep->outliers_lo);
	bm_rec_u64(r, "out_hi", rep->outliers_hi);
	if (rep->outliers_uncertain) /* samples in bins that straddle a fence: out_lo, out_hi are */
		bm_rec_u64(r, "out_uncertain", rep->outliers_uncertain); /* within this of the truth */
	bm_rec_milli128(r, "mean", rep->filtered_mean_milli);
	bm_rec_obj_end(r);
	bm_rec_obj_begin(r, "flags");
	bm_rec_bool(r, "coarsened", (rep->flags & BM_STATS_F_COARSENED) != 0);
	bm_rec_bool(r, "saturated", (rep->flags & (BM_STATS_F_SUM_SATURATED | BM_STATS_F_BIN_SATURATED)) != 0);
	bm_rec_obj_end(r);
	bm_rec_u64(r, "bins_per_octave", rep->bins_per_octave);
}

/* ---- hist: the state as a record ------------------------------------------------------------ */

static struct bm_u128 wide128(const struct bm_wide *a)
{
	struct bm_u128 r = {(uint64_t)a->w[1] << 32 | a->w[0], (uint64_t)a->w[3] << 32 | a->w[2]};
	return r;
}

/* An integer below 2^192 in decimal: q 10^38 + r, both below 2^128. */
static void fmt_wide(char *b, const struct bm_wide *v)
{
	int wide = 0;
	for (unsigned i = 4; i < BM_WIDE_WORDS; i++)
		wide |= v->w[i] != 0;
	if (!wide) { /* the usual case: below 2^128 */
		bm_fmt_u128(b, wide128(v));
		return;
	}
	struct bm_wide e = bm_wide_u64(10000000000000000000ull), q, rem;
	e = bm_wide_mul(&e, &e);
	bm_wide_divmod(q.w, rem.w, v->w, e.w, BM_WIDE_WORDS);
	struct bm_u128 hi = wide128(&q);
	if (!hi.lo && !hi.hi) {
		bm_fmt_u128(b, wide128(&rem));
		return;
	}
	size_t n = bm_fmt_u128(b, hi);
	char low[BM_FMT_NUM_MAX];
	size_t l = bm_fmt_u128(low, wide128(&rem));
	for (size_t i = l; i < 38; i++)
		b[n++] = '0';
	for (size_t i = 0; i <= l; i++)
		b[n + i] = low[i];
}

/* The record's bins, tail and (exact mode) values from a view (bm_stats_view): each array opens
 * as the first element of the next part arrives. */
struct view_rec {
	struct bm_record *r;
	int part; /* 0 bins, 1 tail, 2 values */
};

static void view_to(struct view_rec *w, int part)
{
	static const char *const key[] = {"bins", "tail", "values"};
	while (w->part < part) {
		bm_rec_array_end(w->r);
		bm_rec_array_begin(w->r, key[++w->part]);
	}
}

static void view_bin_rec(void *ctx, uint64_t lo, uint64_t hi, uint64_t count)
{
	struct bm_record *r = ((struct view_rec *)ctx)->r;
	bm_rec_elem_array_begin(r);
	bm_rec_elem_u64(r, lo);
	bm_rec_elem_u64(r, hi);
	bm_rec_elem_u64(r, count);
	bm_rec_array_end(r);
}

static void view_tail_rec(void *ctx, uint64_t v)
{
	view_to(ctx, 1);
	bm_rec_elem_u64(((struct view_rec *)ctx)->r, v);
}

static void view_value_rec(void *ctx, uint64_t v, uint64_t count)
{
	struct bm_record *r = ((struct view_rec *)ctx)->r;
	view_to(ctx, 2);
	bm_rec_elem_array_begin(r);
	bm_rec_elem_u64(r, v);
	bm_rec_elem_u64(r, count);
	bm_rec_array_end(r);
}

void bm_stats_view(const struct bm_stats *s, const struct bm_stats_view *v)
{
	if (!s->tail_len) {
		bm_st_ex_view(s, v);
		return;
	}
	unsigned nb = s->top != EMPTY_TOP ? NBINS(s->wide) : 0;
	for (unsigned i = bm_st_next_bin(s, 0, nb); i < nb; i = bm_st_next_bin(s, i + 1, nb)) {
		uint64_t lo, hi;
		if (bm_st_bin_range(s->wide, s->top, i, &lo, &hi))
			v->bin(v->ctx, lo, hi, bm_st_count_get(s, i));
	}
	for (unsigned j = 0; j < s->tail_len; j++)
		v->tail(v->ctx, bm_st_tail_at(s, j));
}

void bm_stats_hist_fields(struct bm_record *r, const struct bm_stats *s)
{
	uint64_t n = bm_stats_count(s);
	struct bm_wide s1, s2;
	char b[2 * BM_FMT_NUM_MAX];
	bm_st_totals(s, &s1, &s2);
	fmt_wide(b, &s2);
	bm_rec_u64(r, "n", n);
	bm_rec_u64(r, "min", n == 0 ? 0 : !s->tail_len || s->top != EMPTY_TOP ? s->min : bm_st_tail_at(s, 0));
	bm_rec_u64(r, "max", bm_stats_max(s));
	bm_rec_u128(r, "sum", wide128(&s1)); /* < 2^127 for n < 2^63 */
	bm_rec_num(r, "sumsq", b);
	bm_rec_u64(r, "topk", K);
	bm_rec_u64(r, "bins_per_octave", n > BM_STATS_U16_MAX_N ? PER(1) : PER(0));
	bm_rec_obj_begin(r, "saturated");
	bm_rec_bool(r, "sum", (s->flags & BM_STATS_F_SUM_SATURATED) != 0);
	bm_rec_bool(r, "bins", (s->flags & BM_STATS_F_BIN_SATURATED) != 0);
	bm_rec_obj_end(r);
	struct view_rec w = {r, 0};
	struct bm_stats_view v = {view_bin_rec, view_tail_rec, view_value_rec, &w};
	bm_rec_array_begin(r, "bins");
	bm_stats_view(s, &v); /* (an exact state's values after its bins and tail: "values") */
	view_to(&w, 1);
	bm_rec_array_end(r);
}

/* ---- hist: the record as a state ------------------------------------------------------------ */

/* While rebuilding, two derived fields hold the checks' running values (bm_st_fast_reset sets
 * them properly at the end): fast_lo = the last bin's index + 1, fast_span = the bins' total.
 * An exact state's values are counted in place (ex_m, ex_n: the total in fast_span). */
const char *bm_stats_rebuild_begin(struct bm_stats *s, const struct bm_stats_hist_head *h)
{
	bm_stats_init(s);
	if (h->topk != K)
		return "topk differs from this build's (BM_STATS_TOPK): the tail cannot be rebuilt exactly";
	if (h->bins_per_octave != (h->n > BM_STATS_U16_MAX_N ? PER(1) : PER(0)))
		return "bins_per_octave does not match n (46 up to 1,114,111 samples, 23 above)";
	if (h->nvalues) {
		s->fast_span = 0;
		if (h->nvalues > K)
			return "more values than topk (an exact state holds at most topk)";
		return h->n > UINT32_MAX ? "values with n of 2^32 or more (an exact state holds fewer)" : 0;
	}
	s->wide = h->n > BM_STATS_U16_MAX_N;
	if (h->nbins)
		s->top = (uint8_t)(h->last_lo ? bm_st_msb64(h->last_lo) : 0);
	s->fast_lo = 0;
	s->fast_span = 0;
	return 0;
}

const char *bm_stats_rebuild_bin(struct bm_stats *s, uint64_t lo, uint64_t hi, uint64_t count)
{
	uint64_t a, b;
	if (s->top == EMPTY_TOP)
		return "more bins than announced";
	if (count == 0 || count > UINT32_MAX)
		return "a bin count is 0 or above 2^32-1";
	if ((lo ? bm_st_msb64(lo) : 0) > s->top)
		return "bins are not ascending";
	unsigned i = bm_st_bin_of(s->wide, s->top, lo);
	if (!bm_st_bin_range(s->wide, s->top, i, &a, &b) || a != lo || b != hi)
		return "a bin's [lo, hi] is not a bin of the layout its top octave and n give";
	if (i < s->fast_lo)
		return "bins are not ascending and disjoint";
	s->fast_lo = i + 1u;
	bm_st_count_set(s, i, count);
	if (s->flags & BM_STATS_F_BIN_SATURATED)
		return "more bins above 65,535 than 16-bit counts hold at this n";
	s->fast_span += count;
	if (s->fast_span < count)
		return "bin counts add up past 2^64";
	return 0;
}

const char *bm_stats_rebuild_tail(struct bm_stats *s, uint64_t v)
{
	unsigned len = s->tail_len;
	if (len >= K)
		return "the tail is longer than topk";
	if (len && v < s->tail[len - 1u]) /* (after the test above GCC sees this in bounds for K = 1) */
		return "the tail is not ascending";
	s->tail[len] = v;
	s->tail_len = (uint8_t)(len + 1u);
	return 0;
}

const char *bm_stats_rebuild_value(struct bm_stats *s, uint64_t v, uint64_t count)
{
	unsigned m = s->ex_m;
	if (m >= K)
		return "more values than topk";
	if (count == 0 || count > UINT32_MAX)
		return "a value's count is 0 or above 2^32-1";
	if (m && v <= s->tail[m - 1u])
		return "values are not ascending and distinct";
	s->fast_span += count;
	if (s->fast_span > UINT32_MAX)
		return "value counts add up past 2^32-1";
	s->tail[m] = v;
	s->ex_count[m] = (uint32_t)count;
	s->ex_m = (uint8_t)(m + 1u);
	return 0;
}

/* The record's sum and sumsq as wide integers. */
static void head_sums(const struct bm_stats_hist_head *h, struct bm_wide *s1, struct bm_wide *s2)
{
	*s1 = bm_wide_u128(h->sum);
	*s2 = bm_wide_u128(bm_u128_from64(h->sumsq[0]));
	s2->w[2] = (uint32_t)h->sumsq[1];
	s2->w[3] = (uint32_t)(h->sumsq[1] >> 32);
	s2->w[4] = (uint32_t)h->sumsq[2];
	s2->w[5] = (uint32_t)(h->sumsq[2] >> 32);
}

/* An exact state's end: its values give every figure, so the head must be exactly theirs. */
static const char *rebuild_values_end(struct bm_stats *s, const struct bm_stats_hist_head *h)
{
	struct bm_wide s1, s2, e1, e2;
	unsigned m = s->ex_m;
	if (m != h->nvalues || s->fast_span != h->n)
		return "value counts do not add up to n";
	s->ex_n = (uint32_t)h->n;
	if (h->min != s->tail[0] || h->max != s->tail[m - 1u])
		return "min or max is not the smallest or largest value";
	if (h->sum_saturated || h->bins_saturated)
		return "an exact state with saturated counts";
	head_sums(h, &s1, &s2);
	bm_st_ex_totals(s, &e1, &e2);
	if (bm_wide_cmp(s1.w, e1.w, BM_WIDE_WORDS) || bm_wide_cmp(s2.w, e2.w, BM_WIDE_WORDS))
		return "sum or sumsq is not what the values add up to";
	bm_st_ex_ready(s);
	return 0;
}

const char *bm_stats_rebuild_end(struct bm_stats *s, const struct bm_stats_hist_head *h)
{
	if (h->nvalues)
		return rebuild_values_end(s, h);
	uint64_t hist_n = s->fast_span, len = s->tail_len;
	if (len != (h->n < K ? h->n : K) || hist_n != h->n - len)
		return "bin counts and tail length do not add up to n (the tail holds min(n, topk))";
	if (len == 0) { /* an empty state */
		bm_stats_init(s);
		return h->min || h->max || h->sum.lo || h->sum.hi || h->sumsq[0] || h->sumsq[1] || h->sumsq[2]
		               ? "an empty state with values" : 0;
	}
	if (h->max != s->tail[len - 1])
		return "max is not the tail's largest value";
	uint64_t tmin = s->tail[0];
	if (s->top == EMPTY_TOP) {
		if (h->min != tmin)
			return "min is not the tail's smallest value";
	} else {
		unsigned i = bm_st_next_bin(s, 0, NBINS(s->wide));
		if (h->min > tmin || bm_st_bin_of(s->wide, s->top, h->min) != i || h->last_lo > tmin)
			return "min is not in the lowest bin, or a bin lies above the tail";
		s->min = h->min;
	}
	/* the histogram's sums: the record's totals less the tail's */
	struct bm_wide s1, s2, t;
	head_sums(h, &s1, &s2);
	for (unsigned j = 0; j < len; j++) {
		t = bm_wide_u64(s->tail[j]);
		unsigned b1 = bm_wide_sub(s1.w, t.w, BM_WIDE_WORDS);
		t = bm_wide_u128(bm_u128_mul64(s->tail[j], s->tail[j]));
		if (b1 | bm_wide_sub(s2.w, t.w, BM_WIDE_WORDS))
			return "sum or sumsq is below the tail's own";
	}
	if (s->top == EMPTY_TOP && (s1.w[0] | s1.w[1] | s1.w[2] | s1.w[3] | s2.w[0] | s2.w[1] | s2.w[2] | s2.w[3] |
	                            s2.w[4] | s2.w[5]))
		return "sum or sumsq is not the tail's own (no bins)";
	bm_st_sums_set(s, &s1, &s2);
	if (s1.w[3] >> 31)
		return "sum is 2^127 or more (beyond what a state holds)";
	s->flags = (uint8_t)((h->sum_saturated ? BM_STATS_F_SUM_SATURATED : 0) |
	                     (h->bins_saturated ? BM_STATS_F_BIN_SATURATED : 0));
	if (s->top == EMPTY_TOP) { /* every sample in the tail: known exactly, an exact state */
		bm_st_ex_from_tail(s);
		return 0;
	}
	s->nc = h->n - len - BM_ST_NC0;
	bm_st_fast_reset(s);
	return 0;
}
