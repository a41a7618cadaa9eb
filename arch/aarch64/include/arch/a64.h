/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 pieces shared by the bare-metal arch (arch/aarch64) and the hosted one
 * (arch/host-aarch64): system register access, the fields of the system registers the kit reads
 * and writes (Arm ARM DDI 0487, one definition each), and the known loop of the deterministic
 * check. */
#ifndef ARCH_A64_H
#define ARCH_A64_H

#include <stdint.h>

/* CLZ is an A64 instruction. */
#define ARCH_HAS_CLZ64 1

#define arch_sysreg_read(reg)                                             \
	({                                                                \
		uint64_t v_;                                              \
		__asm__ volatile("mrs %0, " #reg : "=r"(v_));             \
		v_;                                                       \
	})
#define arch_sysreg_write(reg, val) \
	__asm__ volatile("msr " #reg ", %0" : : "r"((uint64_t)(val)))
#define arch_isb() __asm__ volatile("isb" : : : "memory")

/* ESR_ELx: the exception class (bits 31:26), and for aborts the fault status (ISS 5:0) and, for
 * data aborts, WnR (ISS 6: the access was a write). */
#define ESR_EC(esr) (((esr) >> 26) & 0x3fu)
#define ESR_EC_UNKNOWN 0x00u     /* an undefined instruction, among others */
#define ESR_EC_WFX 0x01u
#define ESR_EC_FP 0x07u          /* FP/SIMD access trapped */
#define ESR_EC_ILLEGAL_STATE 0x0eu
#define ESR_EC_SVC64 0x15u
#define ESR_EC_HVC64 0x16u
#define ESR_EC_SMC64 0x17u
#define ESR_EC_SYSREG 0x18u      /* trapped MSR, MRS or system instruction */
#define ESR_EC_IABT_LOWER 0x20u
#define ESR_EC_IABT 0x21u
#define ESR_EC_PC_ALIGN 0x22u
#define ESR_EC_DABT_LOWER 0x24u
#define ESR_EC_DABT 0x25u
#define ESR_EC_SP_ALIGN 0x26u
#define ESR_EC_FP_EXC64 0x2cu
#define ESR_EC_SERROR 0x2fu
#define ESR_EC_BREAKPT_LOWER 0x30u
#define ESR_EC_BREAKPT 0x31u
#define ESR_EC_SSTEP_LOWER 0x32u
#define ESR_EC_SSTEP 0x33u
#define ESR_EC_WATCHPT_LOWER 0x34u
#define ESR_EC_WATCHPT 0x35u
#define ESR_EC_BRK64 0x3cu
#define ESR_ISS_WNR (1u << 6)
#define ESR_ISS_IMM16(esr) ((unsigned)(esr) & 0xffffu) /* an SVC's immediate */
#define ESR_FSC(esr) ((esr) & 0x3fu)
#define ESR_FSC_TYPE(fsc) ((fsc) & 0x3cu) /* the kind; the low 2 bits are the level */
#define ESR_FSC_ADDR_SIZE 0x00u
#define ESR_FSC_TRANSLATION 0x04u
#define ESR_FSC_ACCESS_FLAG 0x08u
#define ESR_FSC_PERMISSION 0x0cu
#define ESR_FSC_SYNC_EXTERNAL 0x10u
#define ESR_FSC_ALIGNMENT 0x21u

/* CPACR_EL1.FPEN: FP/SIMD not trapped at EL0 and EL1 (the kit's setting). */
#define CPACR_FPEN (3u << 20)

/* MIDR_EL1 */
#define MIDR_IMPLEMENTER(v) (((v) >> 24) & 0xffu)
#define MIDR_PARTNUM(v) (((v) >> 4) & 0xfffu)
#define MIDR_IMPLEMENTER_ARM 0x41u

/* PMUv3: ID_AA64DFR0_EL1.PMUVer (bits 11:8; 0 none, 0xf IMPLEMENTATION DEFINED), PMCR_EL0,
 * PMUSERENR_EL0, PMCNTENSET/CLR_EL0 (bit n: event counter n; bit 31: the cycle counter). The
 * event number of INST_RETIRED is also its bit in PMCEID0_EL0. */
#define ID_AA64DFR0_PMUVER(v) (((v) >> 8) & 0xfu)
#define PMUVER_NONE 0x0u
#define PMUVER_IMPDEF 0xfu
#define PMCR_E (1u << 0)  /* enable */
#define PMCR_P (1u << 1)  /* reset the event counters */
#define PMCR_C (1u << 2)  /* reset the cycle counter */
#define PMCR_LC (1u << 6) /* the cycle counter overflows at 64 bits */
#define PMCR_CONTROL 0xffull /* the control bits (7:0); the fields above are read-only */
#define PMCR_N(v) (((v) >> 11) & 0x1fu) /* event counters implemented */
#define PMUSERENR_EN (1u << 0)
#define PMUSERENR_CR (1u << 2)
#define PMUSERENR_ER (1u << 3)
#define CNTKCTL_EL0VCTEN (1u << 1) /* CNTKCTL_EL1: EL0 may read CNTVCT_EL0 */
#define PMCNTEN_P0 (1u << 0)
#define PMCNTEN_C (1u << 31)
#define PMU_ALL_COUNTERS 0xffffffffu /* every counter's bit, in PMCNTENCLR, PMINTENCLR, PMOVSCLR */
#define PMU_EVENT_INST_RETIRED 0x08u

/* CNTV_CTL_EL0: the virtual timer's control. */
#define CNTV_CTL_ENABLE (1u << 0)

/* DAIFSet/DAIFClr immediates: the I bit masks IRQs. */
#define DAIF_IRQ 2u

/* mov + 1000 x (subs, b.ne): exactly 2001 instructions retired. */
#define ARCH_KNOWN_LOOP_INSNS 2001u
static inline __attribute__((always_inline)) void arch_known_loop(void)
{
	uint64_t n;
	__asm__ volatile("mov %0, #1000\n"
	                 "1: subs %0, %0, #1\n"
	                 "b.ne 1b\n"
	                 : "=&r"(n)
	                 :
	                 : "cc");
}

#endif /* ARCH_A64_H */
