/* Prints the accuracy table of the statistics core: per distribution and N, the exact
 * nearest-rank answer, the reported value, its relative error and its reported bound, for
 * P50/P90/P99/P99.9; then the worst relative error per quantile. Also a ctest (fails if a
 * reported bound is violated). Figures quoted in docs/statistics.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm_test.h"
#include "stats_ref.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

int main(void)
{
	static const size_t ns[] = {10000, 100000, 1000000};
	static const struct qcheck q4[] = {{50, 100, "P50"}, {90, 100, "P90"}, {99, 100, "P99"}, {999, 1000, "P99.9"}};
	double worst[4] = {0}, worst_m[3][4] = {{0}};
	int cases_m[3] = {0};
	const char *worst_at[4] = {0};
	size_t worst_n[4] = {0};
	int violations = 0;
	static struct bm_stats s;
	printf("sizeof(struct bm_stats) = %zu bytes (sub_bits %d, bins %d, top-K %d)\n\n", sizeof s,
	       BM_STATS_SUB_BITS, BM_STATS_BINS, BM_STATS_TOPK);
	printf("%-18s %8s %2s | %-6s %22s %22s %8s %8s\n", "distribution", "N", "m", "q", "exact",
	       "reported", "err %", "bound %");
	uint64_t *x = malloc(ns[2] * sizeof *x);
	for (size_t d = 0; d < stats_n_dists; d++) {
		for (size_t k = 0; k < 3; k++) {
			size_t n = ns[k];
			stats_dists[d].gen(x, n, 4242 + d);
			bm_stats_init(&s);
			for (size_t i = 0; i < n; i++)
				bm_stats_add(&s, x[i]);
			qsort(x, n, sizeof *x, cmp_u64);
			for (int j = 0; j < 4; j++) {
				struct bm_quantile q;
				bm_stats_quantile(&s, q4[j].num, q4[j].den, 1, &q);
				unsigned __int128 c = ((unsigned __int128)q4[j].num * n + q4[j].den - 1) / q4[j].den;
				uint64_t e = x[(size_t)c - 1];
				double err = e ? (q.raw > e ? (double)(q.raw - e) : (double)(e - q.raw)) / (double)e
				               : (q.raw ? 1.0 : 0.0);
				unsigned __int128 diff = q.raw > e ? q.raw - e : e - q.raw;
				if (diff * 1000000u > (unsigned __int128)q.bound_ppm * e || (q.exact && diff)) {
					violations++;
					printf("BOUND VIOLATED: ");
				}
				printf("%-18s %8zu %2u | %-6s %22" PRIu64 " %22" PRIu64 " %8.4f %8s\n",
				       j ? "" : stats_dists[d].name, n, s.sub_bits, q4[j].label, e, q.raw, err * 100,
				       q.exact ? "exact" : "");
				if (!q.exact)
					printf("%*s%8.4f\n", 18 + 1 + 8 + 1 + 2 + 3 + 6 + 1 + 22 + 1 + 22 + 1 + 8 + 1, "",
					       q.bound_ppm / 1e4);
				if (err > worst[j]) {
					worst[j] = err;
					worst_at[j] = stats_dists[d].name;
					worst_n[j] = n;
				}
				int g = s.sub_bits >= 6 ? 0 : s.sub_bits == 5 ? 1 : 2;
				cases_m[g] += j == 0;
				if (err > worst_m[g][j])
					worst_m[g][j] = err;
			}
		}
	}
	free(x);
	printf("\nworst relative error per quantile (all %zu distributions x N = 10k, 100k, 1M):\n",
	       stats_n_dists);
	for (int j = 0; j < 4; j++)
		printf("  %-6s %7.4f %%  (%s, N=%zu)\n", q4[j].label, worst[j] * 100,
		       worst_at[j] ? worst_at[j] : "-", worst_n[j]);
	static const char *const gname[3] = {"m=6 (range <= 5.5 octaves, bound 0.78%)",
	                                     "m=5 (range <= 11 octaves, bound 1.56%)",
	                                     "m<=4 (wider ranges, coarsened, bound >= 3.1%)"};
	printf("\nworst relative error by resolution in force (P50 / P90 / P99 / P99.9):\n");
	for (int g = 0; g < 3; g++)
		printf("  %-48s %3d cases: %6.4f %% / %6.4f %% / %6.4f %% / %6.4f %%\n", gname[g], cases_m[g],
		       worst_m[g][0] * 100, worst_m[g][1] * 100, worst_m[g][2] * 100, worst_m[g][3] * 100);
	printf("bound violations: %d\n", violations);
	return violations ? 1 : 0;
}
