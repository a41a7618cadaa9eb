/* AArch64 pieces shared by the bare-metal arch (arch/aarch64) and the hosted one
 * (arch/host-aarch64): system register access and the known loop of the deterministic check. */
#ifndef ARCH_A64_H
#define ARCH_A64_H

#include <stdint.h>

/* CLZ is an A64 instruction. */
#define ARCH_HAS_CLZ64 1

#define arch_sysreg_read(reg)                                             \
	({                                                                \
		uint64_t v_;                                              \
		__asm__ volatile("mrs %0, " #reg : "=r"(v_));             \
		v_;                                                       \
	})
#define arch_sysreg_write(reg, val) \
	__asm__ volatile("msr " #reg ", %0" : : "r"((uint64_t)(val)))
#define arch_isb() __asm__ volatile("isb" : : : "memory")

/* mov + 1000 x (subs, b.ne): exactly 2001 instructions retired. */
#define ARCH_KNOWN_LOOP_INSNS 2001u
static inline __attribute__((always_inline)) void arch_known_loop(void)
{
	uint64_t n;
	__asm__ volatile("mov %0, #1000\n"
	                 "1: subs %0, %0, #1\n"
	                 "b.ne 1b\n"
	                 : "=&r"(n)
	                 :
	                 : "cc");
}

#endif /* ARCH_A64_H */
