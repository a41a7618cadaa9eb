/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V machine-mode registers the kit uses, as xv6's riscv.h has them: one static inline
 * accessor per CSR, and every bit and code by name (RISC-V privileged spec 20211203). For the
 * arch, the RISC-V drivers, boards and the fault image's hooks; the counter reads of the timed
 * regions stay in arch/arch.h. The .S files include it too: the names and the register-width
 * load and store (REG_L, REG_S, REGBYTES) are all an assembler sees. */
#ifndef ARCH_RISCV_RISCV_H
#define ARCH_RISCV_RISCV_H

/* A constant with its C suffix (unsigned, unsigned long), bare for the assembler. */
#ifdef __ASSEMBLER__
#define RISCV_AC(x, suffix) x
#else
#define RISCV_AC(x, suffix) x##suffix
#endif

/* mstatus */
#define MSTATUS_MIE (RISCV_AC(1, ul) << 3)   /* machine-mode interrupts enabled */
#define MSTATUS_MPIE (RISCV_AC(1, ul) << 7)  /* MIE before the trap: mret restores it */
#define MSTATUS_MPP (RISCV_AC(3, ul) << 11)  /* the mode before the trap: mret returns to it (0: U) */
#define MSTATUS_MPRV (RISCV_AC(1, ul) << 17) /* M-mode loads and stores as mstatus.MPP's mode */
#define MSTATUS_SUM (RISCV_AC(1, ul) << 18)  /* S-mode may access U-mode pages */
#define MSTATUS_MXR (RISCV_AC(1, ul) << 19)  /* loads from executable-only pages */
#define MSTATUS_TW (RISCV_AC(1, ul) << 21)   /* wfi traps below M-mode */

/* mie and mip: machine software, timer and external interrupts (enable / pending). */
#define MIE_MSIE (RISCV_AC(1, ul) << 3)
#define MIE_MTIE (RISCV_AC(1, ul) << 7)
#define MIE_MEIE (RISCV_AC(1, ul) << 11)
#define MIP_MSIP (RISCV_AC(1, ul) << 3)
#define MIP_MTIP (RISCV_AC(1, ul) << 7)
#define MIP_MEIP (RISCV_AC(1, ul) << 11)

/* mcause: the top bit marks an interrupt; the rest is the interrupt or exception code. */
#define MCAUSE_INTERRUPT (RISCV_AC(1, ul) << (__riscv_xlen - 1))
#define IRQ_M_SOFT RISCV_AC(3, u)
#define IRQ_M_TIMER RISCV_AC(7, u)
#define IRQ_M_EXT RISCV_AC(11, u)
#define EXC_INSN_MISALIGNED RISCV_AC(0, u)
#define EXC_INSN_ACCESS RISCV_AC(1, u)
#define EXC_ILLEGAL_INSN RISCV_AC(2, u)
#define EXC_BREAKPOINT RISCV_AC(3, u)
#define EXC_LOAD_MISALIGNED RISCV_AC(4, u)
#define EXC_LOAD_ACCESS RISCV_AC(5, u)
#define EXC_STORE_MISALIGNED RISCV_AC(6, u)
#define EXC_STORE_ACCESS RISCV_AC(7, u)
#define EXC_ECALL_U RISCV_AC(8, u)
#define EXC_ECALL_S RISCV_AC(9, u)
#define EXC_ECALL_M RISCV_AC(11, u)
#define EXC_INSN_PAGE RISCV_AC(12, u)
#define EXC_LOAD_PAGE RISCV_AC(13, u)
#define EXC_STORE_PAGE RISCV_AC(15, u)

/* mcountinhibit (CSR 0x320, privileged spec 1.11: older cores trap), mcounteren and scounteren:
 * one bit per counter. */
#define COUNTER_CY (RISCV_AC(1, u) << 0) /* cycle */
#define COUNTER_TM (RISCV_AC(1, u) << 1) /* time */
#define COUNTER_IR (RISCV_AC(1, u) << 2) /* instret */

/* pmpcfg: one byte per entry; pmpaddr holds an address shifted right by 2. */
#define PMP_R RISCV_AC(0x01, u)
#define PMP_W RISCV_AC(0x02, u)
#define PMP_X RISCV_AC(0x04, u)
#define PMP_A_TOR RISCV_AC(0x08, u) /* [the previous entry's address, this one's) */
#define PMP_L RISCV_AC(0x80, u)     /* locked: binds M-mode too, until reset */

#ifdef __ASSEMBLER__
/* A register-wide load and store, and its size. */
#if __riscv_xlen == 64
#define REG_S sd
#define REG_L ld
#define REGBYTES 8
#else
#define REG_S sw
#define REG_L lw
#define REGBYTES 4
#endif
#else /* C */

#include "arch/arch.h" /* arch_csr_read, arch_csr_write */

#define PMPCFG_ENTRY(i, cfg) ((unsigned long)(cfg) << (8 * (i)))
#define PMP_ADDR(a) ((unsigned long)(a) >> 2)

static inline void arch_mstatus_set(unsigned long bits)
{
	__asm__ volatile("csrs mstatus, %0" : : "r"(bits));
}

static inline void arch_mstatus_clear(unsigned long bits)
{
	__asm__ volatile("csrc mstatus, %0" : : "r"(bits));
}

static inline void arch_mie_set(unsigned long bits)
{
	__asm__ volatile("csrs mie, %0" : : "r"(bits));
}

static inline void arch_mie_write(unsigned long v)
{
	__asm__ volatile("csrw mie, %z0" : : "rJ"(v));
}

/* arch_<csr>_read() and arch_<csr>_write(v), one pair per CSR the kit touches (xv6's r_/w_ pairs). */
#define ARCH_CSR_ACCESSORS(csr)                                      \
	static inline unsigned long arch_##csr##_read(void)          \
	{                                                            \
		return arch_csr_read(csr);                           \
	}                                                            \
	static inline void arch_##csr##_write(unsigned long v)       \
	{                                                            \
		arch_csr_write(csr, v);                              \
	}
ARCH_CSR_ACCESSORS(mstatus)
ARCH_CSR_ACCESSORS(mtvec)
ARCH_CSR_ACCESSORS(mscratch)
ARCH_CSR_ACCESSORS(mcountinhibit)
ARCH_CSR_ACCESSORS(mcounteren)
ARCH_CSR_ACCESSORS(scounteren)
ARCH_CSR_ACCESSORS(pmpcfg0)
ARCH_CSR_ACCESSORS(pmpaddr0)
ARCH_CSR_ACCESSORS(pmpaddr1)
ARCH_CSR_ACCESSORS(pmpaddr2)
ARCH_CSR_ACCESSORS(pmpaddr3)
ARCH_CSR_ACCESSORS(pmpaddr4)
ARCH_CSR_ACCESSORS(pmpaddr5)
ARCH_CSR_ACCESSORS(pmpaddr6)
ARCH_CSR_ACCESSORS(pmpaddr7)
#if __riscv_xlen == 32
ARCH_CSR_ACCESSORS(pmpcfg1) /* (entries 4-7 on RV32; RV64's pmpcfg0 holds 0-7) */
#endif
/* Programs U-mode's PMP entries 4-7 (arch/riscv/arch.c): at start-up, and again where a privileged
 * benchmark changed them (arch/riscv/state.c). 0 when the core has fewer than 8 entries. */
int arch_pmp_user(void);
/* The hpm counters' event selectors the kit programs for its event slots (arch/riscv/events.c). */
ARCH_CSR_ACCESSORS(mhpmevent3)
ARCH_CSR_ACCESSORS(mhpmevent4)
ARCH_CSR_ACCESSORS(mhpmevent5)
ARCH_CSR_ACCESSORS(mhpmevent6)

static inline unsigned long arch_mvendorid_read(void)
{
	return arch_csr_read(mvendorid);
}

/* XLEN bits of time (arch_rdtime reads all 64 on RV32). */
static inline unsigned long arch_time_read(void)
{
	return arch_csr_read(time);
}

#endif /* C */
#endif /* ARCH_RISCV_RISCV_H */
