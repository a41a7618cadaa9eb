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
 * at (it does not return for a benchmark's fault: the kit goes on in its own frame). x0..x18,
 * x29 and x30, in pairs: PAIRS(stp) saves them, PAIRS(ldp) loads them back. */
#define PAIRS(op)                                                                          \
	op x0, x1, [sp, #0]; op x2, x3, [sp, #16]; op x4, x5, [sp, #32]; op x6, x7, [sp, #48];     \
	op x8, x9, [sp, #64]; op x10, x11, [sp, #80]; op x12, x13, [sp, #96];                      \
	op x14, x15, [sp, #112]; op x16, x17, [sp, #128]; op x18, x29, [sp, #144];                 \
	op x30, xzr, [sp, #160]
app_sync:
	sub sp, sp, #176
	PAIRS(stp)
	mrs x0, esr_el1
	mrs x1, elr_el1
	mrs x2, far_el1
	bl app_trap
	msr elr_el1, x0
	PAIRS(ldp)
	add sp, sp, #176
	eret

app_other:
	mov x0, #3
	bl app_exit
