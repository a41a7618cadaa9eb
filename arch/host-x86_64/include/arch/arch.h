/* SPDX-License-Identifier: Apache-2.0 */
/* Hosted x86_64 hot path (a Linux process): the TSC around timed regions. Not CPUID as on bare
 * metal: in a virtual machine CPUID traps to the hypervisor (thousands of cycles, and variable),
 * LFENCE does not. No instructions-retired figure: a perf_event read() in the timed region costs
 * a system call, so host-linux reports perf counts per benchmark, outside it; with BM_EVENTS the
 * event snapshots read the run's perf group just outside the cycle reads (arch/hosted_events.h). */
#ifndef ARCH_HOST_X86_64_ARCH_H
#define ARCH_HOST_X86_64_ARCH_H

#include <stdint.h>

#include "bm/event_slots.h"

#include "arch/x86.h" /* CPUID, the known loop, ARCH_HAS_CLZ64 */

/* 1 when RDTSCP exists; set once by arch_init(). */
extern uint8_t arch_host_has_rdtscp;

struct arch_snap {
	uint64_t cycles;  /* TSC ticks */
	uint64_t instret; /* always 0 */
#if BM_EVENT_SLOTS
	uint64_t ev[BM_EVENT_SLOTS]; /* the perf group's counts (arch/hosted_events.h) */
#endif
};

/* Start: LFENCE; RDTSC. One asm block storing through "=m" operands, so the code between two
 * reads is fixed (see bm/port.h). */
static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	__asm__ volatile("lfence\n\t"
	                 "rdtsc\n\t"
	                 "shlq $32, %%rdx\n\t"
	                 "orq %%rdx, %%rax\n\t"
	                 "movq %%rax, %[c]\n\t"
	                 "movq $0, %[i]\n\t"
	                 : [c] "=m"(s->cycles), [i] "=m"(s->instret)
	                 :
	                 : "rax", "rdx");
}

/* End: RDTSCP (waits for the body) then LFENCE (keeps later code below the read); LFENCE;
 * RDTSC; LFENCE where RDTSCP is absent. The flag test is the same code on every call. */
static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	__asm__ volatile("testb $1, %[has]\n\t"
	                 "jz 1f\n\t"
	                 "rdtscp\n\t"
	                 "jmp 2f\n"
	                 "1:\tlfence\n\t"
	                 "rdtsc\n"
	                 "2:\tlfence\n\t"
	                 "shlq $32, %%rdx\n\t"
	                 "orq %%rdx, %%rax\n\t"
	                 "movq %%rax, %[c]\n\t"
	                 "movq $0, %[i]\n\t"
	                 : [c] "=m"(s->cycles), [i] "=m"(s->instret)
	                 : [has] "m"(arch_host_has_rdtscp)
	                 : "rax", "rcx", "rdx", "cc");
}

#include "arch/hosted_events.h" /* arch_snap_begin_ev/end_ev: the perf group read around them */

#endif /* ARCH_HOST_X86_64_ARCH_H */
