/* SPDX-License-Identifier: Apache-2.0 */
/* Arm CMSDK APB timer (MPS2 TIMER0/TIMER1 and other Cortex-M System Design Kit SoCs): a 32-bit
 * down-counter at PCLK, run free from 0xffffffff as the board timer, extended to 64 bits in
 * software (timer32_ext.h). The rate is PCLK (25 MHz on the MPS2 images). */
#ifndef DRIVERS_CMSDK_TIMER_H
#define DRIVERS_CMSDK_TIMER_H

#include "bm/port.h"
#include "timer32_ext.h"

struct cmsdk_timer {
	struct bm_timer timer;  /** the device core sees */
	uintptr_t base;         /** MMIO base address */
	struct timer32_ext ext; /** the software high word (state: the instance is not const) */
};

void cmsdk_timer_init(struct bm_timer *t);
uint64_t cmsdk_timer_read(struct bm_timer *t);

#define CMSDK_TIMER(name_, hz_) {.name = (name_), .init = cmsdk_timer_init, .read = cmsdk_timer_read, .hz = (hz_)}

#endif
