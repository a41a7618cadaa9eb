/* SPDX-License-Identifier: Apache-2.0 */
/* Between the hosted runtime's parts: the command line (cli.c), per-benchmark OS accounting
 * (rusage.c), the event group (events.c), and main.c. What a hosted board uses of them is in
 * arch/hosted.h. */
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

/* ---- rusage.c ---- */
/* The per-benchmark accounting table of the run just ended, on the console (then forgets it). */
void arch_host_print_accounting(int print);

/* ---- events.c ---- */
/* The perf group as the kit set it up (0), else why not (disabled, reset), and the group counting
 * again: arch/hosted/state.c's entry for it (struct bm_state_reg, bm/services.h). */
struct bm_state_reg;
uintptr_t arch_host_events_state(const struct bm_state_reg *r);
void arch_host_events_state_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now);

#endif
