/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M unprivileged calls (bm/port.h, ARCH_USER_ISOLATED; the cores with an MPU): the kit runs
 * in privileged Thread mode on the process stack; a benchmark's code runs in unprivileged Thread
 * mode on the process stack too, moved to the top of its own stack, where the MPU (set once,
 * mpu_guard.h) lets it write only that stack and the RAM from the user region up. It reads the
 * counters, which sit in the PPB and answer privileged code only, and asks for the kit's services
 * with an SVC, and it comes back with one (arch_user_exit), which the handler turns into a return
 * from arch_user_call on the kit's stack. */
#include <stdint.h>

#include "bm/port.h"
#include "internal.h"

#if ARCH_USER_ISOLATED /* (the mainline cores: arch.cmake) */
struct arch_user_ctx arch_user_ctx;

_Static_assert(__builtin_offsetof(struct arch_user_ctx, sp) == 36, "arch_user_ctx layout (the asm below)");
#if defined(__ARM_FP)
_Static_assert(__builtin_offsetof(struct arch_user_ctx, d8_d15) == 40, "arch_user_ctx layout (the asm below)");
#define SAVE_FP "add r12, r3, #40\n\tvstmia r12, {d8-d15}\n\t"
#define LOAD_FP "add r12, r3, #40\n\tvldmia r12, {d8-d15}\n\t"
#else
#define SAVE_FP
#define LOAD_FP
#endif

/* uintptr_t arch_user_call(fn, a0, a1): the kit's callee-saved registers, return address and
 * stack pointer go to arch_user_ctx (its sp non-zero: a call is in progress); fn(a0, a1) starts
 * in unprivileged Thread mode with the process stack pointer at a1 (16-byte aligned down: the job
 * at the top of the benchmark's stack) and returns into arch_user_exit. Interrupts stay as the
 * kit has them (unprivileged code cannot change PRIMASK or BASEPRI). Nothing is written to the
 * MPU: a call costs the drop of privilege and the SVC back.
 *
 * arch_user_resume: where the SVC handler returns to, in privileged Thread mode on the kit's stack
 * again, with fn's result in r0: the kit's registers back, then a return from arch_user_call. */
__asm__(".syntax unified\n"
        ".section .text.arch_user_call, \"ax\", %progbits\n"
        ".balign 4\n"
        ".thumb\n"
        ".thumb_func\n"
        ".globl arch_user_call\n"
        ".type arch_user_call, %function\n"
        "arch_user_call:\n\t"
        "ldr r3, =arch_user_ctx\n\t"
        "stmia r3, {r4-r11, lr}\n\t"
        "mov r12, sp\n\t"
        "str r12, [r3, #36]\n\t" SAVE_FP
        "bic r2, r2, #15\n\t"
        "msr psp, r2\n\t" /* (Thread mode runs on PSP: this is sp from here) */
        "mov r12, r0\n\t"
        "mov r0, r1\n\t"
        "mov r1, r2\n\t"
        "ldr lr, =arch_user_exit\n\t"
        "mrs r3, control\n\t"
        "orr r3, r3, #1\n\t" /* nPRIV */
        "msr control, r3\n\t"
        "isb\n\t"
        "bx r12\n\t"
        ".ltorg\n"
        ".thumb_func\n"
        ".type arch_user_exit, %function\n"
        "arch_user_exit:\n\t"
        "svc #" ARCH_SVC_STR(ARCH_SVC_RETURN) "\n"
        "1:\n\t"
        "b 1b\n"
        ".thumb_func\n"
        ".globl arch_user_resume\n"
        ".type arch_user_resume, %function\n"
        "arch_user_resume:\n\t"
        "ldr r3, =arch_user_ctx\n\t"
        "ldmia r3, {r4-r11, lr}\n\t" LOAD_FP
        "bx lr\n\t"
        ".ltorg\n"
        ".text\n");

/* The SVC vector (start.S): a reading (ARCH_SVC_SNAP, the snapshots of benchmark code) is taken
 * here, on MSP, in as few instructions as the reading allows, its two words written into the
 * caller's r0 and r1 in the exception frame; every other SVC goes the common way (arch_exception,
 * then arch_svc below). The SVC comes from Thread mode, which runs on PSP. Under -icount what lies
 * between the counter's load and the return (and between the SVC and the load) is in every timed
 * window: the overhead core measures on this path (ARCH_USER_SNAP_TRAPS) takes it out again. */
__asm__(".syntax unified\n"
        ".section .text.arch_svc_entry, \"ax\", %progbits\n"
        ".thumb\n"
        ".thumb_func\n"
        ".globl arch_svc_entry\n"
        ".type arch_svc_entry, %function\n"
        "arch_svc_entry:\n\t"
        "mrs r2, psp\n\t"
        "ldr r3, [r2, #24]\n\t" /* the stacked pc: after the SVC */
        "ldrb r3, [r3, #-2]\n\t" /* its immediate */
        "cmp r3, #" ARCH_SVC_STR(ARCH_SVC_SNAP) "\n\t"
        "bne.w arch_exception_entry\n\t"
        "push {r4, lr}\n\t" ARCH_COUNTER_SEQ("r4", "r0", "r1", "r2", "r3", "r12")
        "mrs r2, psp\n\t"
        "strd r0, r1, [r2]\n\t"
        "pop {r4, pc}\n"
        ".text\n");

/* The end of a call into benchmark code: a fresh exception frame on the kit's stack, just below
 * where arch_user_call left it, returns to arch_user_resume with the result in r0, in privileged
 * Thread mode (nPRIV cleared, a lazy FP save of the benchmark's frame dropped). */
static uint32_t resume(uint32_t exc_return, uint32_t result)
{
	extern char arch_user_resume[];
	struct frame *fr = (struct frame *)(uintptr_t)arch_user_ctx.sp - 1;
	arch_user_ctx.sp = 0;
	*fr = (struct frame){
		.r0 = result,
		.lr = 0xffffffffu, /* (never used: arch_user_resume returns through its saved lr) */
		.pc = (uint32_t)(uintptr_t)arch_user_resume & ~1u,
		.xpsr = XPSR_T,
	};
	arch_kit_privilege();
	__asm__ volatile("msr psp, %0\n\tisb" : : "r"(fr) : "memory");
	return exc_return | EXC_RETURN_THREAD | EXC_RETURN_SPSEL | EXC_RETURN_BASIC_FRAME;
}

uint32_t arch_svc(uint32_t exc_return, uint32_t psp)
{
	/* Only from benchmark code in a call (the kit and .privileged code call the kit directly),
	 * its frame on its own stack and its pc in the code; anything else is an SVC the kit does not
	 * know, reported as a fault. */
	uintptr_t lo = (uintptr_t)__user_stack_bottom, hi = (uintptr_t)__user_stack_top;
	if (!arch_user_ctx.sp || !(exc_return & EXC_RETURN_SPSEL) || psp < lo || psp > hi - sizeof(struct frame))
		return 0;
	struct frame *fr = (struct frame *)(uintptr_t)psp;
	if (!pc_in_code(fr->pc - 2))
		return 0;
	switch (*(const volatile uint8_t *)(uintptr_t)(fr->pc - 2)) {
	case ARCH_SVC_KIT:
		fr->r0 = (uint32_t)bm_kit_service(fr->r0, fr->r1, fr->r2);
		return exc_return;
	case ARCH_SVC_RETURN:
		return resume(exc_return, fr->r0);
	default:
		return 0;
	}
}
#endif
