/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 cold path: turn on the MMU and caches, enable the PMU cycle counter and an
 * INST_RETIRED event counter where the core implements one, check at boot that each counter
 * advances (falling back PMCCNTR_EL0 -> CNTVCT_EL0 when it does not), and turn any exception into
 * a readable report (exception class in words, ELR, FAR) and a failed run. */
#include <stdint.h>

#include "arch/devices.h"
#include "arch/mmu.h"
#include "bm/out.h"
#include "bm/port.h"

/* 0 = PMCCNTR_EL0, 1 = CNTVCT_EL0; arch_snap_begin/end read it as TPIDRRO_EL0's ARCH_SNAP_CNTVCT. */
static uint32_t arch_cycle_source;

/* Address of the semihosting HLT, so a board without a debugger halts quietly (semihost.S). */
extern char arch_semihost_hlt[];
/* Back to the harness's recovery point from the handler (vectors.S). */
__attribute__((noreturn)) void arch_recover_el1(void);
/* Back to the kit after arch_user_call from the handler, returning `result` (usermode.S). */
__attribute__((noreturn)) void arch_user_resume(uintptr_t result);

/* The vectors' kind (vectors.S: the vector index): bits 1:0 the type, bits 3:2 the source. */
#define KIND_TYPE(kind) ((kind) & 3)
#define KIND_SOURCE(kind) (((kind) >> 2) & 3)
#define KIND_SYNC 0
#define KIND_IRQ 1
#define SOURCE_LOWER 2 /* from EL0 (benchmark code, usermode.S) */

static const char *ec_name(unsigned ec)
{
	switch (ec) {
	case ESR_EC_UNKNOWN: return "undefined instruction (EC unknown reason)";
	case ESR_EC_WFX: return "trapped WFI/WFE";
	case ESR_EC_FP: return "FP/SIMD access trapped";
	case ESR_EC_ILLEGAL_STATE: return "illegal execution state";
	case ESR_EC_SVC64: return "SVC instruction";
	case ESR_EC_HVC64: return "HVC instruction";
	case ESR_EC_SMC64: return "SMC instruction";
	case ESR_EC_SYSREG: return "trapped MSR/MRS/system instruction";
	case ESR_EC_IABT_LOWER: return "instruction abort from a lower EL";
	case ESR_EC_IABT: return "instruction abort";
	case ESR_EC_PC_ALIGN: return "PC alignment fault";
	case ESR_EC_DABT_LOWER: return "data abort from a lower EL";
	case ESR_EC_DABT: return "data abort";
	case ESR_EC_SP_ALIGN: return "SP alignment fault";
	case ESR_EC_FP_EXC64: return "floating-point exception";
	case ESR_EC_SERROR: return "SError";
	case ESR_EC_BREAKPT_LOWER: case ESR_EC_BREAKPT: return "breakpoint";
	case ESR_EC_SSTEP_LOWER: case ESR_EC_SSTEP: return "software step";
	case ESR_EC_WATCHPT_LOWER: case ESR_EC_WATCHPT: return "watchpoint";
	case ESR_EC_BRK64: return "BRK instruction";
	default: return "unknown exception class";
	}
}

/* The fault status code of instruction and data aborts. */
static const char *fault_status(unsigned fsc)
{
	switch (ESR_FSC_TYPE(fsc)) {
	case ESR_FSC_ADDR_SIZE: return "address size fault";
	case ESR_FSC_TRANSLATION: return "translation fault (address not mapped)";
	case ESR_FSC_ACCESS_FLAG: return "access flag fault";
	case ESR_FSC_PERMISSION: return "permission fault";
	}
	if (fsc == ESR_FSC_SYNC_EXTERNAL)
		return "synchronous external abort";
	if (fsc == ESR_FSC_ALIGNMENT)
		return "alignment fault";
	return "other fault";
}

/* The only IRQ the kit enables is the watchdog's (the virtual timer). */
static const char *const kind_names[4] = {"synchronous", "IRQ (the watchdog's virtual timer)", "FIQ", "SError"};
static const char *const source_names[4] = {
	"EL1 on SP_EL0", "EL1 on SP_EL1 (inside the trap handler)", "a lower EL (AArch64)",
	"a lower EL (AArch32)"};

static void halt_forever(void)
{
	for (;;)
		__asm__ volatile("wfe");
}

/* The cause in words: the exception class, and for an abort its fault status and direction;
 * "(taken at EL2)" when a higher EL forwarded it (vectors.S). One fault at a time: static. */
static char cause_buf[128];

static const char *cause_of(uint64_t kind, unsigned ec, uint64_t esr, uint64_t from_el)
{
	static const char *const el_names[4] = {"", "", " (taken at EL2)", " (taken at EL3)"};
	int sync = KIND_TYPE(kind) == KIND_SYNC;
	char *p = bm_append_str(cause_buf, sync ? ec_name(ec) : kind_names[KIND_TYPE(kind)]);
	if (sync && (ec == ESR_EC_IABT_LOWER || ec == ESR_EC_IABT || ec == ESR_EC_DABT_LOWER || ec == ESR_EC_DABT)) {
		p = bm_append_str(p, ", ");
		p = bm_append_str(p, fault_status((unsigned)ESR_FSC(esr)));
		if (ec >= ESR_EC_DABT_LOWER)
			p = bm_append_str(p, (esr & ESR_ISS_WNR) ? " on a write" : " on a read");
	}
	bm_append_str(p, el_names[from_el & 3]);
	return cause_buf;
}

/* Called from the vectors (vectors.S) with the vector index, the interrupted SP_EL0 and the saved
 * registers (x0 first: an SVC's arguments and result). Returns the address to resume at (a probe,
 * an SVC); continues in the harness (recovery) or ends the run. */
uint64_t arch_trap(uint64_t kind, uint64_t esr, uint64_t elr, uint64_t far, uint64_t sp, uint64_t cpacr,
                   uint64_t *frame);
uint64_t arch_trap(uint64_t kind, uint64_t esr, uint64_t elr, uint64_t far, uint64_t sp, uint64_t cpacr,
                   uint64_t *frame)
{
	unsigned ec = (unsigned)ESR_EC(esr);
	int sync = KIND_TYPE(kind) == KIND_SYNC;
	uint64_t tpidrro = arch_sysreg_read(tpidrro_el0);
	uint64_t from_el = tpidrro & 3; /* 2 or 3: forwarded (vectors.S) */
	arch_sysreg_write(tpidrro_el0, tpidrro & ~3ull);

	/* Benchmark code asking the kit (from EL0, or the kit itself at EL1), or done (usermode.S).
	 * An SVC's return address is the next instruction. */
	if (sync && ec == ESR_EC_SVC64 && !from_el && (KIND_SOURCE(kind) == SOURCE_LOWER || KIND_SOURCE(kind) == 0)) {
		if (ESR_ISS_IMM16(esr) == ARCH_SVC_KIT) {
			frame[0] = bm_kit_service((unsigned)frame[0], frame[1], frame[2]);
			return elr;
		}
		if (ESR_ISS_IMM16(esr) == ARCH_SVC_RETURN && KIND_SOURCE(kind) == SOURCE_LOWER)
			arch_user_resume(frame[0]);
	}

	/* A probe (BM_PROBE) of a register a hypervisor may hide: skip the 4-byte instruction. */
	if (sync && (ec == ESR_EC_UNKNOWN || ec == ESR_EC_SYSREG) && bm_probe_fault())
		return elr + 4;
	/* A semihosting call with no debugger attached (a real board): the end record is out,
	 * nothing more to say. */
	if (sync && ec == ESR_EC_UNKNOWN && elr == (uint64_t)(uintptr_t)arch_semihost_hlt)
		halt_forever();
	/* A trap while reporting a trap: the console or exit path is broken; stop here. */
	if (bm_fatal_nested())
		halt_forever();

	/* The only interrupt the kit enables is the watchdog's. Aborts and alignment faults have
	 * a fault address (FAR). */
	int abort = sync && (ec == ESR_EC_IABT_LOWER || ec == ESR_EC_IABT || ec == ESR_EC_DABT_LOWER ||
	                     ec == ESR_EC_DABT || ec == ESR_EC_PC_ALIGN || ec == ESR_EC_SP_ALIGN);
	struct bm_fault f = {
		.kind = KIND_TYPE(kind) == KIND_IRQ ? BM_FAULT_TIMEOUT : BM_FAULT_TRAP,
		.has_addr = abort,
		.cause = cause_of(kind, ec, esr, from_el),
		.code = esr, .pc = elr, .addr = far, .sp = sp,
	};
	if (sync && ec == ESR_EC_FP && (cpacr & CPACR_FPEN) != CPACR_FPEN)
		f.cause = "FP/SIMD access trapped: the FPU had been turned off (CPACR_EL1.FPEN), the kit turned "
		          "it back on";
	if (bm_fault_take(&f))
		arch_recover_el1();
	const struct bm_fatal_reg regs[] = {
		{" (ESR_EL1=0x", esr, 8}, {" EC=0x", ec, 2}, {") ELR_EL1=0x", elr, 16}, {" FAR_EL1=0x", far, 16},
	};
	bm_fatal_trap(f.cause, regs, sizeof regs / sizeof *regs,
	              (const char *const[]){"\n*** ", kind_names[KIND_TYPE(kind)], " exception taken from ",
	                                    source_names[KIND_SOURCE(kind)], 0});
}

const struct bm_exit arch_semihosting = {.name = "semihosting", .exit = arch_semihost_exit};

static void generic_timer_init(struct bm_timer *t)
{
	t->hz = arch_cntfrq_hz();
}

static uint64_t generic_timer_read(struct bm_timer *t)
{
	(void)t;
	return arch_cntvct();
}

struct bm_timer arch_generic_timer = {
	.name = "generic-timer CNTVCT_EL0",
	.init = generic_timer_init,
	.read = generic_timer_read,
};

static struct bm_kv facts[14]; /* the last stays {0, 0} */
static struct arch_info info = {
	.isa = "armv8-a (AArch64)",
	.cycle_counter = "PMCCNTR_EL0",
	.instret_counter = 0,
	.facts = facts,
};

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof facts[0], key, value);
}

static const char *core_name(uint64_t midr)
{
	unsigned implementer = (unsigned)MIDR_IMPLEMENTER(midr), part = (unsigned)MIDR_PARTNUM(midr);
	if (implementer != MIDR_IMPLEMENTER_ARM)
		return "non-Arm core";
	switch (part) {
	case 0xd03: return "Cortex-A53";
	case 0xd04: return "Cortex-A35";
	case 0xd05: return "Cortex-A55";
	case 0xd07: return "Cortex-A57";
	case 0xd08: return "Cortex-A72";
	case 0xd09: return "Cortex-A73";
	case 0xd0b: return "Cortex-A76";
	default: return "Arm core";
	}
}

static char cpu_buf[64], cntfrq_buf[BM_FMT_U64_MAX], pmu_buf[64];

/* Spins long enough for every counter to move: ~10^5 instructions, which is also more than 100
 * ticks of a 19.2 MHz or 62.5 MHz generic timer on any core this kit targets. */
static void spin(void)
{
	for (volatile uint32_t i = 0; i < 20000u; i++)
		;
}

static void pmu_init(void)
{
	uint64_t dfr0 = arch_sysreg_read(id_aa64dfr0_el1);
	unsigned pmuver = (unsigned)ID_AA64DFR0_PMUVER(dfr0);
	if (pmuver == PMUVER_NONE || pmuver == PMUVER_IMPDEF)
		bm_config_error("this core has no PMUv3 (ID_AA64DFR0_EL1.PMUVer); the cycle snapshot reads PMCCNTR_EL0");
	uint64_t pmcr = 0;
	if (!BM_PROBE(pmcr = arch_sysreg_read(pmcr_el0)))
		bm_config_error("PMU registers are not accessible at EL1 (trapped by a hypervisor?)");
	unsigned n = (unsigned)PMCR_N(pmcr);
	/* The snapshot uses event counter 0 even when it cannot count instructions. */
	if (n == 0)
		bm_config_error("the PMU has no event counters (PMCR_EL0.N = 0); the snapshot needs counter 0");
	int inst_impl = (arch_sysreg_read(pmceid0_el0) >> PMU_EVENT_INST_RETIRED) & 1;

	/* Counters off and cleared while they are set up; no overflow interrupts. */
	arch_sysreg_write(pmcntenclr_el0, PMU_ALL_COUNTERS);
	arch_sysreg_write(pmintenclr_el1, PMU_ALL_COUNTERS);
	arch_sysreg_write(pmovsclr_el0, PMU_ALL_COUNTERS);
	/* Filters: count at EL1 and EL0 non-secure (all bits 0: P, U, NSK, NSU = 0; NSH = 0, so not
	 * EL2). We always run at non-secure EL1 (start.S), so no NSH/SPME games are needed. */
	arch_sysreg_write(pmccfiltr_el0, 0);
	arch_sysreg_write(pmevtyper0_el0, inst_impl ? PMU_EVENT_INST_RETIRED : 0);
	/* Enabled, event and cycle counters reset, a 64-bit cycle counter; the read-only fields kept. */
	arch_sysreg_write(pmcr_el0, (pmcr & ~PMCR_CONTROL) | PMCR_LC | PMCR_C | PMCR_P | PMCR_E);
	/* EL0 (benchmark code) takes the snapshots: it reads the counters, and zeroes event counter
	 * 0 (EN; what else it could change there, the checks after each benchmark see). It reads
	 * CNTVCT_EL0, but not the virtual timer that is the watchdog (CNTKCTL_EL1.EL0VTEN clear). */
	arch_sysreg_write(pmuserenr_el0, PMUSERENR_EN | PMUSERENR_CR | PMUSERENR_ER);
	arch_sysreg_write(cntkctl_el1, CNTKCTL_EL0VCTEN);
	arch_sysreg_write(pmcntenset_el0, PMCNTEN_C | (inst_impl ? PMCNTEN_P0 : 0u));
	arch_isb(); /* the enables take effect before the first reading */

	uint64_t c0 = arch_sysreg_read(pmccntr_el0), i0 = arch_sysreg_read(pmevcntr0_el0);
	uint64_t v0 = arch_cntvct();
	spin();
	arch_isb();
	uint64_t c1 = arch_sysreg_read(pmccntr_el0), i1 = arch_sysreg_read(pmevcntr0_el0);
	uint64_t v1 = arch_cntvct();
	int cyc_ok = c1 != c0, ins_ok = inst_impl && i1 != i0, vct_ok = v1 != v0;

	char *p = bm_append_str(pmu_buf, "PMUv3 (ID_AA64DFR0_EL1.PMUVer ");
	p = bm_append_hex(p, pmuver, 1);
	p = bm_append_str(p, "), ");
	p = bm_append_u64(p, n);
	bm_append_str(p, " event counters");
	add_fact("pmu", pmu_buf);
	add_fact("pmccntr_el0", cyc_ok ? "advances" : "does not advance");
	add_fact("inst_retired", !inst_impl ? "not implemented (PMCEID0_EL0 bit 8 clear)"
	                         : ins_ok   ? "event 0x08 on PMEVCNTR0_EL0"
	                                    : "implemented (PMCEID0_EL0) but does not advance");
	add_fact("cntvct_el0", vct_ok ? "advances" : "does not advance");
	bm_append_u64(cntfrq_buf, arch_cntfrq_hz());
	add_fact("cntfrq_hz", cntfrq_buf);

	if (cyc_ok) {
		arch_cycle_source = 0;
		info.cycle_counter = "PMCCNTR_EL0 (PMU cycle counter)";
	} else {
		arch_cycle_source = 1;
		info.cycle_unit = "cntvct_ticks";
		info.cycle_counter = vct_ok ? "CNTVCT_EL0 (fallback: PMCCNTR_EL0 does not advance)"
		                            : "CNTVCT_EL0 (fallback: PMCCNTR_EL0 does not advance; nor does CNTVCT_EL0)";
	}
#ifdef ARCH_AARCH64_FORCE_CNTVCT
	/* Test hook: exercise the fallback path where PMCCNTR works (e.g. under QEMU). */
	arch_cycle_source = 1;
	info.cycle_unit = "cntvct_ticks";
	info.cycle_counter = "CNTVCT_EL0 (fallback forced by ARCH_AARCH64_FORCE_CNTVCT)";
#endif
	if (arch_cycle_source)
		arch_sysreg_write(tpidrro_el0, arch_sysreg_read(tpidrro_el0) | ARCH_SNAP_CNTVCT);
	info.instret_counter = ins_ok ? "PMEVCNTR0_EL0 (event 0x08 INST_RETIRED)" : 0;
	/* Under -icount PMCCNTR_EL0 counts what INST_RETIRED does (CNTVCT_EL0 does not). */
	info.icount_cycles_are_insns = arch_cycle_source == 0;
}

void arch_init(void)
{
	static const char *const el_names[4] = {"EL0", "EL1", "EL2", "EL3"};
	uint64_t entry_el = arch_sysreg_read(tpidr_el1) & 3;
	uint64_t midr = arch_sysreg_read(midr_el1);

	/* First thing: until the MMU is on, a real core treats all data as Device memory. */
	int el0_isolated = 0;
	int mmu_ok = arch_mmu_enable(&el0_isolated) == 0;

	char *p = bm_append_str(cpu_buf, core_name(midr));
	p = bm_append_str(p, " (MIDR_EL1 ");
	p = bm_append_hex(p, midr & 0xffffffffu, 8);
	bm_append_str(p, ")");
	add_fact("cpu", cpu_buf);
	add_fact("entry_el", el_names[entry_el]);
	add_fact("run_el", entry_el == 1 ? "EL1 (as entered)" : "EL1 non-secure (dropped from the entry EL)");
	add_fact("mmu", mmu_ok ? "on, identity map: RAM Normal write-back, MMIO Device-nGnRE, FLASH read-only, "
	                         "the page below the stack unmapped (guard)"
	                       : "off (board memory map not 2 MiB aligned)");
	add_fact("caches", mmu_ok ? "I+D on (SCTLR_EL1.C/I)" : "off");
	add_fact("fp_simd", "on (CPACR_EL1.FPEN)");
	add_fact("benchmarks", mmu_ok && el0_isolated
	                           ? "EL0: the kit's memory, vectors, watchdog and devices out of reach (page tables); "
	                             "the main stack, with the kit's frames above theirs, is writable"
	                           : "EL0, not isolated (no MMU, or the image's layout is not page-aligned)");
	pmu_init();
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
