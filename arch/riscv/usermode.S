/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V U-mode calls (bm/port.h, ARCH_USER_ISOLATED): the kit runs in M-mode; a benchmark's code
 * runs in U-mode on its own stack, where PMP, set once (arch.c, pmp_user), lets it write only that
 * stack and the user region. It comes back with an ecall (arch_user_exit), which the trap
 * handler turns into a return from arch_user_call. */
#include "arch/ecall.h"
#include "arch/riscv.h" /* MSTATUS_*, REG_S, REG_L, REGBYTES */

	.section .text, "ax", @progbits
/* uintptr_t arch_user_call(fn, a0, a1): the kit's callee-saved registers, stack pointer, return
 * address and interrupt enable go to arch_user_ctx; fn(a0, a1) starts in U-mode with sp at a1
 * (16-byte aligned down: the band and job at the top of the benchmark's stack) and returns into
 * arch_user_exit. No PMP write: a call costs its two mode switches. */
	.balign 4
	.globl arch_user_call
arch_user_call:
	la t0, arch_user_ctx
	REG_S ra, 0 * REGBYTES(t0)
	REG_S sp, 1 * REGBYTES(t0)
	REG_S s0, 2 * REGBYTES(t0)
	REG_S s1, 3 * REGBYTES(t0)
	REG_S s2, 4 * REGBYTES(t0)
	REG_S s3, 5 * REGBYTES(t0)
	REG_S s4, 6 * REGBYTES(t0)
	REG_S s5, 7 * REGBYTES(t0)
	REG_S s6, 8 * REGBYTES(t0)
	REG_S s7, 9 * REGBYTES(t0)
	REG_S s8, 10 * REGBYTES(t0)
	REG_S s9, 11 * REGBYTES(t0)
	REG_S s10, 12 * REGBYTES(t0)
	REG_S s11, 13 * REGBYTES(t0)
	csrr t1, mstatus
	REG_S t1, 14 * REGBYTES(t0)
	andi sp, a2, -16
	csrw mepc, a0
	mv a0, a1
	mv a1, a2
	la ra, arch_user_exit
	li t1, MSTATUS_MPP
	csrc mstatus, t1       /* mret to U-mode... */
	li t1, MSTATUS_MPIE
	csrs mstatus, t1       /* ...with interrupts taken there (the watchdog) */
	mret

/* Where fn returns, in U-mode: its result in a0, back to the kit. */
	.globl arch_user_exit
arch_user_exit:
	li a7, ARCH_ECALL_RETURN
	ecall
1:	j 1b

/* void arch_user_resume(uintptr_t result): from the trap handler (M-mode, on the trap stack),
 * continues after the arch_user_call that started it, returning result. */
	.globl arch_user_resume
arch_user_resume:
	la t0, __trap_stack_top
	csrw mscratch, t0
	la t0, arch_user_ctx
	REG_L ra, 0 * REGBYTES(t0)
	REG_L sp, 1 * REGBYTES(t0)
	REG_L s0, 2 * REGBYTES(t0)
	REG_L s1, 3 * REGBYTES(t0)
	REG_L s2, 4 * REGBYTES(t0)
	REG_L s3, 5 * REGBYTES(t0)
	REG_L s4, 6 * REGBYTES(t0)
	REG_L s5, 7 * REGBYTES(t0)
	REG_L s6, 8 * REGBYTES(t0)
	REG_L s7, 9 * REGBYTES(t0)
	REG_L s8, 10 * REGBYTES(t0)
	REG_L s9, 11 * REGBYTES(t0)
	REG_L s10, 12 * REGBYTES(t0)
	REG_L s11, 13 * REGBYTES(t0)
	REG_L t1, 14 * REGBYTES(t0)
	andi t1, t1, MSTATUS_MIE
	csrs mstatus, t1       /* interrupts as the kit had them */
	ret

	.section .bss.arch_user_ctx, "aw", @nobits
	.balign REGBYTES
	.globl arch_user_ctx
arch_user_ctx:
	.space 15 * REGBYTES
