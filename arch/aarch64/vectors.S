/* AArch64 EL1 exception vectors: 16 entries of 0x80 bytes (4 sources x sync/IRQ/FIQ/SError).
 * Every entry saves the caller-saved registers on the trap stack (SP_EL1, see start.S) and calls
 * arch_trap(kind, esr, elr, far), which either ends the run (it never returns) or, while probing
 * an optional register, returns the address to resume at. kind = vector index 0..15. */
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
	ventry 8    /* lower EL, AArch64 (unused: nothing runs at EL0) */
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
