/* x86_64 pieces shared by the bare-metal arch (arch/x86_64) and the hosted one
 * (arch/host-x86_64): CPUID with its leaves and bits, the MSRs, exception vectors and local APIC
 * registers the arch uses (Intel SDM; one definition each), the known loop of the deterministic
 * self-check. */
#ifndef ARCH_X86_H
#define ARCH_X86_H

#include <stdint.h>

/* bsr/lzcnt: count leading zeros without a libgcc call. */
#define ARCH_HAS_CLZ64 1

/* CPUID leaves and the bits the kit reads. */
#define CPUID_VENDOR 0x0u              /* a: the highest basic leaf; b, d, c: the vendor */
#define CPUID_FEATURES 0x1u
#define CPUID_1_EDX_APIC (1u << 9)     /* a local APIC */
#define CPUID_PMU 0xau                 /* a: version (7:0); d: fixed counters (4:0) */
#define CPUID_PMU_VERSION(a) ((a) & 0xffu)
#define CPUID_PMU_FIXED(d) ((d) & 0x1fu)
#define CPUID_TSC_CRYSTAL 0x15u        /* TSC = crystal (c) * b / a */
#define CPUID_FREQUENCY 0x16u          /* a: base frequency in MHz (15:0) */
#define CPUID_FREQUENCY_MHZ(a) ((a) & 0xffffu)
#define CPUID_EXT_MAX 0x80000000u      /* a: the highest extended leaf */
#define CPUID_EXT_FEATURES 0x80000001u
#define CPUID_EXT_EDX_RDTSCP 27u       /* bit number */
#define CPUID_POWER 0x80000007u
#define CPUID_POWER_EDX_INVARIANT_TSC 8u /* bit number */

/* MSRs */
#define MSR_APIC_BASE 0x1bu
#define APIC_BASE_ENABLE (1u << 11)
#define APIC_BASE_ADDR 0xfffff000u     /* the registers' page (bits 31:12 of the MSR) */
#define LAPIC_DEFAULT_BASE 0xfee00000u

/* Exception vectors. */
#define X86_VEC_NO_FPU 7u               /* device not available (CR0.TS, CR0.EM) */
#define X86_VEC_PAGE_FAULT 14u          /* CR2 holds the address */
#define X86_VEC_FIRST_IRQ 32u           /* 0..31 are the CPU's exceptions */

/* Control registers: the bits the kit sets (start.S) and checks after every benchmark. */
#define X86_CR0_MP (1ull << 1)
#define X86_CR0_EM (1ull << 2)
#define X86_CR0_TS (1ull << 3)
#define X86_CR0_WP (1ull << 16)
/* MXCSR: the control bits (DAZ, the exception masks, rounding, flush-to-zero); 5:0 are flags. */
#define X86_MXCSR_CONTROL 0xffc0u

/* Local APIC registers (offsets from its base) and values. */
#define LAPIC_TPR 0x080u
#define LAPIC_EOI 0x0b0u
#define LAPIC_SVR 0x0f0u
#define LAPIC_SVR_ENABLE (1u << 8)
#define LAPIC_LVT_TIMER 0x320u
#define LAPIC_LVT_LINT0 0x350u
#define LAPIC_LVT_LINT1 0x360u
#define LAPIC_LVT_ERROR 0x370u
#define LAPIC_TIMER_INIT 0x380u
#define LAPIC_TIMER_CUR 0x390u
#define LAPIC_TIMER_DIV 0x3e0u
#define LAPIC_TIMER_DIV_16 0x3u
#define LVT_MASKED (1u << 16)           /* one-shot, the default mode, is 0 */

struct x86_cpuid {
	uint32_t a, b, c, d;
};

static inline struct x86_cpuid x86_cpuid(uint32_t leaf, uint32_t sub)
{
	struct x86_cpuid r;
	__asm__ volatile("cpuid" : "=a"(r.a), "=b"(r.b), "=c"(r.c), "=d"(r.d) : "a"(leaf), "c"(sub));
	return r;
}

/* RDTSCP exists (absent on QEMU's default qemu64 CPU). */
static inline int x86_has_rdtscp(void)
{
	return x86_cpuid(CPUID_EXT_MAX, 0).a >= CPUID_EXT_FEATURES &&
	       (x86_cpuid(CPUID_EXT_FEATURES, 0).d >> CPUID_EXT_EDX_RDTSCP & 1);
}

/* Invariant TSC: a constant rate through P- and C-states. */
static inline int x86_invariant_tsc(void)
{
	return x86_cpuid(CPUID_EXT_MAX, 0).a >= CPUID_POWER &&
	       (x86_cpuid(CPUID_POWER, 0).d >> CPUID_POWER_EDX_INVARIANT_TSC & 1);
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
