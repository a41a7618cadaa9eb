/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M entry: the vector table (first in flash: the core loads the initial MSP and the reset
 * address from it), the reset handler, one entry for every other exception, the trampoline that
 * trap recovery returns to, and (ARMv6-M) the counter routine the snapshots call.
 *
 * Stacks: exceptions run on MSP, the trap stack (__trap_stack_top); the kit runs in privileged
 * Thread mode on PSP, the main stack (__stack_top). An overflow of the main stack (below RAM,
 * into the guard) then faults while the handler still has a stack of its own. */
	.syntax unified
	.thumb

#define ARCH_NUM_IRQS 32	/* the kit enables none; these catch a stray one */

	.section .text.entry, "ax", %progbits
	.balign 256
	.globl arch_vectors
arch_vectors:
	.word __trap_stack_top		/* 0: initial MSP */
	.word _start			/* 1: reset */
	.rept 9				/* 2..10: NMI, HardFault, MemManage, BusFault, UsageFault,
					 * SecureFault, reserved x3 */
	.word arch_exception_entry
	.endr
#if ARCH_USER_ISOLATED
	.word arch_svc_entry		/* 11: SVCall (usermode.c: benchmark code's readings) */
#else
	.word arch_exception_entry	/* 11: SVCall */
#endif
	.rept 3				/* 12..14: DebugMon, reserved, PendSV */
	.word arch_exception_entry
	.endr
	.word arch_exception_entry	/* 15: SysTick (the counter's wrap, the watchdog) */
	.rept ARCH_NUM_IRQS
	.word arch_exception_entry
	.endr

	.thumb_func
	.globl _start
	.type _start, %function
_start:
	ldr r0, =__trap_stack_top	/* as the vector table says, also when a debugger jumped here */
	msr msp, r0
	ldr r0, =__stack_top
	msr psp, r0
	movs r0, #2			/* CONTROL.SPSEL: Thread mode uses PSP (privileged, nPRIV = 0) */
	msr control, r0
	isb
#if defined(__ARM_FP)
	/* FPU on before any C: CP10 and CP11 full access. GCC may use s/d registers anywhere. */
	ldr r0, =0xE000ED88
	ldr r1, [r0]
	ldr r2, =(0xF << 20)
	orrs r1, r1, r2
	str r1, [r0]
	dsb
	isb
#endif
#if defined(__thumb2__)
	/* VTOR (not on Cortex-M0): our table, also when flash is aliased at 0 (STM32). */
	ldr r0, =0xE000ED08
	ldr r1, =arch_vectors
	str r1, [r0]
	dsb
	isb
#endif
	bl bm_crt_start
1:	b 1b
	.ltorg

/* Every exception but reset: arch_exception(exc_return, msp, regs) (arch.c) handles it and
 * returns the EXC_RETURN to leave with: the one it came with (a probe resumed, the SysTick wrap),
 * or one for Thread mode on PSP after it built a fresh frame there (trap recovery). On ARMv6-M,
 * which has no fault status registers, regs points at r8-r11, r4-r7 as the exception found them,
 * so the handler can tell the address a faulting load or store used; elsewhere it is NULL. */
	.section .text.trap, "ax", %progbits
	.thumb_func
	.globl arch_exception_entry
	.type arch_exception_entry, %function
arch_exception_entry:
	mov r0, lr
	mov r1, sp
#if defined(__thumb2__)
	movs r2, #0
	push {r0, lr}			/* 8 bytes: SP stays 8-byte aligned for C */
	bl arch_exception
	pop {r1, r2}
	bx r0
#else
	push {r4, r5, r6, r7}
	mov r4, r8
	mov r5, r9
	mov r6, r10
	mov r7, r11
	push {r4, r5, r6, r7}
	mov r2, sp			/* r8, r9, r10, r11, r4, r5, r6, r7 */
	push {r0, lr}			/* 40 bytes in all: SP stays 8-byte aligned for C */
	bl arch_exception
	pop {r1, r2}
	add sp, #16			/* r8-r11 are unchanged (callee-saved) */
	pop {r4, r5, r6, r7}
	bx r0
#endif

/* Trap recovery lands here in Thread mode (a fresh exception frame on arch_recover_stack). */
	.thumb_func
	.globl arch_recover_trampoline
	.type arch_recover_trampoline, %function
arch_recover_trampoline:
	bl bm_recover
1:	b 1b

#if !defined(__thumb2__)
/* ARMv6-M / ARMv8-M baseline: the snapshots' counter read (arch/arch.h explains the SysTick
 * algorithm; this is the same in Thumb-1). Returns r0 = low word, r1 = high word; clobbers
 * r2, r3 and the flags, and what the board timer's read op clobbers. */
	.section .text.arch_counter_read, "ax", %progbits
	.thumb_func
	.globl arch_counter_read
	.type arch_counter_read, %function
arch_counter_read:
	ldr r3, =arch_counter
	ldr r0, [r3]
	cmp r0, #2			/* the board timer; anything else: SysTick (arch.h) */
	beq 5f
	push {r4, r5, r6, r7}
	ldr r2, =0xE000E018		/* SYST_CVR */
	ldr r4, =0xE000ED04		/* ICSR */
1:	ldr r0, [r3, #4]		/* periods */
	ldr r1, [r2]			/* CVR */
	ldr r5, [r4]			/* ICSR */
	ldr r6, [r3, #4]
	cmp r0, r6
	bne 1b
	rsbs r1, r1, #0
	lsls r1, r1, #8			/* phase << 8 */
	lsrs r6, r1, #31		/* 1: second half of the period */
	lsls r5, r5, #5
	lsrs r5, r5, #31		/* PENDSTSET */
	bics r5, r5, r6
	adds r0, r0, r5			/* periods, with a wrap pended but not yet taken */
	lsrs r1, r1, #8
	lsls r5, r0, #24
	orrs r1, r1, r5			/* low word */
	lsrs r0, r0, #8			/* high word */
	ldr r5, [r3, #8]
	ldr r6, [r3, #12]
	mov r7, r0
	cmp r1, r5
	sbcs r7, r7, r6			/* carry clear: below the last reading */
	bcs 4f
	movs r5, #1
	lsls r5, r5, #24
	adds r1, r1, r5
	movs r5, #0
	adcs r0, r0, r5
4:	str r1, [r3, #8]
	str r0, [r3, #12]
	mov r2, r0
	mov r0, r1
	mov r1, r2
	pop {r4, r5, r6, r7}
	bx lr
5:	push {r4, lr}			/* the board timer: read(timer) */
	ldr r0, [r3, #16]
	ldr r1, [r3, #20]
	blx r1
	pop {r4, pc}
	.ltorg
#endif
