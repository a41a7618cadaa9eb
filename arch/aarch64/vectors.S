/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 exception vectors.
 * - EL1 (arch_vectors): 16 entries of 0x80 bytes (4 sources x sync/IRQ/FIQ/SError). Every entry
 *   saves the caller-saved registers on the trap stack (SP_EL1, see start.S), turns FP/SIMD on,
 *   and calls arch_trap(kind, esr, elr, far, sp_el0, cpacr as found, the saved registers), which continues in the harness (trap recovery, through
 *   arch_recover_el1 below), ends the run, or, while probing an optional register, returns the
 *   address to resume at. kind = vector index 0..15.
 * - EL2 and EL3 (arch_vectors_el2/_el3): installed before the drop to EL1, so that a fault in the
 *   drop itself, or anything the kit does that traps to a higher EL (an SMC, an HVC, a trapped
 *   register), is reported like any other: the exception is forwarded to the EL1 handler with its
 *   syndrome, return address and fault address, and TPIDRRO_EL0's bits 1:0 saying where it was
 *   taken. */
#define FRAME (22 * 8)

.macro ventry kind
	.balign 0x80
	sub sp, sp, #FRAME
	stp x0, x1, [sp, #0]
	mov x0, #\kind
	b arch_exception_common
.endm

	.section .text.trap, "ax", %progbits
	.balign 2048
	.globl arch_vectors
arch_vectors:
	ventry 0    /* current EL, SP_EL0 (the kit runs here): synchronous */
	ventry 1    /*   IRQ */
	ventry 2    /*   FIQ */
	ventry 3    /*   SError */
	ventry 4    /* current EL, SP_ELx (inside a trap handler): synchronous */
	ventry 5
	ventry 6
	ventry 7
	ventry 8    /* lower EL, AArch64: benchmark code at EL0 (usermode.S) */
	ventry 9
	ventry 10
	ventry 11
	ventry 12   /* lower EL, AArch32 (unused) */
	ventry 13
	ventry 14
	ventry 15

arch_exception_common:
	stp x2, x3, [sp, #16]
	stp x4, x5, [sp, #32]
	stp x6, x7, [sp, #48]
	stp x8, x9, [sp, #64]
	stp x10, x11, [sp, #80]
	stp x12, x13, [sp, #96]
	stp x14, x15, [sp, #112]
	stp x16, x17, [sp, #128]
	stp x18, x29, [sp, #144]
	str x30, [sp, #160]
	mrs x1, esr_el1
	mrs x2, elr_el1
	mrs x3, far_el1
	mrs x4, sp_el0
	/* FP/SIMD on before any C runs (compiled C may use its registers): a benchmark that turned
	 * it off is told by the CPACR_EL1 value passed on, and sees it on again (the kit's). */
	mrs x5, cpacr_el1
	orr x6, x5, #(3 << 20)
	msr cpacr_el1, x6
	isb
	mov x6, sp             /* the saved registers: an SVC's arguments and result */
	bl arch_trap
	msr elr_el1, x0
	ldp x0, x1, [sp, #0]
	ldp x2, x3, [sp, #16]
	ldp x4, x5, [sp, #32]
	ldp x6, x7, [sp, #48]
	ldp x8, x9, [sp, #64]
	ldp x10, x11, [sp, #80]
	ldp x12, x13, [sp, #96]
	ldp x14, x15, [sp, #112]
	ldp x16, x17, [sp, #128]
	ldp x18, x29, [sp, #144]
	ldr x30, [sp, #160]
	add sp, sp, #FRAME
	eret

/* Leaves the exception for the harness's recovery point: SP_EL1 back at the trap stack's top, then
 * an eret to EL1t (SP_EL0; D, A, I, F masked) at a trampoline that calls bm_recover() on a small
 * stack at the trap stack's far end (bm_recover restores the harness's own sp at once). */
	.globl arch_recover_el1
arch_recover_el1:
	adrp x0, __trap_stack_bottom
	add x0, x0, :lo12:__trap_stack_bottom
	add x0, x0, #1024
	msr sp_el0, x0
	adr x0, 1f
	msr elr_el1, x0
	mov x0, #0x3c4
	msr spsr_el1, x0
	adrp x0, __trap_stack_top
	add x0, x0, :lo12:__trap_stack_top
	mov sp, x0
	eret
1:	bl bm_recover

/* Forwarding vectors of EL2 and EL3: every entry hands the exception to EL1's synchronous vector
 * (current EL with SP_EL0; the EL1 handler switches to its own stack), with x0 kept in the EL's
 * TPIDR so that a resumed probe finds its registers as it left them. */
.macro forward el
	msr tpidr_el\el, x0
	mrs x0, esr_el\el
	msr esr_el1, x0
	mrs x0, elr_el\el
	msr elr_el1, x0
	mrs x0, spsr_el\el
	msr spsr_el1, x0
	mrs x0, far_el\el
	msr far_el1, x0
	mrs x0, tpidrro_el0
	bic x0, x0, #3
	orr x0, x0, #\el      /* (its other bits are the snapshot's: arch/arch.h) */
	msr tpidrro_el0, x0
	mrs x0, vbar_el1
	msr elr_el\el, x0
	mov x0, #0x3c5
	msr spsr_el\el, x0
	mrs x0, tpidr_el\el
	eret
.endm

.macro fwd_table el
	.balign 2048
	.globl arch_vectors_el\el
arch_vectors_el\el:
	.rept 16
	.balign 0x80
	forward \el
	.endr
.endm

	fwd_table 2
	fwd_table 3
