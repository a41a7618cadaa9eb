/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted runtime's entry: the command line becomes a bm_config (run policy: the selection,
 * --min-time, CPU pinning), facts about the OS are gathered for the board, and the core runs the
 * selection (--repetitions times). Measuring, ordering and reporting are core's. */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "arch/hosted.h"
#include "arch/arch.h" /* (arch/hosted_events.h: the events fact) */
#include "bm/harness.h"
#include "runtime.h"

/* Minimum over many back-to-back reads: the cost of one clock_gettime, in ns. */
static uint64_t clock_read_overhead_ns(void)
{
	uint64_t best = UINT64_MAX;
	for (int i = 0; i < 10000; i++) {
		uint64_t a = arch_host_clock_ns(), b = arch_host_clock_ns();
		if (b - a < best)
			best = b - a;
	}
	return best;
}

struct bm_kv arch_host_facts[12]; /* the last stays {0, 0} */
static char fact_res[32], fact_read[32], fact_cpu[64], fact_kernel[200];

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(arch_host_facts, sizeof arch_host_facts / sizeof arch_host_facts[0], key, value);
}

int main(int argc, char **argv)
{
	struct arch_host_options opt = {.cpu = -1, .repetitions = 1};
	arch_host_parse_args(argc, argv, &opt);

	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.select = arch_host_selected;
	cfg.select_ctx = &opt;
	if (opt.list) {
		const struct bm_bench *b = bm_bench_next(0, &cfg);
		if (!b) {
			fprintf(stderr, "baremark: no benchmark matches the filter\n");
			return BM_EXIT_CONFIG;
		}
		for (; b; b = bm_bench_next(b, &cfg))
			printf("%s\n", b->name);
		return 0;
	}
	if (opt.cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(opt.cpu, &set);
		if (sched_setaffinity(0, sizeof set, &set) != 0) {
			fprintf(stderr, "baremark: error: --cpu %d: sched_setaffinity: %s\n", opt.cpu, strerror(errno));
			return BM_EXIT_CONFIG;
		}
		snprintf(fact_cpu, sizeof fact_cpu, "pinned to %d", opt.cpu);
	} else {
		snprintf(fact_cpu, sizeof fact_cpu, "not pinned (%ld online)", sysconf(_SC_NPROCESSORS_ONLN));
	}
	if (opt.samples)
		cfg.samples = opt.samples;
	if (opt.format_set)
		cfg.format = opt.format | (cfg.format & BM_FORMAT_HIST);
	if (opt.no_hist)
		cfg.format &= ~BM_FORMAT_HIST;
	/* On a shared OS, a batch shorter than 100 counter reads mostly measures the read; and a
	 * benchmark sampled for a few milliseconds sees one of the machine's speed states (a VM's
	 * host scheduling, frequency), so the samples span a quarter of a second together by
	 * default (the drift check then sees a change of state instead of reporting one of them). */
	cfg.min_batch_reads = 100;
	double min_time_s = opt.min_time_s > 0 ? opt.min_time_s : ARCH_HOST_DEFAULT_MIN_TIME_S;
	cfg.min_batch_ns = (uint64_t)(min_time_s * 1e9 / cfg.samples + 0.5);

	struct timespec res;
	clock_getres(ARCH_HOST_CLOCK, &res);
	snprintf(fact_res, sizeof fact_res, "%ld", res.tv_sec * 1000000000L + res.tv_nsec);
	snprintf(fact_read, sizeof fact_read, "%llu", (unsigned long long)clock_read_overhead_ns());
	struct utsname u;
	if (uname(&u) == 0)
		snprintf(fact_kernel, sizeof fact_kernel, "%s %s %s", u.sysname, u.release, u.machine);
	add_fact("os", fact_kernel);
	add_fact("clock_res_ns", fact_res);
	add_fact("clock_read_ns", fact_read);
	add_fact("cpu", fact_cpu);
	add_fact("rusage", "per benchmark: wall_ms/user_ms/sys_ms in each result record");
#if BM_EVENT_SLOTS
	add_fact("perf_events", arch_host_events_fact); /* (filled by arch_events_setup, before the meta) */
#endif

	int worst = 0;
	for (uint32_t r = 0; r < opt.repetitions; r++) {
		int st = bm_run(&cfg);
		arch_host_print_accounting((cfg.format & BM_FORMAT_TABLE) != 0);
		if (st > worst)
			worst = st;
		if (st == BM_EXIT_CONFIG)
			break;
	}
	/* Through the exit device (flush, _exit), not a return: exit() past this point means a
	 * benchmark called it (arch/hosted/traps.c). */
	bm_board_exit(worst);
}
