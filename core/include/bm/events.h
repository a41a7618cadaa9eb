/* SPDX-License-Identifier: Apache-2.0 */
/* Events beside cycles and instructions (BM_EVENTS, docs/events.md): which the run asked for,
 * which the core counts in its snapshot (a PMU counter, a perf event) and why the others are not
 * counted. The snapshot reads slot i into arch_snap.ev[i]; the harness subtracts each slot's own
 * overhead and keeps a statistics state per slot, as for cycles. */
#ifndef BM_EVENTS_H
#define BM_EVENTS_H

#include <stdint.h>

#include "bm/event_slots.h"
#include "bm/shared.h" /* BM_EVENTS_MAX: most names BM_EVENTS may list (counted or not) */

#ifdef __cplusplus
extern "C" {
#endif

/* One event asked for. The arch fills source and what follows it (counted: in slot `slot` of the
 * snapshot) or reason (not counted). */
struct bm_event {
	const char *name;    /* portable name (docs/events.md), from BM_EVENTS */
	const char *source;  /* "pmu" or "perf" when counted, else NULL */
	const char *counter; /* pmu: the register that counts it, e.g. "PMEVCNTR1_EL0" */
	uint32_t raw;        /* pmu: the event number programmed; perf: the config */
	uint32_t perf_type;  /* perf: perf_event_attr.type */
	const char *reason;  /* not counted: why (a string in read-only memory) */
};

/* For the archs' arch_events_setup: why an operating system's event (page_faults, ...) is not
 * counted on bare metal, or NULL for an event of the core; and a buffer of BM_EVENT_REASON_BYTES
 * for event i's reason, where it says what the probe read. */
const char *bm_event_os_reason(const char *name);
#define BM_EVENT_REASON_BYTES 128
char *bm_event_reason_buf(unsigned i);
int bm_event_name_is(const char *name, const char *want);

#ifdef __cplusplus
}
#endif

#endif
