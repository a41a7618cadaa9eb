/* SPDX-License-Identifier: Apache-2.0 */
/* The Arm generic timer's virtual timer (CNTV) as the watchdog's alarm: a one-shot deadline whose
 * interrupt (PPI 27) reaches the core through the board's interrupt controller, a GICv2 (QEMU
 * virt) or the BCM2836 local controller (Raspberry Pi 2/3). AArch64 only. */
#ifndef DRIVERS_ARM_VTIMER_ALARM_H
#define DRIVERS_ARM_VTIMER_ALARM_H

#include "bm/port.h"

enum arm_vtimer_intc {
	ARM_VTIMER_GICV2,   /* base: the distributor, gicc: the CPU interface */
	ARM_VTIMER_BCM2836, /* base: the local peripherals (0x40000000 on a Pi 3) */
};

struct arm_vtimer_alarm {
	struct bm_alarm alarm;    /** the device core sees (first member) */
	enum arm_vtimer_intc intc;
	uintptr_t base;
	uintptr_t gicc;
};

int arm_vtimer_alarm_init(struct bm_alarm *a);
void arm_vtimer_alarm_arm(struct bm_alarm *a, uint32_t ms);
void arm_vtimer_alarm_disarm(struct bm_alarm *a);

#define ARM_VTIMER_ALARM(name_) \
	{.name = (name_), .init = arm_vtimer_alarm_init, .arm = arm_vtimer_alarm_arm, .disarm = arm_vtimer_alarm_disarm}

#endif
