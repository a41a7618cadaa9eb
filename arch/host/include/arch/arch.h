/* Hosted "arch" (a Linux process): the CPU's own user-readable cycle counter around timed
 * regions, RDTSC on x86_64 hosts and CNTVCT_EL0 on AArch64 hosts, chosen here by the compiler's
 * target so core/ stays free of #ifdefs. No instructions-retired figure on the hot path. */
#ifndef ARCH_HOST_ARCH_H
#define ARCH_HOST_ARCH_H

#include <stdint.h>

#include "bm/arch_info.h"

/* instret is always 0: a perf_event read() in the timed region costs a system call (~1 us),
 * and rdpmc needs a counter the kernel lets user space read; perf figures are reported per
 * benchmark outside the timed region instead (boards/host-linux). */
struct arch_snap {
	uint64_t cycles;  /* TSC ticks (x86_64) or generic-timer ticks (AArch64) */
	uint64_t instret; /* always 0 */
};

#if defined(__x86_64__)
/* 1 when RDTSCP exists (CPUID 0x80000001 EDX bit 27); set once by arch_init(). */
extern uint8_t arch_host_has_rdtscp;

/* Start: LFENCE; RDTSC. Not CPUID as on bare metal: in a virtual machine CPUID traps to the
 * hypervisor (thousands of cycles, and variable), LFENCE does not. One asm block storing
 * through "=m" operands, so the code between two reads is fixed (see arch/README.md). */
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

/* mov + 1000 x (dec, jnz): exactly 2001 instructions. */
#define ARCH_KNOWN_LOOP_INSNS 2001u
static inline __attribute__((always_inline)) void arch_known_loop(void)
{
	unsigned long n;
	__asm__ volatile("movl $1000, %k0\n"
	                 "1:\tdecl %k0\n\t"
	                 "jnz 1b\n"
	                 : "=&r"(n)
	                 :
	                 : "cc");
}

#elif defined(__aarch64__)
/* CNTVCT_EL0 (the generic timer, readable from EL0 on Linux), ISB before and after so the read
 * neither moves up into earlier code nor lets the body start late. */
static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	uint64_t t;
	__asm__ volatile("isb\n\tmrs %[t], cntvct_el0\n\tstr %[t], %[c]\n\tstr xzr, %[i]\n\t"
	                 : [c] "=m"(s->cycles), [i] "=m"(s->instret), [t] "=&r"(t));
}
static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	uint64_t t;
	__asm__ volatile("isb\n\tmrs %[t], cntvct_el0\n\tisb\n\tstr %[t], %[c]\n\tstr xzr, %[i]\n\t"
	                 : [c] "=m"(s->cycles), [i] "=m"(s->instret), [t] "=&r"(t));
}

/* mov + 1000 x (subs, b.ne): exactly 2001 instructions. */
#define ARCH_KNOWN_LOOP_INSNS 2001u
static inline __attribute__((always_inline)) void arch_known_loop(void)
{
	unsigned long n;
	__asm__ volatile("mov %0, #1000\n"
	                 "1:\tsubs %0, %0, #1\n\t"
	                 "b.ne 1b\n"
	                 : "=&r"(n)
	                 :
	                 : "cc");
}
#else
#error "arch/host: add this host CPU's user-readable cycle counter (x86_64 and aarch64 exist)"
#endif

/* Extra facts for the meta record, set by the hosted board before bm_run() (clock resolution,
 * perf availability, CPU pinning): the key and value must outlive the run. */
void arch_host_add_fact(const char *key, const char *value);

#endif /* ARCH_HOST_ARCH_H */
