/* SPDX-License-Identifier: Apache-2.0 */
/* Test hooks for the fault-injection image (tests/firmware/faults.c): an undefined instruction,
 * and a misaligned access the core must refuse (x86 allows plain misaligned loads, but an aligned
 * SSE load of a misaligned address raises #GP). Shared with arch/host-x86_64. */
#ifndef ARCH_TEST_H
#define ARCH_TEST_H

#include <stdint.h>

static inline void arch_test_undefined(void)
{
	__asm__ volatile("ud2");
}

#define ARCH_TEST_HAS_MISALIGNED 1
static inline uint32_t arch_test_misaligned(const void *p)
{
	uint32_t v;
	__asm__ volatile("movaps (%1), %%xmm0\n\tmovd %%xmm0, %0" : "=r"(v) : "r"(p) : "xmm0", "memory");
	return v;
}

/* The rounding mode toward zero (SSE's MXCSR.RC and the x87's, = 0b11), left so: the next
 * benchmark's float results would change. */
#define ARCH_TEST_HAS_FP_CONTROL 1
static inline void arch_test_fp_round_toward_zero(void)
{
	uint32_t m;
	uint16_t w;
	__asm__ volatile("stmxcsr %0" : "=m"(m));
	m |= 3u << 13;
	__asm__ volatile("ldmxcsr %0" : : "m"(m));
	__asm__ volatile("fnstcw %0" : "=m"(w));
	w |= 3u << 10;
	__asm__ volatile("fldcw %0" : : "m"(w));
}

#ifndef ARCH_HOST_X86_64_ARCH_H /* (bare metal only: a process may not) */
#include "arch/x86.h"

/* The FPU turned off (CR0.TS: the next x87/SSE instruction faults), left so: the kit's own code
 * uses SSE. */
#define ARCH_TEST_HAS_FP_OFF 1
static inline void arch_test_fp_off(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr0, %0\n\tor $8, %0\n\tmov %0, %%cr0" : "=&r"(v) : : "memory");
}

/* A handler of the benchmark's own for invalid opcodes (vector 6) that skips the 2-byte ud2, in a
 * copy of the kit's IDT it loads and leaves in place: the kit must put its own back before the
 * next benchmark, whose faults would otherwise go unseen. */
#define ARCH_TEST_HAS_VECTOR 1
__asm__(".text\n"
        "arch_test_skip_ud2:\n"
        "addq $2, (%rsp)\n"
        "iretq\n");
static inline void arch_test_vector_replace(void)
{
	extern char arch_test_skip_ud2[];
	static uint64_t idt[2 * 256] __attribute__((aligned(16)));
	struct __attribute__((packed)) {
		uint16_t limit;
		uint64_t base;
	} r;
	__asm__ volatile("sidt %0" : "=m"(r));
	const uint64_t *kit = (const uint64_t *)r.base;
	for (unsigned i = 0; i < 2u * 256u && i < (r.limit + 1u) / 8u; i++)
		idt[i] = kit[i];
	uint64_t h = (uint64_t)(uintptr_t)arch_test_skip_ud2;
	/* vector 6's gate: offset 15:0 and 31:16 in the low quadword, 63:32 in the high one */
	idt[12] = (idt[12] & 0x0000ffffffff0000ull) | (h & 0xffffu) | ((h >> 16 & 0xffffu) << 48);
	idt[13] = (idt[13] & 0xffffffff00000000ull) | (h >> 32);
	r.base = (uint64_t)(uintptr_t)idt;
	__asm__ volatile("lidt %0" : : "m"(r) : "memory");
}

/* Write protection off for ring 0 (CR0.WP), around a write into the kit's tables, then on again:
 * nothing of the CPU's own state shows the write after. */
static inline void arch_test_write_protect(int on)
{
	uint64_t v;
	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	v = on ? v | X86_CR0_WP : v & ~X86_CR0_WP;
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

/* The kit's own IDT patched in place (vector 6's gate to arch_test_skip_ud2, above), write
 * protection off around it: the IDTR unchanged, the next benchmark's undefined instruction would
 * be skipped, unseen. */
#define ARCH_TEST_HAS_IDT_PATCH 1
static inline void arch_test_idt_patch(void)
{
	extern char arch_test_skip_ud2[];
	struct __attribute__((packed)) {
		uint16_t limit;
		uint64_t base;
	} r;
	__asm__ volatile("sidt %0" : "=m"(r));
	volatile uint64_t *gate = (volatile uint64_t *)r.base + 2 * 6;
	uint64_t h = (uint64_t)(uintptr_t)arch_test_skip_ud2;
	arch_test_write_protect(0);
	gate[0] = (gate[0] & 0x0000ffffffff0000ull) | (h & 0xffffu) | ((h >> 16 & 0xffffu) << 48);
	gate[1] = (gate[1] & 0xffffffff00000000ull) | (h >> 32);
	arch_test_write_protect(1);
}

/* A word of the kit's that benchmark code must not reach: in the page of its GDT and TSS, past
 * the TSS (unused: a write there harms nothing when it goes through). */
static inline volatile uint32_t *arch_test_kit_word(void)
{
	extern char arch_x86_tss[];
	return (volatile uint32_t *)(arch_x86_tss + 2048);
}

/* The page of arch_test_kit_word opened to ring 3 (writable, user) in the kit's page tables, write
 * protection off around it: the next benchmark could write over the kit's tables. */
#define ARCH_TEST_HAS_PAGE_OPEN 1
static inline void arch_test_page_open(void)
{
	extern uint64_t arch_x86_pt[X86_PT_BLOCKS][512];
	extern char __flash_origin[];
	uintptr_t a = (uintptr_t)arch_test_kit_word();
	volatile uint64_t *pte = &arch_x86_pt[(a >> 21) - ((uintptr_t)__flash_origin >> 21)][a >> 12 & 511u];
	arch_test_write_protect(0);
	*pte |= X86_PTE_RW | X86_PTE_US;
	arch_test_write_protect(1);
	__asm__ volatile("invlpg (%0)" : : "r"(a) : "memory");
}

/* What only ring 0 may do, from benchmark code, which runs in ring 3 (IOPL 0, no I/O bitmap; the
 * devices' pages supervisor-only): a read of COM1's line status (port I/O), of CR3, and of the
 * local APIC's ID register. Each faults there (#GP, #GP, #PF); ring 0 would only read. */
#define ARCH_TEST_HAS_RING3 1
static inline void arch_test_port_read(void)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"((uint16_t)0x3fd));
}

static inline void arch_test_control_read(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr3, %0" : "=r"(v));
}

static inline uint32_t arch_test_device_read(void)
{
	return *(const volatile uint32_t *)(uintptr_t)0xfee00020u;
}

/* Masks interrupts and returns, as a driver's init may leave them: the kit must unmask them
 * for its watchdog before the next benchmark. */
#define ARCH_TEST_HAS_IRQ_OFF 1
static inline void arch_test_irq_off(void)
{
	__asm__ volatile("cli" : : : "memory");
}

/* Leaves the direction flag set (string instructions counting down), as hand-written assembly
 * that forgets its cld may: the kit's own string copies would run backwards. */
#define ARCH_TEST_HAS_DIRECTION_FLAG 1
static inline void arch_test_direction_down(void)
{
	__asm__ volatile("std" : : : "memory", "cc");
}

/* Raises the local APIC's task priority above the watchdog's vector, as an RTOS's critical section
 * left open would: every later hang would go unended. */
#define ARCH_TEST_HAS_IRQ_PRIORITY 1
static inline void arch_test_irq_priority_raise(void)
{
	arch_x86_lapic_write(LAPIC_TPR, 0xf0u);
}
#endif

/* Ends the call into benchmark code from wherever its code is, with result v: the interrupt that
 * arch_user_exit raises (a body that returns to the kit from within its batch, or forges one). */
#define ARCH_TEST_HAS_USER_RETURN 1
static inline __attribute__((noreturn)) void arch_test_user_return(uintptr_t v)
{
	__asm__ volatile("int %1" : : "a"(v), "i"(X86_VEC_USER_RETURN) : "memory");
	__builtin_unreachable();
}

#endif
