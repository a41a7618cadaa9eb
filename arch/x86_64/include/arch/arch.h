/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 bare-metal hot path: TSC reads around timed regions, serialized as in Intel's "How to
 * Benchmark Code Execution Times on Intel IA-32 and IA-64" (CPUID; RDTSC at the start, RDTSCP;
 * CPUID at the end), with a runtime fallback to LFENCE; RDTSC where RDTSCP is absent. */
#ifndef ARCH_X86_64_ARCH_H
#define ARCH_X86_64_ARCH_H

#include <stdint.h>

#include "arch/x86.h"

/* 1 when CPUID 0x80000001 EDX bit 27 says RDTSCP exists; set once before the C start (paging.c),
 * read-only after, so the branch on it in arch_snap_end() takes the same way every time. It lies
 * in FLASH (.ro_after_init), where ring 3, which reads the TSC too, may read it. */
extern uint8_t arch_x86_has_rdtscp;
/* The tables (start.S's .x86tables, from arch_x86_pml4 on), and the kit's copy of them as paging.c leaves them (state.c puts back what a benchmark
 * changed), in FLASH (.ro_after_init) too: out of the kit's .bss, and as read-only as the tables. */
extern uint64_t arch_x86_tables[X86_TABLE_PAGES * 512], arch_x86_tables_kept[X86_TABLE_PAGES * 512];

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

/* Benchmark code runs in ring 3 (bm/port.h, ARCH_USER_ISOLATED: the build defines it from
 * arch.cmake's BM_USER_ISOLATED; usermode.S), where it reads the TSC (CR4.TSD clear) and nothing of
 * the kit's memory; it asks the kit with int $X86_VEC_KIT, whose gate runs bm_kit_service: C that
 * may change what the SysV ABI lets a callee change (the call says so; no x87 value lives across
 * it, and the kit's C uses no x87). (A library build, which owns no IDT, defines
 * ARCH_USER_ISOLATED 0: then both calls are plain, bm/services.h.) */
#if ARCH_USER_ISOLATED
uintptr_t arch_user_call(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a0, uintptr_t a1);
static inline uintptr_t arch_kit_call(unsigned service, uintptr_t a, uintptr_t b)
{
	uintptr_t r, s = service;
	__asm__ volatile("int %[v]"
	                 : "=a"(r), "+D"(s), "+S"(a), "+d"(b)
	                 : [v] "i"(X86_VEC_KIT)
	                 : "memory", "cc", "rcx", "r8", "r9", "r10", "r11", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4",
	                   "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
	return r;
}
#endif

#endif /* ARCH_X86_64_ARCH_H */
