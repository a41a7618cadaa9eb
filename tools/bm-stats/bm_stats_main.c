/* SPDX-License-Identifier: Apache-2.0 */
/* bm-stats: summary statistics with the firmware's own statistics core and record writer
 * (identical numbers and keys), from plain numbers or from the firmware's hist records.
 *
 *   bm-stats [--format json|human|both] [--div N] [--name NAME] [--with-hist] [FILE...]
 *   bm-stats --hist [--bench NAME] [--format json|human|both] LOG...
 *
 * Numbers: one unsigned decimal integer (0 .. 2^64-1) per line; spaces, tabs and a CR around
 * the number are allowed, blank lines are skipped. All files (or stdin when none, or "-") form
 * ONE sample set. Anything else is an error naming the file and line.
 * --hist: the hist records of console logs or record files (docs/records.md), each CRC-checked;
 * all runs of a benchmark are rebuilt and merged with the core's merge, one result record per
 * benchmark (or only --bench NAME). A damaged or inconsistent hist record is refused, naming
 * the file and line.
 * --with-hist: after each result record, the state's hist record (docs/records.md), as the
 * firmware prints it: your own numbers, in a form bm compare, bm plot and bm check read.
 * Nothing is printed unless every input was valid. Exit: 0 ok, 1 bad input, 2 bad usage,
 * 3 the output could not be written (e.g. a full disk). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm/crc32.h"
#include "bm/port.h"
#include "bm/out.h"
#include "bm/record.h"
#include "bm/stats.h"

#define MAX_LINE 64

static void stdout_putc(struct bm_console *con, char c)
{
	(void)con;
	putchar((unsigned char)c);
}

/* The record writer prints through a board's console: here, stdout. */
static struct bm_console console = {.name = "stdout", .putc = stdout_putc, .lf_only = 1};
const struct bm_board board_desc = {.name = "host", .console = &console};

static struct bm_stats stats;

#define EXIT_INPUT 1
#define EXIT_USAGE 2
#define EXIT_WRITE 3

static void usage(FILE *f)
{
	fprintf(f, "usage: bm-stats [--format json|human|both] [--div N] [--name NAME] [--with-hist] [FILE...]\n"
	           "       bm-stats --hist [--bench NAME] [--format json|human|both] LOG...\n"
	           "  Reads unsigned decimal integers (0 .. 18446744073709551615), one per line, from the\n"
	           "  FILEs (together one sample set) or stdin, and prints their statistics.\n"
	           "  --hist    read the hist records of console logs or record files instead (CRC-checked;\n"
	           "            every run of a benchmark is merged into one state): one result per benchmark\n"
	           "  --bench S with --hist: only benchmark S\n"
	           "  --format  json: one result record line; human: a summary; both (default): summary,\n"
	           "            then the record as the last line\n"
	           "  --div N   divide every value by N (samples are totals of N iterations); default 1\n"
	           "            (hist records carry their own)\n"
	           "  --name S  the record's name (default: the file name, or \"stdin\")\n"
	           "  --with-hist  after each result record, the state's hist record (not with --format human)\n"
	           "  Blank lines are skipped; spaces, tabs and CR around a number are allowed.\n"
	           "  Exit status: 0 ok, 1 bad input, 2 bad usage, 3 the output could not be written.\n");
}

static int fail(const char *file, unsigned long line, const char *msg)
{
	if (line)
		fprintf(stderr, "bm-stats: %s:%lu: %s\n", file, line, msg);
	else
		fprintf(stderr, "bm-stats: %s: %s\n", file, msg);
	return EXIT_INPUT;
}

/* Parse one line (without its '\n'); 1 = a value, 0 = blank, -1 = error (msg set). */
static int parse_line(const char *s, size_t len, uint64_t *v, const char **msg)
{
	size_t i = 0;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t' || s[len - 1] == '\r'))
		len--;
	while (i < len && (s[i] == ' ' || s[i] == '\t'))
		i++;
	if (i == len)
		return 0;
	if (s[i] == '-') {
		*msg = "negative number (values are unsigned)";
		return -1;
	}
	if (s[i] < '0' || s[i] > '9') {
		*msg = "not a number";
		return -1;
	}
	uint64_t x = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		unsigned d = (unsigned)(s[i] - '0');
		if (x > (UINT64_MAX - d) / 10) {
			*msg = "value above 2^64-1 (18446744073709551615)";
			return -1;
		}
		x = x * 10 + d;
	}
	if (i < len) {
		*msg = (s[i] == '.' || s[i] == ',' || s[i] == 'e' || s[i] == 'E')
		               ? "fractional or exponent number (values are integers)"
		               : "trailing characters after the number";
		return -1;
	}
	*v = x;
	return 1;
}

static int read_input(FILE *f, const char *name)
{
	char line[MAX_LINE + 2];
	size_t len = 0;
	unsigned long lineno = 1;
	int c, too_long = 0;
	for (;;) {
		c = getc(f);
		if (c == EOF || c == '\n') {
			if (c == EOF && ferror(f))
				return fail(name, 0, strerror(errno ? errno : EIO));
			if (c == EOF && len == 0 && !too_long)
				return 0;
			if (too_long)
				return fail(name, lineno, "line longer than 64 characters");
			uint64_t v;
			const char *msg = 0;
			int r = parse_line(line, len, &v, &msg);
			if (r < 0)
				return fail(name, lineno, msg);
			if (r > 0)
				bm_stats_add(&stats, v);
			if (c == EOF)
				return 0;
			len = 0;
			lineno++;
			continue;
		}
		if (c == 0 || (c < 0x20 && c != '\t' && c != '\r') || c >= 0x7f)
			return fail(name, lineno, "binary data (not a text file of numbers)");
		if (len < MAX_LINE)
			line[len++] = (char)c;
		else
			too_long = 1;
	}
}

#include "bm_hist_read.h"

/* One benchmark's runs, merged. */
struct bench {
	char name[128], unit[64];
	uint64_t div, runs;
	struct bm_stats st;
};

static struct bench *benches;
static size_t nbenches;

static int add_hist(const char *file, unsigned long lineno, struct hist *h, const char *only)
{
	const char *why = 0;
	if (only && strcmp(h->name, only))
		return 0;
	static struct bm_stats one;
	why = bm_hist_rebuild(&one, h);
	if (why) {
		char msg[512];
		snprintf(msg, sizeof msg, "hist record of %s: %s", h->name, why);
		return fail(file, lineno, msg);
	}
	struct bench *b = 0;
	for (size_t i = 0; i < nbenches; i++)
		if (!strcmp(benches[i].name, h->name))
			b = &benches[i];
	if (!b) {
		struct bench *nb = realloc(benches, (nbenches + 1) * sizeof *benches);
		if (!nb)
			return fail(file, lineno, "out of memory");
		benches = nb;
		b = &benches[nbenches++];
		snprintf(b->name, sizeof b->name, "%s", h->name);
		snprintf(b->unit, sizeof b->unit, "%s", h->unit);
		b->div = h->div;
		b->runs = 0;
		bm_stats_init(&b->st);
	} else if (b->div != h->div || strcmp(b->unit, h->unit)) {
		char msg[512];
		snprintf(msg, sizeof msg, "%s: this run has div %llu, unit %s; an earlier one div %llu, unit %s "
		         "(their batch totals do not merge)", h->name, (unsigned long long)h->div, h->unit,
		         (unsigned long long)b->div, b->unit);
		return fail(file, lineno, msg);
	}
	bm_stats_merge(&b->st, &one);
	b->runs++;
	return 0;
}

/* Every hist record of one log: lines that start with '{' are records (docs/records.md); the
 * ones that are not hist records are not read further. */
static int read_hists(FILE *f, const char *file, const char *only)
{
	size_t cap = 0;
	char *line = 0;
	ssize_t got;
	unsigned long lineno = 0;
	int rc = 0;
	struct hist *h = calloc(1, sizeof *h);
	if (!h)
		return fail(file, 0, "out of memory");
	while (!rc && (got = getline(&line, &cap, f)) >= 0) {
		size_t len = (size_t)got;
		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			len--;
		if (!len || line[0] != '{')
			continue;
		if (memchr(line, 0, len)) {
			rc = fail(file, lineno, "a hist record with a NUL byte (damaged)");
			break;
		}
		const char *err = 0;
		int got_hist = bm_hist_parse(line, len, h, &err);
		if (got_hist < 0) {
			char msg[200];
			snprintf(msg, sizeof msg, "hist record refused: %s", err);
			rc = fail(file, lineno, msg);
			break;
		}
		if (got_hist)
			rc = add_hist(file, lineno, h, only);
	}
	if (!rc && ferror(f))
		rc = fail(file, 0, strerror(errno ? errno : EIO));
	free(h->bins);
	free(h);
	free(line);
	return rc;
}

/* ---- output ------------------------------------------------------------------------------- */

/* A figure in thousandths, every digit (never saturated). */
static void fmt_m(char *b, struct bm_u128 milli)
{
	bm_fmt_milli128(b, milli, 3);
}

static void print_q(const char *label, const struct bm_quantile *q)
{
	char b[BM_FMT_NUM_MAX];
	fmt_m(b, q->value_milli);
	if (q->exact)
		printf("  %-9s %s  (exact)\n", label, b);
	else
		printf("  %-9s %s  (within %u.%02u%%)\n", label, b, q->bound_ppm / 10000,
		       (q->bound_ppm % 10000 + 99) / 100 > 99 ? 99 : (q->bound_ppm % 10000 + 99) / 100);
}

static void human(const char *name, const struct bm_stats_report *r, uint64_t runs)
{
	char a[BM_FMT_NUM_MAX], b[BM_FMT_NUM_MAX];
	printf("%s: %llu samples", name, (unsigned long long)r->n);
	if (runs > 1)
		printf(" (%llu runs merged)", (unsigned long long)runs);
	printf("\n");
	fmt_m(a, r->min_milli);
	printf("  %-9s %s\n", "min", a);
	print_q("p50", &r->p50);
	print_q("p90", &r->p90);
	print_q("p99", &r->p99);
	print_q("p99.9", &r->p999);
	fmt_m(a, r->max_milli);
	printf("  %-9s %s\n", "max", a);
	fmt_m(a, r->mean_milli);
	fmt_m(b, r->ci95_milli);
	printf("  %-9s %s +- %s (95%% CI)\n", "mean", a, b);
	fmt_m(a, r->stddev_milli);
	printf("  %-9s %s (cv %llu.%04llu%%)\n", "stddev", a, (unsigned long long)(r->cv_ppm / 10000),
	       (unsigned long long)(r->cv_ppm % 10000));
	fmt_m(a, r->fence_lo_milli);
	fmt_m(b, r->fence_hi_milli);
	printf("  %-9s fences [%s, %s]: %llu below, %llu above", "tukey", a, b,
	       (unsigned long long)r->outliers_lo, (unsigned long long)r->outliers_hi);
	if (r->outliers_uncertain) /* (bins that straddle a fence: those counts are within this) */
		printf(" (%llu uncertain)", (unsigned long long)r->outliers_uncertain);
	fmt_m(a, r->filtered_mean_milli);
	printf("; mean inside %s%s\n", a, r->filtered_mean_exact ? "" : " (approx.)");
	if (r->flags & BM_STATS_F_COARSENED)
		printf("  note: some samples lie far below the largest (or N > %llu): held at reduced\n"
		       "        resolution; the bounds above say how much (%u bins per octave at the top)\n",
		       (unsigned long long)BM_STATS_U16_MAX_N, r->bins_per_octave);
	if (r->flags & (BM_STATS_F_SUM_SATURATED | BM_STATS_F_BIN_SATURATED))
		printf("  note: a counter saturated (more than 2^32 samples in one bin, or 2^63 samples)\n");
}

static int with_hist;

static void emit(const char *format, const char *name, const char *unit, const struct bm_stats *st, uint64_t div,
                 int iters, uint64_t runs)
{
	struct bm_stats_report rep;
	bm_stats_report(st, div, &rep);
	if (strcmp(format, "json"))
		human(name, &rep, runs);
	if (strcmp(format, "human")) {
		struct bm_record r;
		bm_rec_begin(&r, "result");
		bm_rec_str(&r, "name", name);
		bm_rec_str(&r, "status", "ok");
		bm_rec_str(&r, "unit", unit);
		if (iters)
			bm_rec_u64(&r, "iters", div);
		bm_stats_record_fields(&r, &rep);
		bm_rec_end(&r);
		if (with_hist) { /* the firmware's hist record: name, unit, div, then the state */
			bm_rec_begin(&r, "hist");
			bm_rec_str(&r, "name", name);
			bm_rec_str(&r, "unit", unit);
			bm_rec_u64(&r, "div", div);
			bm_stats_hist_fields(&r, st);
			bm_rec_end(&r);
		}
	}
}

/* Everything was printed: did it reach its destination? */
static int finish_output(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 0;
	fprintf(stderr, "bm-stats: cannot write the output: %s\n", strerror(errno ? errno : EIO));
	return EXIT_WRITE;
}

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "bm-stats: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, " (see --help)\n");
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const char *format = "both", *name = 0, *only = 0;
	uint64_t div = 1;
	int nfiles = 0, hist = 0, div_given = 0, rc = 0;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	if (!files)
		return EXIT_USAGE;
	for (int i = 1; i < argc && !rc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			free(files);
			return finish_output();
		} else if (!strcmp(a, "--hist")) {
			hist = 1;
		} else if (!strcmp(a, "--with-hist")) {
			with_hist = 1;
		} else if (!strcmp(a, "--format") || !strcmp(a, "--div") || !strcmp(a, "--name") || !strcmp(a, "--bench")) {
			if (i + 1 >= argc) {
				rc = usage_error("%s needs a value", a);
				break;
			}
			const char *v = argv[++i];
			if (!strcmp(a, "--format")) {
				if (strcmp(v, "json") && strcmp(v, "human") && strcmp(v, "both"))
					rc = usage_error("--format '%s': use json, human or both", v);
				format = v;
			} else if (!strcmp(a, "--name")) {
				name = v;
			} else if (!strcmp(a, "--bench")) {
				only = v;
			} else {
				const char *msg = 0;
				if (parse_line(v, strlen(v), &div, &msg) <= 0 || div == 0)
					rc = usage_error("--div '%s': need a whole number >= 1", v);
				div_given = 1;
			}
		} else if (a[0] == '-' && a[1] && strcmp(a, "--")) {
			rc = usage_error("unknown option '%s'", a);
		} else if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				files[nfiles++] = argv[i];
		} else {
			files[nfiles++] = argv[i];
		}
	}
	if (!rc && hist && (div_given || name))
		rc = usage_error("%s: hist records carry their own div and names", div_given ? "--div" : "--name");
	if (!rc && with_hist && !strcmp(format, "human"))
		rc = usage_error("%s: a hist record is a record (use --format json or both)", "--with-hist");
	if (!rc && only && !hist)
		rc = usage_error("%s needs --hist", "--bench");
	if (!rc && hist && nfiles == 0)
		rc = usage_error("%s: name the logs to read", "--hist");
	if (rc) {
		free(files);
		return rc;
	}

	bm_stats_init(&stats);
	if (nfiles == 0)
		rc = read_input(stdin, "stdin");
	for (int i = 0; i < nfiles && !rc; i++) {
		int std = !strcmp(files[i], "-");
		FILE *f = std ? stdin : fopen(files[i], "rb");
		const char *fn = std ? "stdin" : files[i];
		if (!f) {
			rc = fail(files[i], 0, strerror(errno));
			break;
		}
		rc = hist ? read_hists(f, fn, only) : read_input(f, fn);
		if (!std)
			fclose(f);
	}
	if (!rc && !hist && bm_stats_count(&stats) == 0)
		rc = fail(nfiles == 1 ? files[0] : nfiles ? "input" : "stdin", 0, "no samples (empty input)");
	if (!rc && hist && nbenches == 0)
		rc = fail(nfiles == 1 ? files[0] : "input", 0,
		          only ? "no hist record of that benchmark" : "no hist records (the meta record's \"hist\" was false?)");
	if (rc) {
		free(files);
		free(benches);
		return rc;
	}

	if (hist) {
		for (size_t i = 0; i < nbenches; i++)
			emit(format, benches[i].name, benches[i].unit, &benches[i].st, benches[i].div, 1, benches[i].runs);
	} else {
		char joined[256];
		if (!name) {
			if (nfiles == 0) {
				name = "stdin";
			} else {
				size_t l = 0;
				joined[0] = 0;
				for (int i = 0; i < nfiles; i++) {
					const char *f = strcmp(files[i], "-") ? files[i] : "stdin";
					int w = snprintf(joined + l, sizeof joined - l, "%s%s", i ? "+" : "", f);
					if (w < 0 || (size_t)w >= sizeof joined - l)
						break;
					l += (size_t)w;
				}
				name = joined;
			}
		}
		emit(format, name, "value", &stats, div, div != 1, 1);
	}
	free(files);
	free(benches);
	return finish_output();
}
