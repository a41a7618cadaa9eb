/* SPDX-License-Identifier: Apache-2.0 */
/* Arm SSE-300 system timer (Corstone-300, the MPS3 AN547 image; also SSE-310): a timer frame
 * (CNTBase) that reads the subsystem's 64-bit system counter as CNTPCT, run as the board timer.
 * The counter counts only once its control frame (CNTControlBase) has CNTCR.EN set, which init
 * does; its rate is the board's to give (CNTFRQ is written by software, QEMU leaves it 0). */
#ifndef DRIVERS_SSE_SYSTIMER_H
#define DRIVERS_SSE_SYSTIMER_H

#include "bm/port.h"

struct sse_systimer {
	struct bm_timer timer; /** the device core sees; hz: the system counter's rate */
	uintptr_t base;        /** the timer frame (AN547: SYSTIMER0, 0x58000000 Secure) */
	uintptr_t counter;     /** the counter's control frame (AN547: 0x58100000, Secure only) */
};

void sse_systimer_init(struct bm_timer *t);
uint64_t sse_systimer_read(struct bm_timer *t);

#define SSE_SYSTIMER(name_, hz_) {.name = (name_), .init = sse_systimer_init, .read = sse_systimer_read, .hz = (hz_)}

#endif
