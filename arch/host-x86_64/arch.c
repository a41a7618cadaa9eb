/* SPDX-License-Identifier: Apache-2.0 */
/* Hosted x86_64 cold path: probe the user-space TSC (RDTSCP, invariant TSC, whether a hypervisor
 * is underneath) for the meta record, and install the signal traps (arch/hosted). */
#include <ucontext.h>

#include "arch/arch.h"
#include "arch/hosted.h"
#include "bm/port.h"

uint8_t arch_host_has_rdtscp;

static struct bm_kv facts[4]; /* the last stays {0, 0} */
static struct arch_info info = {
	.isa = "x86_64",
	.cycle_unit = "tsc_ticks", /* the TSC counts nominal, not core, cycles */
	.facts = facts,
};

uint64_t arch_host_signal_pc(void *ucontext)
{
	return (uint64_t)((ucontext_t *)ucontext)->uc_mcontext.gregs[REG_RIP];
}

uint64_t arch_host_signal_sp(void *ucontext)
{
	return (uint64_t)((ucontext_t *)ucontext)->uc_mcontext.gregs[REG_RSP];
}

/* Runs once per bm_run (host-linux --repetitions runs it again): probing is idempotent. */
void arch_init(void)
{
	arch_host_has_rdtscp = (uint8_t)x86_has_rdtscp();
	int hypervisor = (x86_cpuid(1, 0).c >> 31) & 1;
	info.cycle_counter = arch_host_has_rdtscp
		? "tsc ticks (nominal cycles): lfence;rdtsc .. rdtscp;lfence"
		: "tsc ticks (nominal cycles): lfence;rdtsc .. lfence;rdtsc;lfence (no rdtscp)";
	facts[0] = (struct bm_kv){"rdtscp", arch_host_has_rdtscp ? "yes" : "no"};
	facts[1] = (struct bm_kv){"invariant_tsc", x86_invariant_tsc() ? "yes" : "no"};
	facts[2] = (struct bm_kv){"hypervisor", hypervisor ? "yes (cpuid.1:ecx.31)" : "no"};
	arch_host_install_traps();
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
