/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 cold path of a library build (docs/library.md): the application owns the vectors, the
 * MMU and the exception level the kit runs at. The snapshots read PMCCNTR_EL0 (else CNTVCT_EL0)
 * and PMEVCNTR0_EL0 as the kit's images do; where the application forwards its faults (a probe's
 * trap comes back skipped) the kit finds its EL and enables the PMU as far as that EL may, else
 * it writes no system register and takes the counters as the application left them. */
#include <stdint.h>

#include "bm/out.h"
#include "bm/port.h"

/* 1: a probe's trap reaches the kit (core/lib/bm_lib.c sets it from the application's config). */
extern int arch_lib_probe_ok;

#define PMU_FILTER_NSH (1u << 27) /* PMCCFILTR/PMEVTYPER: count at EL2 too */
#define MDCR_EL3_SPME (1u << 17)  /* the event counters count in the secure state */
#define PMCR_D (1u << 3)          /* PMCCNTR_EL0 counts every 64th cycle */
#define EL_UNKNOWN (-1)

static struct bm_kv facts[10]; /* the last stays {0, 0} */
static struct arch_info info;
static char pmu_buf[64], cntfrq_buf[BM_FMT_U64_MAX];

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof *facts, key, value);
}

static void spin(void)
{
	for (volatile uint32_t i = 0; i < 20000u; i++)
		;
}

/* CurrentEL, readable from EL1 up; at EL0 its read traps, so only a probe may try it. */
static int current_el(void)
{
	uint64_t v = 0;
	if (!arch_lib_probe_ok)
		return EL_UNKNOWN;
	if (!BM_PROBE(v = arch_sysreg_read(CurrentEL)))
		return 0;
	return (int)((v >> 2) & 3);
}

/* The cycle counter and event counter 0 (INST_RETIRED) on, the application's other counters and
 * settings kept (no reset of theirs). From EL1 up; at EL0 as far as PMUSERENR_EL0.EN lets it (each
 * write a probe). Returns 0, or what is missing. */
static const char *pmu_enable(int el)
{
	if (el >= 1) {
		unsigned pmuver = (unsigned)ID_AA64DFR0_PMUVER(arch_sysreg_read(id_aa64dfr0_el1));
		if (pmuver == PMUVER_NONE || pmuver == PMUVER_IMPDEF)
			return "no PMUv3 (ID_AA64DFR0_EL1.PMUVer)";
	}
	uint64_t pmcr = 0, ceid = 0;
	if (!BM_PROBE(pmcr = arch_sysreg_read(pmcr_el0)) || !BM_PROBE(ceid = arch_sysreg_read(pmceid0_el0)))
		return el ? "PMCR_EL0 traps (a hypervisor's MDCR_EL2.TPM?)"
		          : "PMCR_EL0 traps at EL0: EL1 must set PMUSERENR_EL0.EN";
	if (PMCR_N(pmcr) == 0)
		return "no event counter (PMCR_EL0.N = 0): the snapshot needs counter 0";
	uint64_t filter = el == 2 ? PMU_FILTER_NSH : 0;
	uint64_t event = ((ceid >> PMU_EVENT_INST_RETIRED) & 1) ? PMU_EVENT_INST_RETIRED : 0;
	if (el == 3 && !BM_PROBE(arch_sysreg_write(mdcr_el3, arch_sysreg_read(mdcr_el3) | MDCR_EL3_SPME)))
		return "MDCR_EL3 traps";
	if (!BM_PROBE(arch_sysreg_write(pmccfiltr_el0, filter)) ||
	    !BM_PROBE(arch_sysreg_write(pmevtyper0_el0, event | filter)) ||
	    !BM_PROBE(arch_sysreg_write(pmcr_el0, (pmcr & PMCR_CONTROL & ~(uint64_t)(PMCR_P | PMCR_C | PMCR_D)) | PMCR_E)) ||
	    !BM_PROBE(arch_sysreg_write(pmcntenset_el0, PMCNTEN_C | PMCNTEN_P0)))
		return el ? "a PMU register traps" : "a PMU write traps at EL0: EL1 must set PMUSERENR_EL0.EN";
	arch_isb();
	return 0;
}

/* The snapshot's accesses (it zeroes event counter 0, and reads it, PMCCNTR_EL0 and CNTVCT_EL0),
 * with PMEVTYPER0_EL0 and PMCR_EL0 to know what they count. With probes one that traps is a
 * configuration error; without, it is the application's fault (here, before any benchmark). */
static void counters_read(uint64_t v[5])
{
	arch_isb();
	int ok = BM_PROBE(arch_sysreg_write(pmevcntr0_el0, 0)) && BM_PROBE(v[0] = arch_sysreg_read(pmccntr_el0)) &&
	         BM_PROBE(v[1] = arch_sysreg_read(pmevcntr0_el0)) && BM_PROBE(v[2] = arch_sysreg_read(cntvct_el0)) &&
	         BM_PROBE(v[3] = arch_sysreg_read(pmevtyper0_el0)) && BM_PROBE(v[4] = arch_sysreg_read(pmcr_el0));
	if (!ok)
		bm_config_error("the PMU or CNTVCT_EL0 traps where the kit runs: EL1 must set PMUSERENR_EL0.EN and "
		                "CNTKCTL_EL1.EL0VCTEN");
	if (v[4] & PMCR_D)
		bm_config_error("PMCR_EL0.D is set (PMCCNTR_EL0 counts every 64th cycle) and the kit may not clear it");
}

/* The counter the snapshot keeps: TPIDRRO_EL0's ARCH_SNAP_CNTVCT bit (arch/arch.h), which only
 * EL1 and up may write; the application's other bits of it are kept. */
static void select_source(int use_cntvct, int el)
{
	uint64_t sel = arch_sysreg_read(tpidrro_el0);
	if (!!(sel & ARCH_SNAP_CNTVCT) == use_cntvct)
		return;
	if (el < 1)
		bm_config_error(use_cntvct ? "PMCCNTR_EL0 does not count and the kit may not switch its snapshot to "
		                             "CNTVCT_EL0 (TPIDRRO_EL0 bit 8, EL1's): forward faults to bm_lib_fault "
		                             "(faults_forwarded) or enable the PMU (PMCR_EL0.E, PMCNTENSET_EL0.C)"
		                           : "TPIDRRO_EL0 bit 8 is set (the snapshot would read CNTVCT_EL0) and the kit "
		                             "may not clear it below EL1");
	arch_sysreg_write(tpidrro_el0, use_cntvct ? sel | ARCH_SNAP_CNTVCT : sel & ~(uint64_t)ARCH_SNAP_CNTVCT);
}

void arch_init(void)
{
	static const char *const el_names[4] = {"EL0", "EL1", "EL2", "EL3"};
	info = (struct arch_info){.isa = "armv8-a (AArch64)", .facts = facts, .cycle_counter = "PMCCNTR_EL0"};
	for (unsigned i = 0; i < sizeof facts / sizeof *facts; i++) /* (a second run's facts anew) */
		facts[i] = (struct bm_kv){0, 0};
	int el = current_el();
	add_fact("run_el", el == EL_UNKNOWN ? "not probed (no fault forwarded, bm_lib_fault)" : el_names[el]);
	const char *missing = el == EL_UNKNOWN ? "not enabled: the PMU as the application left it" : pmu_enable(el);
	add_fact("pmu", missing ? missing : "PMCCNTR_EL0 and PMEVCNTR0_EL0 (INST_RETIRED) enabled by the kit; "
	                                    "PMEVTYPER0_EL0 and PMCCFILTR_EL0 are the kit's during the run");

	uint64_t a[5], b[5];
	counters_read(a);
	spin();
	counters_read(b);
	int cyc_ok = a[0] != b[0], vct_ok = a[2] != b[2];
	int ins_ok = (b[3] & 0xffffu) == PMU_EVENT_INST_RETIRED && b[1] != 0; /* (the reads after its zeroing) */
	add_fact("pmccntr_el0", cyc_ok ? "advances" : "does not advance");
	add_fact("inst_retired", ins_ok ? "event 0x08 on PMEVCNTR0_EL0"
	                                : "not counted (PMEVCNTR0_EL0 does not count INST_RETIRED here)");
	add_fact("cntvct_el0", vct_ok ? "advances" : "does not advance");
	bm_append_u64(cntfrq_buf, arch_cntfrq_hz());
	add_fact("cntfrq_hz", cntfrq_buf);
	if (!cyc_ok && !vct_ok)
		bm_config_error("neither PMCCNTR_EL0 nor CNTVCT_EL0 advances");
	select_source(!cyc_ok, el);
	if (cyc_ok) {
		info.cycle_counter = "PMCCNTR_EL0 (PMU cycle counter)";
	} else {
		info.cycle_unit = "cntvct_ticks";
		info.cycle_counter = "CNTVCT_EL0 (fallback: PMCCNTR_EL0 does not advance)";
	}
	char *p = bm_append_str(pmu_buf, "TPIDRRO_EL0 bit 8 ");
	bm_append_str(p, cyc_ok ? "clear (the snapshot's selector)" : "set (the snapshot's selector)");
	add_fact("selector", pmu_buf);
	info.instret_counter = ins_ok ? "PMEVCNTR0_EL0 (event 0x08 INST_RETIRED)" : 0;
	/* Under -icount PMCCNTR_EL0 counts what INST_RETIRED does (CNTVCT_EL0 does not). */
	info.icount_cycles_are_insns = cyc_ok;
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
