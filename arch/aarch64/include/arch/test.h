/* SPDX-License-Identifier: Apache-2.0 */
/* Test hooks for the fault-injection image (tests/firmware/faults.c): an undefined instruction,
 * and a misaligned access the core must refuse (Normal memory allows plain misaligned loads, but
 * exclusives must be aligned). Shared with arch/host-aarch64. */
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
	__asm__ volatile("ldxr %w0, [%1]\n\tclrex" : "=r"(v) : "r"(p) : "memory");
	return v;
}

/* Sets the cycle counter (the forced-wrap test starts it just below 2^64; the instructions
 * counter is zeroed by every snapshot, so only the cycle counter can wrap). Bare metal only: a
 * Linux process may not write PMCCNTR_EL0. */
#ifndef ARCH_HOST_AARCH64_ARCH_H
#define ARCH_TEST_HAS_COUNTER_PRESET 1
static inline void arch_test_counter_preset(uint64_t v)
{
	__asm__ volatile("msr pmccntr_el0, %0\n\tisb" : : "r"(v));
}

/* Writes the instruction counter (INST_RETIRED on PMEVCNTR0_EL0), as a profiler's init may. */
#define ARCH_TEST_HAS_INSTRET_WRITE 1
static inline void arch_test_instret_write(void)
{
	__asm__ volatile("msr pmevcntr0_el0, xzr\n\tisb" : : : "memory");
}

/* Exception vectors of the benchmark's own (2 KiB aligned) whose synchronous entries skip the
 * faulting instruction, installed and left in place: the kit must put its own back before the
 * next benchmark, whose faults would otherwise go unseen. */
#define ARCH_TEST_HAS_VECTOR 1
__asm__(".section .text.arch_test_vectors, \"ax\", %progbits\n"
        ".balign 2048\n"
        "arch_test_vectors:\n"
        ".rept 16\n"
        ".balign 0x80\n"
        "stp x0, x1, [sp, #-16]!\n"
        "mrs x0, elr_el1\n"
        "add x0, x0, #4\n"
        "msr elr_el1, x0\n"
        "ldp x0, x1, [sp], #16\n"
        "eret\n"
        ".endr\n"
        ".text\n");
static inline void arch_test_vector_replace(void)
{
	extern char arch_test_vectors[];
	__asm__ volatile("msr vbar_el1, %0\n\tisb" : : "r"(arch_test_vectors) : "memory");
}

/* The FPU's rounding mode toward zero (FPCR.RMode = 0b11), left so: the next benchmark's float
 * results would change. */
#define ARCH_TEST_HAS_FP_CONTROL 1
static inline void arch_test_fp_round_toward_zero(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, fpcr\n\torr %0, %0, #(3 << 22)\n\tmsr fpcr, %0" : "=&r"(v) : : "memory");
}

/* FP/SIMD turned off (CPACR_EL1.FPEN = 0), left so: the kit's own code uses its registers. */
#define ARCH_TEST_HAS_FP_OFF 1
static inline void arch_test_fp_off(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, cpacr_el1\n\tbic %0, %0, #(3 << 20)\n\tmsr cpacr_el1, %0\n\tisb"
	                 : "=&r"(v) : : "memory");
}

/* What the PMU counts, changed from EL0 (PMUSERENR.EN lets it) and left so: the cycle counter and
 * the instruction counter stop counting EL0 (PMCCFILTR_EL0.U, PMEVTYPER0_EL0.U), where the next
 * benchmark runs: its batches would count nothing. */
#define ARCH_TEST_HAS_PMU_FILTER 1
static inline void arch_test_pmu_filter(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, pmccfiltr_el0\n\torr %0, %0, #(1 << 30)\n\tmsr pmccfiltr_el0, %0\n\t"
	                 "mrs %0, pmevtyper0_el0\n\torr %0, %0, #(1 << 30)\n\tmsr pmevtyper0_el0, %0\n\tisb"
	                 : "=&r"(v) : : "memory");
}

/* The thread pointer zeroed from EL0 and left so: the C library finds errno through it, so the
 * next benchmark's errno store would go to address ~0. */
#define ARCH_TEST_HAS_TLS_BASE 1
static inline void arch_test_tls_base_clear(void)
{
	__asm__ volatile("msr tpidr_el0, xzr" : : : "memory");
}

/* Masks interrupts and returns, as a driver's init may leave them: the kit must unmask them
 * for its watchdog before the next benchmark. */
#define ARCH_TEST_HAS_IRQ_OFF 1
static inline void arch_test_irq_off(void)
{
	__asm__ volatile("msr daifset, #2" : : : "memory");
}
#endif

/* Ends the call into benchmark code from wherever its code is, with result v: the SVC that
 * arch_user_exit makes (a body that returns to the kit from within its batch, or forges one). */
#define ARCH_TEST_HAS_USER_RETURN 1
static inline __attribute__((noreturn)) void arch_test_user_return(uintptr_t v)
{
	register uintptr_t x0 __asm__("x0") = v;
	__asm__ volatile("svc #%c1" : : "r"(x0), "i"(ARCH_SVC_RETURN) : "memory");
	__builtin_unreachable();
}

#endif
