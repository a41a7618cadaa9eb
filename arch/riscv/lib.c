/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V cold path of a library build (docs/library.md): the application owns the trap vector,
 * PMP and the privilege the kit runs at. The kit reads cycle and instret as its images do; where
 * the application forwards its faults (a probe's trap then comes back skipped) it finds the
 * privilege and enables the counters as far as that privilege may, else it touches no CSR. */
#include <stdint.h>

#include "arch/riscv.h"
#include "bm/port.h"

/* 1: a probe's trap reaches the kit (core/lib/bm_lib.c sets it from the application's config). */
extern int arch_lib_probe_ok;

static struct bm_kv facts[6]; /* the last stays {0, 0} */
static struct arch_info info; /* (set by arch_init) */

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof *facts, key, value);
}

/* M-mode: the counters run and every lower mode may read them; S-mode: its own enable for U;
 * U-mode: what M-mode (and S-mode) allowed, which the reads then show. */
static void counters_enable(void)
{
	volatile unsigned long v = 0;
	if (BM_PROBE(v = arch_mstatus_read())) {
		add_fact("priv", "M");
		int ok = BM_PROBE(arch_mcountinhibit_write(0));
		add_fact("mcountinhibit", ok ? "cleared" : "absent");
		ok = BM_PROBE(arch_mcounteren_write(arch_mcounteren_read() | COUNTER_CY | COUNTER_TM | COUNTER_IR));
		add_fact("mcounteren", ok ? "cy|tm|ir set" : "absent");
	} else if (BM_PROBE(v = arch_csr_read(sstatus))) {
		add_fact("priv", "S");
		int ok = BM_PROBE(arch_scounteren_write(arch_scounteren_read() | COUNTER_CY | COUNTER_TM | COUNTER_IR));
		add_fact("scounteren", ok ? "cy|tm|ir set" : "absent");
	} else {
		add_fact("priv", "U");
	}
	(void)v;
	if (!BM_PROBE(v = arch_rdcycle()) || !BM_PROBE(v = arch_rdinstret()))
		bm_config_error("rdcycle or rdinstret traps at the privilege the application runs the kit at: "
		                "M-mode must set mcounteren.CY and .IR (and S-mode scounteren) first");
}

void arch_init(void)
{
	/* cycle and instret under -icount: both the instruction count */
	info = (struct arch_info){.isa = __riscv_xlen == 64 ? "rv64imac" : "rv32imac", .facts = facts,
	                          .cycle_counter = "cycle (rdcycle)", .instret_counter = "instret (rdinstret)",
	                          .icount_cycles_are_insns = 1};
	for (unsigned i = 0; i < sizeof facts / sizeof *facts; i++) /* (a second run's facts anew) */
		facts[i] = (struct bm_kv){0, 0};
	if (arch_lib_probe_ok)
		counters_enable();
	else
		add_fact("counters", "as the application left them (not probed: no fault forwarded, bm_lib_fault)");
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
