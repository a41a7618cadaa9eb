/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted runtime's command line: every option validated, a bad one named in the error. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm/harness.h"
#include "runtime.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: baremark [options]\n"
	        "Runs the baremark benchmarks as a Linux process (the same core, output and records as a board).\n\n"
	        "  --filter REGEX       run only benchmarks whose name matches REGEX (POSIX extended)\n"
	        "  --list               list the benchmarks (after --filter) and exit\n"
	        "  --repetitions N      run the whole selection N times (N complete record sets; default 1)\n"
	        "  --min-time SECONDS   the timed samples of each benchmark last this long together (default\n"
	        "                       0.25, long enough to span a machine's slow and fast spells; each batch\n"
	        "                       lasts SECONDS / samples, and at least 100 x the counter read overhead)\n"
	        "  --samples N          timed batches per benchmark (default %u)\n"
	        "  --format console|json|both  console = table only, json = records only\n"
	        "                       (default both, like a board)\n"
	        "  --no-hist            no hist records (each ok result's distribution) after the results\n"
	        "  --cpu N              pin to CPU N (sched_setaffinity) before measuring\n"
	        "  --help               this text\n\n"
	        "Exit status: 0 all verified, 1 a benchmark failed, 2 bad option or configuration, 3 trap.\n",
	        (unsigned)BM_SAMPLES);
}

static __attribute__((noreturn)) void bad(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "baremark: error: ");
	fprintf(stderr, fmt, a, b);
	fprintf(stderr, "\n(try --help)\n");
	exit(BM_EXIT_CONFIG);
}

static uint32_t parse_u32(const char *optname, const char *s, uint32_t lo, uint32_t hi)
{
	char *end;
	errno = 0;
	if (!s || !*s || *s == '-')
		bad("%s needs a whole number, got '%s'", optname, s ? s : "");
	unsigned long long v = strtoull(s, &end, 10);
	if (errno || *end || v < lo || v > hi) {
		char range[64];
		snprintf(range, sizeof range, "%s (%u..%u)", s, lo, hi);
		bad("%s: bad value %s", optname, range);
	}
	return (uint32_t)v;
}

int arch_host_selected(const char *name, void *ctx)
{
	const struct arch_host_options *opt = ctx;
	return !opt->has_filter || regexec(&opt->filter, name, 0, 0, 0) == 0;
}

void arch_host_parse_args(int argc, char **argv, struct arch_host_options *opt)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		const char *val = 0;
		char name[64];
		/* --opt=value and --opt value both work. */
		const char *eq = strchr(a, '=');
		if (strncmp(a, "--", 2) == 0 && eq && (size_t)(eq - a) < sizeof name) {
			memcpy(name, a, (size_t)(eq - a));
			name[eq - a] = 0;
			val = eq + 1;
		} else {
			snprintf(name, sizeof name, "%s", a);
		}
#define NEED_VALUE() (val ? val : (i + 1 < argc ? argv[++i] : (bad("%s needs a value%s", name, ""), "")))
#define NO_VALUE() (val ? bad("%s takes no value (got '%s')", name, val) : (void)0)
		if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(name, "--list")) {
			NO_VALUE();
			opt->list = 1;
		} else if (!strcmp(name, "--filter")) {
			const char *re = NEED_VALUE();
			if (opt->has_filter)
				regfree(&opt->filter);
			int rc = regcomp(&opt->filter, re, REG_EXTENDED | REG_NOSUB);
			if (rc) {
				char msg[128];
				regerror(rc, &opt->filter, msg, sizeof msg);
				bad("--filter '%s': %s", re, msg);
			}
			opt->has_filter = 1;
		} else if (!strcmp(name, "--repetitions")) {
			opt->repetitions = parse_u32(name, NEED_VALUE(), 1, 1000000);
		} else if (!strcmp(name, "--samples")) {
			opt->samples = parse_u32(name, NEED_VALUE(), 1, 100000000);
		} else if (!strcmp(name, "--min-time")) {
			const char *s = NEED_VALUE();
			char *end;
			errno = 0;
			double v = strtod(s, &end);
			if (end != s && *end == 's' && end[1] == 0)
				end++;
			if (errno || end == s || *end || !(v > 0) || v > 3600)
				bad("--min-time: bad value '%s' (seconds, e.g. 0.0001 or 1e-4s; 0 < t <= 3600)%s", s, "");
			opt->min_time_s = v;
		} else if (!strcmp(name, "--format")) {
			const char *s = NEED_VALUE();
			if (!strcmp(s, "console"))
				opt->format = BM_FORMAT_TABLE;
			else if (!strcmp(s, "json"))
				opt->format = BM_FORMAT_RECORDS;
			else if (!strcmp(s, "both"))
				opt->format = BM_FORMAT_TABLE | BM_FORMAT_RECORDS;
			else
				bad("--format: '%s' is not console, json or both%s", s, "");
			opt->format_set = 1;
		} else if (!strcmp(name, "--no-hist")) {
			NO_VALUE();
			opt->no_hist = 1;
		} else if (!strcmp(name, "--cpu")) {
			opt->cpu = (int)parse_u32(name, NEED_VALUE(), 0, CPU_SETSIZE - 1);
		} else {
			bad("unknown option '%s'%s", a, "");
		}
#undef NEED_VALUE
#undef NO_VALUE
	}
}
