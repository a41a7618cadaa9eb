/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M hot path (ARMv6-M, ARMv7-M, ARMv8-M): one counter reading around timed regions.
 * Cortex-M has no instructions-retired counter, and its cycle counter is optional, so the
 * reading comes from the first source the boot probe found working (arch.c):
 *   0  DWT_CYCCNT: core cycles (ARMv7-M/ARMv8-M mainline, where implemented and counting);
 *   1  SysTick, its 24-bit down-counter extended to 64 bits by a count of its wraps that the
 *      wrap interrupt keeps (QEMU 7.2 does not model CYCCNT; the Cortex-M0 has no DWT counter);
 *   2  the board's timer (a core without SysTick, like the nRF51's Cortex-M0).
 * The choice is made at boot and read inside each snapshot, so the instructions between two
 * readings are fixed by construction (one asm block each; the branch goes the same way every
 * time), and `empty` measures exactly 0 once the boot-time overhead is subtracted. */
#ifndef ARCH_ARMV7M_ARCH_H
#define ARCH_ARMV7M_ARCH_H

#include <stdint.h>

#include "arch/svc.h"

struct bm_timer;

/* CLZ is one instruction on ARMv7-M/ARMv8-M mainline; ARMv6-M calls libgcc. */
#if defined(__ARM_FEATURE_CLZ) && __ARM_FEATURE_CLZ
#define ARCH_HAS_CLZ64 1
#else
#define ARCH_HAS_CLZ64 0
#endif
/* No instructions-retired counter on any Cortex-M (the DWT's counters are cycles and events):
 * every reading's instret is 0, and the sampling paths leave it out (bm/port.h). */
#define ARCH_COUNTS_INSTRET 0

enum { ARCH_SRC_DWT = 0, ARCH_SRC_SYSTICK = 1, ARCH_SRC_TIMER = 2 };

/* GCC hands Thumb-1 inline asm to the assembler in divided syntax (-masm-syntax-unified is off
 * by default) and switches back after it: the asm here is written in unified syntax. */
#define ARCH_SYNTAX_UNIFIED ".syntax unified\n\t"

/* What the snapshots read, in one place so one address reaches all of it. The asm below
 * uses the byte offsets (checked in arch.c). Any source but 0 and 2 reads SysTick, so a benchmark
 * that wrote over this (in .bss) gets wrong figures, which the kit's guards then void, and never
 * a call through a wild pointer. */
struct arch_counter {
	uint32_t source;                 /* +0  ARCH_SRC_* (set once by arch_init) */
	volatile uint32_t wraps;         /* +4  SysTick periods the wrap interrupt counted */
	uint32_t last_lo, last_hi;       /* +8  the last reading (ARCH_SYSTICK_ASM, ARCH_DWT_ASM) */
	struct bm_timer *timer;    /* +16 the board timer, for ARCH_SRC_TIMER */
	uint64_t (*timer_read)(struct bm_timer *t); /* +20 its read op */
};
extern struct arch_counter arch_counter;

/* The 32-bit halves let each be stored straight from the asm. instret is always 0. */
struct arch_snap {
	union {
		uint64_t cycles;
		uint32_t cycles32[2];
	};
	union {
		uint64_t instret;
		uint32_t instret32[2];
	};
};

#ifdef __thumb2__
/* The readings as text with the registers as parameters (each a string: an operand such as
 * "%[lo]" in the snapshots below, a register name in the kit's SVC handler, usermode.c), so the
 * one sequence serves both. */

/* SysTick as a 64-bit count of ticks: periods * 2^24 + phase, where phase = (2^24 - CVR) mod
 * 2^24 (CVR counts down and reloads 0xffffff; the interrupt is pended as it reaches 0, which
 * starts the next period at phase 0). Read periods, CVR, the pending bit and periods again
 * (again if the wrap interrupt ran in between); a wrap that is pended but not yet taken counts
 * when the phase lies in the first half of the period (it wrapped before CVR was read) and not
 * in the second (CVR was read just before it wrapped). Last, a reading below the previous one
 * gets one period added: QEMU without icount may show the reloaded CVR before it pends the
 * wrap (its timer callback runs late); on hardware and under icount this never triggers.
 * In: base = &arch_counter. Out: lo, hi. Clobbers t0..t2 and the flags. */
#define ARCH_SYSTICK_SEQ(base, lo, hi, t0, t1, t2)                        \
	"movw " t0 ", #0xe010\n\t"                                        \
	"movt " t0 ", #0xe000\n"                                          \
	"1:\n\t"                                                          \
	"ldr " t1 ", [" base ", #4]\n\t"                                  \
	"ldr " lo ", [" t0 ", #8]\n\t"                                    \
	"ldr " hi ", [" t0 ", #0xcf4]\n\t"                                \
	"ldr " t2 ", [" base ", #4]\n\t"                                  \
	"cmp " t1 ", " t2 "\n\t"                                          \
	"bne 1b\n\t"                                                      \
	"rsbs " lo ", " lo ", #0\n\t"                                     \
	"lsls " lo ", " lo ", #8\n\t"                                     \
	"ubfx " hi ", " hi ", #26, #1\n\t"                                \
	"bic " hi ", " hi ", " lo ", lsr #31\n\t"                         \
	"add " t1 ", " t1 ", " hi "\n\t"                                  \
	"lsrs " lo ", " lo ", #8\n\t"                                     \
	"orr " lo ", " lo ", " t1 ", lsl #24\n\t"                         \
	"lsrs " hi ", " t1 ", #8\n\t"                                     \
	"ldr " t0 ", [" base ", #8]\n\t"                                  \
	"ldr " t2 ", [" base ", #12]\n\t"                                 \
	"cmp " lo ", " t0 "\n\t"                                          \
	"sbcs " t2 ", " hi ", " t2 "\n\t"                                 \
	"bcs 4f\n\t"                                                      \
	"adds " lo ", " lo ", #0x1000000\n\t"                             \
	"adc " hi ", " hi ", #0\n"                                        \
	"4:\n\t" ARCH_LAST_SEQ(base, lo, hi)

/* DWT_CYCCNT (32 bits, 51 s at 84 MHz) extended to 64 bits from the last reading: the increment
 * since then, taken modulo 2^32, is added to it (the carry of last_lo + increment is the wrap).
 * Exact as long as two readings are less than 2^32 cycles apart, which the harness's reads
 * around every batch and the per-benchmark watchdog ensure; a single reading is then a free-
 * running 64-bit count, as the clock estimate and the run's accounting need.
 * In: base = &arch_counter. Out: lo, hi. Clobbers t0..t2 and the flags. */
#define ARCH_DWT_SEQ(base, lo, hi, t0, t1, t2)                            \
	"movw " t0 ", #0x1004\n\t"                                        \
	"movt " t0 ", #0xe000\n\t"                                        \
	"ldr " t1 ", [" t0 "]\n\t"                                        \
	"ldrd " lo ", " hi ", [" base ", #8]\n\t"                          \
	"subs " t2 ", " t1 ", " lo "\n\t"                                 \
	"adds " lo ", " lo ", " t2 "\n\t"                                 \
	"adc " hi ", " hi ", #0\n\t" ARCH_LAST_SEQ(base, lo, hi)

/* Both store the reading as the last one (arch_counter's last_lo, last_hi). */
#define ARCH_LAST_SEQ(base, lo, hi) "strd " lo ", " hi ", [" base ", #8]\n\t"

/* The board timer's read op, called from the asm (it clobbers what a call does). */
#define ARCH_TIMER_SEQ(base, lo, hi)                                      \
	"ldr r0, [" base ", #16]\n\t"                                     \
	"ldr r1, [" base ", #20]\n\t"                                     \
	"blx r1\n\t"                                                      \
	"mov " lo ", r0\n\t"                                              \
	"mov " hi ", r1\n\t"

/* The reading from the source arch_init chose (privileged code: the counters sit in the PPB). */
#define ARCH_COUNTER_SEQ(base, lo, hi, t0, t1, t2)                        \
	"movw " base ", #:lower16:arch_counter\n\t"                       \
	"movt " base ", #:upper16:arch_counter\n\t"                       \
	"ldr " t0 ", [" base "]\n\t"                                      \
	"cmp " t0 ", #2\n\t"                                              \
	"beq 3f\n\t"                                                      \
	"cmp " t0 ", #0\n\t"                                              \
	"bne 2f\n\t" ARCH_DWT_SEQ(base, lo, hi, t0, t1, t2)               \
	"b 9f\n"                                                          \
	"2:\n\t" ARCH_SYSTICK_SEQ(base, lo, hi, t0, t1, t2)               \
	"b 9f\n"                                                          \
	"3:\n\t" ARCH_TIMER_SEQ(base, lo, hi)                             \
	"9:\n\t"

#if ARCH_USER_ISOLATED
/* Benchmark code runs in unprivileged Thread mode (CONTROL.nPRIV; usermode.c), where SysTick and
 * the DWT do not answer: there the reading is the kit's SVC (ARCH_SVC_SNAP), whose handler runs
 * the same sequence and hands lo and hi back in r0 and r1. A handler (IPSR non-zero) is
 * privileged whatever nPRIV says. The branch goes the same way every time for a given caller;
 * core measures the read overhead of each path (bm/port.h, ARCH_USER_SNAP_TRAPS). */
#define ARCH_READ_ASM                                                     \
	"mrs %[t0], control\n\t"                                          \
	"tst %[t0], #1\n\t"                                               \
	"beq 6f\n\t"                                                      \
	"mrs %[t0], ipsr\n\t"                                             \
	"cbnz %[t0], 6f\n\t"                                              \
	"svc #" ARCH_SVC_STR(ARCH_SVC_SNAP) "\n\t"                        \
	"b 8f\n"                                                          \
	"6:\n\t" ARCH_COUNTER_SEQ("%[base]", "%[lo]", "%[hi]", "%[t0]", "%[t1]", "%[t2]") \
	"8:\n\t"
#else
#define ARCH_READ_ASM ARCH_COUNTER_SEQ("%[base]", "%[lo]", "%[hi]", "%[t0]", "%[t1]", "%[t2]")
#endif

#define ARCH_SNAP_OPERANDS                                                \
	: [c0] "=m"(s->cycles32[0]), [c1] "=m"(s->cycles32[1]),           \
	  [i0] "=m"(s->instret32[0]), [i1] "=m"(s->instret32[1]),         \
	  [base] "=&r"(base), [lo] "=&r"(lo), [hi] "=&r"(hi),             \
	  [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2)                  \
	:                                                                 \
	: "lr", "cc"

/* The temporaries in the registers the timer path's call clobbers anyway (r0-r3, r12; the
 * call's result arrives in lo and hi, as the SVC's does): six more registers taken from the
 * caller are more than -O0 code (r7 its frame pointer, each memory operand's address in a
 * register) has left. */
#define ARCH_SNAP_LOCALS                                                  \
	uint32_t base;                                                    \
	register uint32_t lo __asm__("r0"), hi __asm__("r1");             \
	register uint32_t t0 __asm__("r2"), t1 __asm__("r3"), t2 __asm__("r12")

static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	ARCH_SNAP_LOCALS;
	__asm__ volatile("movs %[lo], #0\n\t"
	                 "str %[lo], %[i0]\n\t"
	                 "str %[lo], %[i1]\n\t" ARCH_READ_ASM
	                 "str %[lo], %[c0]\n\t"
	                 "str %[hi], %[c1]\n\t"
	                 ARCH_SNAP_OPERANDS);
}

static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	ARCH_SNAP_LOCALS;
	__asm__ volatile(ARCH_READ_ASM
	                 "str %[lo], %[c0]\n\t"
	                 "str %[hi], %[c1]\n\t"
	                 "movs %[lo], #0\n\t"
	                 "str %[lo], %[i0]\n\t"
	                 "str %[lo], %[i1]\n\t"
	                 ARCH_SNAP_OPERANDS);
}
#else
/* ARMv6-M / ARMv8-M baseline: eight low registers are too few for the sequence above inline,
 * so both snapshots call one fixed routine (start.S: arch_counter_read, the same algorithm)
 * that returns the reading in r0 (low) and r1 (high). The call is part of the constant. */
#define ARCH_SNAP_OPERANDS                                                \
	: [c0] "=m"(s->cycles32[0]), [c1] "=m"(s->cycles32[1]),           \
	  [i0] "=m"(s->instret32[0]), [i1] "=m"(s->instret32[1])          \
	:                                                                 \
	: "r0", "r1", "r2", "r3", "r12", "lr", "cc"

static inline __attribute__((always_inline)) void arch_snap_begin(struct arch_snap *s)
{
	__asm__ volatile(ARCH_SYNTAX_UNIFIED
	                 "movs r2, #0\n\t"
	                 "str r2, %[i0]\n\t"
	                 "str r2, %[i1]\n\t"
	                 "bl arch_counter_read\n\t"
	                 "str r0, %[c0]\n\t"
	                 "str r1, %[c1]\n\t"
	                 ARCH_SNAP_OPERANDS);
}

static inline __attribute__((always_inline)) void arch_snap_end(struct arch_snap *s)
{
	__asm__ volatile(ARCH_SYNTAX_UNIFIED
	                 "bl arch_counter_read\n\t"
	                 "str r0, %[c0]\n\t"
	                 "str r1, %[c1]\n\t"
	                 "movs r2, #0\n\t"
	                 "str r2, %[i0]\n\t"
	                 "str r2, %[i1]\n\t"
	                 ARCH_SNAP_OPERANDS);
}
#endif

/* movs + lsls + 1000 x (subs, bne): exactly 2002 instructions executed, on every profile.
 * (Cortex-M counts no instructions; under QEMU icount it takes 2002 ns of virtual time.) */
#define ARCH_KNOWN_LOOP_INSNS 2002u
static inline __attribute__((always_inline)) void arch_known_loop(void)
{
	uint32_t n;
	__asm__ volatile(ARCH_SYNTAX_UNIFIED
	                 "movs %0, #250\n\t"
	                 "lsls %0, %0, #2\n"
	                 "1:\n\t"
	                 "subs %0, %0, #1\n\t"
	                 "bne 1b\n"
	                 : "=&l"(n)
	                 :
	                 : "cc");
}

#if ARCH_USER_ISOLATED
/* Benchmark code runs in unprivileged Thread mode on its own stack, the process stack (bm/port.h,
 * ARCH_USER_ISOLATED: the build defines it from arch.cmake, for the cores with an MPU; usermode.c),
 * where the MPU keeps the kit's memory and the devices out of its reach and the counters, in the
 * PPB, do not answer at all: its snapshots and its calls to the kit are SVCs. Privileged code
 * (the kit, a .privileged benchmark) calls bm_kit_service itself: an SVC with interrupts masked
 * would escalate to HardFault. */
#define ARCH_USER_SNAP_TRAPS 1
uintptr_t arch_user_call(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a0, uintptr_t a1);
#ifdef __cplusplus
extern "C" { /* (core's, bm/services.h: C linkage there too) */
#endif
uintptr_t bm_kit_service(unsigned service, uintptr_t a, uintptr_t b);
#ifdef __cplusplus
}
#endif
static inline uintptr_t arch_kit_call(unsigned service, uintptr_t a, uintptr_t b)
{
	uint32_t control;
	__asm__ volatile("mrs %0, control" : "=r"(control));
	if (!(control & 1u)) /* CONTROL.nPRIV */
		return bm_kit_service(service, a, b);
	register uintptr_t r0 __asm__("r0") = service;
	register uintptr_t r1 __asm__("r1") = a;
	register uintptr_t r2 __asm__("r2") = b;
	__asm__ volatile("svc #" ARCH_SVC_STR(ARCH_SVC_KIT) : "+r"(r0) : "r"(r1), "r"(r2) : "memory");
	return r0;
}
#endif

#endif /* ARCH_ARMV7M_ARCH_H */
