/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 pieces shared by the bare-metal arch (arch/x86_64) and the hosted one
 * (arch/host-x86_64): the control registers, page-table and descriptor bits, CPUID with its
 * leaves and bits, the MSRs, exception vectors and local APIC registers the arch uses (Intel SDM;
 * one definition each), the known loop of the deterministic self-check. start.S includes it for
 * the first part, written for an assembler too. */
#ifndef ARCH_X86_H
#define ARCH_X86_H

/* A constant with its C suffix, bare for the assembler. */
#ifdef __ASSEMBLER__
#define X86_AC(x, suffix) x
#else
#define X86_AC(x, suffix) x##suffix
#endif

/* Control registers and EFER: the bits the kit sets (start.S) and checks after every benchmark. */
#define X86_CR0_MP (X86_AC(1, ull) << 1)
#define X86_CR0_EM (X86_AC(1, ull) << 2)
#define X86_CR0_TS (X86_AC(1, ull) << 3)
#define X86_CR0_WP (X86_AC(1, ull) << 16)
#define X86_CR0_PG (X86_AC(1, ull) << 31)
#define X86_CR4_TSD (X86_AC(1, ull) << 2) /* rdtsc/rdtscp ring 0's only: cleared */
#define X86_CR4_PAE (X86_AC(1, ull) << 5)
#define X86_CR4_OSFXSR (X86_AC(1, ull) << 9)
#define X86_CR4_OSXMMEXCPT (X86_AC(1, ull) << 10)
#define X86_MSR_EFER X86_AC(0xc0000080, u)
#define X86_EFER_LME (X86_AC(1, u) << 8)

/* Page-table entries (4-level paging). */
#define X86_PTE_P X86_AC(0x1, ull)    /* present */
#define X86_PTE_RW X86_AC(0x2, ull)   /* writable */
#define X86_PTE_US X86_AC(0x4, ull)   /* ring 3 may use it (at every level of the walk) */
#define X86_PTE_PWT X86_AC(0x8, ull)  /* write-through */
#define X86_PTE_PCD X86_AC(0x10, ull) /* cache disabled */
#define X86_PTE_A X86_AC(0x20, ull)   /* accessed (the CPU sets it on a walk) */
#define X86_PTE_D X86_AC(0x40, ull)   /* dirty (the CPU sets it on a write through the entry) */
#define X86_PTE_PS X86_AC(0x80, ull)  /* a 2 MiB page (in a page directory) */
/* The 2 MiB blocks, from FLASH's, that get 4 KiB pages (arch/x86_64/paging.c; the board's
 * memory.ld keeps the image within them). */
#define X86_PT_BLOCKS 8
/* start.S's .x86tables in pages: the PML4, the PDPT, 4 PDs, the X86_PT_BLOCKS page tables, the
 * IDT, then the GDT with the TSS. */
#define X86_TABLE_PAGES (8 + X86_PT_BLOCKS)

/* The GDT (start.S): null, 64-bit ring-0 code, ring-0 data, the TSS's 16-byte descriptor, then
 * ring 3's data and 64-bit code; a selector for ring 3 carries RPL 3 (X86_RPL3). */
#define X86_SEL_CODE64 0x08
#define X86_SEL_DATA 0x10
#define X86_SEL_TSS 0x18
#define X86_SEL_USER_DATA 0x28
#define X86_SEL_USER_CODE64 0x30
#define X86_RPL3 3
#define X86_GDT_BYTES (7 * 8)

/* A descriptor's access byte: present (DPL 0), a code or data segment (else a system one), and
 * its type; and the flags of a segment's (G: the limit in 4 KiB pages; L: 64-bit code; DB: 32-bit
 * data). Code and data have the accessed bit set: the CPU would write it, in a GDT read-only. */
#define X86_DESC_PRESENT X86_AC(0x80, u)
#define X86_DESC_DPL3 X86_AC(0x60, u)    /* ring 3 may load the segment, or call the gate with int n */
#define X86_DESC_SEGMENT X86_AC(0x10, u)
#define X86_DESC_CODE_XRA X86_AC(0xb, u) /* execute/read, accessed */
#define X86_DESC_DATA_RWA X86_AC(0x3, u) /* read/write, accessed */
#define X86_DESC_TSS64 X86_AC(0x9, u)    /* an available 64-bit TSS */
#define X86_DESC_INTR64 X86_AC(0xe, u)   /* a 64-bit interrupt gate (IF cleared on entry) */
#define X86_FLAG_G X86_AC(0x8, u)
#define X86_FLAG_DB X86_AC(0x4, u)
#define X86_FLAG_L X86_AC(0x2, u)

/* RFLAGS: the interrupt enable; bit 1, always set. (IOPL, 13:12, stays 0: no port I/O in ring 3.) */
#define X86_RFLAGS_FIXED X86_AC(0x2, u)
#define X86_RFLAGS_IF X86_AC(0x200, u)
#define X86_RFLAGS_DF X86_AC(0x400, u)   /* string instructions count down: the ABI wants it clear */
#define X86_RFLAGS_AC X86_AC(0x40000, u) /* alignment checks (with CR0.AM) */

/* Vectors the kit's handlers and gates use (tables.c): beyond the CPU's exceptions (0-31), the
 * watchdog's (the LAPIC timer), the LAPIC's spurious interrupt, and the two gates ring 3 may call
 * with int n (usermode.S): the kit's services, and the end of a call into benchmark code. */
#define X86_VEC_NO_FPU X86_AC(7, u)          /* device not available (CR0.TS, CR0.EM) */
#define X86_VEC_PAGE_FAULT X86_AC(14, u)     /* CR2 holds the address */
#define X86_VEC_FIRST_IRQ X86_AC(32, u)      /* 0..31 are the CPU's exceptions */
#define X86_VEC_WATCHDOG X86_VEC_FIRST_IRQ   /* the LAPIC timer's */
#define X86_VEC_KIT X86_AC(0x80, u)          /* bm_kit_service(rdi, rsi, rdx), its result in rax */
#define X86_VEC_USER_RETURN X86_AC(0x81, u)  /* arch_user_exit: the call is over, its result in rax */
#define X86_VEC_SPURIOUS X86_AC(0xff, u)     /* the LAPIC's spurious interrupt */

/* A flat segment's descriptor (base 0, limit 0xfffff): the low and the high dword. */
#define X86_FLAT_DESC_LO X86_AC(0x0000ffff, u)
#define X86_FLAT_DESC_HI(type, flags) \
	(((flags) << 20) | (X86_AC(0xf, u) << 16) | ((X86_DESC_PRESENT | X86_DESC_SEGMENT | (type)) << 8))

#ifndef __ASSEMBLER__
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

/* The local APIC's registers (arch.c: its base as the firmware placed it), for what the kit keeps
 * of them after each benchmark (state.c: the task priority and the software enable, either of
 * which would mask the watchdog). */
uint32_t arch_x86_lapic_read(uint32_t off);
void arch_x86_lapic_write(uint32_t off, uint32_t v);

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

#endif /* !__ASSEMBLER__ */
#endif /* ARCH_X86_H */
