/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit sets up of an AArch64 core at EL1 that benchmark code (also EL1) can change, kept
 * and put back after every benchmark (bm/port.h, arch_state_restore): the vector base, the
 * system control (MMU, caches, alignment checks), FP/SIMD's enable and control (rounding mode,
 * flush-to-zero), the translation registers, the PMU's enables and what its counters count (the
 * cycle counter's filter, the kit's instruction counter's type, the event slots' types: EL0 may
 * write them, PMUSERENR.EN), and the C library's thread pointer (TPIDR_EL0: errno is found there;
 * EL0 may write it). */
#include "arch/a64.h"
#include "arch/mmu.h"
#include "bm/event_slots.h"
#include "bm/port.h"

/* PMCR_EL0's control bits the kit relies on (P and C only reset: they read 0). */
#define PMCR_KIT_BITS (PMCR_CONTROL & ~(uint64_t)(PMCR_P | PMCR_C))

/* A system register's name can only be an immediate: one switch by r->arg for each direction. */
enum { R_VBAR, R_SCTLR, R_CPACR, R_FPCR, R_TCR, R_TTBR0, R_MAIR, R_PMCR, R_PMCNTEN, R_PMUSERENR, R_PMEVTYPER,
       R_PMCCFILTR, R_PMEVTYPER0, R_TPIDR };

/* The event counters' types (event number and filter bits) of the slots, counters 1..: through
 * PMSELR_EL0, as arch/aarch64/events.c programs them; 16 bits each, packed. */
static uint64_t evtypes(int write, uint64_t v)
{
	uint64_t all = 0;
	for (unsigned n = 1; n <= BM_EVENT_SLOTS; n++) {
		arch_sysreg_write(pmselr_el0, n);
		arch_isb();
		if (write)
			arch_sysreg_write(pmxevtyper_el0, (v >> (16 * (n - 1))) & 0xffff);
		else
			all |= (arch_sysreg_read(pmxevtyper_el0) & 0xffff) << (16 * (n - 1));
	}
	return all;
}

static uintptr_t read_reg(const struct bm_state_reg *r)
{
	switch (r->arg) {
	case R_VBAR: return arch_sysreg_read(vbar_el1);
	case R_SCTLR: return arch_sysreg_read(sctlr_el1);
	case R_CPACR: return arch_sysreg_read(cpacr_el1);
	case R_FPCR: return arch_sysreg_read(fpcr);
	case R_TCR: return arch_sysreg_read(tcr_el1);
	case R_TTBR0: return arch_sysreg_read(ttbr0_el1);
	case R_MAIR: return arch_sysreg_read(mair_el1);
	case R_PMCR: return arch_sysreg_read(pmcr_el0);
	case R_PMCNTEN: return arch_sysreg_read(pmcntenset_el0);
	case R_PMEVTYPER: return evtypes(0, 0);
	case R_PMCCFILTR: return arch_sysreg_read(pmccfiltr_el0);
	case R_PMEVTYPER0: return arch_sysreg_read(pmevtyper0_el0);
	case R_TPIDR: return arch_sysreg_read(tpidr_el0);
	default: return arch_sysreg_read(pmuserenr_el0);
	}
}

/* Puts the register back to the kit's value (now: what it holds). */
static void write_reg(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	switch (r->arg) {
	case R_VBAR: arch_sysreg_write(vbar_el1, kit); break;
	case R_SCTLR: arch_sysreg_write(sctlr_el1, kit); break;
	case R_CPACR: arch_sysreg_write(cpacr_el1, kit); break;
	case R_FPCR: arch_sysreg_write(fpcr, kit); break;
	case R_TCR: arch_sysreg_write(tcr_el1, kit); break;
	case R_TTBR0: arch_sysreg_write(ttbr0_el1, kit); break;
	case R_MAIR: arch_sysreg_write(mair_el1, kit); break;
	case R_PMCR: arch_sysreg_write(pmcr_el0, (arch_sysreg_read(pmcr_el0) & ~PMCR_KIT_BITS) | kit); break;
	case R_PMCNTEN:
		arch_sysreg_write(pmcntenclr_el0, now & ~kit);
		arch_sysreg_write(pmcntenset_el0, kit);
		break;
	case R_PMEVTYPER: evtypes(1, kit); break;
	case R_PMCCFILTR: arch_sysreg_write(pmccfiltr_el0, kit); break;
	case R_PMEVTYPER0: arch_sysreg_write(pmevtyper0_el0, kit); break;
	case R_TPIDR: arch_sysreg_write(tpidr_el0, kit); break;
	default: arch_sysreg_write(pmuserenr_el0, kit); break;
	}
	/* (the TLB's entries may come from the benchmark's translation set-up) */
	__asm__ volatile("isb\n\ttlbi vmalle1\n\tdsb sy\n\tisb" : : : "memory");
}

#define SYSREG(what, id, mask) BM_STATE_REG(what, read_reg, write_reg, id, mask)
#define ALL (~(uintptr_t)0)
/* (CPACR before FPCR: FPCR cannot be read with FP/SIMD off. The PMU's where a hypervisor lets
 * EL1 reach it: their reads trap otherwise.) */
static const struct bm_state_reg regs[] = {
	SYSREG("the vector base (VBAR_EL1)", R_VBAR, ALL),
	SYSREG("the system control (SCTLR_EL1)", R_SCTLR, ALL),
	SYSREG("the FP/SIMD enable (CPACR_EL1)", R_CPACR, ALL),
	SYSREG("the FP control (FPCR: rounding mode, flush-to-zero)", R_FPCR, ALL),
	SYSREG("the translation control (TCR_EL1)", R_TCR, ALL),
	SYSREG("the translation table base (TTBR0_EL1)", R_TTBR0, ALL),
	SYSREG("the memory attributes (MAIR_EL1)", R_MAIR, ALL),
	SYSREG("the PMU control (PMCR_EL0)", R_PMCR, PMCR_KIT_BITS),
	SYSREG("the PMU counter enables (PMCNTENSET_EL0)", R_PMCNTEN, ALL),
	SYSREG("the PMU's EL0 access (PMUSERENR_EL0)", R_PMUSERENR, ALL),
	SYSREG("what the cycle counter counts (PMCCFILTR_EL0)", R_PMCCFILTR, ALL),
	SYSREG("what the instruction counter counts (PMEVTYPER0_EL0)", R_PMEVTYPER0, ALL),
	SYSREG("the C library's thread pointer (TPIDR_EL0)", R_TPIDR, ALL),
#if BM_EVENT_SLOTS
	SYSREG("the events the PMU's event counters count (PMEVTYPER<n>_EL0)", R_PMEVTYPER, ALL),
#endif
};

BM_STATE_ARCH(regs)
