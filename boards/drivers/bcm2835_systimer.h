/* SPDX-License-Identifier: Apache-2.0 */
/* BCM2835/2837 system timer (Raspberry Pi): a free-running 1 MHz counter in two 32-bit halves,
 * CLO at +0x04 and CHI at +0x08. */
#ifndef DRIVERS_BCM2835_SYSTIMER_H
#define DRIVERS_BCM2835_SYSTIMER_H

#include "bm/port.h"

struct bcm2835_systimer {
	struct bm_timer timer; /** the device core sees */
	uintptr_t base;        /** e.g. 0x3f003000 on a Pi 3 */
};

uint64_t bcm2835_systimer_read(struct bm_timer *t);

#define BCM2835_SYSTIMER(name_) {.name = (name_), .read = bcm2835_systimer_read, .hz = 1000000}

#endif
