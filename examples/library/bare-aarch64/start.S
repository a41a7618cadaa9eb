/* SPDX-License-Identifier: Apache-2.0 */
/* The application's own start-up at EL1 (not the kit's): FP/SIMD on (the compiler may use it), a
 * stack, its vectors, .bss zeroed, main, then its exit. Its vectors send a synchronous exception
 * to app_trap (main.c), which forwards it to the kit, and resume where app_trap says. The MMU
 * stays off (QEMU does not fault on unaligned accesses to Device memory; a real core would want
 * the MMU on and RAM Normal). */
	.section .text.start, "ax"
	.globl _start
_start:
	mov x0, #(3 << 20)           /* CPACR_EL1.FPEN: FP/SIMD not trapped at EL1 and EL0 */
	msr cpacr_el1, x0
	ldr x0, =app_vectors
	msr vbar_el1, x0
	isb
	ldr x0, =__stack_top
	mov sp, x0
	ldr x0, =__bss_start
	ldr x1, =__bss_end
1:	cmp x0, x1
	b.hs 2f
	str xzr, [x0], #8
	b 1b
2:	bl main
	bl app_exit
3:	b 3b

/* Sixteen entries of 128 bytes: a synchronous exception from EL1 (either stack) goes to
 * app_sync; anything else (the application enables no interrupt) to app_other. */
	.macro vec target
	.balign 128
	b \target
	.endm
	.section .text.vectors, "ax"
	.balign 2048
app_vectors:
	vec app_sync
	vec app_other
	vec app_other
	vec app_other
	vec app_sync
	vec app_other
	vec app_other
	vec app_other
	.rept 8
	vec app_other
	.endr

/* The caller-saved registers around app_trap(esr, elr, far), which returns the address to resume
 * at (it does not return for a benchmark's fault: the kit goes on in its own frame). */
app_sync:
	sub sp, sp, #176
	stp x0, x1, [sp, #0]
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
	mrs x0, esr_el1
	mrs x1, elr_el1
	mrs x2, far_el1
	bl app_trap
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
	add sp, sp, #176
	eret

app_other:
	mov x0, #3
	bl app_exit
