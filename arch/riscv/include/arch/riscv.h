/* RISC-V machine-mode registers the kit uses, as xv6's riscv.h has them: one static inline
 * accessor per CSR, and every bit and code by name (RISC-V privileged spec 20211203). For the
 * arch, the RISC-V drivers, boards and the fault image's hooks; the counter reads of the timed
 * regions stay in arch/arch.h. */
#ifndef ARCH_RISCV_RISCV_H
#define ARCH_RISCV_RISCV_H

#include "arch/arch.h" /* arch_csr_read, arch_csr_write */

/* mstatus */
#define MSTATUS_MIE (1ul << 3)   /* machine-mode interrupts enabled */
#define MSTATUS_MPRV (1ul << 17) /* M-mode loads and stores as mstatus.MPP's mode */
#define MSTATUS_SUM (1ul << 18)  /* S-mode may access U-mode pages */
#define MSTATUS_MXR (1ul << 19)  /* loads from executable-only pages */
#define MSTATUS_TW (1ul << 21)   /* wfi traps below M-mode */

/* mie and mip: machine software, timer and external interrupts (enable / pending). */
#define MIE_MSIE (1ul << 3)
#define MIE_MTIE (1ul << 7)
#define MIE_MEIE (1ul << 11)
#define MIP_MSIP (1ul << 3)
#define MIP_MTIP (1ul << 7)
#define MIP_MEIP (1ul << 11)

/* mcause: the top bit marks an interrupt; the rest is the interrupt or exception code. */
#define MCAUSE_INTERRUPT (1ul << (__riscv_xlen - 1))
#define IRQ_M_SOFT 3u
#define IRQ_M_TIMER 7u
#define IRQ_M_EXT 11u
#define EXC_INSN_MISALIGNED 0u
#define EXC_INSN_ACCESS 1u
#define EXC_ILLEGAL_INSN 2u
#define EXC_BREAKPOINT 3u
#define EXC_LOAD_MISALIGNED 4u
#define EXC_LOAD_ACCESS 5u
#define EXC_STORE_MISALIGNED 6u
#define EXC_STORE_ACCESS 7u
#define EXC_ECALL_U 8u
#define EXC_ECALL_S 9u
#define EXC_ECALL_M 11u
#define EXC_INSN_PAGE 12u
#define EXC_LOAD_PAGE 13u
#define EXC_STORE_PAGE 15u

/* mcountinhibit (CSR 0x320, privileged spec 1.11: older cores trap), mcounteren and scounteren:
 * one bit per counter. */
#define COUNTER_CY (1u << 0) /* cycle */
#define COUNTER_TM (1u << 1) /* time */
#define COUNTER_IR (1u << 2) /* instret */

/* pmpcfg: one byte per entry; pmpaddr holds an address shifted right by 2. */
#define PMP_R 0x01u
#define PMP_W 0x02u
#define PMP_X 0x04u
#define PMP_A_TOR 0x08u /* [the previous entry's address, this one's) */
#define PMP_L 0x80u     /* locked: binds M-mode too, until reset */
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
#if __riscv_xlen == 32
ARCH_CSR_ACCESSORS(pmpcfg1) /* (entries 4-7 on RV32; RV64's pmpcfg0 holds 0-7) */
#endif

static inline unsigned long arch_mvendorid_read(void)
{
	return arch_csr_read(mvendorid);
}

/* XLEN bits of time (arch_rdtime reads all 64 on RV32). */
static inline unsigned long arch_time_read(void)
{
	return arch_csr_read(time);
}

#endif /* ARCH_RISCV_RISCV_H */
