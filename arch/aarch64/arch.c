/* AArch64 cold path: turn on the MMU and caches, enable the PMU cycle counter and an
 * INST_RETIRED event counter where the core implements one, check at boot that each counter
 * advances (falling back PMCCNTR_EL0 -> CNTVCT_EL0 when it does not), and turn any exception into
 * a readable report (exception class in words, ELR, FAR) and a failed run. */
#include <stdint.h>

#include "arch/devices.h"
#include "arch/mmu.h"
#include "bm/out.h"
#include "bm/port.h"

/* Read by arch_snap_begin/end: 0 = PMCCNTR_EL0, 1 = CNTVCT_EL0. Not static: the snapshot asm
 * names it. */
uint32_t arch_cycle_source;

/* Set while the handler reports a fault, so a fault in the report stops instead of looping. A
 * magic value, not 1: a benchmark that wrote over .bss must not make every later fault look
 * nested (and halt without a word). */
#define IN_TRAP 0x696e7472u
static volatile uint32_t in_trap;

/* Address of the semihosting HLT, so a board without a debugger halts quietly (semihost.S). */
extern char arch_semihost_hlt[];
/* Back to the harness's recovery point from the handler (vectors.S). */
__attribute__((noreturn)) void arch_recover_el1(void);


#define EC_UNKNOWN 0x00

static const char *ec_name(unsigned ec)
{
	switch (ec) {
	case 0x00: return "undefined instruction (EC unknown reason)";
	case 0x01: return "trapped WFI/WFE";
	case 0x07: return "FP/SIMD access trapped";
	case 0x0e: return "illegal execution state";
	case 0x15: return "SVC instruction";
	case 0x16: return "HVC instruction";
	case 0x17: return "SMC instruction";
	case 0x18: return "trapped MSR/MRS/system instruction";
	case 0x20: return "instruction abort from a lower EL";
	case 0x21: return "instruction abort";
	case 0x22: return "PC alignment fault";
	case 0x24: return "data abort from a lower EL";
	case 0x25: return "data abort";
	case 0x26: return "SP alignment fault";
	case 0x2c: return "floating-point exception";
	case 0x2f: return "SError";
	case 0x30: case 0x31: return "breakpoint";
	case 0x32: case 0x33: return "software step";
	case 0x34: case 0x35: return "watchpoint";
	case 0x3c: return "BRK instruction";
	default: return "unknown exception class";
	}
}

/* The fault status code (ISS bits 5:0) of instruction and data aborts. */
static const char *fault_status(unsigned fsc)
{
	switch (fsc & 0x3c) {
	case 0x00: return "address size fault";
	case 0x04: return "translation fault (address not mapped)";
	case 0x08: return "access flag fault";
	case 0x0c: return "permission fault";
	}
	if (fsc == 0x10)
		return "synchronous external abort";
	if (fsc == 0x21)
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
	int sync = (kind & 3) == 0;
	char *p = bm_append_str(cause_buf, sync ? ec_name(ec) : kind_names[kind & 3]);
	if (sync && (ec == 0x20 || ec == 0x21 || ec == 0x24 || ec == 0x25)) {
		p = bm_append_str(p, ", ");
		p = bm_append_str(p, fault_status((unsigned)esr & 0x3f));
		if (ec >= 0x24)
			p = bm_append_str(p, (esr & (1u << 6)) ? " on a write" : " on a read");
	}
	bm_append_str(p, el_names[from_el & 3]);
	return cause_buf;
}

/* Called from the vectors (vectors.S) with the vector index and the interrupted SP_EL0. Returns
 * the address to resume at (a probe); continues in the harness (recovery) or ends the run. */
uint64_t arch_trap(uint64_t kind, uint64_t esr, uint64_t elr, uint64_t far, uint64_t sp);
uint64_t arch_trap(uint64_t kind, uint64_t esr, uint64_t elr, uint64_t far, uint64_t sp)
{
	unsigned ec = (unsigned)(esr >> 26) & 0x3f;
	int sync = (kind & 3) == 0;
	uint64_t from_el = arch_sysreg_read(tpidrro_el0); /* 2 or 3: forwarded (vectors.S) */
	arch_sysreg_write(tpidrro_el0, 0);

	/* A probe (BM_PROBE) of a register a hypervisor may hide: skip the 4-byte instruction. */
	if (sync && (ec == EC_UNKNOWN || ec == 0x18) && bm_probe_fault())
		return elr + 4;
	/* A semihosting call with no debugger attached (a real board): the end record is out,
	 * nothing more to say. */
	if (sync && ec == EC_UNKNOWN && elr == (uint64_t)(uintptr_t)arch_semihost_hlt)
		halt_forever();
	/* A trap while reporting a trap: the console or exit path is broken; stop here. */
	if (in_trap == IN_TRAP)
		halt_forever();

	/* The only interrupt the kit enables is the watchdog's. Aborts and alignment faults have
	 * a fault address (FAR). */
	int abort = sync && (ec == 0x20 || ec == 0x21 || ec == 0x24 || ec == 0x25 || ec == 0x22 || ec == 0x26);
	struct bm_fault f = {
		.kind = (kind & 3) == 1 ? BM_FAULT_TIMEOUT : BM_FAULT_TRAP,
		.has_addr = abort,
		.cause = cause_of(kind, ec, esr, from_el),
		.code = esr, .pc = elr, .addr = far, .sp = sp,
	};
	if (bm_fault_take(&f))
		arch_recover_el1();
	in_trap = IN_TRAP;

	bm_out_str("\n*** TRAP: ");
	bm_out_str(f.cause);
	bm_out_str(" (ESR_EL1=0x");
	bm_out_hex(esr, 8);
	bm_out_str(" EC=0x");
	bm_out_hex(ec, 2);
	bm_out_str(") ELR_EL1=0x");
	bm_out_hex(elr, 16);
	bm_out_str(" FAR_EL1=0x");
	bm_out_hex(far, 16);
	bm_out_str("\n*** ");
	bm_out_str(kind_names[kind & 3]);
	bm_out_str(" exception taken from ");
	bm_out_str(source_names[(kind >> 2) & 3]);
	bm_out_str("\n*** the run is aborted (exit status 3)\n");
	bm_board_exit(BM_EXIT_TRAP);
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

static struct bm_kv facts[13]; /* the last stays {0, 0} */
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
	unsigned implementer = (unsigned)(midr >> 24) & 0xff, part = (unsigned)(midr >> 4) & 0xfff;
	if (implementer != 0x41)
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
	unsigned pmuver = (unsigned)(dfr0 >> 8) & 0xf;
	if (pmuver == 0 || pmuver == 0xf)
		bm_config_error("this core has no PMUv3 (ID_AA64DFR0_EL1.PMUVer); the cycle snapshot reads PMCCNTR_EL0");
	uint64_t pmcr = 0;
	if (!BM_PROBE(pmcr = arch_sysreg_read(pmcr_el0)))
		bm_config_error("PMU registers are not accessible at EL1 (trapped by a hypervisor?)");
	unsigned n = (unsigned)(pmcr >> 11) & 0x1f;
	/* The snapshot uses event counter 0 even when it cannot count instructions. */
	if (n == 0)
		bm_config_error("the PMU has no event counters (PMCR_EL0.N = 0); the snapshot needs counter 0");
	int inst_impl = (arch_sysreg_read(pmceid0_el0) >> 8) & 1; /* INST_RETIRED, event 0x08 */

	/* Counters off and cleared while they are set up; no overflow interrupts. */
	arch_sysreg_write(pmcntenclr_el0, 0xffffffffu);
	arch_sysreg_write(pmintenclr_el1, 0xffffffffu);
	arch_sysreg_write(pmovsclr_el0, 0xffffffffu);
	/* Filters: count at EL1 and EL0 non-secure (all bits 0: P, U, NSK, NSU = 0; NSH = 0, so not
	 * EL2). We always run at non-secure EL1 (start.S), so no NSH/SPME games are needed. */
	arch_sysreg_write(pmccfiltr_el0, 0);
	arch_sysreg_write(pmevtyper0_el0, inst_impl ? 0x08 : 0);
	/* PMCR_EL0: E (enable), P and C (reset event and cycle counters), LC (64-bit cycle counter
	 * overflow), keeping the read-only fields. */
	arch_sysreg_write(pmcr_el0, (pmcr & ~0xffull) | (1u << 6) | (1u << 2) | (1u << 1) | (1u << 0));
	/* EL0 may read the cycle and event counters too: EN, CR, ER (software at EL0, if any). */
	arch_sysreg_write(pmuserenr_el0, (1u << 0) | (1u << 2) | (1u << 3));
	arch_sysreg_write(pmcntenset_el0, (1u << 31) | (inst_impl ? 1u : 0u));
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
	info.instret_counter = ins_ok ? "PMEVCNTR0_EL0 (event 0x08 INST_RETIRED)" : 0;
}

void arch_init(void)
{
	static const char *const el_names[4] = {"EL0", "EL1", "EL2", "EL3"};
	uint64_t entry_el = arch_sysreg_read(tpidr_el1) & 3;
	uint64_t midr = arch_sysreg_read(midr_el1);

	/* First thing: until the MMU is on, a real core treats all data as Device memory. */
	int mmu_ok = arch_mmu_enable() == 0;

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
	pmu_init();
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
