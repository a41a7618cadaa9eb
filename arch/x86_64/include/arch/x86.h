/* x86_64 pieces shared by the bare-metal arch (arch/x86_64) and the hosted one
 * (arch/host-x86_64): CPUID, the known loop of the deterministic self-check. */
#ifndef ARCH_X86_H
#define ARCH_X86_H

#include <stdint.h>

/* bsr/lzcnt: count leading zeros without a libgcc call. */
#define ARCH_HAS_CLZ64 1

struct x86_cpuid {
	uint32_t a, b, c, d;
};

static inline struct x86_cpuid x86_cpuid(uint32_t leaf, uint32_t sub)
{
	struct x86_cpuid r;
	__asm__ volatile("cpuid" : "=a"(r.a), "=b"(r.b), "=c"(r.c), "=d"(r.d) : "a"(leaf), "c"(sub));
	return r;
}

/* RDTSCP exists: CPUID 0x80000001 EDX bit 27 (absent on QEMU's default qemu64 CPU). */
static inline int x86_has_rdtscp(void)
{
	return x86_cpuid(0x80000000u, 0).a >= 0x80000001u && (x86_cpuid(0x80000001u, 0).d >> 27 & 1);
}

/* Invariant TSC (constant rate through P- and C-states): CPUID 0x80000007 EDX bit 8. */
static inline int x86_invariant_tsc(void)
{
	return x86_cpuid(0x80000000u, 0).a >= 0x80000007u && (x86_cpuid(0x80000007u, 0).d >> 8 & 1);
}

/* mov + 1000 x (dec, jnz): exactly 2001 instructions retired. Under QEMU -icount shift=0 the
 * TSC advances exactly one tick per instruction, so this is also 2001 TSC ticks there. */
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

#endif /* ARCH_X86_H */
