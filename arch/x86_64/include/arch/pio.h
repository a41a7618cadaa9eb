/* x86 port I/O (in/out), shared by the arch (PIT, debug exit) and the port-I/O drivers
 * (the 16550 through arch_pio8, isa-debug-exit). Cold path only: every port access is slow. */
#ifndef ARCH_X86_64_PIO_H
#define ARCH_X86_64_PIO_H

#include <stdint.h>

static inline void arch_outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t arch_inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void arch_outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

#endif /* ARCH_X86_64_PIO_H */
