/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V hot path: counter reads around timed regions, one static inline per CSR access.
 * RV32 reads 64-bit counters as hi/lo/hi and retries, so a carry between the halves can never
 * produce a torn value (a bug in some existing kits). */
#ifndef ARCH_RISCV_ARCH_H
#define ARCH_RISCV_ARCH_H

#include <stdint.h>

#include "bm/event_slots.h"


/* Count leading zeros is one instruction only with Zbb; without it GCC calls libgcc. */
#ifdef __riscv_zbb
#define ARCH_HAS_CLZ64 1
#else
#define ARCH_HAS_CLZ64 0
#endif
/* beq/bne compare two registers: a reading's words are tested one by one (bm/port.h). */
#define ARCH_CMP_BRANCH 1

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

/* The 32-bit views let RV32 store each half straight from the asm. */
struct arch_snap {
	union {
		uint64_t cycles;
		uint32_t cycles32[2];
	};
	union {
		uint64_t instret;
		uint32_t instret32[2];
	};
#if BM_EVENT_SLOTS
	uint64_t ev[BM_EVENT_SLOTS]; /* hpmcounter3.. (bm/port.h, events) */
#endif
};

/* Each snapshot is ONE asm block that reads the counters and stores them to memory through
 * "=m" operands (stack-relative on a local), so the instructions between two reads are fixed
 * by construction: no register moves or spills the compiler could place inside the timed
 * region differently for different bodies. instret is read outermost and cycles innermost, so
 * the region's cost is a constant the harness measures at boot and subtracts. */
#if __riscv_xlen == 32
#define ARCH_RD64_ASM(lo, hi, label)                                      \
	label ": csrr %[h], " hi "\n"                                     \
	"csrr %[l], " lo "\n"                                             \
	"csrr %[t], " hi "\n"                                             \
	"bne %[h], %[t], " label "b\n"
static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	uint32_t h, l, t;
	__asm__ volatile(ARCH_RD64_ASM("instret", "instreth", "1")
	                 "sw %[l], %[il]\n sw %[h], %[ih]\n"
	                 ARCH_RD64_ASM("cycle", "cycleh", "2")
	                 "sw %[l], %[cl]\n sw %[h], %[ch]\n"
	                 : [il] "=m"(s->instret32[0]), [ih] "=m"(s->instret32[1]),
	                   [cl] "=m"(s->cycles32[0]), [ch] "=m"(s->cycles32[1]),
	                   [h] "=&r"(h), [l] "=&r"(l), [t] "=&r"(t));
}
static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	uint32_t h, l, t;
	__asm__ volatile(ARCH_RD64_ASM("cycle", "cycleh", "1")
	                 "sw %[l], %[cl]\n sw %[h], %[ch]\n"
	                 ARCH_RD64_ASM("instret", "instreth", "2")
	                 "sw %[l], %[il]\n sw %[h], %[ih]\n"
	                 : [il] "=m"(s->instret32[0]), [ih] "=m"(s->instret32[1]),
	                   [cl] "=m"(s->cycles32[0]), [ch] "=m"(s->cycles32[1]),
	                   [h] "=&r"(h), [l] "=&r"(l), [t] "=&r"(t));
}
#else
/* (as macros: the batches with event slots are a second copy whose snapshots also read them,
 * outermost: before instret at the start, after it at the end) */
#define ARCH_SNAP_BEGIN_(s, ev, ...)                                                         \
	do {                                                                                 \
		unsigned long i, c;                                                          \
		__asm__ volatile(ev "rdinstret %[i]\n rdcycle %[c]\n sd %[i], %[mi]\n sd %[c], %[mc]\n" \
		                 : [mi] "=m"((s)->instret), [mc] "=m"((s)->cycles), [i] "=&r"(i),   \
		                   [c] "=&r"(c) __VA_ARGS__);                                \
	} while (0)
#define ARCH_SNAP_END_(s, ev, ...)                                                           \
	do {                                                                                 \
		unsigned long i, c;                                                          \
		__asm__ volatile("rdcycle %[c]\n rdinstret %[i]\n sd %[c], %[mc]\n sd %[i], %[mi]\n" ev \
		                 : [mi] "=m"((s)->instret), [mc] "=m"((s)->cycles), [i] "=&r"(i),   \
		                   [c] "=&r"(c) __VA_ARGS__);                                \
	} while (0)
static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	ARCH_SNAP_BEGIN_(s, "", );
}
static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	ARCH_SNAP_END_(s, "", );
}
#endif

#if BM_EVENT_SLOTS
/* hpmcounter3..6, each read and stored whole (RV32: the low half only, ARCH_EVENT_MASK: a slot's
 * delta is exact under 2^32, as no batch reaches; the high half would need the retry loop). */
#if __riscv_xlen == 32
#define ARCH_EVENT_MASK 0xffffffffull
#define ARCH_EV_ST "sw"
#define ARCH_SNAP_BEGIN_EV_(s, ev, ...)                                                      \
	do {                                                                                 \
		uint32_t h, l, t;                                                            \
		__asm__ volatile(ev ARCH_RD64_ASM("instret", "instreth", "1")                \
		                 "sw %[l], %[il]\n sw %[h], %[ih]\n"                         \
		                 ARCH_RD64_ASM("cycle", "cycleh", "2")                       \
		                 "sw %[l], %[cl]\n sw %[h], %[ch]\n"                         \
		                 : [il] "=m"((s)->instret32[0]), [ih] "=m"((s)->instret32[1]), \
		                   [cl] "=m"((s)->cycles32[0]), [ch] "=m"((s)->cycles32[1]), \
		                   [h] "=&r"(h), [l] "=&r"(l), [t] "=&r"(t) __VA_ARGS__);    \
	} while (0)
#define ARCH_SNAP_END_EV_(s, ev, ...)                                                        \
	do {                                                                                 \
		uint32_t h, l, t;                                                            \
		__asm__ volatile(ARCH_RD64_ASM("cycle", "cycleh", "1")                       \
		                 "sw %[l], %[cl]\n sw %[h], %[ch]\n"                         \
		                 ARCH_RD64_ASM("instret", "instreth", "2")                   \
		                 "sw %[l], %[il]\n sw %[h], %[ih]\n" ev                      \
		                 : [il] "=m"((s)->instret32[0]), [ih] "=m"((s)->instret32[1]), \
		                   [cl] "=m"((s)->cycles32[0]), [ch] "=m"((s)->cycles32[1]), \
		                   [h] "=&r"(h), [l] "=&r"(l), [t] "=&r"(t) __VA_ARGS__);    \
	} while (0)
#else
#define ARCH_EVENT_MASK 0xffffffffffffffffull
#define ARCH_EV_ST "sd"
#define ARCH_SNAP_BEGIN_EV_(s, ev, ...)                                                      \
	do {                                                                                 \
		unsigned long t;                                                             \
		ARCH_SNAP_BEGIN_(s, ev, , [t] "=&r"(t) __VA_ARGS__);                         \
	} while (0)
#define ARCH_SNAP_END_EV_(s, ev, ...)                                                        \
	do {                                                                                 \
		unsigned long t;                                                             \
		ARCH_SNAP_END_(s, ev, , [t] "=&r"(t) __VA_ARGS__);                           \
	} while (0)
#endif
#define ARCH_EV_R1 "csrr %[t], hpmcounter3\n " ARCH_EV_ST " %[t], %[e0]\n"
#define ARCH_EV_R2 ARCH_EV_R1 "csrr %[t], hpmcounter4\n " ARCH_EV_ST " %[t], %[e1]\n"
#define ARCH_EV_R3 ARCH_EV_R2 "csrr %[t], hpmcounter5\n " ARCH_EV_ST " %[t], %[e2]\n"
#define ARCH_EV_R4 ARCH_EV_R3 "csrr %[t], hpmcounter6\n " ARCH_EV_ST " %[t], %[e3]\n"
static inline __attribute__((always_inline)) void arch_snap_begin_ev(struct arch_snap *s)
{
	ARCH_SNAP_BEGIN_EV_(s, BM_EV_N(ARCH_EV_R), BM_EV_OPERANDS(s));
}
static inline __attribute__((always_inline)) void arch_snap_end_ev(struct arch_snap *s)
{
	ARCH_SNAP_END_EV_(s, BM_EV_N(ARCH_EV_R), BM_EV_OPERANDS(s));
}
#endif

/* Benchmark code runs in U-mode (bm/port.h, ARCH_USER_ISOLATED; usermode.S), where it reads the
 * counters (mcounteren) and nothing of the kit's memory (PMP), whose stack ends at the top of its
 * own frames (ARCH_USER_STACK_BOUNDED); it asks the kit with an ecall. The build defines both from
 * arch.cmake's BM_USER_ISOLATED and BM_USER_STACK_BOUNDED (a library build, which owns no trap
 * vector, defines them 0: then both calls are plain, bm/services.h). */
#if ARCH_USER_ISOLATED
#include "arch/ecall.h"
uintptr_t arch_user_call(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a0, uintptr_t a1);
static inline uintptr_t arch_kit_call(unsigned service, uintptr_t a, uintptr_t b)
{
	register uintptr_t r0 __asm__("a0") = service;
	register uintptr_t r1 __asm__("a1") = a;
	register uintptr_t r2 __asm__("a2") = b;
	register uintptr_t r7 __asm__("a7") = ARCH_ECALL_KIT;
	__asm__ volatile("ecall" : "+r"(r0) : "r"(r1), "r"(r2), "r"(r7) : "memory");
	return r0;
}
#endif

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
