/* Between host-linux's parts: the board (board.c: console, timer, exit, facts), the command line
 * (cli.c), per-benchmark OS accounting and perf counters (perf.c), and main.c. */
#ifndef HOST_LINUX_H
#define HOST_LINUX_H

#include <regex.h>
#include <stdint.h>

#include "bm/port.h"

/* ---- board.c ---- */
void host_console_flush(void);
uint64_t host_clock_ns(void);
/* Adds a board fact (the strings must outlive the run). */
void host_add_fact(const char *key, const char *value);

/* ---- cli.c ---- */
/* Seconds the timed samples of a benchmark last together unless --min-time says otherwise. */
#define HOST_DEFAULT_MIN_TIME_S 0.25

struct host_options {
	regex_t filter;
	int has_filter;
	int list, format_set, cpu, no_hist;
	uint32_t repetitions, samples, format;
	double min_time_s;
};
/* Parses argv; on bad input prints why (naming the option) and exits with BM_EXIT_CONFIG. */
void host_parse_args(int argc, char **argv, struct host_options *opt);
int host_selected(const char *name, void *opt);

/* ---- perf.c ---- */
/* Opens what perf_event_open allows; returns a one-line status for the board facts. */
const char *host_perf_open(void);
void host_bench_begin(const char *name);
void host_bench_end(const char *name, struct bm_record *r);
/* The per-benchmark accounting table of the run just ended, on the console (then forgets it). */
void host_print_accounting(int print);

#endif
