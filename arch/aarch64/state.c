/* What the kit sets up of an AArch64 core at EL1 that benchmark code (also EL1) can change, kept
 * and put back after every benchmark (bm/port.h, arch_state_restore): the vector base, the
 * system control (MMU, caches, alignment checks), FP/SIMD's enable and control (rounding mode,
 * flush-to-zero), the translation registers, and the PMU's enables. */
#include "arch/a64.h"
#include "arch/mmu.h"
#include "bm/event_slots.h"
#include "bm/port.h"

/* PMCR_EL0's control bits the kit relies on (P and C only reset: they read 0). */
#define PMCR_KIT_BITS (PMCR_CONTROL & ~(uint64_t)(PMCR_P | PMCR_C))

#define R_VBAR 0
#define R_SCTLR 1
#define R_CPACR 2
#define R_FPCR 3
#define R_TCR 4
#define R_TTBR0 5
#define R_MAIR 6
#define R_PMCR 7
#define R_PMCNTEN 8
#define R_PMUSERENR 9
#define R_PMEVTYPER 10 /* the event slots' types (bm/events.h), 16 bits each, packed */
#define N_REGS (10 + (BM_EVENT_SLOTS > 0))

#define CHANGED(what) "changed " what " and did not put it back (restored)"
static const char *const reasons[N_REGS] = {
	CHANGED("the vector base (VBAR_EL1)"), CHANGED("the system control (SCTLR_EL1)"),
	CHANGED("the FP/SIMD enable (CPACR_EL1)"), CHANGED("the FP control (FPCR: rounding mode, flush-to-zero)"),
	CHANGED("the translation control (TCR_EL1)"), CHANGED("the translation table base (TTBR0_EL1)"),
	CHANGED("the memory attributes (MAIR_EL1)"), CHANGED("the PMU control (PMCR_EL0)"),
	CHANGED("the PMU counter enables (PMCNTENSET_EL0)"), CHANGED("the PMU's EL0 access (PMUSERENR_EL0)"),
#if BM_EVENT_SLOTS
	CHANGED("the events the PMU's event counters count (PMEVTYPER<n>_EL0)"),
#endif
};

/* The event counters' types (event number and filter bits) of the slots, counters 1..: through
 * PMSELR_EL0, as arch/aarch64/events.c programs them. */
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

struct kit_state {
	uint64_t reg[N_REGS];
	uint64_t has_pmu;
};
static struct kit_state k, k_copy; /* (the copy sealed: bm/port.h, bm_state_seal) */

static uint64_t read_reg(unsigned i)
{
	switch (i) {
	case R_VBAR: return arch_sysreg_read(vbar_el1);
	case R_SCTLR: return arch_sysreg_read(sctlr_el1);
	case R_CPACR: return arch_sysreg_read(cpacr_el1);
	case R_FPCR: return arch_sysreg_read(fpcr);
	case R_TCR: return arch_sysreg_read(tcr_el1);
	case R_TTBR0: return arch_sysreg_read(ttbr0_el1);
	case R_MAIR: return arch_sysreg_read(mair_el1);
	case R_PMCR: return arch_sysreg_read(pmcr_el0) & PMCR_KIT_BITS;
	case R_PMCNTEN: return arch_sysreg_read(pmcntenset_el0);
	case R_PMEVTYPER: return evtypes(0, 0);
	default: return arch_sysreg_read(pmuserenr_el0);
	}
}

/* Puts register i back to the kit's value (v: what it holds now). */
static void write_reg(unsigned i, uint64_t v)
{
	switch (i) {
	case R_VBAR: arch_sysreg_write(vbar_el1, k.reg[i]); break;
	case R_SCTLR: arch_sysreg_write(sctlr_el1, k.reg[i]); break;
	case R_CPACR: arch_sysreg_write(cpacr_el1, k.reg[i]); break;
	case R_FPCR: arch_sysreg_write(fpcr, k.reg[i]); break;
	case R_TCR: arch_sysreg_write(tcr_el1, k.reg[i]); break;
	case R_TTBR0: arch_sysreg_write(ttbr0_el1, k.reg[i]); break;
	case R_MAIR: arch_sysreg_write(mair_el1, k.reg[i]); break;
	case R_PMCR: arch_sysreg_write(pmcr_el0, (arch_sysreg_read(pmcr_el0) & ~PMCR_KIT_BITS) | k.reg[i]); break;
	case R_PMCNTEN:
		arch_sysreg_write(pmcntenclr_el0, v & ~k.reg[i]);
		arch_sysreg_write(pmcntenset_el0, k.reg[i]);
		break;
	case R_PMEVTYPER: evtypes(1, k.reg[i]); break;
	default: arch_sysreg_write(pmuserenr_el0, k.reg[i]); break;
	}
}

void arch_state_save(void)
{
	uint64_t v = 0;
	k.has_pmu = (uint64_t)BM_PROBE(v = arch_sysreg_read(pmcr_el0));
	(void)v;
	for (unsigned i = 0; i < N_REGS; i++)
		k.reg[i] = i >= R_PMCR && !k.has_pmu ? 0 : read_reg(i);
	bm_state_seal(&k, &k_copy, sizeof k);
}

const char *arch_state_restore(void)
{
	const char *first = 0;
	if (!bm_state_intact(&k, &k_copy, sizeof k))
		return bm_state_lost;
	/* (CPACR first: FPCR cannot be read with FP/SIMD off) */
	for (unsigned i = 0; i < N_REGS; i++) {
		if (i >= R_PMCR && !k.has_pmu)
			break;
		uint64_t v = read_reg(i);
		if (v == k.reg[i])
			continue;
		first = first ? first : reasons[i];
		write_reg(i, v);
		arch_isb();
	}
	if (first)
		__asm__ volatile("tlbi vmalle1\n\tdsb sy\n\tisb" : : : "memory");
	return first;
}
