/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 bare-metal hot path: TSC reads around timed regions, serialized as in Intel's "How to
 * Benchmark Code Execution Times on Intel IA-32 and IA-64" (CPUID; RDTSC at the start, RDTSCP;
 * CPUID at the end), with a runtime fallback to LFENCE; RDTSC where RDTSCP is absent. */
#ifndef ARCH_X86_64_ARCH_H
#define ARCH_X86_64_ARCH_H

#include <stdint.h>

#include "arch/x86.h"

/* 1 when CPUID 0x80000001 EDX bit 27 says RDTSCP exists; set once by arch_init() and never
 * changed afterwards, so the branch on it in arch_snap_end() takes the same way every time. */
extern uint8_t arch_x86_has_rdtscp;

/* The TSC counts nominal (reference) cycles, not core clocks, and there is no instructions-
 * retired counter on QEMU's TCG CPUs (no PMU), so instret is always 0 here. */
struct arch_snap {
	uint64_t cycles;  /* TSC ticks */
	uint64_t instret; /* always 0: not counted (arch_info.instret_counter is NULL) */
};

/* Each snapshot is ONE asm block that reads the TSC and stores it through "=m" operands, so
 * the instructions between two reads are fixed by construction (see arch/README.md).
 * Start: CPUID (leaf 0) waits for every earlier instruction to finish, then RDTSC. CPUID
 * clobbers rbx, which is fine: the image is not PIC. */
static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	__asm__ volatile("xorl %%eax, %%eax\n\t"
	                 "cpuid\n\t"
	                 "rdtsc\n\t"
	                 "shlq $32, %%rdx\n\t"
	                 "orq %%rdx, %%rax\n\t"
	                 "movq %%rax, %[c]\n\t"
	                 "movq $0, %[i]\n\t"
	                 : [c] "=m"(s->cycles), [i] "=m"(s->instret)
	                 :
	                 : "rax", "rbx", "rcx", "rdx");
}

/* End: RDTSCP waits for the body's instructions to execute (but lets later ones start), and
 * the CPUID after it keeps the stores and the next code from moving above the read. Without
 * RDTSCP (QEMU's default qemu64 CPU), LFENCE; RDTSC gives the same ordering on Intel (and on
 * AMD where LFENCE is dispatch-serializing, which every current kernel/firmware sets). The
 * flag test sits before the read, inside the region, but it is the same few instructions on
 * every call, so the overhead subtraction removes it exactly. */
static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	__asm__ volatile("testb $1, %[has]\n\t"
	                 "jz 1f\n\t"
	                 "rdtscp\n\t"
	                 "jmp 2f\n"
	                 "1:\tlfence\n\t"
	                 "rdtsc\n"
	                 "2:\tshlq $32, %%rdx\n\t"
	                 "orq %%rdx, %%rax\n\t"
	                 "movq %%rax, %[c]\n\t"
	                 "movq $0, %[i]\n\t"
	                 "xorl %%eax, %%eax\n\t"
	                 "cpuid\n\t"
	                 : [c] "=m"(s->cycles), [i] "=m"(s->instret)
	                 : [has] "m"(arch_x86_has_rdtscp)
	                 : "rax", "rbx", "rcx", "rdx", "cc");
}


#endif /* ARCH_X86_64_ARCH_H */
