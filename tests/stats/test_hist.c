/* SPDX-License-Identifier: Apache-2.0 */
/* The hist record both ways: a state written as a hist record (bm_stats_hist_fields), read back
 * (tools/bm-stats/bm_hist_read.c) and rebuilt (bm_stats_rebuild_*) gives the same report, the
 * same bins and the same tail as the original, for every distribution at many N (below, at and
 * above K, and past the switch to 32-bit counts); merges of rebuilt states equal merges of the
 * originals and the state of all samples; inconsistent records are refused. */
#include <stdlib.h>
#include <string.h>

#include "bm/record.h"
#include "bm_hist_read.h"
#include "bm_test.h"
#include "stats_ref.h"

extern char fake_console[];
extern size_t fake_console_len;

static struct hist h;

/* The record as written (the fake console holds it): seq and crc differ between two writes,
 * so compare from "name" up to the crc. */
static const char *body(const char *rec, size_t *len)
{
	const char *a = strstr(rec, "\"name\""), *b = strstr(rec, ",\"crc\"");
	*len = a && b && b > a ? (size_t)(b - a) : 0;
	return a;
}

static void result_text(const struct bm_stats *s, uint64_t div, char *out, size_t cap)
{
	struct bm_stats_report rep;
	struct bm_record r;
	bm_stats_report(s, div, &rep);
	fake_console_len = 0;
	bm_rec_begin(&r, "result");
	bm_rec_str(&r, "name", "x");
	bm_stats_record_fields(&r, &rep);
	bm_rec_end(&r);
	snprintf(out, cap, "%s", fake_console);
}

/* s as a hist record, parsed and rebuilt into t; 0 when every step worked. */
static int round_trip(const struct bm_stats *s, struct bm_stats *t, uint64_t div)
{
	struct bm_record r;
	fake_console_len = 0;
	bm_rec_begin(&r, "hist");
	bm_rec_str(&r, "name", "x");
	bm_rec_str(&r, "unit", "cycles");
	bm_rec_u64(&r, "div", div);
	bm_stats_hist_fields(&r, s);
	bm_rec_end(&r);
	size_t len = fake_console_len;
	while (len && fake_console[len - 1] == '\n')
		len--;
	const char *err = 0;
	int got = bm_hist_parse(fake_console, len, &h, &err);
	BM_CHECK(got == 1);
	if (got != 1) {
		printf("  parse: %s\n", err ? err : "?");
		return -1;
	}
	const char *why = bm_hist_rebuild(t, &h);
	BM_CHECK(why == 0);
	if (why)
		printf("  rebuild: %s\n  %.300s\n", why, fake_console);
	return why ? -1 : 0;
}

static char ta[1 << 14], tb[1 << 14];

static void same_report(const struct bm_stats *a, const struct bm_stats *b, const char *what, size_t n)
{
	for (uint64_t div = 1; div <= 1000; div *= 1000) {
		struct bm_stats_report ra, rb;
		bm_stats_report(a, div, &ra);
		bm_stats_report(b, div, &rb);
		BM_CHECK(memcmp(&ra, &rb, sizeof ra) == 0);
		result_text(a, div, ta, sizeof ta);
		result_text(b, div, tb, sizeof tb);
		size_t la, lb;
		const char *pa = body(ta, &la), *pb = body(tb, &lb);
		int same = la && la == lb && !memcmp(pa, pb, la);
		BM_CHECK(same);
		if (!same)
			printf("  [%s n=%zu div=%llu]\n  %s  %s", what, n, (unsigned long long)div, ta, tb);
	}
	BM_CHECK(ref_same_bins(a, b));
	BM_CHECK(a->tail_len == b->tail_len);
	for (unsigned j = 0; j < a->tail_len && j < b->tail_len; j++)
		BM_CHECK(a->tail[(a->tail_h + 1u + j) % BM_STATS_TOPK] == b->tail[(b->tail_h + 1u + j) % BM_STATS_TOPK]);
	BM_CHECK(bm_stats_count(a) == bm_stats_count(b));
}

static struct bm_stats s, t, p[3], q[3], m1, m2;

static void case_n(const struct dist *d, size_t n, uint64_t seed)
{
	uint64_t *x = malloc(n * sizeof *x);
	d->gen(x, n, seed);
	ref_shuffle(x, n, seed + 1);
	bm_stats_init(&s);
	uint64_t lo = UINT64_MAX, sum = 0;
	for (size_t i = 0; i < n; i++) {
		bm_stats_add(&s, x[i]);
		lo = x[i] < lo ? x[i] : lo;
		sum += x[i];
	}
	/* what the kit's sampling loop keeps apart agrees with the state, for every distribution */
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&s, n, lo, !(s.flags & BM_STATS_F_SUM_SATURATED), sum), 0);
	if (round_trip(&s, &t, 7) == 0)
		same_report(&s, &t, d->name, n);
	/* three unequal runs: rebuilt and merged == originals merged == all in one */
	size_t cut[4] = {0, n / 5, n / 2, n};
	for (int k = 0; k < 3; k++) {
		bm_stats_init(&p[k]);
		for (size_t i = cut[k]; i < cut[k + 1]; i++)
			bm_stats_add(&p[k], x[i]);
		if (round_trip(&p[k], &q[k], 1))
			bm_stats_init(&q[k]);
	}
	bm_stats_init(&m1);
	bm_stats_init(&m2);
	for (int k = 0; k < 3; k++) {
		bm_stats_merge(&m1, &p[k]);
		bm_stats_merge(&m2, &q[k]);
	}
	same_report(&m1, &m2, d->name, n);
	same_report(&m1, &s, d->name, n);
	/* and the merged state itself survives the trip */
	if (round_trip(&m2, &t, 3) == 0)
		same_report(&m2, &t, d->name, n);
	free(x);
}

static void t_dists(void)
{
	static const size_t ns[] = {1, 2, 63, 64, 65, 1000, 100000};
	for (size_t d = 0; d < stats_n_dists; d++)
		for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++)
			case_n(&stats_dists[d], ns[k], 500 + d * 31 + k);
}

/* Past 1,114,111 samples: 32-bit counts on both sides, and a merge that crosses the switch. */
static void t_wide(void)
{
	static const char *const names[] = {"lognormal-s2", "uniform-32bit", "const-0", "spikes-1%"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		for (size_t d = 0; d < stats_n_dists; d++)
			if (!strcmp(stats_dists[d].name, names[i]))
				case_n(&stats_dists[d], BM_STATS_U16_MAX_N + 5000, 77 + d);
}

/* Full 64-bit values: sums past 2^64 and squares past 2^128 survive exactly. */
static void t_huge(void)
{
	bm_stats_init(&s);
	for (uint64_t i = 0; i < 5000; i++)
		bm_stats_add(&s, UINT64_MAX - i * 7919);
	if (round_trip(&s, &t, 1) == 0)
		same_report(&s, &t, "huge", 5000);
}

/* One bit of the state flipped after its samples (a benchmark's stray write, where it runs with
 * the kit's rights): each part the kit's check covers says so, and an untouched state agrees. */
static void t_disagree(void)
{
	uint64_t lo = UINT64_MAX, sum = 0;
	bm_stats_init(&s);
	for (uint64_t i = 0; i < 1000; i++) {
		uint64_t v = 2000 + (i * 7919) % 301;
		bm_stats_add(&s, v);
		lo = v < lo ? v : lo;
		sum += v;
	}
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&s, 1000, lo, 1, sum), 0);
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&s, 999, lo, 1, sum), BM_STATS_DISAGREE_COUNT);
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&s, 1000, lo + 1, 1, sum), BM_STATS_DISAGREE_MIN);
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&s, 1000, lo, 1, sum + 4), BM_STATS_DISAGREE_SUM);
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&s, 1000, lo, 0, sum + 4), 0); /* (no sum kept) */
	struct bm_stats c = s;
	c.nc ^= 1; /* the count */
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&c, 1000, lo, 1, sum), BM_STATS_DISAGREE_COUNT);
	c = s;
	unsigned i = 0;
	while (!c.c16[i])
		i++;
	c.c16[i] ^= 0x10; /* a bin's count */
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&c, 1000, lo, 1, sum), BM_STATS_DISAGREE_BINS);
	c = s;
	c.tail[(c.tail_h + 1u) & (BM_STATS_TOPK - 1u)] ^= 1ull << 40; /* the tail's smallest */
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&c, 1000, lo, 1, sum), BM_STATS_DISAGREE_TAIL);
	c = s;
	c.min ^= 1;
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&c, 1000, lo, 1, sum), BM_STATS_DISAGREE_MIN);
	c = s;
	c.sum_lo ^= 1ull << 20;
	BM_CHECK_EQ_U64((uint64_t)bm_stats_disagree(&c, 1000, lo, 1, sum), BM_STATS_DISAGREE_SUM);
}

/* h as `good` was (its bins in their own array), before the next way of spoiling it. */
static void restore(const struct hist *good)
{
	memcpy(h.bins, good->bins, good->nbins * sizeof *h.bins);
	h.head = good->head;
	h.nbins = good->nbins;
	memcpy(h.tail, good->tail, sizeof h.tail);
	h.ntail = good->ntail;
	memcpy(h.values, good->values, sizeof h.values);
	h.nvalues = good->nvalues;
}

/* A record that does not describe a state is refused, whatever is wrong with it. */
static void t_refused(void)
{
	bm_stats_init(&s);
	for (uint64_t i = 0; i < 3000; i++)
		bm_stats_add(&s, 1000 + i % 977);
	BM_CHECK(round_trip(&s, &t, 1) == 0);
	struct hist good = h;
	good.bins = malloc(h.nbins * sizeof *h.bins);
	memcpy(good.bins, h.bins, h.nbins * sizeof *h.bins);
	struct {
		const char *what;
		int field;
	} bad[] = {{"n off by one", 0}, {"bin hi moved", 1}, {"bin count off", 2}, {"tail not ascending", 3},
	           {"max not the tail's", 4}, {"min outside the lowest bin", 5}, {"topk", 6},
	           {"bins_per_octave", 7}, {"sum below the tail's", 8}, {"bins out of order", 9}};
	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		restore(&good);
		switch (bad[k].field) {
		case 0: h.head.n++; break;
		case 1: h.bins[3][1]++; break;
		case 2: h.bins[3][2]++; break;
		case 3: h.tail[5] = h.tail[4] - 1; break;
		case 4: h.head.max--; break;
		case 5: h.head.min = h.bins[1][0]; break;
		case 6: h.head.topk = 32; break;
		case 7: h.head.bins_per_octave = 23; break;
		case 8: h.head.sum.lo = 5; h.head.sum.hi = 0; break;
		case 9: { uint64_t tmp[3]; memcpy(tmp, h.bins[2], sizeof tmp); memcpy(h.bins[2], h.bins[3], sizeof tmp);
		          memcpy(h.bins[3], tmp, sizeof tmp); } break;
		}
		const char *why = bm_hist_rebuild(&t, &h);
		BM_CHECK(why != 0);
		if (!why)
			printf("  accepted: %s\n", bad[k].what);
	}
	free(good.bins);
}

/* An exact state's record (values, with bins and tail as it would switch to them): rebuilt to the
 * same report, and refused when the values and the rest disagree in any part. */
static void t_refused_exact(void)
{
	bm_stats_init(&s);
	for (uint64_t i = 0; i < 1000; i++) /* 2222 once, 2223 999 times, 13 at 7000 */
		bm_stats_add(&s, i == 500 ? 2222 : i % 77 == 3 ? 7000 : 2223);
	BM_CHECK(s.tail_len == 0);
	BM_CHECK(round_trip(&s, &t, 4) == 0);
	same_report(&s, &t, "exact", 1000);
	BM_CHECK(h.nvalues == 3 && h.values[0][0] == 2222 && h.values[0][1] == 1 && h.nbins == 1);
	struct hist good = h;
	good.bins = malloc(h.nbins * sizeof *h.bins);
	memcpy(good.bins, h.bins, h.nbins * sizeof *h.bins);
	static const char *const what[] = {"a count off", "values not ascending", "a zero count", "n off",
	                                   "a bin count off", "a tail value moved", "min not the first value",
	                                   "max not the last value", "sum off", "sumsq off", "saturated",
	                                   "a value dropped"};
	for (unsigned k = 0; k < sizeof what / sizeof what[0]; k++) {
		restore(&good);
		switch (k) {
		case 0: h.values[1][1]--; h.values[0][1]++; break; /* (same n, other sums) */
		case 1: h.values[0][0] = 2224; break;
		case 2: h.values[0][1] = 0; h.head.n--; break;
		case 3: h.head.n++; break;
		case 4: h.bins[0][2]++; h.ntail--; break;
		case 5: h.tail[0] = 2222; break;
		case 6: h.head.min = 2223; break;
		case 7: h.head.max = 6999; break;
		case 8: h.head.sum.lo++; break;
		case 9: h.head.sumsq[0]++; break;
		case 10: h.head.sum_saturated = 1; break;
		case 11: h.nvalues--; break;
		}
		const char *why = bm_hist_rebuild(&t, &h);
		BM_CHECK(why != 0);
		if (!why)
			printf("  accepted: %s\n", what[k]);
	}
	free(good.bins);
}

static const struct bm_test_case cases[] = {
	BM_TEST_CASE(t_refused), BM_TEST_CASE(t_huge),     BM_TEST_CASE(t_dists),
	BM_TEST_CASE(t_wide),    BM_TEST_CASE(t_disagree), BM_TEST_CASE(t_refused_exact),
};

int main(void)
{
	int rc = bm_test_main(cases, sizeof cases / sizeof cases[0]);
	free(h.bins);
	return rc;
}
