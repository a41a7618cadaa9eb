/* Between the hosted runtime's parts: the command line (cli.c), per-benchmark OS accounting and
 * perf counters (perf.c), the event group (events.c), and main.c. What a hosted board uses of
 * them is in arch/hosted.h. */
#ifndef ARCH_HOSTED_RUNTIME_H
#define ARCH_HOSTED_RUNTIME_H

#include <regex.h>
#include <stdint.h>

/* ---- cli.c ---- */
/* Seconds the timed samples of a benchmark last together unless --min-time says otherwise. */
#define ARCH_HOST_DEFAULT_MIN_TIME_S 0.25

struct arch_host_options {
	regex_t filter;
	int has_filter;
	int list, format_set, cpu, no_hist;
	uint32_t repetitions, samples, format;
	double min_time_s;
};
/* Parses argv; on bad input prints why (naming the option) and exits with BM_EXIT_CONFIG. */
void arch_host_parse_args(int argc, char **argv, struct arch_host_options *opt);
/* bm_config.select: the --filter regex (every benchmark without one). */
int arch_host_selected(const char *name, void *opt);

/* ---- perf.c ---- */
/* Opens what perf_event_open allows; returns a one-line status for the board facts. */
const char *arch_host_perf_open(void);
/* kernel.perf_event_paranoid (-99: unreadable); an attribute for this thread's counter of
 * (type, config), the hypervisor excluded, the kernel where exclude_kernel; perf_event_open(2) for
 * this thread on any CPU, in group_fd's group (-1: none), close-on-exec. */
struct perf_event_attr;
int arch_host_perf_paranoid(void);
void arch_host_perf_attr(struct perf_event_attr *a, uint32_t type, uint64_t config, int exclude_kernel);
int arch_host_perf_event_open(struct perf_event_attr *a, int group_fd);
/* The per-benchmark accounting table of the run just ended, on the console (then forgets it). */
void arch_host_print_accounting(int print);

#endif
