/* host-linux: the kit as a normal Linux program. Parses the command line into a bm_config,
 * provides the board (buffered stdout console, CLOCK_MONOTONIC_RAW as the timer, exit), turns
 * fatal signals into the kit's trap report, and adds per-benchmark getrusage/perf figures. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <regex.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#include "arch/arch.h"
#include "bm/record.h"
#include "bm/bench.h"
#include "bm/board.h"
#include "bm/harness.h"
#include "bm/out.h"

/* The core names the C library in the meta record; bare-metal builds get it from core/libc. */
#define STR2(x) #x
#define STR(x) STR2(x)
#if defined(__GLIBC__)
const char bm_libc_name[] = "glibc " STR(__GLIBC__) "." STR(__GLIBC_MINOR__);
#else
const char bm_libc_name[] = "system libc (not glibc)";
#endif

/* ---- console: our own buffer, so the trap handler can flush it with write(2) ---- */

static char out_buf[1 << 16];
static size_t out_len;

static void out_flush(void)
{
	size_t off = 0;
	while (off < out_len) {
		ssize_t n = write(STDOUT_FILENO, out_buf + off, out_len - off);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			break;
		}
		off += (size_t)n;
	}
	out_len = 0;
}

static void host_putc(char c)
{
	out_buf[out_len++] = c;
	if (c == '\n' || out_len == sizeof out_buf)
		out_flush();
}

static uint64_t host_timer_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void host_exit(int status)
{
	out_flush();
	_exit(status);
}

static void host_bench_begin(const char *name);
static void host_bench_end(const char *name, struct bm_record *r);

const struct bm_board board_desc = {
	.name = "host-linux",
	.console = "stdout",
	.init = 0,
	.putc = host_putc,
	.timer_ticks = host_timer_ns,
	.timer_hz = 1000000000u,
	.timer_name = "clock_gettime(CLOCK_MONOTONIC_RAW)",
	.exit = host_exit,
	.bench_begin = host_bench_begin,
	.bench_end = host_bench_end,
};

/* ---- traps: fatal signals end the run like a bare-metal exception (status 3) ---- */

static void say(const char *s)
{
	while (*s)
		host_putc(*s++);
}

static void say_hex(uint64_t v)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_hex(b, v, 16);
	say("0x");
	say(b);
}

/* Only async-signal-safe work here: our buffer, bm_fmt_hex (pure code) and write(2). */
static void on_fatal_signal(int sig, siginfo_t *si, void *ctx)
{
	const char *what = sig == SIGILL    ? "illegal instruction (SIGILL)"
	                   : sig == SIGSEGV ? "segmentation fault (SIGSEGV)"
	                   : sig == SIGBUS  ? "bus error (SIGBUS)"
	                   : sig == SIGFPE  ? "arithmetic exception (SIGFPE)"
	                                    : "fatal signal";
	uint64_t pc = 0;
#if defined(__x86_64__)
	pc = (uint64_t)((ucontext_t *)ctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
	pc = (uint64_t)((ucontext_t *)ctx)->uc_mcontext.pc;
#else
	(void)ctx;
#endif
	say("\n*** TRAP: ");
	say(what);
	say(" at ");
	say_hex(pc);
	say(" (si_addr ");
	say_hex((uint64_t)(uintptr_t)si->si_addr);
	say(")\n*** the run is aborted (exit status 3)\n");
	host_exit(BM_EXIT_TRAP);
}

static void install_trap_handlers(void)
{
	/* An alternate stack, so a stack overflow's SIGSEGV can still be reported. */
	static char alt[64 * 1024];
	stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
	sigaltstack(&ss, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	const int sigs[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP};
	for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, 0);
}

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

static int read_paranoid(void)
{
	int fd = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY);
	char b[16] = {0};
	if (fd < 0)
		return -99;
	ssize_t n = read(fd, b, sizeof b - 1);
	close(fd);
	return n > 0 ? atoi(b) : -99;
}

/* Opens what it can; one line says what is missing and why, and the run continues. */
static void perf_open_all(int quiet)
{
	unsigned ok = 0, hw_fail = 0;
	int first_errno = 0;
	const char *first_name = 0;
	for (unsigned i = 0; i < N_PERF; i++) {
		struct perf_event_attr a;
		memset(&a, 0, sizeof a);
		a.size = sizeof a;
		a.type = perf_defs[i].type;
		a.config = perf_defs[i].config;
		a.exclude_kernel = 1; /* what perf_event_paranoid <= 2 allows an unprivileged user */
		a.exclude_hv = 1;
		perf_fd[i] = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
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
		int par = read_paranoid();
		const char *why = (first_errno == EACCES || first_errno == EPERM)
		                          ? "forbidden by kernel.perf_event_paranoid"
		                  : (first_errno == ENOENT || first_errno == EOPNOTSUPP || first_errno == ENODEV)
		                          ? "not supported on this machine (no PMU, or a VM without one)"
		                          : "perf_event_open failed";
		snprintf(perf_status, sizeof perf_status, "%u of %u counters; hardware ones %s (%s: %s; paranoid=%d)",
		         ok, (unsigned)N_PERF, why, first_name, strerror(first_errno), par);
		if (!quiet) {
			fprintf(stderr, "host-linux: notice: hardware counters unavailable: %s; continuing without them\n",
			        perf_status);
		}
	} else {
		snprintf(perf_status, sizeof perf_status, "all %u counters (user space only)", (unsigned)N_PERF);
	}
}

static void perf_read_all(uint64_t *v)
{
	for (unsigned i = 0; i < N_PERF; i++) {
		v[i] = 0;
		if (perf_fd[i] >= 0 && read(perf_fd[i], &v[i], sizeof v[i]) != (ssize_t)sizeof v[i])
			v[i] = 0;
	}
}

/* ---- per-benchmark accounting ----
 * The board's bench_begin/bench_end hooks bracket each benchmark (setup, calibration, warm-up,
 * samples, verification): getrusage and the perf counters are read at both ends, and the
 * differences go into the benchmark's result record and a table after the run. */

#define MAX_ACCT 256
struct acct {
	const char *name;
	double user_ms, sys_ms, wall_ms;
	uint64_t perf[N_PERF];
};
static struct acct accts[MAX_ACCT];
static unsigned n_acct;
static struct {
	struct rusage ru;
	uint64_t wall_ns;
	uint64_t perf[N_PERF];
	const char *name;
} window;

struct options {
	regex_t filter;
	int has_filter;
	const char *filter_src;
	int list, format_set, cpu;
	uint32_t repetitions, samples, format;
	double min_time_s;
};
static struct options opt = {.cpu = -1, .repetitions = 1};

static double tv_ms(struct timeval a, struct timeval b)
{
	return (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_usec - a.tv_usec) / 1e3;
}

static void window_close(void)
{
	if (!window.name || n_acct >= MAX_ACCT)
		return;
	struct rusage ru;
	uint64_t p[N_PERF];
	getrusage(RUSAGE_SELF, &ru);
	perf_read_all(p);
	struct acct *a = &accts[n_acct++];
	a->name = window.name;
	a->user_ms = tv_ms(window.ru.ru_utime, ru.ru_utime);
	a->sys_ms = tv_ms(window.ru.ru_stime, ru.ru_stime);
	a->wall_ms = (double)(host_timer_ns() - window.wall_ns) / 1e6;
	for (unsigned i = 0; i < N_PERF; i++)
		a->perf[i] = p[i] - window.perf[i];
	window.name = 0;
}

static void window_open(const char *name)
{
	window.name = name;
	getrusage(RUSAGE_SELF, &window.ru);
	perf_read_all(window.perf);
	window.wall_ns = host_timer_ns();
}

static int matches(const char *name)
{
	return !opt.has_filter || regexec(&opt.filter, name, 0, 0, 0) == 0;
}

static int select_bench(const char *name, void *ctx)
{
	(void)ctx;
	return matches(name);
}

static void host_bench_begin(const char *name)
{
	window_open(name);
}

/* Times in the record are ms with 3 decimals (i.e. microsecond resolution). */
static void host_bench_end(const char *name, struct bm_record *r)
{
	(void)name;
	unsigned before = n_acct;
	window_close();
	if (!r || n_acct == before)
		return;
	const struct acct *a = &accts[n_acct - 1];
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

static void print_accounting(void)
{
	window_close();
	if (!n_acct)
		return;
	printf("\nhost: per benchmark, whole run (calibration, warm-up, samples, reporting); getrusage CPU time\n");
	printf("%-22s %10s %10s %10s", "benchmark", "wall_ms", "user_ms", "sys_ms");
	for (unsigned i = 0; i < N_PERF; i++)
		if (perf_fd[i] >= 0)
			printf(" %14s", perf_defs[i].name);
	printf("\n");
	for (unsigned k = 0; k < n_acct; k++) {
		const struct acct *a = &accts[k];
		printf("%-22s %10.1f %10.1f %10.1f", a->name, a->wall_ms, a->user_ms, a->sys_ms);
		for (unsigned i = 0; i < N_PERF; i++)
			if (perf_fd[i] >= 0)
				printf(" %14llu", (unsigned long long)a->perf[i]);
		printf("\n");
	}
	fflush(stdout);
	n_acct = 0;
}

/* ---- clocks ---- */

/* Minimum over many back-to-back reads: the cost of one clock_gettime, in ns. */
static uint64_t clock_read_overhead_ns(void)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 10000; i++) {
		uint64_t a = host_timer_ns(), b = host_timer_ns();
		if (b - a < best)
			best = b - a;
	}
	return best;
}

/* Counter ticks per second over 50 ms of CLOCK_MONOTONIC_RAW (for --min-time). */
static double counter_hz(void)
{
	struct arch_snap a, b;
	uint64_t t0 = host_timer_ns();
	arch_snap_begin(&a);
	while (host_timer_ns() - t0 < 50000000u)
		;
	uint64_t t1 = host_timer_ns();
	arch_snap_end(&b);
	return (double)(b.cycles - a.cycles) * 1e9 / (double)(t1 - t0);
}

/* Minimum counter ticks for one begin/end pair around nothing. */
static uint64_t counter_read_overhead(void)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 10000; i++) {
		struct arch_snap a, b;
		arch_snap_begin(&a);
		arch_snap_end(&b);
		if (b.cycles - a.cycles < best)
			best = b.cycles - a.cycles;
	}
	return best;
}

/* ---- command line ---- */

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: baremark [options]\n"
	        "Runs the baremark benchmarks as a Linux process (the same core, output and records as a board).\n\n"
	        "  --filter REGEX       run only benchmarks whose name matches REGEX (POSIX extended)\n"
	        "  --list               list the benchmarks (after --filter) and exit\n"
	        "  --repetitions N      run the whole selection N times (N complete record sets; default 1)\n"
	        "  --min-time SECONDS   each timed batch lasts at least this long (calibration target; default:\n"
	        "                       BM_MIN_BATCH_CYCLES, raised to 100 x the counter read overhead)\n"
	        "  --samples N          timed batches per benchmark (default %u)\n"
	        "  --format console|json|both  console = table and progress only, json = records only\n"
	        "                       (default both, like a board)\n"
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

static void parse_args(int argc, char **argv)
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
		if (!strcmp(name, "--help") || !strcmp(name, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(name, "--list")) {
			opt.list = 1;
		} else if (!strcmp(name, "--filter")) {
			const char *re = NEED_VALUE();
			if (opt.has_filter)
				regfree(&opt.filter);
			int rc = regcomp(&opt.filter, re, REG_EXTENDED | REG_NOSUB);
			if (rc) {
				char msg[128];
				regerror(rc, &opt.filter, msg, sizeof msg);
				bad("--filter '%s': %s", re, msg);
			}
			opt.has_filter = 1;
			opt.filter_src = re;
		} else if (!strcmp(name, "--repetitions")) {
			opt.repetitions = parse_u32(name, NEED_VALUE(), 1, 1000000);
		} else if (!strcmp(name, "--samples")) {
			opt.samples = parse_u32(name, NEED_VALUE(), 1, 100000000);
		} else if (!strcmp(name, "--min-time")) {
			const char *s = NEED_VALUE();
			char *end;
			errno = 0;
			double v = strtod(s, &end);
			if (end != s && *end == 's' && end[1] == 0)
				end++;
			if (errno || end == s || *end || !(v > 0) || v > 3600)
				bad("--min-time: bad value '%s' (seconds, e.g. 0.0001 or 1e-4s; 0 < t <= 3600)%s", s, "");
			opt.min_time_s = v;
		} else if (!strcmp(name, "--format")) {
			const char *s = NEED_VALUE();
			if (!strcmp(s, "console"))
				opt.format = BM_FORMAT_TABLE;
			else if (!strcmp(s, "json"))
				opt.format = BM_FORMAT_RECORDS;
			else if (!strcmp(s, "both"))
				opt.format = BM_FORMAT_TABLE | BM_FORMAT_RECORDS;
			else
				bad("--format: '%s' is not console, json or both%s", s, "");
			opt.format_set = 1;
		} else if (!strcmp(name, "--cpu")) {
			opt.cpu = (int)parse_u32(name, NEED_VALUE(), 0, CPU_SETSIZE - 1);
		} else {
			bad("unknown option '%s'%s", a, "");
		}
#undef NEED_VALUE
	}
}

static int by_name(const void *a, const void *b)
{
	const struct bm_bench *x = *(const struct bm_bench *const *)a;
	const struct bm_bench *y = *(const struct bm_bench *const *)b;
	return strcmp(x->name, y->name);
}

static int list_benchmarks(void)
{
	const struct bm_bench *v[1024];
	unsigned n = 0;
	for (const struct bm_bench *const *p = __start_bm_bench; p < __stop_bm_bench && n < 1024; p++)
		if (matches((*p)->name))
			v[n++] = *p;
	qsort(v, n, sizeof v[0], by_name);
	for (unsigned i = 0; i < n; i++)
		printf("%s\n", v[i]->name);
	if (!n) {
		fprintf(stderr, "baremark: no benchmark matches the filter\n");
		return BM_EXIT_CONFIG;
	}
	return 0;
}

static char fact_res[32], fact_read[32], fact_cpu[64], fact_kernel[200], fact_batch[96];

int main(int argc, char **argv)
{
	parse_args(argc, argv);
	install_trap_handlers();
	if (opt.list)
		return list_benchmarks();

	if (opt.cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(opt.cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0) {
			char n[16];
			snprintf(n, sizeof n, "%d", opt.cpu);
			bad("--cpu %s: sched_setaffinity: %s", n, strerror(errno));
		}
		snprintf(fact_cpu, sizeof fact_cpu, "pinned to %d", opt.cpu);
	} else {
		snprintf(fact_cpu, sizeof fact_cpu, "not pinned (%ld online)", sysconf(_SC_NPROCESSORS_ONLN));
	}

	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.select = select_bench;
	if (opt.samples)
		cfg.samples = opt.samples;
	if (opt.format_set)
		cfg.format = opt.format;
	int table = (cfg.format & BM_FORMAT_TABLE) != 0;

	/* Clock facts: resolution and read cost of the board timer, and of the cycle counter. */
	struct timespec res;
	clock_getres(CLOCK_MONOTONIC_RAW, &res);
	uint64_t read_ns = clock_read_overhead_ns();
	snprintf(fact_res, sizeof fact_res, "%ld", res.tv_sec * 1000000000L + res.tv_nsec);
	snprintf(fact_read, sizeof fact_read, "%llu", (unsigned long long)read_ns);
	uint64_t snap_oh = counter_read_overhead();
	double hz = counter_hz();
	/* A batch shorter than 100 read costs is mostly measuring the read: raise the default
	 * target to that, and warn when --min-time asks for less. */
	uint64_t floor_cycles = 100 * snap_oh;
	if (opt.min_time_s > 0) {
		cfg.min_batch_cycles = (uint64_t)(opt.min_time_s * hz);
		if (cfg.min_batch_cycles < floor_cycles)
			fprintf(stderr,
			        "host-linux: warning: --min-time %g s is %llu counter ticks, under 100 x the counter read "
			        "overhead (%llu ticks): the read dominates such intervals\n",
			        opt.min_time_s, (unsigned long long)cfg.min_batch_cycles, (unsigned long long)snap_oh);
	} else if (cfg.min_batch_cycles < floor_cycles) {
		cfg.min_batch_cycles = floor_cycles;
	}
	snprintf(fact_batch, sizeof fact_batch, "%llu ticks (100 x read pair %llu ticks)",
	         (unsigned long long)floor_cycles, (unsigned long long)snap_oh);
	if ((double)read_ns * 100 > 1e9 * (double)cfg.min_batch_cycles / hz)
		fprintf(stderr,
		        "host-linux: warning: a batch of %llu ticks (%.0f ns) is under 100 x the clock_gettime read "
		        "overhead (%llu ns): ns figures rest on the cycle counter, not on the clock\n",
		        (unsigned long long)cfg.min_batch_cycles, 1e9 * (double)cfg.min_batch_cycles / hz,
		        (unsigned long long)read_ns);
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(fact_kernel, sizeof fact_kernel, "%s %s %s", u.sysname, u.release, u.machine);
	perf_open_all(0);

	arch_host_add_fact("os", fact_kernel);
	arch_host_add_fact("clock_res_ns", fact_res);
	arch_host_add_fact("clock_read_ns", fact_read);
	arch_host_add_fact("min_batch_floor", fact_batch);
	arch_host_add_fact("cpu", fact_cpu);
	arch_host_add_fact("perf", perf_status);
	arch_host_add_fact("rusage", "per benchmark: wall_ms/user_ms/sys_ms and perf_* in each result record, and a table after the run");

	int worst = 0;
	for (uint32_t r = 0; r < opt.repetitions; r++) {
		int st = bm_run(&cfg);
		out_flush();
		if (table)
			print_accounting();
		else
			window_close(), n_acct = 0;
		if (st > worst)
			worst = st;
		if (st == BM_EXIT_CONFIG)
			break;
	}
	out_flush();
	return worst;
}
