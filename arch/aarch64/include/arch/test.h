/* Test hooks for the fault-injection image (tests/firmware/faults.c): an undefined instruction,
 * and a misaligned access the core must refuse (Normal memory allows plain misaligned loads, but
 * exclusives must be aligned). Shared with arch/host-aarch64. */
#ifndef ARCH_TEST_H
#define ARCH_TEST_H

#include <stdint.h>

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

/* Masks interrupts and returns, as a driver's init may leave them: the kit must unmask them
 * for its watchdog before the next benchmark. */
#define ARCH_TEST_HAS_IRQ_OFF 1
static inline void arch_test_irq_off(void)
{
	__asm__ volatile("msr daifset, #2" : : : "memory");
}
#endif

#endif
