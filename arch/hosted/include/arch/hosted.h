/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted arches (a Linux process): between a CPU part (arch/host-<cpu>), the code they share
 * (arch/hosted: signals as traps, an interval timer as the watchdog, and the process's runtime:
 * main, the command line, per-benchmark OS accounting), and a hosted board (boards/host-linux). */
#ifndef ARCH_HOSTED_H
#define ARCH_HOSTED_H

#include <stdint.h>
#include <time.h>

#include "bm/port.h"

/* The interrupted program counter and stack pointer of a signal's ucontext_t (per CPU). */
uint64_t arch_host_signal_pc(void *ucontext);
uint64_t arch_host_signal_sp(void *ucontext);
/* The watchdog's alarm for hosted boards (.alarm = &arch_host_alarm). */
extern struct bm_alarm arch_host_alarm;
/* Installs the fatal-signal handlers (called by arch_init); their state as arch/hosted/state.c
 * keeps it (which handlers are the kit's, which signals blocked), and putting it back. */
void arch_host_install_traps(void);
uintptr_t arch_host_signals_read(void);
void arch_host_signals_restore(uintptr_t kit);

/* The process's clock, in ns: a hosted board's timer, and what the runtime measures a benchmark's
 * wall time and the timer's resolution and read cost with. Inline, so a timer read is one
 * clock_gettime call. */
#define ARCH_HOST_CLOCK CLOCK_MONOTONIC_RAW
static inline uint64_t arch_host_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(ARCH_HOST_CLOCK, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* For a hosted board's board_desc: facts about the OS, gathered by main() before the run
 * (.facts), and the per-benchmark OS accounting (.bench_begin, .bench_end: getrusage and
 * perf_event_open counts, read outside the timed region, added to each result record). */
extern struct bm_kv arch_host_facts[];
void arch_host_bench_begin(const char *name);
void arch_host_bench_end(const char *name, struct bm_record *r);

#endif
