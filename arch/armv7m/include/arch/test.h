/* Test hooks for the fault-injection image (tests/firmware/faults.c): an undefined instruction
 * (UDF), and a misaligned access the core must refuse: ARMv7-M/ARMv8-M allow plain misaligned
 * LDR but never a misaligned LDREX; ARMv6-M allows no misaligned access at all. */
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

#endif
