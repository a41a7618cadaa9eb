/* AArch64 hot path: counter reads around timed regions. Cycles come from the PMU cycle counter
 * PMCCNTR_EL0, or from the generic timer CNTVCT_EL0 when the boot probe found that PMCCNTR does
 * not advance; instructions from PMU event counter 0 programmed with INST_RETIRED (0x08). */
#ifndef ARCH_AARCH64_ARCH_H
#define ARCH_AARCH64_ARCH_H

#include <stdint.h>

#include "arch/a64.h"

/* The generic timer, for boards that use it as their timer (an ISB first: the read may
 * otherwise be taken early, out of program order). */
static inline uint64_t arch_cntvct(void)
{
	arch_isb();
	return arch_sysreg_read(cntvct_el0);
}
static inline uint64_t arch_cntfrq_hz(void)
{
	return arch_sysreg_read(cntfrq_el0) & 0xffffffffu;
}

/* Which counter arch_snap_* report as cycles: 0 = PMCCNTR_EL0, 1 = CNTVCT_EL0 (fallback).
 * Written once by arch_init(), read inside the snapshot asm (below). */
extern uint32_t arch_cycle_source;

struct arch_snap {
	uint64_t cycles;
	uint64_t instret;
};

/* Each snapshot is ONE asm block that reads the counters and stores them to memory through
 * "=m" operands, so the instructions between two reads are fixed by construction (see the
 * RISC-V arch.h). Choosing the cycle source at run time must not add a branch the compiler could
 * lay out differently per benchmark, so both counters are read every time and a CSEL keeps one:
 * a fixed sequence, whose constant cost the harness measures at boot and subtracts. The selector
 * is loaded inside the asm too (adrp/ldr of a symbol: the image is linked where it runs).
 *
 * Instructions: PMU event counters are 32 bits on ARMv8.0 (4.3 s at 1 GHz), and a wrap between
 * two 64-bit-extended readings would make a huge delta. So arch_snap_begin ZEROES event counter 0
 * and stores 0; arch_snap_end reads it; the delta is exact for any region under 2^32
 * instructions. (Only the instret of a begin/end pair is meaningful, as in the harness.)
 *
 * Order: begin zeroes instret first and reads cycles last; end reads cycles first and instret
 * last, so each counter's window contains the other's reads, always the same ones. ISBs keep the
 * reads from being taken early or late relative to the region (the PMU and timer reads are not
 * ordered by the pipeline otherwise). */
static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	uint64_t sel, vct, cyc;
	__asm__ volatile("adrp %[sel], arch_cycle_source\n\t"
	                 "ldr %w[sel], [%[sel], #:lo12:arch_cycle_source]\n\t"
	                 "msr pmevcntr0_el0, xzr\n\t"
	                 "isb\n\t"
	                 "mrs %[vct], cntvct_el0\n\t"
	                 "mrs %[cyc], pmccntr_el0\n\t"
	                 "isb\n\t"
	                 "cmp %w[sel], #0\n\t"
	                 "csel %[cyc], %[cyc], %[vct], eq\n\t"
	                 "str xzr, %[mi]\n\t"
	                 "str %[cyc], %[mc]\n\t"
	                 : [mi] "=m"(s->instret), [mc] "=m"(s->cycles), [sel] "=&r"(sel),
	                   [vct] "=&r"(vct), [cyc] "=&r"(cyc)
	                 :
	                 : "cc");
}
static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	uint64_t sel, vct, cyc, ins;
	__asm__ volatile("isb\n\t"
	                 "mrs %[cyc], pmccntr_el0\n\t"
	                 "mrs %[vct], cntvct_el0\n\t"
	                 "mrs %[ins], pmevcntr0_el0\n\t"
	                 "adrp %[sel], arch_cycle_source\n\t"
	                 "ldr %w[sel], [%[sel], #:lo12:arch_cycle_source]\n\t"
	                 "cmp %w[sel], #0\n\t"
	                 "csel %[cyc], %[cyc], %[vct], eq\n\t"
	                 "str %[cyc], %[mc]\n\t"
	                 "str %[ins], %[mi]\n\t"
	                 : [mi] "=m"(s->instret), [mc] "=m"(s->cycles), [sel] "=&r"(sel),
	                   [vct] "=&r"(vct), [cyc] "=&r"(cyc), [ins] "=&r"(ins)
	                 :
	                 : "cc");
}

#endif /* ARCH_AARCH64_ARCH_H */
