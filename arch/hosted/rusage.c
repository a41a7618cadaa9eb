/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted runtime's per-benchmark accounting, outside the timed region: wall time and
 * getrusage CPU time read when a benchmark starts and ends (the board's bench hooks), the
 * differences added to its result record and printed as a table after the run. (Hardware and the
 * OS's events are counted per batch under their portable names instead: events.c, BM_EVENTS.) */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include "arch/hosted.h"
#include "bm/out.h"
#include "bm/record.h"
#include "runtime.h"

struct acct {
	const char *name;
	double user_ms, sys_ms, wall_ms;
};
static struct acct *accts; /* grows with the run: no limit on benchmarks; mapped, not malloc'd (a
                            * benchmark file may replace malloc for the whole process, and reset it) */
static unsigned n_acct, cap_acct;
static struct {
	struct rusage ru;
	uint64_t wall_ns;
	const char *name;
} window;

static double tv_ms(struct timeval a, struct timeval b)
{
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_usec - a.tv_usec) / 1e3;
}

static struct acct *window_close(void)
{
	if (!window.name)
		return 0;
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	if (n_acct == cap_acct) {
		unsigned cap = cap_acct ? 2 * cap_acct : 64;
		struct acct *a = mmap(NULL, cap * sizeof *a, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (a == MAP_FAILED)
			return 0;
		if (accts) {
			memcpy(a, accts, cap_acct * sizeof *a);
			munmap(accts, cap_acct * sizeof *a);
		}
		accts = a;
		cap_acct = cap;
	}
	struct acct *a = &accts[n_acct++];
	a->name = window.name;
	a->user_ms = tv_ms(window.ru.ru_utime, ru.ru_utime);
	a->sys_ms = tv_ms(window.ru.ru_stime, ru.ru_stime);
	a->wall_ms = (double)(arch_host_clock_ns() - window.wall_ns) / 1e6;
	window.name = 0;
	return a;
}

void arch_host_bench_begin(const char *name)
{
	window.name = name;
	getrusage(RUSAGE_SELF, &window.ru);
	window.wall_ns = arch_host_clock_ns();
}

/* Times in the record are ms with 3 decimals (i.e. microsecond resolution). */
void arch_host_bench_end(const char *name, struct bm_record *r)
{
	(void)name;
	const struct acct *a = window_close();
	if (!r || !a)
		return;
	bm_rec_milli(r, "wall_ms", (uint64_t)(a->wall_ms * 1000.0 + 0.5));
	bm_rec_milli(r, "user_ms", (uint64_t)(a->user_ms * 1000.0 + 0.5));
	bm_rec_milli(r, "sys_ms", (uint64_t)(a->sys_ms * 1000.0 + 0.5));
}

/* One number or label of the table, through the kit's console like the records before it, so all
 * of stdout goes through one buffer, in order. 320 bytes hold any double as %.1f. */
static void out_fmt(const char *fmt, ...)
{
	char buf[320];
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	bm_out_mem(buf, n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void arch_host_print_accounting(int print)
{
	window_close();
	if (print && n_acct) {
		bm_out_str("\nhost: per benchmark, whole run (calibration, warm-up, samples, reporting); getrusage CPU time\n");
		bm_out_padded("benchmark", 22, 0);
		out_fmt(" %10s %10s %10s", "wall_ms", "user_ms", "sys_ms");
		bm_out_str("\n");
		for (unsigned k = 0; k < n_acct; k++) {
			const struct acct *a = &accts[k];
			bm_out_padded(a->name, 22, 0);
			out_fmt(" %10.1f", a->wall_ms);
			out_fmt(" %10.1f", a->user_ms);
			out_fmt(" %10.1f", a->sys_ms);
			bm_out_str("\n");
		}
	}
	n_acct = 0;
}
