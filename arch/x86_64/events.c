/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64 events (bm/events.h): the architectural PMU is found through CPUID leaf 0xA; the kit does
 * not program it, so every event is named as not counted with what the probe read (QEMU's TCG
 * models no PMU: version 0). */
#include "arch/x86.h"
#include "bm/events.h"
#include "bm/out.h"
#include "bm/port.h"

void arch_events_setup(struct bm_event *ev, unsigned n)
{
	static char why[96];
	uint32_t max_basic = x86_cpuid(0, 0).a;
	uint32_t version = max_basic >= CPUID_PMU ? CPUID_PMU_VERSION(x86_cpuid(CPUID_PMU, 0).a) : 0;
	char *p = why;
	if (max_basic < CPUID_PMU) {
		p = bm_append_str(p, "no architectural PMU: CPUID has no leaf 0xA (largest basic leaf ");
		bm_append_str(bm_append_hex(p, max_basic, 2), ")");
	} else if (!version) {
		bm_append_str(p, "no architectural PMU: CPUID.0AH:EAX[7:0] (its version) is 0");
	} else {
		p = bm_append_str(p, "the architectural PMU (CPUID.0AH version ");
		bm_append_str(bm_append_u64(p, version), ") is present; the kit does not program it yet");
	}
	for (unsigned i = 0; i < n; i++)
		if (!ev[i].reason) /* (settled by core: an OS's event) */
			ev[i].reason = why;
}
