/* SPDX-License-Identifier: Apache-2.0 */
/* Test hooks for the fault-injection image (tests/firmware/faults.c): an undefined instruction
 * (UDF), and a misaligned access the core must refuse: ARMv7-M/ARMv8-M allow plain misaligned
 * LDR but never a misaligned LDREX; ARMv6-M allows no misaligned access at all. */
#ifndef ARCH_TEST_H
#define ARCH_TEST_H

#include <stdint.h>

#include "arch/svc.h"

static inline void arch_test_undefined(void)
{
	__asm__ volatile("udf #0");
}

#define ARCH_TEST_HAS_MISALIGNED 1
static inline uint32_t arch_test_misaligned(const void *p)
{
	uint32_t v;
#ifdef __thumb2__
	__asm__ volatile("ldrex %0, [%1]\n\tclrex" : "=r"(v) : "r"(p) : "memory");
#else
	__asm__ volatile(".syntax unified\n\tldr %0, [%1]" : "=l"(v) : "l"(p) : "memory");
#endif
	return v;
}

/* Masks interrupts and returns, as a driver's init may leave them: the kit must unmask them
 * for its watchdog before the next benchmark. */
#define ARCH_TEST_HAS_IRQ_OFF 1
static inline void arch_test_irq_off(void)
{
	__asm__ volatile("cpsid i" : : : "memory");
}

/* Leaves an interrupt source behind, as a benchmark's driver might: interrupts masked, NVIC
 * interrupt 0 enabled and pending. The kit must not take it in the next benchmark. */
#define ARCH_TEST_HAS_IRQ_LEFTOVER 1
static inline void arch_test_irq_leftover(void)
{
	__asm__ volatile("cpsid i" : : : "memory");
	*(volatile uint32_t *)0xE000E100u = 1u; /* NVIC_ISER0 */
	*(volatile uint32_t *)0xE000E200u = 1u; /* NVIC_ISPR0 */
}

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__) || \
	defined(__ARM_ARCH_8_1M_MAIN__)
/* A vector table of the benchmark's own (a copy of the kit's) whose UsageFault entry skips the
 * faulting 2-byte instruction (UDF), installed and left in place: the kit must put its own VTOR
 * back before the next benchmark, whose faults would otherwise go unseen. (ARMv6-M has no VTOR.) */
#define ARCH_TEST_HAS_VECTOR 1
__asm__(".section .text.arch_test_skip_udf, \"ax\", %progbits\n"
        ".thumb\n"
        ".thumb_func\n"
        "arch_test_skip_udf:\n"
        "tst lr, #4\n"
        "ite eq\n"
        "mrseq r0, msp\n"
        "mrsne r0, psp\n"
        "ldr r1, [r0, #24]\n"  /* the stacked pc */
        "adds r1, r1, #2\n"
        "str r1, [r0, #24]\n"
        "ldr r0, =0xE000ED28\n" /* CFSR: UNDEFINSTR (bit 16) cleared */
        "mov r1, #0x10000\n"
        "str r1, [r0]\n"
        "bx lr\n"
        ".pool\n"
        ".text\n");
static inline void arch_test_vector_replace(void)
{
	extern char arch_test_skip_udf[];
	static uint32_t table[128] __attribute__((aligned(512)));
	const uint32_t *kit = (const uint32_t *)*(volatile uint32_t *)0xE000ED08u; /* VTOR */
	for (unsigned i = 0; i < 128; i++)
		table[i] = kit[i];
	table[6] = (uint32_t)(uintptr_t)arch_test_skip_udf | 1u; /* UsageFault */
	__asm__ volatile("dsb" : : : "memory");
	*(volatile uint32_t *)0xE000ED08u = (uint32_t)(uintptr_t)table;
	__asm__ volatile("dsb\n\tisb" : : : "memory");
}
#endif

#if defined(__ARM_ARCH_7M__) || defined(__ARM_ARCH_7EM__) || defined(__ARM_ARCH_8M_MAIN__) || \
	defined(__ARM_ARCH_8_1M_MAIN__)
/* MPU region 0 disabled (PMSAv7: the RAM benchmark code may use; PMSAv8: its stack), left so by a
 * privileged benchmark: the kit must put its regions back before the next benchmark, whose own
 * memory would otherwise fault. */
#define ARCH_TEST_HAS_MPU_REGION_OFF 1
static inline void arch_test_mpu_region_off(void)
{
	*(volatile uint32_t *)0xE000ED98u = 0;   /* MPU_RNR */
	*(volatile uint32_t *)0xE000EDA0u &= ~1u; /* MPU_RASR (PMSAv8: RLAR) ENABLE */
	__asm__ volatile("dsb\n\tisb" : : : "memory");
}

/* FAULTMASK set and left so, as a driver's critical section may: every fault but NMI is then
 * masked, so the next benchmark's fault would lock the core up (the run lost). */
#define ARCH_TEST_HAS_FAULTMASK 1
static inline void arch_test_faultmask_set(void)
{
	__asm__ volatile("cpsid f" : : : "memory");
}

/* SysTick stopped (SYST_CSR.ENABLE cleared) by a privileged benchmark: the kit's counter and
 * watchdog stand still until the kit starts it again. */
#define ARCH_TEST_HAS_TIMER_STOP 1
static inline void arch_test_timer_stop(void)
{
	*(volatile uint32_t *)0xE000E010u &= ~1u; /* SYST_CSR ENABLE */
}

/* CONTROL.nPRIV set by a privileged benchmark: thread mode, where the kit runs, unprivileged from
 * then on (only a handler can clear it again). */
#define ARCH_TEST_HAS_THREAD_UNPRIV 1
static inline void arch_test_thread_unpriv(void)
{
	uint32_t c;
	__asm__ volatile("mrs %0, control" : "=r"(c));
	__asm__ volatile("msr control, %0\n\tisb" : : "r"(c | 1u) : "memory");
}
#endif

#if defined(__ARM_FP)
/* The FPU's rounding mode toward zero (FPSCR.RMode = 0b11), left so: the next benchmark's float
 * results would change. */
#define ARCH_TEST_HAS_FP_CONTROL 1
static inline void arch_test_fp_round_toward_zero(void)
{
	uint32_t v;
	__asm__ volatile("vmrs %0, fpscr\n\torr %0, %0, #(3 << 22)\n\tvmsr fpscr, %0" : "=&r"(v) : : "memory");
}

/* The FPU turned off (CPACR CP10/CP11 = 0), left so: the kit's own hard-float code may use it. */
#define ARCH_TEST_HAS_FP_OFF 1
static inline void arch_test_fp_off(void)
{
	*(volatile uint32_t *)0xE000ED88u &= ~(0xfu << 20);
	__asm__ volatile("dsb\n\tisb" : : : "memory");
}
#endif

/* Ends the call into benchmark code from wherever its code is, with result v: the SVC that
 * arch_user_exit makes (a body that returns to the kit from within its batch, or forges one). */
#define ARCH_TEST_HAS_USER_RETURN 1
static inline __attribute__((noreturn)) void arch_test_user_return(uintptr_t v)
{
	register uintptr_t r0 __asm__("r0") = v;
	__asm__ volatile("svc #" ARCH_SVC_STR(ARCH_SVC_RETURN) : : "r"(r0) : "memory");
	__builtin_unreachable();
}

#endif
