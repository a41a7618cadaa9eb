/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 cold path of a library build (docs/library.md): the application (or its OS) owns the
 * descriptor tables, paging and the ring the kit runs in. The snapshots read the TSC as the kit's
 * images do (arch/arch.h); ring 3 may unless CR4.TSD is set, which the kit cannot read there and
 * does not probe (its instructions are not the 4 bytes a forwarded fault resumes after): a trap on
 * the first read is the application's. No privileged instruction is run. */
#include <stdint.h>

#include "bm/out.h"
#include "bm/port.h"

/* Read by arch_snap_end (arch/arch.h); set before the first snapshot. */
uint8_t arch_x86_has_rdtscp;

static struct bm_kv facts[7]; /* the last stays {0, 0} */
static struct arch_info info;
static char vendor[13];

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof *facts, key, value);
}

void arch_init(void)
{
	for (unsigned i = 0; i < sizeof facts / sizeof *facts; i++) /* (a second run's facts anew) */
		facts[i] = (struct bm_kv){0, 0};
	arch_x86_has_rdtscp = (uint8_t)x86_has_rdtscp();
	info = (struct arch_info){.isa = "x86_64", .facts = facts, .cycle_unit = "tsc_ticks",
	                          .cycle_counter = arch_x86_has_rdtscp
	                                               ? "tsc ticks (nominal cycles): cpuid;rdtsc .. rdtscp;cpuid"
	                                               : "tsc ticks (nominal cycles): cpuid;rdtsc .. lfence;rdtsc;cpuid "
	                                                 "(no rdtscp)"};
	uint16_t cs;
	__asm__ volatile("mov %%cs, %0" : "=r"(cs)); /* (its low bits: the current privilege level) */
	struct x86_cpuid r = x86_cpuid(CPUID_VENDOR, 0);
	const uint32_t v[3] = {r.b, r.d, r.c};
	for (int i = 0; i < 12; i++)
		vendor[i] = (char)(v[i / 4] >> (8 * (i % 4)));

	add_fact("ring", (cs & 3) == 0 ? "0 (the TSC always readable)"
	                               : "3: the TSC readable unless CR4.TSD (the OS's; not read, a trap is the "
	                                 "application's)");
	add_fact("vendor", vendor);
	add_fact("rdtscp", arch_x86_has_rdtscp ? "yes" : "no (lfence;rdtsc fallback)");
	add_fact("invariant_tsc", x86_invariant_tsc() ? "yes" : "no");
	add_fact("instret", "not counted: the PMU is the application's or its OS's (not used)");
	add_fact("core_per_tick", "not measured: figures are TSC ticks");

	struct arch_snap a, b;
	arch_snap_begin(&a);
	for (volatile uint32_t i = 0; i < 20000u; i++)
		;
	arch_snap_end(&b);
	if (b.cycles == a.cycles)
		bm_config_error("the TSC does not advance");
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
