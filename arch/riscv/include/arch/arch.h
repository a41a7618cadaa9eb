/* RISC-V hot path: counter reads around timed regions, one static inline per CSR access.
 * RV32 reads 64-bit counters as hi/lo/hi and retries, so a carry between the halves can never
 * produce a torn value (a bug in some existing kits). */
#ifndef ARCH_RISCV_ARCH_H
#define ARCH_RISCV_ARCH_H

#include <stdint.h>

#include "bm/arch_info.h"

#define arch_csr_read(csr)                                                \
	({                                                                \
		unsigned long v_;                                         \
		__asm__ volatile("csrr %0, " #csr : "=r"(v_));            \
		v_;                                                       \
	})
#define arch_csr_write(csr, val) __asm__ volatile("csrw " #csr ", %0" : : "r"((unsigned long)(val)))

#if __riscv_xlen == 32
/* hi, lo, hi again: if hi changed, lo wrapped in between; read again. */
#define ARCH_READ64(lo_csr, hi_csr)                                       \
	({                                                                \
		uint32_t hi_, lo_, hi2_;                                  \
		do {                                                      \
			hi_ = (uint32_t)arch_csr_read(hi_csr);            \
			lo_ = (uint32_t)arch_csr_read(lo_csr);            \
			hi2_ = (uint32_t)arch_csr_read(hi_csr);           \
		} while (hi_ != hi2_);                                    \
		((uint64_t)hi_ << 32) | lo_;                              \
	})
static inline uint64_t arch_rdcycle(void) { return ARCH_READ64(cycle, cycleh); }
static inline uint64_t arch_rdinstret(void) { return ARCH_READ64(instret, instreth); }
static inline uint64_t arch_rdtime(void) { return ARCH_READ64(time, timeh); }
#else
static inline uint64_t arch_rdcycle(void) { return arch_csr_read(cycle); }
static inline uint64_t arch_rdinstret(void) { return arch_csr_read(instret); }
static inline uint64_t arch_rdtime(void) { return arch_csr_read(time); }
#endif

struct arch_snap {
	uint64_t cycles;
	uint64_t instret;
};

/* instret first and last, cycles innermost: each region contains the other's reads in a fixed
 * order, so the read overhead is a constant that the harness measures and subtracts. */
static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	s->instret = arch_rdinstret();
	s->cycles = arch_rdcycle();
}

static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	s->cycles = arch_rdcycle();
	s->instret = arch_rdinstret();
}

/* li + 1000 x (addi, bnez): exactly 2001 instructions retired. */
#define ARCH_KNOWN_LOOP_INSNS 2001u
static inline __attribute__((always_inline)) void arch_known_loop(void)
{
	unsigned long n;
	__asm__ volatile("li %0, 1000\n"
	                 "1: addi %0, %0, -1\n"
	                 "bnez %0, 1b\n"
	                 : "=&r"(n));
}

#endif /* ARCH_RISCV_ARCH_H */
