/* The hosted runtime's per-benchmark accounting, outside the timed region: getrusage CPU time and
 * perf_event_open counts (user space only) read when a benchmark starts and ends (the board's
 * bench hooks), the differences added to its result record and printed as a table after the
 * run. What the kernel does not allow is said once, and the run continues without it. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/hosted.h"
#include "bm/out.h"
#include "bm/record.h"
#include "runtime.h"

/* ---- perf_event_open counters, read per benchmark outside the timed region ---- */

struct perf_def {
	const char *name;
	uint32_t type;
	uint64_t config;
};

#define CACHE_CFG(cache, op, result) ((cache) | ((op) << 8) | ((result) << 16))
static const struct perf_def perf_defs[] = {
	{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES},
	{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS},
	{"cache_refs", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
	{"cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
	{"l1d_loads", PERF_TYPE_HW_CACHE,
	 CACHE_CFG(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS)},
	{"l1d_load_misses", PERF_TYPE_HW_CACHE,
	 CACHE_CFG(PERF_COUNT_HW_CACHE_L1D, PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)},
	{"branch_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES},
	{"page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS},
};
#define N_PERF (sizeof perf_defs / sizeof perf_defs[0])
static int perf_fd[N_PERF];
static char perf_status[160];

int arch_host_perf_paranoid(void)
{
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY);
	char b[16] = {0};
	if (fd < 0)
		return -99;
	ssize_t n = read(fd, b, sizeof b - 1);
	close(fd);
	return n > 0 ? atoi(b) : -99;
}

void arch_host_perf_attr(struct perf_event_attr *a, uint32_t type, uint64_t config, int exclude_kernel)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = type;
	a->config = config;
	a->exclude_kernel = exclude_kernel != 0;
	a->exclude_hv = 1;
}

int arch_host_perf_event_open(struct perf_event_attr *a, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

/* Opens what it can; one line on stderr says what is missing and why, and the run continues. */
const char *arch_host_perf_open(void)
{
	unsigned ok = 0, hw_fail = 0;
	int first_errno = 0;
	const char *first_name = 0;
	for (unsigned i = 0; i < N_PERF; i++) {
		struct perf_event_attr a;
		/* user mode only: what perf_event_paranoid <= 2 allows an unprivileged user */
		arch_host_perf_attr(&a, perf_defs[i].type, perf_defs[i].config, 1);
		perf_fd[i] = arch_host_perf_event_open(&a, -1);
		if (perf_fd[i] >= 0) {
			ok++;
		} else if (perf_defs[i].type != PERF_TYPE_SOFTWARE) {
			hw_fail++;
			if (!first_name) {
				first_name = perf_defs[i].name;
				first_errno = errno;
			}
		}
	}
	if (hw_fail) {
		int par = arch_host_perf_paranoid();
		const char *why = (first_errno == EACCES || first_errno == EPERM)
		                          ? "forbidden by kernel.perf_event_paranoid"
		                  : (first_errno == ENOENT || first_errno == EOPNOTSUPP || first_errno == ENODEV)
		                          ? "not supported on this machine (no PMU, or a VM without one)"
		                          : "perf_event_open failed";
		snprintf(perf_status, sizeof perf_status, "%u of %u counters; hardware ones %s (%s: %s; paranoid=%d)",
		         ok, (unsigned)N_PERF, why, first_name, strerror(first_errno), par);
		fprintf(stderr, BM_BOARD_NAME ": notice: hardware counters unavailable: %s; continuing without them\n",
		        perf_status);
	} else {
		snprintf(perf_status, sizeof perf_status, "all %u counters (user space only)", (unsigned)N_PERF);
	}
	return perf_status;
}

static void perf_read_all(uint64_t *v)
{
	for (unsigned i = 0; i < N_PERF; i++) {
		v[i] = 0;
		if (perf_fd[i] >= 0 && read(perf_fd[i], &v[i], sizeof v[i]) != (ssize_t)sizeof v[i])
			v[i] = 0;
	}
}

struct acct {
	const char *name;
	double user_ms, sys_ms, wall_ms;
	uint64_t perf[N_PERF];
};
static struct acct *accts; /* grows with the run: no limit on benchmarks */
static unsigned n_acct, cap_acct;
static struct {
	struct rusage ru;
	uint64_t wall_ns;
	uint64_t perf[N_PERF];
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
	uint64_t p[N_PERF];
	getrusage(RUSAGE_SELF, &ru);
	perf_read_all(p);
	if (n_acct == cap_acct) {
		unsigned cap = cap_acct ? 2 * cap_acct : 64;
		struct acct *a = realloc(accts, cap * sizeof *a);
		if (!a)
			return 0;
		accts = a;
		cap_acct = cap;
	}
	struct acct *a = &accts[n_acct++];
	a->name = window.name;
	a->user_ms = tv_ms(window.ru.ru_utime, ru.ru_utime);
	a->sys_ms = tv_ms(window.ru.ru_stime, ru.ru_stime);
	a->wall_ms = (double)(arch_host_clock_ns() - window.wall_ns) / 1e6;
	for (unsigned i = 0; i < N_PERF; i++)
		a->perf[i] = p[i] - window.perf[i];
	window.name = 0;
	return a;
}

void arch_host_bench_begin(const char *name)
{
	window.name = name;
	getrusage(RUSAGE_SELF, &window.ru);
	perf_read_all(window.perf);
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
	for (unsigned i = 0; i < N_PERF; i++)
		if (perf_fd[i] >= 0) {
			char key[48];
			snprintf(key, sizeof key, "perf_%s", perf_defs[i].name);
			bm_rec_u64(r, key, a->perf[i]);
		}
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
		for (unsigned i = 0; i < N_PERF; i++)
			if (perf_fd[i] >= 0)
				out_fmt(" %14s", perf_defs[i].name);
		bm_out_str("\n");
		for (unsigned k = 0; k < n_acct; k++) {
			const struct acct *a = &accts[k];
			bm_out_padded(a->name, 22, 0);
			out_fmt(" %10.1f", a->wall_ms);
			out_fmt(" %10.1f", a->user_ms);
			out_fmt(" %10.1f", a->sys_ms);
			for (unsigned i = 0; i < N_PERF; i++)
				if (perf_fd[i] >= 0)
					out_fmt(" %14llu", (unsigned long long)a->perf[i]);
			bm_out_str("\n");
		}
	}
	n_acct = 0;
}
