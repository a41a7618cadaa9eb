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

/* uintptr_t arch_user_call(fn, a0, a1): the kit's callee-saved registers, return address and stack
 * pointer go to arch_user_ctx (its sp non-zero: a call is in progress); fn(a0, a1) starts in
 * unprivileged Thread mode with the process stack pointer at a1 (16-byte aligned down: the kit's
 * band and job at the top of the benchmark's stack) and returns into arch_user_exit. Interrupts
 * stay as the kit has them (unprivileged code cannot change PRIMASK or BASEPRI). Nothing is written
 * to the MPU: a call costs the drop of privilege and the SVC back.
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

#if defined(__ARM_FP)
_Static_assert(FPU_FPCCR == 0xE000EF34u && FPU_FPCCR_LSPACT == 1u, "FPCCR (the asm below)");
#define DROP_LAZY_FP "movw r0, #0xef34\n\tmovt r0, #0xe000\n\tldr r1, [r0]\n\tbic r1, r1, #1\n\tstr r1, [r0]\n\t"
#else
#define DROP_LAZY_FP
#endif
_Static_assert(CONTROL_NPRIV == 1u && XPSR_T == 0x01000000u &&
               (EXC_RETURN_THREAD | EXC_RETURN_SPSEL | EXC_RETURN_BASIC_FRAME) == 0x1cu,
               "CONTROL, xPSR, EXC_RETURN (the asm below)");

/* The SVC vector (start.S). Two SVCs of benchmark code take a short way, in asm, on MSP:
 * - a reading (ARCH_SVC_SNAP, the snapshots of benchmark code): in as few instructions as the
 *   reading allows, its two words written into the caller's r0 and r1 in the exception frame.
 *   Under -icount what lies between the counter's load and the return (and between the SVC and
 *   the load) is in every timed window: the overhead core measures on this path
 *   (ARCH_USER_SNAP_TRAPS) takes it out again.
 * - the end of a call (ARCH_SVC_RETURN, arch_user_exit), once per call into benchmark code: only
 *   while a call is in progress (arch_user_ctx.sp non-zero) and from PSP; a fresh exception frame
 *   on the kit's stack, just below where arch_user_call left it, returns to arch_user_resume with
 *   the result in r0, in privileged Thread mode (nPRIV cleared, a lazy FP save of the benchmark's
 *   frame dropped).
 * Every other SVC goes the common way (arch_exception, then arch_svc below). Benchmark code runs
 * in Thread mode on PSP, where its frame is; its pc there was checked by the exception's entry,
 * which fetched the SVC. */
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
        "bne 7f\n\t" /* (the reading's own labels are 1-4 and 9) */
        "push {r4, lr}\n\t" ARCH_COUNTER_SEQ("r4", "r0", "r1", "r2", "r3", "r12")
        "mrs r2, psp\n\t"
        "strd r0, r1, [r2]\n\t"
        "pop {r4, pc}\n"
        "7:\n\t"
        "cmp r3, #" ARCH_SVC_STR(ARCH_SVC_RETURN) "\n\t"
        "bne.w arch_exception_entry\n\t"
        "tst lr, #4\n\t" /* EXC_RETURN_SPSEL: from PSP */
        "beq.w arch_exception_entry\n\t"
        "ldr r3, =arch_user_ctx\n\t"
        "ldr r12, [r3, #36]\n\t" /* the kit's sp; 0: no call in progress */
        "cmp r12, #0\n\t"
        "beq.w arch_exception_entry\n\t"
        "movs r0, #0\n\t"
        "str r0, [r3, #36]\n\t"
        "ldr r0, [r2]\n\t" /* the function's result */
        "sub r12, r12, #32\n\t" /* the frame: r0, (r1-r3, r12, lr unused), pc, xPSR */
        "str r0, [r12]\n\t"
        "ldr r0, =arch_user_resume\n\t"
        "bic r0, r0, #1\n\t"
        "mov r1, #0x01000000\n\t"
        "strd r0, r1, [r12, #24]\n\t" DROP_LAZY_FP
        "mrs r0, control\n\t"
        "bic r0, r0, #1\n\t"
        "msr control, r0\n\t"
        "msr psp, r12\n\t"
        "isb\n\t"
        "orr lr, lr, #0x1c\n\t"
        "bx lr\n\t"
        ".ltorg\n"
        ".text\n");

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
	if (*(const volatile uint8_t *)(uintptr_t)(fr->pc - 2) != ARCH_SVC_KIT)
		return 0;
	fr->r0 = (uint32_t)bm_kit_service(fr->r0, fr->r1, fr->r2);
	return exc_return;
}
#endif
