/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V semihosting exit (SYS_EXIT_EXTENDED): the exit device `arch_semihosting` of boards
 * with no exit device of their own (arch/devices.h).
 * The magic sequence must be uncompressed and must not straddle a page, hence norvc and
 * alignment. Under QEMU it needs -semihosting; on a board without a debugger the ebreak traps
 * and arch_trap() recognises this address and halts quietly. */
#include "arch/riscv.h" /* REG_S, REGBYTES */

	.section .text.semihost, "ax", @progbits
	.balign 16
	.globl arch_semihost_exit
/* void arch_semihost_exit(const struct bm_exit *dev, int status): a1 = status (bm/port.h) */
arch_semihost_exit:
	addi sp, sp, -4 * REGBYTES
	li t0, 0x20026               /* ADP_Stopped_ApplicationExit */
	REG_S t0, 0(sp)
	REG_S a1, REGBYTES(sp)
	mv a1, sp
	li a0, 0x20                  /* SYS_EXIT_EXTENDED */
	.option push
	.option norvc
	.balign 16
	slli x0, x0, 0x1f
	.globl arch_semihost_ebreak
arch_semihost_ebreak:
	ebreak
	srai x0, x0, 7
	.option pop
1:	wfi
	j 1b
