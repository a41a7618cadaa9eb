/* RISC-V CLINT/ACLINT machine timer (mtime): a 64-bit free-running MMIO counter. On RV32 the
 * two halves are read hi/lo/hi so a carry between them never gives a torn value. */
#ifndef DRIVERS_RISCV_CLINT_H
#define DRIVERS_RISCV_CLINT_H

#include <stdint.h>

#define CLINT_MTIME_OFFSET 0xbff8u

static inline uint64_t clint_mtime_read(uintptr_t clint_base)
{
	volatile uint32_t *p = (volatile uint32_t *)(clint_base + CLINT_MTIME_OFFSET);
#if __riscv_xlen == 64
	return *(volatile uint64_t *)p;
#else
	uint32_t hi, lo;
	do {
		hi = p[1];
		lo = p[0];
	} while (hi != p[1]);
	return ((uint64_t)hi << 32) | lo;
#endif
}

#endif
