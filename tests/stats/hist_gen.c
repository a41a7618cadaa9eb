/* SPDX-License-Identifier: Apache-2.0 */
/* hist_gen: writes a console-log-like file of result and hist records for the bm-stats CLI test
 * and for the round trip (tools/bm-stats/cli_test.cmake):
 *   hist_gen DIST N SEED [PARTS [DIV]]
 * prints, for the samples of distribution DIST (tests/stats/stats_ref.c), the result record of
 * all of them (name "DIST", the reference) and then PARTS runs, each a hist record of one part
 * of the samples (name "DIST"), as the firmware prints them after a run. With PARTS = 0 only
 * the result record. Values are raw batch totals; DIV is the records' div. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm/port.h"
#include "bm/record.h"
#include "bm/stats.h"
#include "stats_ref.h"

static void stdout_putc(struct bm_console *con, char c)
{
	(void)con;
	putchar((unsigned char)c);
}

static struct bm_console console = {.name = "stdout", .putc = stdout_putc, .lf_only = 1};
const struct bm_board board_desc = {.name = "host", .console = &console};

static struct bm_stats all, part;

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: hist_gen DIST N SEED [PARTS [DIV]]\n");
		return 2;
	}
	size_t n = strtoull(argv[2], 0, 10), parts = argc > 4 ? strtoull(argv[4], 0, 10) : 1;
	uint64_t seed = strtoull(argv[3], 0, 10), div = argc > 5 ? strtoull(argv[5], 0, 10) : 1;
	const struct dist *d = 0;
	for (size_t i = 0; i < stats_n_dists; i++)
		if (!strcmp(stats_dists[i].name, argv[1]))
			d = &stats_dists[i];
	if (!d || !n || !div) {
		fprintf(stderr, "hist_gen: unknown distribution %s (or N or DIV is 0)\n", argv[1]);
		return 2;
	}
	uint64_t *x = malloc(n * sizeof *x);
	if (!x)
		return 2;
	d->gen(x, n, seed);
	bm_stats_init(&all);
	for (size_t i = 0; i < n; i++)
		bm_stats_add(&all, x[i]);
	struct bm_stats_report rep;
	struct bm_record r;
	bm_rec_begin(&r, "meta");
	bm_rec_bool(&r, "hist", 1);
	bm_rec_end(&r);
	bm_stats_report(&all, div, &rep);
	bm_rec_begin(&r, "result");
	bm_rec_str(&r, "name", d->name);
	bm_rec_str(&r, "status", "ok");
	bm_rec_str(&r, "unit", "cycles");
	bm_rec_u64(&r, "iters", div);
	bm_stats_record_fields(&r, &rep);
	bm_rec_end(&r);
	for (size_t k = 0; k < parts; k++) {
		bm_stats_init(&part);
		for (size_t i = n * k / parts; i < n * (k + 1) / parts; i++)
			bm_stats_add(&part, x[i]);
		printf("progress line of run %zu\n", k + 1);
		bm_rec_begin(&r, "hist");
		bm_rec_str(&r, "name", d->name);
		bm_rec_str(&r, "unit", "cycles");
		bm_rec_u64(&r, "div", div);
		bm_stats_hist_fields(&r, &part);
		bm_rec_end(&r);
	}
	free(x);
	return fflush(stdout) ? 1 : 0;
}
