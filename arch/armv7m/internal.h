/* SPDX-License-Identifier: Apache-2.0 */
/* What the Cortex-M arch's own C files share (not for boards or core): the profile switches, the
 * linker and start.S symbols, the exception frame, the watchdog's state, and the few register
 * sequences more than one file runs. Helpers here are static inline, so each caller gets the
 * instructions it would get from a local one. */
#ifndef ARCH_ARMV7M_INTERNAL_H
#define ARCH_ARMV7M_INTERNAL_H

#include <stdint.h>

#include "arch/armv7m.h"

#define REG ARMV7M_REG

#ifdef __thumb2__
#define MAINLINE 1 /* ARMv7-M / ARMv8-M mainline: fault status registers, DWT, MPU, VTOR */
#else
#define MAINLINE 0 /* ARMv6-M / ARMv8-M baseline: HardFault only, no status registers */
#endif

#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8M_BASE__)
#define ARMV8M 1
#else
#define ARMV8M 0
#endif

/* From start.S, semihost.S and linker/common.ld. */
extern char arch_vectors[], arch_semihost_bkpt[], arch_recover_trampoline[];
extern char __kit_data_load[];
extern char __stack_bottom[], __stack_top[], __trap_stack_bottom[], __trap_stack_top[];
extern char __stack_guard_size[], __flash_origin[], __flash_limit[];
extern char __user_stack_bottom[], __user_stack_top[], __user_start[];

#define barrier() __asm__ volatile("" : : : "memory")

/* ~10^4 instructions: many ticks of SysTick and of any DWT counter. */
static inline void spin(void)
{
	for (volatile uint32_t i = 0; i < 2000u; i++)
		;
}

/* The hardware's exception frame. */
struct frame {
	uint32_t r0, r1, r2, r3, r12, lr, pc, xpsr;
};

/* What arch_exception_entry saved on ARMv6-M (start.S), in this order. */
struct saved_regs {
	uint32_t r8, r9, r10, r11, r4, r5, r6, r7;
};

/* Whether pc can be the address of an instruction of ours (so it can be read). */
static inline int pc_in_code(uint32_t pc)
{
	return pc >= (uintptr_t)arch_vectors && pc + 4 <= (uintptr_t)__kit_data_load && pc % 2 == 0;
}

/* ---- SysTick (systick.c) ---- */

/* 1 when SysTick counts (arch_init's probe, arch.c). */
extern int arch_systick_present;
/* SysTick started as the kit has it: 1 when it counts, *what saying from which clock. */
int arch_systick_start(const char **what);
/* The 64-bit extension across forced wraps, through the snapshots: 1 when every wrap counted
 * once, *what giving the figures. */
int arch_systick_wrap_test(const char **what);

/* The watchdog: a deadline the SysTick wrap interrupt checks (trap.c). armed holds a magic
 * value, so a benchmark that wrote over .bss does not arm it. */
#define WATCHDOG_ARMED 0x61726d64u
struct arch_watchdog {
	volatile uint32_t armed;
	uint64_t deadline; /* in SysTick ticks (the 64-bit count) */
};
extern struct arch_watchdog arch_watchdog;

#define SYST_CSR_KIT (SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE)

/* SysTick as the kit has it: 24-bit period, the processor clock, the wrap interrupt at the lowest
 * priority (CVR left alone: the count goes on). */
static inline void systick_configure(void)
{
	REG(SYST_RVR) = SYST_PERIOD - 1u;
	REG(SCB_SHPR3) = (REG(SCB_SHPR3) & ~SCB_SHPR3_PRI_SYSTICK) | SCB_SHPR3_PRI_SYSTICK;
	REG(SYST_CSR) = SYST_CSR_KIT;
}

/* Interrupts on: PRIMASK and (mainline) BASEPRI cleared. */
static inline void irq_unmask_all(void)
{
#if MAINLINE
	__asm__ volatile("msr basepri, %0" : : "r"(0u));
#endif
	__asm__ volatile("cpsie i" : : : "memory");
}

/* ---- Benchmark code in unprivileged Thread mode (usermode.c; ARCH_USER_ISOLATED) ---- */

/* What arch_user_call keeps of the kit while benchmark code runs: its callee-saved registers,
 * its return address and stack pointer (0: no call in progress), its callee-saved FP registers. */
struct arch_user_ctx {
	uint32_t r4_r11[8];
	uint32_t lr;
	uint32_t sp;
#if defined(__ARM_FP)
	uint64_t d8_d15[8];
#endif
};
extern struct arch_user_ctx arch_user_ctx;

/* The SVCs of benchmark code but its readings and the end of its call (usermode.c: the kit's services),
 * from arch_exception: the EXC_RETURN to leave with, or 0 when it is not one of the kit's (a fault). */
uint32_t arch_svc(uint32_t exc_return, uint32_t psp);

/* From a handler, before it returns to the kit's code in Thread mode (the end of a call, trap
 * recovery): Thread mode privileged again (CONTROL.nPRIV cleared), and a lazy FP save pending
 * for the frame it leaves behind dropped. */
static inline void arch_kit_privilege(void)
{
#if defined(__ARM_FP)
	REG(FPU_FPCCR) &= ~FPU_FPCCR_LSPACT;
#endif
#if ARCH_USER_ISOLATED
	uint32_t control;
	__asm__ volatile("mrs %0, control" : "=r"(control));
	__asm__ volatile("msr control, %0\n\tisb" : : "r"(control & ~CONTROL_NPRIV) : "memory");
#endif
}

#endif /* ARCH_ARMV7M_INTERNAL_H */
