/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 entry: core 0 runs, the others park. Whatever EL the loader starts us at (EL3: QEMU
 * -kernel ELF on raspi3b, virt secure=on; EL2: a Pi's firmware with kernel8.img, virt
 * virtualization=on; EL1: virt by default), we drop to non-secure EL1 and run there: one
 * configuration of the PMU filters, the MMU and the vectors for every board. Higher ELs are set up
 * only so they stay out of the way (no traps of FP, timer, PMU; EL1 in AArch64). The entry EL is
 * kept in TPIDR_EL1 for the meta record (.bss is not zeroed yet, so no variable can hold it). */

#define CURRENTEL_EL1 (1 << 2)
#define CURRENTEL_EL2 (2 << 2)
#define CURRENTEL_EL3 (3 << 2)

/* SCR_EL3: NS (EL1 is non-secure: where PMU event counting needs no MDCR_EL3.SPME), RES1 bits
 * 5:4, HCE (HVC is enabled: taken at EL2 where it exists, reported through its forwarding vector,
 * rather than UNDEFINED), RW (the next lower EL is AArch64). No IRQ/FIQ routing to EL3. */
#define SCR_EL3_VALUE ((1 << 10) | (1 << 8) | (3 << 4) | (1 << 0))
/* HCR_EL2: RW only (EL1 is AArch64); no stage 2, no trapping of anything. */
#define HCR_EL2_VALUE (1 << 31)
/* CPTR_EL2 (non-VHE): RES1 bits 13:12 and 9:0; TFP (bit 10) = 0 so FP/SIMD is not trapped. */
#define CPTR_EL2_VALUE 0x33ff
/* SCTLR_EL1: RES1 bits (29:28, 23:22, 20, 11), little-endian, MMU/caches/alignment check off
 * until arch_init() turns on the MMU. */
#define SCTLR_EL1_VALUE 0x30d00800
/* SPSR for the drop: EL1h, D/A/I/F masked (the kit runs polled, no interrupts). */
#define SPSR_EL1H_MASKED 0x3c5

	.section .text.entry, "ax", %progbits
	.globl _start
_start:
	/* Only core 0 (affinity 0.0.0) runs the kit. The Pi firmware and QEMU already hold the
	 * other cores, but a loader that releases them all must not run four kits at once. */
	mrs x1, mpidr_el1
	and x1, x1, #0xffffff
	cbnz x1, arch_park

	mrs x19, CurrentEL
	cmp x19, #CURRENTEL_EL3
	b.eq from_el3
	cmp x19, #CURRENTEL_EL2
	b.eq from_el2
	b at_el1

/* From a higher EL, first of all: EL1's vectors and trap stack, and this EL's forwarding vectors
 * (vectors.S), so that a fault from here on is reported by the EL1 handler. Clobbers x1. */
.macro early_vectors el
	adrp x1, arch_vectors
	add x1, x1, :lo12:arch_vectors
	msr vbar_el1, x1
	adrp x1, __trap_stack_top
	add x1, x1, :lo12:__trap_stack_top
	msr sp_el1, x1
	adrp x1, arch_vectors_el\el
	add x1, x1, :lo12:arch_vectors_el\el
	msr vbar_el\el, x1
	isb
.endm

from_el3:
	early_vectors 3
	mov x1, #SCR_EL3_VALUE
	msr scr_el3, x1
	msr cptr_el3, xzr       /* FP/SIMD, trace, CPACR accesses: not trapped to EL3 */
	msr mdcr_el3, xzr       /* PMU and debug registers: not trapped to EL3 */
	/* EL2 registers exist only when EL2 is implemented (ID_AA64PFR0_EL1.EL2 != 0). */
	mrs x1, id_aa64pfr0_el1
	ubfx x1, x1, #8, #4
	cbz x1, 1f
	bl setup_el2
1:	ldr x1, =SCTLR_EL1_VALUE
	msr sctlr_el1, x1
	mov x1, #SPSR_EL1H_MASKED
	msr spsr_el3, x1
	adr x1, at_el1
	msr elr_el3, x1
	eret

from_el2:
	early_vectors 2
	bl setup_el2
	ldr x1, =SCTLR_EL1_VALUE
	msr sctlr_el1, x1
	mov x1, #SPSR_EL1H_MASKED
	msr spsr_el2, x1
	adr x1, at_el1
	msr elr_el2, x1
	eret

at_el1:
	lsr x19, x19, #2
	msr tpidr_el1, x19      /* entry EL (1..3), read by arch_init() */
	msr tpidrro_el0, xzr    /* set by the EL2/EL3 forwarding vectors only */
	/* FP/SIMD on before any C: GCC uses q registers for copies and zeroing even in integer code. */
	mov x1, #(3 << 20)      /* CPACR_EL1.FPEN = 0b11 */
	msr cpacr_el1, x1
	adrp x1, arch_vectors
	add x1, x1, :lo12:arch_vectors
	msr vbar_el1, x1
	/* Exceptions run on SP_EL1 (the trap stack), the kit on SP_EL0 (the main stack): a
	 * fault caused by a corrupt or exhausted main stack can still be reported. */
	adrp x1, __trap_stack_top
	add x1, x1, :lo12:__trap_stack_top
	mov sp, x1
	msr spsel, #0
	adrp x1, __stack_top
	add x1, x1, :lo12:__stack_top
	mov sp, x1
	isb
	mov x29, xzr
	mov x30, xzr
	bl bm_crt_start
	/* bm_crt_start does not return; park if it ever does. */

/* Cores other than 0 halt here for good: WFI with every interrupt masked, not a WFE loop. QEMU
 * runs WFE as a yield, so a WFE loop executes a few instructions whenever its round-robin
 * scheduler passes by (at every timer deadline), and under -icount those count in the shared
 * virtual clock, i.e. in core 0's figures (raspi3b's 4 cores: +4 cycles in the sample where the
 * PMU's overflow timer fell). A core in WFI is halted and skipped. */
	.globl arch_park
arch_park:
	msr daifset, #0xf
1:	wfi
	b 1b

/* Leaves EL2 transparent for EL1: AArch64, no traps of FP/SIMD, timers or PMU, CNTVOFF = 0 so
 * CNTVCT == CNTPCT, all PMU event counters given to EL1 (MDCR_EL2.HPMN = PMCR_EL0.N; TPM and
 * TPMCR clear), and the real MIDR/MPIDR visible at EL1. Callable from EL3 or EL2; clobbers x1, x2. */
setup_el2:
	adrp x1, arch_vectors_el2
	add x1, x1, :lo12:arch_vectors_el2
	msr vbar_el2, x1
	mov x1, #HCR_EL2_VALUE
	msr hcr_el2, x1
	mov x1, #CPTR_EL2_VALUE
	msr cptr_el2, x1
	msr hstr_el2, xzr
	mrs x1, cnthctl_el2
	orr x1, x1, #3          /* EL1PCTEN, EL1PCEN */
	msr cnthctl_el2, x1
	msr cntvoff_el2, xzr
	mov x1, #0
	mrs x2, id_aa64dfr0_el1 /* PMUVer: 0 = no PMU, 0xf = IMPDEF (no PMUv3 registers) */
	ubfx x2, x2, #8, #4
	cbz x2, 2f
	cmp x2, #0xf
	b.eq 2f
	mrs x1, pmcr_el0
	ubfx x1, x1, #11, #5    /* PMCR_EL0.N */
2:	msr mdcr_el2, x1
	mrs x1, midr_el1
	msr vpidr_el2, x1
	mrs x1, mpidr_el1
	msr vmpidr_el2, x1
	ret
