/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V M-mode entry: one hart runs, the others park. Sets the trap vector and its own
 * stack (mscratch), the main stack, then hands over to core's C start (bm_crt_start). */
#include "arch/riscv.h" /* REG_S, REG_L, REGBYTES */

	.section .text.entry, "ax", @progbits
	.globl _start
_start:
	.option push
	.option norelax
	csrw mie, zero
	la t0, arch_trap_entry
	csrw mtvec, t0
	la t0, __trap_stack_top
	csrw mscratch, t0
	csrr t0, mhartid
	bnez t0, 2f
	la sp, __stack_top
	call bm_crt_start
2:	wfi
	j 2b
	.option pop

/* Every trap lands here on the trap stack. arch_trap() either continues in the harness (trap
 * recovery) or ends the run (it does not return then), or, while probing an optional CSR,
 * returns the mepc to resume at. */
	.section .text.trap, "ax", @progbits
	.balign 4
	.globl arch_trap_entry
arch_trap_entry:
	csrrw sp, mscratch, sp
	addi sp, sp, -16 * REGBYTES
	REG_S ra, 0 * REGBYTES(sp)
	REG_S t0, 1 * REGBYTES(sp)
	REG_S t1, 2 * REGBYTES(sp)
	REG_S t2, 3 * REGBYTES(sp)
	REG_S a0, 4 * REGBYTES(sp)
	REG_S a1, 5 * REGBYTES(sp)
	REG_S a2, 6 * REGBYTES(sp)
	REG_S a3, 7 * REGBYTES(sp)
	REG_S a4, 8 * REGBYTES(sp)
	REG_S a5, 9 * REGBYTES(sp)
	REG_S a6, 10 * REGBYTES(sp)
	REG_S a7, 11 * REGBYTES(sp)
	REG_S t3, 12 * REGBYTES(sp)
	REG_S t4, 13 * REGBYTES(sp)
	REG_S t5, 14 * REGBYTES(sp)
	REG_S t6, 15 * REGBYTES(sp)
	csrr a0, mcause
	csrr a1, mepc
	csrr a2, mtval
	csrr a3, mscratch   /* the interrupted sp (swapped in at entry) */
	mv a4, sp           /* the saved registers: an ecall's arguments and result */
	call arch_trap
	csrw mepc, a0
	REG_L ra, 0 * REGBYTES(sp)
	REG_L t0, 1 * REGBYTES(sp)
	REG_L t1, 2 * REGBYTES(sp)
	REG_L t2, 3 * REGBYTES(sp)
	REG_L a0, 4 * REGBYTES(sp)
	REG_L a1, 5 * REGBYTES(sp)
	REG_L a2, 6 * REGBYTES(sp)
	REG_L a3, 7 * REGBYTES(sp)
	REG_L a4, 8 * REGBYTES(sp)
	REG_L a5, 9 * REGBYTES(sp)
	REG_L a6, 10 * REGBYTES(sp)
	REG_L a7, 11 * REGBYTES(sp)
	REG_L t3, 12 * REGBYTES(sp)
	REG_L t4, 13 * REGBYTES(sp)
	REG_L t5, 14 * REGBYTES(sp)
	REG_L t6, 15 * REGBYTES(sp)
	addi sp, sp, 16 * REGBYTES
	csrrw sp, mscratch, sp
	mret
