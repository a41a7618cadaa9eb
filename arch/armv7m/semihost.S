/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M semihosting exit (SYS_EXIT_EXTENDED with ADP_Stopped_ApplicationExit and a status):
 * the exit device `arch_semihosting` (arch/devices.h). Under QEMU it needs -semihosting. On a
 * board without a debugger BKPT escalates to HardFault; the handler recognises this address and
 * halts quietly, after the end record is out. */
	.syntax unified
	.thumb
	.section .text.semihost, "ax", %progbits
	.thumb_func
	.globl arch_semihost_exit
	.type arch_semihost_exit, %function
/* void arch_semihost_exit(const struct bm_exit *dev, int status): r1 = status (bm/port.h) */
arch_semihost_exit:
	sub sp, sp, #8
	ldr r0, =0x20026		/* ADP_Stopped_ApplicationExit */
	str r0, [sp]
	str r1, [sp, #4]
	mov r1, sp
	movs r0, #0x20			/* SYS_EXIT_EXTENDED: r1 -> {reason, subcode} */
	.globl arch_semihost_bkpt
arch_semihost_bkpt:
	bkpt 0xab
1:	wfi
	b 1b
	.ltorg
