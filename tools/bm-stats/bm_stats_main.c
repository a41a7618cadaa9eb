/* bm-stats: summary statistics of a list of unsigned integers, with the firmware's own
 * statistics core and record writer (identical numbers and keys).
 *
 *   bm-stats [--format json|human|both] [--div N] [--name NAME] [FILE...]
 *
 * Input: one unsigned decimal integer (0 .. 2^64-1) per line; spaces, tabs and a CR around
 * the number are allowed, blank lines are skipped. All files (or stdin when none, or "-")
 * form ONE sample set. Anything else is an error naming the file and line; nothing is
 * printed unless every input was valid. Exit: 0 ok, 1 bad input, 2 bad usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static void usage(FILE *f)
{
	fprintf(f, "usage: bm-stats [--format json|human|both] [--div N] [--name NAME] [FILE...]\n"
	           "  Reads unsigned decimal integers (0 .. 18446744073709551615), one per line, from the\n"
	           "  FILEs (together one sample set) or stdin, and prints their statistics.\n"
	           "  --format  json: one result record line; human: a summary; both (default): summary,\n"
	           "            then the record as the last line\n"
	           "  --div N   divide every value by N (samples are totals of N iterations); default 1\n"
	           "  --name S  the record's name (default: the file name, or \"stdin\")\n"
	           "  Blank lines are skipped; spaces, tabs and CR around a number are allowed.\n"
	           "  Exit status: 0 ok, 1 bad input, 2 bad usage.\n");
}

static int fail(const char *file, unsigned long line, const char *msg)
{
	if (line)
		fprintf(stderr, "bm-stats: %s:%lu: %s\n", file, line, msg);
	else
		fprintf(stderr, "bm-stats: %s: %s\n", file, msg);
	return 1;
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

static void print_milli(const char *label, uint64_t m)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_milli(b, m, 3);
	printf("  %-9s %s\n", label, b);
}

static void print_q(const char *label, const struct bm_quantile *q)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_milli(b, q->value_milli, 3);
	if (q->exact)
		printf("  %-9s %s  (exact)\n", label, b);
	else
		printf("  %-9s %s  (within %u.%02u%%)\n", label, b, q->bound_ppm / 10000,
		       (q->bound_ppm % 10000 + 99) / 100 > 99 ? 99 : (q->bound_ppm % 10000 + 99) / 100);
}

static void human(const char *name, const struct bm_stats_report *r)
{
	char a[BM_FMT_NUM_MAX], b[BM_FMT_NUM_MAX];
	printf("%s: %llu samples\n", name, (unsigned long long)r->n);
	print_milli("min", r->min_milli);
	print_q("p50", &r->p50);
	print_q("p90", &r->p90);
	print_q("p99", &r->p99);
	print_q("p99.9", &r->p999);
	print_milli("max", r->max_milli);
	bm_fmt_milli(a, r->mean_milli, 3);
	bm_fmt_milli(b, r->ci95_milli, 3);
	printf("  %-9s %s +- %s (95%% CI)\n", "mean", a, b);
	bm_fmt_milli(a, r->stddev_milli, 3);
	printf("  %-9s %s (cv %llu.%04llu%%)\n", "stddev", a, (unsigned long long)(r->cv_ppm / 10000),
	       (unsigned long long)(r->cv_ppm % 10000));
	bm_fmt_milli(a, r->fence_lo_milli, 3);
	bm_fmt_milli(b, r->fence_hi_milli, 3);
	printf("  %-9s fences [%s, %s]: %llu below, %llu above", "tukey", a, b,
	       (unsigned long long)r->outliers_lo, (unsigned long long)r->outliers_hi);
	bm_fmt_milli(a, r->filtered_mean_milli, 3);
	printf("; mean inside %s%s\n", a, r->filtered_mean_exact ? "" : " (approx.)");
	if (r->flags & BM_STATS_F_COARSENED)
		printf("  note: some samples lie far below the largest (or N > %llu): held at reduced\n"
		       "        resolution; the bounds above say how much (%u bins per octave at the top)\n",
		       (unsigned long long)BM_STATS_U16_MAX_N, r->bins_per_octave);
	if (r->flags & (BM_STATS_F_SUM_SATURATED | BM_STATS_F_BIN_SATURATED))
		printf("  note: a counter saturated (more than 2^32 samples in one bin?)\n");
}

int main(int argc, char **argv)
{
	const char *format = "both", *name = 0;
	uint64_t div = 1;
	int nfiles = 0;
	char **files = calloc((size_t)argc + 1, sizeof *files);
	if (!files)
		return 2;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			free(files);
			return 0;
		} else if (!strcmp(a, "--format") || !strcmp(a, "--div") || !strcmp(a, "--name")) {
			if (i + 1 >= argc) {
				fprintf(stderr, "bm-stats: %s needs a value (see --help)\n", a);
				free(files);
				return 2;
			}
			const char *v = argv[++i];
			if (!strcmp(a, "--format")) {
				if (strcmp(v, "json") && strcmp(v, "human") && strcmp(v, "both")) {
					fprintf(stderr, "bm-stats: --format '%s': use json, human or both\n", v);
					free(files);
					return 2;
				}
				format = v;
			} else if (!strcmp(a, "--name")) {
				name = v;
			} else {
				const char *msg = 0;
				if (parse_line(v, strlen(v), &div, &msg) <= 0 || div == 0) {
					fprintf(stderr, "bm-stats: --div '%s': need a whole number >= 1\n", v);
					free(files);
					return 2;
				}
			}
		} else if (a[0] == '-' && a[1] && strcmp(a, "--")) {
			fprintf(stderr, "bm-stats: unknown option '%s' (see --help)\n", a);
			free(files);
			return 2;
		} else if (!strcmp(a, "--")) {
			for (i++; i < argc; i++)
				files[nfiles++] = argv[i];
		} else {
			files[nfiles++] = argv[i];
		}
	}

	bm_stats_init(&stats);
	int rc = 0;
	if (nfiles == 0) {
		rc = read_input(stdin, "stdin");
	}
	for (int i = 0; i < nfiles && !rc; i++) {
		if (!strcmp(files[i], "-")) {
			rc = read_input(stdin, "stdin");
			continue;
		}
		FILE *f = fopen(files[i], "rb");
		if (!f) {
			rc = fail(files[i], 0, strerror(errno));
			break;
		}
		rc = read_input(f, files[i]);
		fclose(f);
	}
	if (!rc && bm_stats_count(&stats) == 0)
		rc = fail(nfiles == 1 ? files[0] : nfiles ? "input" : "stdin", 0, "no samples (empty input)");
	if (rc) {
		free(files);
		return rc;
	}

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
	struct bm_stats_report rep;
	bm_stats_report(&stats, div, &rep);
	if (strcmp(format, "json"))
		human(name, &rep);
	if (strcmp(format, "human")) {
		struct bm_record r;
		bm_rec_begin(&r, "result");
		bm_rec_str(&r, "name", name);
		bm_rec_str(&r, "status", "ok");
		bm_rec_str(&r, "unit", "value");
		if (div != 1)
			bm_rec_u64(&r, "iters", div);
		bm_stats_record_fields(&r, &rep);
		bm_rec_end(&r);
	}
	free(files);
	return fflush(stdout) == 0 ? 0 : 1;
}
