/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M events (bm/events.h): none of the portable events is one of the DWT's (its 8-bit CPI,
 * exception, sleep, LSU and fold cycle counters), and the Armv8.1-M PMU (M55, M85) is not programmed
 * by the kit; each event is named as not counted with what the probe read (QEMU models no DWT and
 * no PMU: their registers read 0). */
#include "bm/events.h"
#include "bm/out.h"
#include "bm/port.h"
#include "internal.h"

void arch_events_setup(struct bm_event *ev, unsigned n)
{
	const char *why = "ARMv6-M has no DWT or PMU event counters";
#if MAINLINE
	uint32_t ctrl = 0, pmu = 0;
	if (!BM_PROBE(ctrl = REG(DWT_CTRL)))
		ctrl = 0;
	uint32_t part = SCB_CPUID_PARTNO(REG(SCB_CPUID));
	if ((part == CPUID_PART_CORTEX_M55 || part == CPUID_PART_CORTEX_M85) && !BM_PROBE(pmu = REG(PMU_TYPE)))
		pmu = 0;
	if (pmu)
		why = "the Armv8.1-M PMU is present (PMU_TYPE is not 0); the kit does not program it yet";
	else if (!ctrl)
		why = "no event counter here: DWT_CTRL reads 0 (no DWT) and there is no PMU";
	else
		why = "no DWT counter counts it (the DWT's are 8-bit CPI, exception, sleep, LSU and fold cycle "
		      "counters) and there is no PMU";
#endif
	for (unsigned i = 0; i < n; i++)
		if (!ev[i].reason) /* (settled by core: an OS's event) */
			ev[i].reason = why;
}
