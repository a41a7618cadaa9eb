/* SPDX-License-Identifier: Apache-2.0 */
/* Hosted AArch64 cold path: the generic timer's frequency for the meta record, and the signal
 * traps (arch/hosted). */
#include <ucontext.h>

#include "arch/arch.h"
#include "arch/hosted.h"
#include "bm/out.h"
#include "bm/port.h"

static char cntfrq_buf[BM_FMT_U64_MAX];
static struct bm_kv facts[2]; /* the last stays {0, 0} */
static struct arch_info info = {
	.isa = "aarch64",
	.cycle_counter = "cntvct_el0 ticks (generic timer, not core cycles): isb;mrs .. isb;mrs;isb",
	.cycle_unit = "cntvct_ticks",
	.facts = facts,
};

uint64_t arch_host_signal_pc(void *ucontext)
{
	return (uint64_t)((ucontext_t *)ucontext)->uc_mcontext.pc;
}

uint64_t arch_host_signal_sp(void *ucontext)
{
	return (uint64_t)((ucontext_t *)ucontext)->uc_mcontext.sp;
}

void arch_init(void)
{
	bm_fmt_u64(cntfrq_buf, arch_sysreg_read(cntfrq_el0));
	facts[0] = (struct bm_kv){"cntfrq_hz", cntfrq_buf};
	arch_host_install_traps();
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
