/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 ring-3 calls (bm/port.h, ARCH_USER_ISOLATED): the kit runs in ring 0; a benchmark's code
 * runs in ring 3 on its own stack, where the page tables (paging.c) let it write only that stack
 * and the user region. It comes back with int $X86_VEC_USER_RETURN (arch_user_exit), and asks the
 * kit with int $X86_VEC_KIT (arch_kit_call, arch/arch.h): two interrupt gates of DPL 3
 * (tables.c), which the CPU enters on the trap stack (the TSS's RSP0) from ring 3, interrupts
 * off. Nothing is written to the page tables, the TSS or the TLB per call: a call costs its two
 * ring switches. */
#include "arch/x86.h"

/* arch_user_ctx: the kit's callee-saved registers, its rsp (at its return address) and rflags. */
#define CTX_RBX 0
#define CTX_RBP 8
#define CTX_R12 16
#define CTX_R13 24
#define CTX_R14 32
#define CTX_R15 40
#define CTX_RSP 48
#define CTX_RFLAGS 56
#define CTX_BYTES 64

	.section .text, "ax", @progbits
/* uintptr_t arch_user_call(fn, a0, a1): the kit's callee-saved registers, rsp and rflags go to
 * arch_user_ctx; fn(a0, a1) starts in ring 3 (iretq) with rsp at a1 (16-byte aligned down: the
 * kit's band and job at the top of the benchmark's stack) less the return address it finds there,
 * arch_user_exit; with the kit's interrupt enable (the watchdog's interrupt reaches it) and
 * IOPL 0. */
	.balign 16
	.globl arch_user_call
arch_user_call:
	movq %rbx, arch_user_ctx + CTX_RBX(%rip)
	movq %rbp, arch_user_ctx + CTX_RBP(%rip)
	movq %r12, arch_user_ctx + CTX_R12(%rip)
	movq %r13, arch_user_ctx + CTX_R13(%rip)
	movq %r14, arch_user_ctx + CTX_R14(%rip)
	movq %r15, arch_user_ctx + CTX_R15(%rip)
	movq %rsp, arch_user_ctx + CTX_RSP(%rip)
	pushfq
	popq %rax
	movq %rax, arch_user_ctx + CTX_RFLAGS(%rip)
	andl $X86_RFLAGS_IF, %eax
	orl $X86_RFLAGS_FIXED, %eax   /* ring 3's rflags */
	movq %rdx, %rcx
	andq $-16, %rcx
	subq $8, %rcx                 /* ring 3's rsp: as after a call */
	leaq arch_user_exit(%rip), %r8
	movq %r8, (%rcx)
	pushq $(X86_SEL_USER_DATA | X86_RPL3)
	pushq %rcx
	pushq %rax
	pushq $(X86_SEL_USER_CODE64 | X86_RPL3)
	pushq %rdi
	movq %rsi, %rdi
	movq %rdx, %rsi
	iretq

/* Where fn returns, in ring 3: its result in rax, back to the kit. */
	.globl arch_user_exit
arch_user_exit:
	int $X86_VEC_USER_RETURN
	ud2

/* int $X86_VEC_USER_RETURN, from ring 3: continues after the arch_user_call that started it,
 * returning rax; the trap stack is left as it was (empty), the kit's registers, SS (the gate left
 * it null) and interrupt enable are back. From ring 0 it is no return: an unexpected interrupt. */
	.balign 16
	.globl arch_x86_user_return_gate
arch_x86_user_return_gate:
	testb $X86_RPL3, 8(%rsp)      /* the CS it came from */
	jz 1f
	movl $X86_SEL_DATA, %ecx
	movl %ecx, %ss
	movq arch_user_ctx + CTX_RBX(%rip), %rbx
	movq arch_user_ctx + CTX_RBP(%rip), %rbp
	movq arch_user_ctx + CTX_R12(%rip), %r12
	movq arch_user_ctx + CTX_R13(%rip), %r13
	movq arch_user_ctx + CTX_R14(%rip), %r14
	movq arch_user_ctx + CTX_R15(%rip), %r15
	movq arch_user_ctx + CTX_RSP(%rip), %rsp
	pushq arch_user_ctx + CTX_RFLAGS(%rip)
	popfq
	ret
1:	pushq $0
	pushq $X86_VEC_USER_RETURN
	jmp arch_x86_trap_common

/* int $X86_VEC_KIT: bm_kit_service(rdi, rsi, rdx), its result in rax, back with iretq (to ring 3,
 * or to the kit: arch_kit_call says which registers it may change). The CPU aligned rsp to 16
 * before its five words. */
	.balign 16
	.globl arch_x86_kit_gate
arch_x86_kit_gate:
	cld
	subq $8, %rsp
	call bm_kit_service
	addq $8, %rsp
	iretq

	.section .bss.arch_user_ctx, "aw", @nobits
	.balign 16
	.globl arch_user_ctx
arch_user_ctx:
	.space CTX_BYTES
