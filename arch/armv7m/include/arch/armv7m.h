/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M system registers the arch uses (ARMv7-M ARM DDI 0403E, ARMv6-M DDI 0419E, ARMv8-M
 * DDI 0553): the System Control Space at 0xE000E000 and the DWT at 0xE0001000, and the fields of
 * the exception frame and of the special registers. One definition of each address and bit, for
 * the arch's C files, its test hooks and the asm in arch.h. */
#ifndef ARCH_ARMV7M_ARMV7M_H
#define ARCH_ARMV7M_ARMV7M_H

#include <stdint.h>

#define ARMV7M_REG(addr) (*(volatile uint32_t *)(uintptr_t)(addr))

/* SysTick (all profiles; optional on ARMv6-M and ARMv8-M: the nRF51 has none). */
#define SYST_CSR 0xE000E010u        /* control and status */
#define SYST_RVR 0xE000E014u        /* reload value, 24 bits */
#define SYST_CVR 0xE000E018u        /* current value (a write of any value clears it) */
#define SYST_CALIB 0xE000E01Cu
#define SYST_CSR_ENABLE (1u << 0)
#define SYST_CSR_TICKINT (1u << 1)
#define SYST_CSR_CLKSOURCE (1u << 2) /* 1: the processor clock; 0: the implementation's reference */
#define SYST_CSR_COUNTFLAG (1u << 16)
#define SYST_BITS 24u
#define SYST_PERIOD (1u << SYST_BITS)

/* NVIC: one bit per external interrupt, 32 to a word; ARMv7-M has up to 16 words (496
 * interrupts), and words past the implemented interrupts ignore writes. */
#define NVIC_ISER0 0xE000E100u      /* set-enable */
#define NVIC_ICER0 0xE000E180u      /* clear-enable */
#define NVIC_ISPR0 0xE000E200u      /* set-pending */
#define NVIC_ICPR0 0xE000E280u      /* clear-pending */
#define NVIC_ICER(n) (NVIC_ICER0 + 4u * (n))
#define NVIC_ICPR(n) (NVIC_ICPR0 + 4u * (n))
#define NVIC_WORDS 16u

/* System control block. */
#define SCB_CPUID 0xE000ED00u
#define SCB_CPUID_IMPLEMENTER(v) ((v) >> 24)
#define SCB_CPUID_VARIANT(v) (((v) >> 20) & 0xfu)
#define SCB_CPUID_PARTNO(v) (((v) >> 4) & 0xfffu)
#define SCB_CPUID_REVISION(v) ((v) & 0xfu)
#define CPUID_IMPLEMENTER_ARM 0x41u
#define CPUID_PART_CORTEX_M7 0xc27u  /* (the cores whose facts differ: caches, a PMU) */
#define CPUID_PART_CORTEX_M55 0xd22u
#define CPUID_PART_CORTEX_M85 0xd23u
#define SCB_ICSR 0xE000ED04u
#define SCB_ICSR_PENDSTSET (1u << 26)
#define SCB_ICSR_PENDSVCLR (1u << 27)
#define SCB_ICSR_RETTOBASE (1u << 11)
#define SCB_VTOR 0xE000ED08u        /* not on Cortex-M0 */
#define SCB_CCR 0xE000ED14u
#define SCB_CCR_DIV_0_TRP (1u << 4)
#define SCB_CCR_DC (1u << 16)       /* data cache on (a core with caches: Cortex-M7, M55, M85) */
#define SCB_CCR_IC (1u << 17)       /* instruction cache on */
#define SCB_SHPR3 0xE000ED20u       /* priorities of PendSV (23:16) and SysTick (31:24) */
#define SCB_SHPR3_PRI_SYSTICK (0xffu << 24) /* all ones: the lowest priority */
#define SCB_SHCSR 0xE000ED24u
#define SCB_SHCSR_MEMFAULTENA (1u << 16)
#define SCB_SHCSR_BUSFAULTENA (1u << 17)
#define SCB_SHCSR_USGFAULTENA (1u << 18)
#define SCB_CFSR 0xE000ED28u        /* MMFSR (7:0), BFSR (15:8), UFSR (31:16); write 1 to clear */
#define SCB_HFSR 0xE000ED2Cu
#define SCB_HFSR_VECTTBL (1u << 1)
#define SCB_HFSR_FORCED (1u << 30)
#define SCB_HFSR_DEBUGEVT (1u << 31)
#define SCB_MMFAR 0xE000ED34u
#define SCB_BFAR 0xE000ED38u
#define SCB_ID_PFR1 0xE000ED44u
#define ID_PFR1_SECURITY(v) (((v) >> 4) & 0xfu) /* ARMv8-M: nonzero with the Security Extension */
#define SCB_CLIDR 0xE000ED78u       /* cache levels; 0 where the core has (or QEMU models) none */
#define SCB_CPACR 0xE000ED88u       /* CP10/CP11 (the FPU, and MVE): bits 23:20 */
#define CPACR_FP_FULL (0xfu << 20)  /* CP10 and CP11 full access: the FPU on */
/* ARMv8-M with the Security Extension: the SCS's Non-secure alias, which only Secure state can
 * read (Non-secure state reads 0 there). */
#define SCB_CPUID_NS 0xE002ED00u

/* CFSR bits. */
#define CFSR_IACCVIOL (1u << 0)
#define CFSR_DACCVIOL (1u << 1)
#define CFSR_MUNSTKERR (1u << 3)
#define CFSR_MSTKERR (1u << 4)
#define CFSR_MLSPERR (1u << 5)
#define CFSR_MMARVALID (1u << 7)
#define CFSR_IBUSERR (1u << 8)
#define CFSR_PRECISERR (1u << 9)
#define CFSR_IMPRECISERR (1u << 10)
#define CFSR_UNSTKERR (1u << 11)
#define CFSR_STKERR (1u << 12)
#define CFSR_LSPERR (1u << 13)
#define CFSR_BFARVALID (1u << 15)
#define CFSR_UNDEFINSTR (1u << 16)
#define CFSR_INVSTATE (1u << 17)
#define CFSR_INVPC (1u << 18)
#define CFSR_NOCP (1u << 19)
#define CFSR_STKOF (1u << 20)       /* ARMv8-M: a stack limit register was crossed */
#define CFSR_UNALIGNED (1u << 24)
#define CFSR_DIVBYZERO (1u << 25)
/* The exception frame could not be written or read: the stack it names is unusable. */
#define CFSR_STACKING (CFSR_MUNSTKERR | CFSR_MSTKERR | CFSR_UNSTKERR | CFSR_STKERR)

/* MPU (PMSAv7: Cortex-M3/M4/M7). Where regions overlap, the highest-numbered wins. */
#define MPU_TYPE 0xE000ED90u
#define MPU_TYPE_DREGION(v) (((v) >> 8) & 0xffu) /* regions implemented */
#define MPU_CTRL 0xE000ED94u
#define MPU_CTRL_ENABLE (1u << 0)
#define MPU_CTRL_PRIVDEFENA (1u << 2)
#define MPU_RNR 0xE000ED98u
#define MPU_RBAR 0xE000ED9Cu
#define MPU_RASR 0xE000EDA0u
#define MPU_RASR_ENABLE (1u << 0)
#define MPU_RASR_SIZE(log2) (((log2) - 1u) << 1) /* a region of 2^log2 bytes */
#define MPU_RASR_XN (1u << 28)      /* AP (26:24) = 000: no access at any privilege */
#define MPU_RASR_AP_RO (6u << 24)   /* AP = 110: read-only at any privilege */
#define MPU_RASR_FLASH (1u << 17)   /* TEX 000, C 1, B 0: normal memory, write-through (flash) */
#define MPU_RASR_AP_RW (3u << 24)   /* AP = 011: read/write at any privilege */
#define MPU_RASR_AP_PRIV (1u << 24) /* AP = 001: read/write when privileged, no access unprivileged */
/* TEX 001, C 1, B 1: normal memory, write-back, write-allocate (SRAM, as the default map has it) */
#define MPU_RASR_SRAM ((1u << 19) | (1u << 17) | (1u << 16))
#define MPU_RASR_SRD(mask) ((uint32_t)(mask) << 8) /* subregions off: bit i, the region's i-th eighth */

/* MPU (PMSAv8: ARMv8-M mainline): the same TYPE, CTRL, RNR and RBAR addresses, RLAR where
 * PMSAv7 has RASR. Regions run from a base to a limit in 32-byte steps and must not overlap;
 * privileged code can always read (the strictest access is read-only). */
#define MPU_RLAR 0xE000EDA0u
#define MPU_MAIR0 0xE000EDC0u       /* memory attributes 0..3, one byte each */
#define PMSAV8_GRAIN 32u
#define MPU_RBAR_AP_RO (3u << 1)    /* AP = 11: read-only at any privilege */
#define MPU_RBAR_AP_RW (1u << 1)    /* AP = 01: read/write at any privilege */
#define MPU_RBAR_XN (1u << 0)
#define MPU_RLAR_ATTR(i) ((uint32_t)(i) << 1)
#define MPU_RLAR_ENABLE (1u << 0)
#define MPU_MAIR_FLASH 0xaau        /* normal memory, write-through, read-allocate (inner, outer) */
#define MPU_MAIR_SRAM 0xffu         /* normal memory, write-back, read- and write-allocate */

/* SAU (ARMv8-M Security Extension): off at reset, when every address is Secure. */
#define SAU_CTRL 0xE000EDD0u
#define SAU_CTRL_ENABLE (1u << 0)

/* PMU (ARMv8.1-M: Cortex-M55, M85). */
#define PMU_TYPE 0xE0003E00u

/* Floating point context control (FPv4/FPv5). */
#define FPU_FPCCR 0xE000EF34u
#define FPU_FPCCR_LSPACT (1u << 0)

/* Debug: DEMCR.TRCENA powers the DWT. */
#define DCB_DEMCR 0xE000EDFCu
#define DCB_DEMCR_TRCENA (1u << 24)
#define DWT_CTRL 0xE0001000u
#define DWT_CTRL_CYCCNTENA (1u << 0)
#define DWT_CTRL_NOCYCCNT (1u << 25)
#define DWT_CYCCNT 0xE0001004u
#define DWT_LAR 0xE0001FB0u         /* CoreSight lock (Cortex-M7): 0xC5ACCE55 unlocks */
#define DWT_LAR_KEY 0xC5ACCE55u

/* Exception numbers (IPSR bits 8:0; external interrupt n is exception 16 + n). */
#define IPSR_EXCEPTION 0x1ffu
#define EXC_NMI 2u
#define EXC_HARDFAULT 3u
#define EXC_MEMMANAGE 4u
#define EXC_BUSFAULT 5u
#define EXC_USAGEFAULT 6u
#define EXC_SECUREFAULT 7u
#define EXC_SVCALL 11u
#define EXC_DEBUGMON 12u
#define EXC_PENDSV 14u
#define EXC_SYSTICK 15u
#define EXC_IRQ0 16u

/* EXC_RETURN: bit 2 set = the frame is on PSP; bit 3 = back to Thread mode; bit 4 clear = the
 * frame holds the FP registers too. */
#define EXC_RETURN_SPSEL (1u << 2)
#define EXC_RETURN_THREAD (1u << 3)
#define EXC_RETURN_BASIC_FRAME (1u << 4)

/* The exception frame: r0-r3, r12, lr, pc, xPSR (32 bytes), with the FP registers s0-s15, FPSCR
 * and a reserved word 104; one word more when the core aligned SP to 8 bytes for it, which the
 * stacked xPSR's bit 9 records. Its T bit (24) must be set in a frame built to return through. */
#define FRAME_BASIC_BYTES 32u
#define FRAME_FP_BYTES 104u
#define XPSR_FRAME_ALIGNED (1u << 9)
#define XPSR_T (1u << 24)

/* CONTROL (MRS/MSR): Thread mode unprivileged (benchmark code: usermode.c; the snapshots' asm
 * tests it as bit 0), Thread mode on PSP. */
#define CONTROL_NPRIV (1u << 0)
#define CONTROL_SPSEL (1u << 1)

#endif /* ARCH_ARMV7M_ARMV7M_H */
