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

#ifndef ARCH_HOST_X86_64_ARCH_H /* (bare metal only: a process may not) */
/* Masks interrupts and returns, as a driver's init may leave them: the kit must unmask them
 * for its watchdog before the next benchmark. */
#define ARCH_TEST_HAS_IRQ_OFF 1
static inline void arch_test_irq_off(void)
{
	__asm__ volatile("cli" : : : "memory");
}
#endif

#endif
