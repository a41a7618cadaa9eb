/* SPDX-License-Identifier: Apache-2.0 */
/* bm_bench_next in name order whatever the registry's layout: built twice, once with the sorted
 * registry every image has (fake/registry.ld, as tools/bm-link lays it out) and once with the
 * sections placed out of order (fake/registry_unsorted.ld), which takes the scan. */
#include <string.h>

#include "bm/bench.h"
#include "bm/harness.h"
#include "bm_test.h"

static int ok(void)
{
	return 0;
}

BM_BENCHMARK(zz_third, ok)
{
	bm_clobber_memory();
}
BM_BENCHMARK(aa_first, ok)
{
	bm_clobber_memory();
}
BM_BENCHMARK(mm_second, ok)
{
	bm_clobber_memory();
}
BM_BENCHMARK(mm_second_b, ok)
{
	bm_clobber_memory();
}

static int not_mm(const char *name, void *ctx)
{
	(void)ctx;
	return strncmp(name, "mm_", 3) != 0;
}

/* The names bm_bench_next gives, joined by spaces. */
static void walk(const struct bm_config *cfg, char *out, size_t size)
{
	out[0] = '\0';
	for (const struct bm_bench *b = bm_bench_next(0, cfg); b; b = bm_bench_next(b, cfg)) {
		if (out[0])
			strncat(out, " ", size - strlen(out) - 1);
		strncat(out, b->name, size - strlen(out) - 1);
	}
}

static void name_order(void)
{
	char got[128];
	walk(0, got, sizeof got);
	BM_CHECK_STR(got, "aa_first mm_second mm_second_b zz_third");
	walk(0, got, sizeof got); /* again from the start: the same */
	BM_CHECK_STR(got, "aa_first mm_second mm_second_b zz_third");
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.select = not_mm;
	walk(&cfg, got, sizeof got);
	BM_CHECK_STR(got, "aa_first zz_third");
	/* from a benchmark the selection leaves out (a caller's own cursor) */
	extern const struct bm_bench *const __start_bm_bench[], *const __stop_bm_bench[];
	const struct bm_bench *mm = 0;
	for (const struct bm_bench *const *p = __start_bm_bench; p < __stop_bm_bench; p++)
		if (!strcmp((*p)->name, "mm_second"))
			mm = *p;
	BM_CHECK(mm != 0);
	const struct bm_bench *next = bm_bench_next(mm, 0);
	BM_CHECK(next && !strcmp(next->name, "mm_second_b"));
	next = bm_bench_next(mm, &cfg);
	BM_CHECK(next && !strcmp(next->name, "zz_third"));
}

int main(void)
{
	static const struct bm_test_case cases[] = {BM_TEST_CASE(name_order)};
	return bm_test_main(cases, sizeof cases / sizeof cases[0]);
}
