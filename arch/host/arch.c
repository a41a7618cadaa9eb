/* Hosted arch cold path: probe the user-space cycle counter (RDTSCP and invariant TSC on x86_64,
 * the generic timer frequency on AArch64) and collect facts for the meta record, including the
 * ones the hosted board adds (arch_host_add_fact). */
#include <stdint.h>

#include "arch/arch.h"
#include "bm/out.h"

#if defined(__x86_64__)
#include <cpuid.h>
uint8_t arch_host_has_rdtscp;
#define HOST_ISA "x86_64"
#define HOST_CYCLE_UNIT "tsc_ticks" /* the TSC counts nominal, not core, cycles */
#elif defined(__aarch64__)
#define HOST_ISA "aarch64"
#define HOST_CYCLE_UNIT "cntvct_ticks" /* the generic timer, not core cycles */
#endif

static struct bm_kv facts[16];
static struct arch_info info = {
	.isa = HOST_ISA,
	.cycle_counter = "",
	.cycle_unit = HOST_CYCLE_UNIT,
	.instret_counter = 0,
	.facts = facts,
	.n_facts = 0,
};
static unsigned n_arch_facts;
static char buf_counter_hz[24];

void arch_host_add_fact(const char *key, const char *value)
{
	if (info.n_facts < sizeof facts / sizeof facts[0])
		facts[info.n_facts++] = (struct bm_kv){key, value};
}

/* arch_init runs once per bm_run (--repetitions runs it again): probe once, keep the facts. */
void arch_init(void)
{
	if (n_arch_facts)
		return;
#if defined(__x86_64__)
	unsigned a, b, c, d, max_ext = __get_cpuid_max(0x80000000u, 0);
	int invariant = 0;
	if (max_ext >= 0x80000001u && __get_cpuid(0x80000001u, &a, &b, &c, &d))
		arch_host_has_rdtscp = (d >> 27) & 1;
	if (max_ext >= 0x80000007u && __get_cpuid(0x80000007u, &a, &b, &c, &d))
		invariant = (d >> 8) & 1;
	int hypervisor = __get_cpuid(1, &a, &b, &c, &d) && ((c >> 31) & 1);
	info.cycle_counter = arch_host_has_rdtscp
		? "tsc ticks (nominal cycles): lfence;rdtsc .. rdtscp;lfence"
		: "tsc ticks (nominal cycles): lfence;rdtsc .. lfence;rdtsc;lfence (no rdtscp)";
	arch_host_add_fact("rdtscp", arch_host_has_rdtscp ? "yes" : "no");
	arch_host_add_fact("invariant_tsc", invariant ? "yes" : "no");
	arch_host_add_fact("hypervisor", hypervisor ? "yes (cpuid.1:ecx.31)" : "no");
#elif defined(__aarch64__)
	uint64_t frq;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(frq));
	buf_counter_hz[bm_fmt_u64(buf_counter_hz, frq)] = 0;
	info.cycle_counter = "cntvct_el0 ticks (generic timer, not core cycles): isb;mrs .. isb;mrs;isb";
	arch_host_add_fact("cntfrq_hz", buf_counter_hz);
#endif
	(void)buf_counter_hz;
	n_arch_facts = info.n_facts;
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
