/* Counter reads compiled to nothing, for the Google Benchmark side of tools/compare-gbench:
 * the kit's generated batch functions then run the bare body, and Google Benchmark's own timer
 * does the measuring. The known loop is the host arch's (arch/host/include/arch/arch.h). */
#ifndef ARCH_NOARCH_ARCH_H
#define ARCH_NOARCH_ARCH_H

#include <stdint.h>

struct arch_snap {
	uint64_t cycles;
	uint64_t instret;
};

static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	s->cycles = 0;
	s->instret = 0;
}

static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	s->cycles = 0;
	s->instret = 0;
}

#define ARCH_KNOWN_LOOP_INSNS 2001u
static inline __attribute__((always_inline)) void arch_known_loop(void)
{
	unsigned long n;
#if defined(__x86_64__)
	__asm__ volatile("movl $1000, %k0\n1:\tdecl %k0\n\tjnz 1b\n" : "=&r"(n) : : "cc");
#elif defined(__aarch64__)
	__asm__ volatile("mov %0, #1000\n1:\tsubs %0, %0, #1\n\tb.ne 1b\n" : "=&r"(n) : : "cc");
#else
#error "compare-gbench: add this host's known loop"
#endif
}

#endif /* ARCH_NOARCH_ARCH_H */
