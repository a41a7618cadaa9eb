/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 PMUv3 events (bm/events.h): each portable name's common architectural event, checked
 * against PMCEID0/1_EL0 (what this core implements) and PMCR_EL0.N (its counters); slot i counts
 * on event counter i + 1 (counter 0 is the kit's instruction count), filtered to count at EL0 and
 * EL1 alike, as counter 0 is. */
#include "arch/a64.h"
#include "bm/events.h"
#include "bm/out.h"
#include "bm/port.h"

static const struct {
	const char *name;
	uint16_t number;
	const char *arm; /* the event's name in the Arm ARM */
} table[] = {
	{"sw_incr", 0x00, "SW_INCR"},           {"l1i_miss", 0x01, "L1I_CACHE_REFILL"},
	{"itlb_miss", 0x02, "L1I_TLB_REFILL"},  {"l1d_miss", 0x03, "L1D_CACHE_REFILL"},
	{"l1d_access", 0x04, "L1D_CACHE"},      {"dtlb_miss", 0x05, "L1D_TLB_REFILL"},
	{"instructions", 0x08, "INST_RETIRED"}, {"branch_miss", 0x10, "BR_MIS_PRED"},
	{"cycles", 0x11, "CPU_CYCLES"},         {"branch", 0x12, "BR_PRED"},
	{"l1i_access", 0x14, "L1I_CACHE"},      {"l2_access", 0x16, "L2D_CACHE"},
	{"l2_miss", 0x17, "L2D_CACHE_REFILL"},  {"stall_frontend", 0x23, "STALL_FRONTEND"},
	{"stall_backend", 0x24, "STALL_BACKEND"},
};
static const char *const counters[] = {"PMEVCNTR1_EL0", "PMEVCNTR2_EL0", "PMEVCNTR3_EL0", "PMEVCNTR4_EL0"};

static void program(unsigned counter, unsigned number)
{
	arch_sysreg_write(pmselr_el0, counter);
	arch_isb();
	arch_sysreg_write(pmxevtyper_el0, number); /* (filter bits 0: EL0 and EL1, as counter 0) */
	arch_sysreg_write(pmxevcntr_el0, 0);
	arch_sysreg_write(pmcntenset_el0, 1u << counter);
	arch_isb();
}

void arch_events_setup(struct bm_event *ev, unsigned n)
{
	uint64_t ceid[2] = {arch_sysreg_read(pmceid0_el0) & 0xffffffffu, arch_sysreg_read(pmceid1_el0) & 0xffffffffu};
	unsigned counters_n = (unsigned)PMCR_N(arch_sysreg_read(pmcr_el0));
	/* the snapshot reads counters 1..BM_EVENT_SLOTS, counted or not: all must exist */
	int enough = BM_EVENT_SLOTS + 1 <= (int)counters_n;
	for (unsigned i = 0; i < n; i++) {
		struct bm_event *e = &ev[i];
		if (e->reason) /* (settled by core: an OS's event, or past the slots) */
			continue;
		unsigned k = 0;
		while (k < sizeof table / sizeof *table && !bm_event_name_is(e->name, table[k].name))
			k++;
		char *why = bm_event_reason_buf(i), *p = why;
		if (k == sizeof table / sizeof *table) {
			e->reason = "PMUv3 has no common architectural event for it";
			continue;
		}
		unsigned num = table[k].number;
		if (!(ceid[num >> 5] >> (num & 31) & 1)) {
			p = bm_append_str(p, num < 32 ? "PMCEID0_EL0 bit " : "PMCEID1_EL0 bit ");
			p = bm_append_u64(p, num & 31);
			p = bm_append_str(p, " is clear: this core does not count ");
			p = bm_append_str(p, table[k].arm);
			p = bm_append_str(p, " (");
			p = bm_append_hex(p, num, 2);
			bm_append_str(p, ")");
			e->reason = why;
			continue;
		}
		if (!enough) {
			p = bm_append_str(p, "fewer event counters than the kit's and the slots' (PMCR_EL0.N ");
			bm_append_str(bm_append_u64(p, counters_n), ")");
			e->reason = why;
			continue;
		}
		program(i + 1, num);
		e->source = "pmu";
		e->raw = num;
		e->counter = counters[i % 4]; /* (i < BM_EVENT_SLOTS <= 4: the modulo only tells the compiler) */
	}
}
