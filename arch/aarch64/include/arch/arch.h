/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 hot path: counter reads around timed regions. Cycles come from the PMU cycle counter
 * PMCCNTR_EL0, or from the generic timer CNTVCT_EL0 when the boot probe found that PMCCNTR does
 * not advance; instructions from PMU event counter 0 programmed with INST_RETIRED (0x08). */
#ifndef ARCH_AARCH64_ARCH_H
#define ARCH_AARCH64_ARCH_H

#include <stdint.h>

#include "arch/a64.h"
#include "bm/event_slots.h"

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

/* Which counter arch_snap_* report as cycles: PMCCNTR_EL0, or CNTVCT_EL0 (the fallback) when
 * TPIDRRO_EL0 has this bit. Set once by arch_init(); read inside the snapshot asm (below) from a
 * register benchmark code at EL0 may read but not write, rather than from the kit's memory, which
 * it may not read either (ARCH_USER_ISOLATED). Bits 1:0 belong to the trap vectors (vectors.S). */
#define ARCH_SNAP_CNTVCT 0x100u

struct arch_snap {
	uint64_t cycles;
	uint64_t instret;
#if BM_EVENT_SLOTS
	uint64_t ev[BM_EVENT_SLOTS]; /* PMEVCNTR1_EL0.. (bm/port.h, events) */
#endif
};

/* Each snapshot is ONE asm block that reads the counters and stores them to memory through
 * "=m" operands, so the instructions between two reads are fixed by construction (see the
 * RISC-V arch.h). Choosing the cycle source at run time must not add a branch the compiler could
 * lay out differently per benchmark, so both counters are read every time and a CSEL keeps one:
 * a fixed sequence, whose constant cost the harness measures at boot and subtracts. The selector
 * is read inside the asm too (TPIDRRO_EL0, see ARCH_SNAP_CNTVCT).
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
/* The two reads, as macros: the batches with event slots (BM_EVENTS, bm/events.h) are a second
 * copy whose snapshots also zero event counters 1..BM_EVENT_SLOTS beside counter 0 (`z`, `zs`:
 * each stores 0, so a slot's delta is exact under 2^32 as instret's) and read them after it (`r`). */
#define ARCH_SNAP_BEGIN_(s, z, zs, ...)                                                      \
	do {                                                                                 \
		uint64_t sel, vct, cyc;                                                      \
		__asm__ volatile("mrs %[sel], tpidrro_el0\n\t"                               \
		                 "msr pmevcntr0_el0, xzr\n\t" z                              \
		                 "isb\n\t"                                                   \
		                 "mrs %[vct], cntvct_el0\n\t"                                \
		                 "mrs %[cyc], pmccntr_el0\n\t"                               \
		                 "isb\n\t"                                                   \
		                 "tst %[sel], #%c[cntvct]\n\t"                               \
		                 "csel %[cyc], %[cyc], %[vct], eq\n\t"                       \
		                 "str xzr, %[mi]\n\t" zs                                     \
		                 "str %[cyc], %[mc]\n\t"                                     \
		                 : [mi] "=m"((s)->instret), [mc] "=m"((s)->cycles), [sel] "=&r"(sel), \
		                   [vct] "=&r"(vct), [cyc] "=&r"(cyc) __VA_ARGS__                  \
		                 : [cntvct] "i"(ARCH_SNAP_CNTVCT)                            \
		                 : "cc");                                                    \
	} while (0)
#define ARCH_SNAP_END_(s, r, ...)                                                            \
	do {                                                                                 \
		uint64_t sel, vct, cyc, ins;                                                 \
		__asm__ volatile("isb\n\t"                                                   \
		                 "mrs %[cyc], pmccntr_el0\n\t"                               \
		                 "mrs %[vct], cntvct_el0\n\t"                                \
		                 "mrs %[ins], pmevcntr0_el0\n\t" r                           \
		                 "mrs %[sel], tpidrro_el0\n\t"                               \
		                 "tst %[sel], #%c[cntvct]\n\t"                               \
		                 "csel %[cyc], %[cyc], %[vct], eq\n\t"                       \
		                 "str %[cyc], %[mc]\n\t"                                     \
		                 "str %[ins], %[mi]\n\t"                                     \
		                 : [mi] "=m"((s)->instret), [mc] "=m"((s)->cycles), [sel] "=&r"(sel), \
		                   [vct] "=&r"(vct), [cyc] "=&r"(cyc), [ins] "=&r"(ins) __VA_ARGS__\
		                 : [cntvct] "i"(ARCH_SNAP_CNTVCT)                            \
		                 : "cc");                                                    \
	} while (0)
static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	ARCH_SNAP_BEGIN_(s, "", "", );
}
static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	ARCH_SNAP_END_(s, "", );
}

#if BM_EVENT_SLOTS
#define ARCH_EVENT_MASK 0xffffffffull /* PMEVCNTR<n>_EL0: 32 bits on ARMv8.0 */
#define ARCH_EV_Z1 "msr pmevcntr1_el0, xzr\n\t"
#define ARCH_EV_Z2 ARCH_EV_Z1 "msr pmevcntr2_el0, xzr\n\t"
#define ARCH_EV_Z3 ARCH_EV_Z2 "msr pmevcntr3_el0, xzr\n\t"
#define ARCH_EV_Z4 ARCH_EV_Z3 "msr pmevcntr4_el0, xzr\n\t"
#define ARCH_EV_S1 "str xzr, %[e0]\n\t"
#define ARCH_EV_S2 ARCH_EV_S1 "str xzr, %[e1]\n\t"
#define ARCH_EV_S3 ARCH_EV_S2 "str xzr, %[e2]\n\t"
#define ARCH_EV_S4 ARCH_EV_S3 "str xzr, %[e3]\n\t"
#define ARCH_EV_R1 "mrs %[t], pmevcntr1_el0\n\tstr %[t], %[e0]\n\t"
#define ARCH_EV_R2 ARCH_EV_R1 "mrs %[t], pmevcntr2_el0\n\tstr %[t], %[e1]\n\t"
#define ARCH_EV_R3 ARCH_EV_R2 "mrs %[t], pmevcntr3_el0\n\tstr %[t], %[e2]\n\t"
#define ARCH_EV_R4 ARCH_EV_R3 "mrs %[t], pmevcntr4_el0\n\tstr %[t], %[e3]\n\t"
static inline __attribute__((always_inline)) void arch_snap_begin_ev(struct arch_snap *s)
{
	ARCH_SNAP_BEGIN_(s, BM_EV_N(ARCH_EV_Z), BM_EV_N(ARCH_EV_S),
	                 BM_EV_OPERANDS(s));
}
static inline __attribute__((always_inline)) void arch_snap_end_ev(struct arch_snap *s)
{
	uint64_t t;
	ARCH_SNAP_END_(s, BM_EV_N(ARCH_EV_R), BM_EV_OPERANDS(s), [t] "=&r"(t));
}
#endif

/* Benchmark code runs at EL0 (bm/port.h, ARCH_USER_ISOLATED: the build defines it from
 * arch.cmake's BM_USER_ISOLATED; usermode.S), where it reads the counters (PMUSERENR_EL0,
 * CNTKCTL_EL1) and, where the page tables can say so (arch facts, "benchmarks"), nothing of the
 * kit's memory; it asks the kit with an SVC. The kit's handler runs C that may use the FP/SIMD
 * registers the AAPCS64 lets a callee change: the call says so. (A library build, which owns no
 * vectors, defines ARCH_USER_ISOLATED 0: then both calls are plain, bm/services.h.) */
#if ARCH_USER_ISOLATED
#include "arch/svc.h"
uintptr_t arch_user_call(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a0, uintptr_t a1);
static inline uintptr_t arch_kit_call(unsigned service, uintptr_t a, uintptr_t b)
{
	register uintptr_t r0 __asm__("x0") = service;
	register uintptr_t r1 __asm__("x1") = a;
	register uintptr_t r2 __asm__("x2") = b;
	__asm__ volatile("svc #%c[n]"
	                 : "+r"(r0)
	                 : "r"(r1), "r"(r2), [n] "i"(ARCH_SVC_KIT)
	                 : "memory", "cc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v16", "v17", "v18", "v19",
	                   "v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", "v29", "v30", "v31");
	return r0;
}
#endif

#endif /* ARCH_AARCH64_ARCH_H */
