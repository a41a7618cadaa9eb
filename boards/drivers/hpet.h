/* SPDX-License-Identifier: Apache-2.0 */
/* HPET (IA-PC High Precision Event Timer): the main counter as the board timer. Its rate comes
 * from the capabilities register (period in femtoseconds), read at init: hz is set there, and
 * stays 0 (no timer) when no valid HPET answers at `base`. */
#ifndef DRIVERS_HPET_H
#define DRIVERS_HPET_H

#include "bm/port.h"

struct hpet {
	struct bm_timer timer; /** the device core sees */
	uintptr_t base;        /** MMIO base, 0xfed00000 on PCs */
};

void hpet_init(struct bm_timer *t);
uint64_t hpet_read(struct bm_timer *t);

#define HPET_TIMER(name_) {.name = (name_), .init = hpet_init, .read = hpet_read}

#endif
