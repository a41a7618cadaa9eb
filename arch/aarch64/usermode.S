/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 EL0 calls (bm/port.h, ARCH_USER_ISOLATED): the kit runs at EL1 on SP_EL0; a benchmark's
 * code runs at EL0 on its own stack, where the page tables (mmu.c) let it write only that stack
 * and the user region. It comes back with an SVC (arch_user_exit), which the handler (arch.c)
 * turns into a return from arch_user_call. */
#include "arch/svc.h"

#define SPSR_EL1T 0x4     /* M = EL1t: the kit's own mode (SP_EL0) */
#define CTX_SP 96
#define CTX_D8 112

	.section .text, "ax", %progbits
/* uintptr_t arch_user_call(fn, a0, a1): the kit's callee-saved registers (x19-x30, d8-d15), its sp
 * and its interrupt masks go to arch_user_ctx; fn(a0, a1) starts at EL0 with sp at a1 (16-byte
 * aligned down: the band and job at the top of the benchmark's stack), with the kit's interrupt
 * masks (the watchdog's IRQ reaches it), and returns into arch_user_exit. */
	.balign 4
	.globl arch_user_call
arch_user_call:
	adrp x9, arch_user_ctx
	add x9, x9, :lo12:arch_user_ctx
	stp x19, x20, [x9, #0]
	stp x21, x22, [x9, #16]
	stp x23, x24, [x9, #32]
	stp x25, x26, [x9, #48]
	stp x27, x28, [x9, #64]
	stp x29, x30, [x9, #80]
	mov x10, sp
	mrs x11, daif
	stp x10, x11, [x9, #CTX_SP]
	stp d8, d9, [x9, #CTX_D8]
	stp d10, d11, [x9, #CTX_D8 + 16]
	stp d12, d13, [x9, #CTX_D8 + 32]
	stp d14, d15, [x9, #CTX_D8 + 48]
	and x10, x2, #~15
	mov sp, x10            /* SP_EL0: the benchmark's own stack, from below the band */
	msr elr_el1, x0
	msr spsr_el1, x11      /* M = EL0t (0), DAIF (bits 9:6) as the kit has them */
	mov x0, x1
	mov x1, x2
	adr x30, arch_user_exit
	eret

/* Where fn returns, at EL0: its result in x0, back to the kit. */
	.globl arch_user_exit
arch_user_exit:
	svc #ARCH_SVC_RETURN
1:	b 1b

/* void arch_user_resume(uintptr_t result): from the handler (EL1 on SP_EL1, the trap stack),
 * continues after the arch_user_call that started it, returning result: the trap stack emptied,
 * the kit's registers back, an eret to EL1t with its interrupt masks. */
	.globl arch_user_resume
arch_user_resume:
	adrp x9, __trap_stack_top
	add x9, x9, :lo12:__trap_stack_top
	mov sp, x9
	adrp x9, arch_user_ctx
	add x9, x9, :lo12:arch_user_ctx
	ldp x19, x20, [x9, #0]
	ldp x21, x22, [x9, #16]
	ldp x23, x24, [x9, #32]
	ldp x25, x26, [x9, #48]
	ldp x27, x28, [x9, #64]
	ldp x29, x30, [x9, #80]
	ldp x10, x11, [x9, #CTX_SP]
	ldp d8, d9, [x9, #CTX_D8]
	ldp d10, d11, [x9, #CTX_D8 + 16]
	ldp d12, d13, [x9, #CTX_D8 + 32]
	ldp d14, d15, [x9, #CTX_D8 + 48]
	msr sp_el0, x10
	msr elr_el1, x30
	orr x11, x11, #SPSR_EL1T
	msr spsr_el1, x11
	eret

	.section .bss.arch_user_ctx, "aw", %nobits
	.balign 16
	.globl arch_user_ctx
arch_user_ctx:
	.space CTX_D8 + 64
