/* SPDX-License-Identifier: Apache-2.0 */
/* Test hooks for the fault-injection image (tests/firmware/faults.c): an instruction that does
 * not exist, and a misaligned access the core must refuse (QEMU and many cores emulate plain
 * misaligned loads, but never a misaligned LR). */
#ifndef ARCH_TEST_H
#define ARCH_TEST_H

#include <stdint.h>

#include "arch/ecall.h"
#include "arch/riscv.h"

/* The CLINT's msip (hart 0's software interrupt) on every RISC-V board here. */
#define ARCH_TEST_CLINT_MSIP0 0x02000000u

static inline void arch_test_undefined(void)
{
	__asm__ volatile(".word 0"); /* all-zero: an illegal instruction by definition */
}

#define ARCH_TEST_HAS_MISALIGNED 1
static inline uint32_t arch_test_misaligned(const void *p)
{
	uint32_t v;
	__asm__ volatile("lr.w %0, (%1)" : "=r"(v) : "r"(p) : "memory");
	return v;
}

/* Sets the cycle and instret counters (the forced-wrap test starts them just below 2^64). RV64
 * only: QEMU 7.2 ignores writes to the RV32 high halves, so there the arithmetic is covered by a
 * host unit test instead. */
#if __riscv_xlen == 64
#define ARCH_TEST_HAS_COUNTER_PRESET 1
static inline void arch_test_counter_preset(uint64_t v)
{
	__asm__ volatile("csrw mcycle, %0\n\tcsrw minstret, %0" : : "r"(v));
}
#endif

/* Stops the cycle counter (mcountinhibit.CY), as a power-saving init may: the kit must not
 * measure the next benchmarks with it. */
#define ARCH_TEST_HAS_COUNTER_STOP 1
static inline void arch_test_counter_stop(void)
{
	__asm__ volatile("csrsi mcountinhibit, %0" : : "i"(COUNTER_CY) : "memory");
}

/* Writes the instruction counter, as a profiler's init may: the kit must not print the figures
 * of the benchmark whose batches it moved. */
#define ARCH_TEST_HAS_INSTRET_WRITE 1
static inline void arch_test_instret_write(void)
{
	__asm__ volatile("csrw minstret, zero" : : : "memory");
}

/* A trap handler of the benchmark's own that skips the faulting (4-byte) instruction, installed
 * and left in place, as a benchmark's fault-tolerant runtime might: the kit must put its own back
 * before the next benchmark, whose faults would otherwise go unseen. */
#define ARCH_TEST_HAS_VECTOR 1
__attribute__((interrupt("machine"), aligned(4))) static void arch_test_skip_handler(void)
{
	arch_csr_write(mepc, arch_csr_read(mepc) + 4);
}
static inline void arch_test_vector_replace(void)
{
	arch_mtvec_write((unsigned long)arch_test_skip_handler);
}

/* Masks interrupts and returns, as a driver's init may leave them: the kit must unmask them
 * for its watchdog before the next benchmark. */
#define ARCH_TEST_HAS_IRQ_OFF 1
static inline void arch_test_irq_off(void)
{
	__asm__ volatile("csrci mstatus, %0" : : "i"(MSTATUS_MIE) : "memory");
}

/* Leaves an interrupt source behind, as a benchmark's driver might: interrupts masked, the
 * software interrupt enabled and pending (the CLINT's msip). The kit must not take it in the next
 * benchmark. */
#define ARCH_TEST_HAS_IRQ_LEFTOVER 1
static inline void arch_test_irq_leftover(void)
{
	__asm__ volatile("csrci mstatus, %0\n\tcsrs mie, %1" : : "i"(MSTATUS_MIE), "r"(MIE_MSIE) : "memory");
	*(volatile uint32_t *)(uintptr_t)ARCH_TEST_CLINT_MSIP0 = 1u;
}

/* Opens the kit's memory to U-mode, as a privileged benchmark could and leave it so: PMP entry 6
 * (the base of the user region's TOR entry 7) moved down to 0. The kit must put its entries back
 * before the next benchmark, whose store into the kit's variables would otherwise go through. */
#define ARCH_TEST_HAS_PMP_OPEN 1
static inline void arch_test_pmp_open(void)
{
	arch_pmpaddr6_write(0);
}

/* A word of the kit's that benchmark code must not reach: the middle of its .kit_bss (away from
 * the benchmarks' stack's edges, where a fault is a stack overflow's). */
static inline volatile uint32_t *arch_test_kit_word(void)
{
	extern char __kit_bss_start[], __kit_bss_end[];
	uintptr_t mid = ((uintptr_t)__kit_bss_start + (uintptr_t)__kit_bss_end) / 2;
	return (volatile uint32_t *)(mid & ~(uintptr_t)3);
}

/* Ends the call into benchmark code from wherever its code is, with result v: the ecall that
 * arch_user_exit makes (a body that returns to the kit from within its batch, or forges one). */
#define ARCH_TEST_HAS_USER_RETURN 1
static inline __attribute__((noreturn)) void arch_test_user_return(uintptr_t v)
{
	register uintptr_t a0 __asm__("a0") = v;
	register uintptr_t a7 __asm__("a7") = ARCH_ECALL_RETURN;
	__asm__ volatile("ecall" : : "r"(a0), "r"(a7) : "memory");
	__builtin_unreachable();
}

#endif
