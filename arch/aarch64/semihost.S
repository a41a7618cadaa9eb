/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 semihosting exit (SYS_EXIT with ADP_Stopped_ApplicationExit and a status): the exit
 * device `arch_semihosting` (arch/devices.h) of boards whose only way to end QEMU with a status
 * is semihosting. Under QEMU it needs
 * -semihosting. On a board without a debugger HLT is UNDEFINED: it traps (EC 0x00) and
 * arch_trap() recognises this address and halts quietly, after the end record is out. */
	.section .text.semihost, "ax", %progbits
	.balign 16
	.globl arch_semihost_exit
/* void arch_semihost_exit(const struct bm_exit *dev, int status): w1 = status (bm/port.h) */
arch_semihost_exit:
	sub sp, sp, #16
	sxtw x2, w1
	mov x1, #0x0026
	movk x1, #0x2, lsl #16       /* 0x20026 ADP_Stopped_ApplicationExit */
	stp x1, x2, [sp]
	mov x1, sp
	mov w0, #0x18                /* SYS_EXIT: x1 -> {reason, subcode} on AArch64 */
	.globl arch_semihost_hlt
arch_semihost_hlt:
	hlt #0xf000
1:	wfe
	b 1b
