/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M cold path of a library build (docs/library.md): the application owns the vectors,
 * SysTick (an RTOS's tick), the MPU and the faults. The snapshots read DWT_CYCCNT where it counts
 * (the kit enables it when it runs privileged, which the PPB needs), else the application's timer
 * (bm_lib_config.timer_read, through the same path as a board timer); never SysTick. */
#include <stdint.h>

#include "bm/port.h"
#include "internal.h"

struct arch_counter arch_counter;

static struct bm_kv facts[6]; /* the last stays {0, 0} */
static struct arch_info info = {
	.isa = MAINLINE ? "armv7-m or later (Thumb-2)" : "armv6-m (Thumb)",
	.cycle_counter = "none",
	.facts = facts,
};

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof facts[0], key, value);
}

/* 1: DWT_CYCCNT counts, enabled by the kit if it had to be; *why says what was found. */
static int dwt_counts(int privileged, const char **why)
{
	if (!MAINLINE) {
		*why = "absent (ARMv6-M)";
		return 0;
	}
	if (!privileged) {
		*why = "not read: the kit runs unprivileged (the PPB faults)";
		return 0;
	}
	REG(DCB_DEMCR) |= DCB_DEMCR_TRCENA;
	REG(DWT_LAR) = DWT_LAR_KEY;
	uint32_t ctrl = REG(DWT_CTRL);
	if (ctrl & DWT_CTRL_NOCYCCNT) {
		*why = "not implemented (DWT_CTRL.NOCYCCNT)";
		return 0;
	}
	REG(DWT_CTRL) = ctrl | DWT_CTRL_CYCCNTENA;
	uint32_t before = REG(DWT_CYCCNT);
	spin();
	*why = REG(DWT_CYCCNT) != before ? "counts core cycles" : "does not advance (QEMU does not model it)";
	return REG(DWT_CYCCNT) != before;
}

void arch_init(void)
{
	for (unsigned i = 0; i < sizeof facts / sizeof *facts; i++) /* (a second run's facts anew) */
		facts[i] = (struct bm_kv){0, 0};
	uint32_t control, ipsr;
	__asm__ volatile("mrs %0, control\n\tmrs %1, ipsr" : "=r"(control), "=r"(ipsr));
	int privileged = !(control & 1u) || ipsr != 0; /* (CONTROL.nPRIV; a handler is privileged) */
	add_fact("mode", privileged ? "privileged (the application's task or handler)" : "unprivileged Thread mode");
	const char *why;
	struct bm_timer *timer;
	if (dwt_counts(privileged, &why)) {
		arch_counter.source = ARCH_SRC_DWT;
		info.cycle_counter = "DWT_CYCCNT (core cycles)";
	} else if ((timer = bm_port_timer())) {
		arch_counter.source = ARCH_SRC_TIMER;
		arch_counter.timer = timer;
		arch_counter.timer_read = timer->read;
		info.cycle_unit = "timer_ticks";
		info.cycle_counter = "the application's timer (fallback: DWT_CYCCNT does not count)";
	} else {
		bm_config_error("no counter: DWT_CYCCNT does not count here and the application gave no timer_read");
	}
	add_fact("dwt_cyccnt", why);
	add_fact("systick", "the application's (not read)");
	add_fact("instret", "not counted: Cortex-M has no instructions-retired counter");
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
