/* SPDX-License-Identifier: Apache-2.0 */
/* Devices the Cortex-M arch provides to boards:
 * - arch_semihosting: exit through semihosting (BKPT 0xAB, SYS_EXIT_EXTENDED; QEMU needs
 *   -semihosting). On a board without a debugger the BKPT escalates to HardFault and the fault
 *   handler halts quietly after the end record.
 * - struct armv7m_systick_alarm: the per-benchmark watchdog on SysTick. SysTick runs all the time
 *   (it extends the cycle counter, arch/arch.h); its wrap interrupt, every 2^24 ticks, also
 *   checks the watchdog's deadline, so a benchmark that overruns is stopped at the first wrap
 *   after its budget (up to 2^24 ticks late: 0.67 s at 25 MHz, 0.2 s at 84 MHz) and reported as
 *   BM_FAULT_TIMEOUT. A board instantiates it with SysTick's rate (its core clock):
 *       static struct armv7m_systick_alarm watchdog = ARMV7M_SYSTICK_ALARM(25000000);
 *       ... .alarm = &watchdog.alarm, ...
 *   On a core without SysTick (the real nRF51) its init says so, and the run has no watchdog. */
#ifndef ARCH_DEVICES_H
#define ARCH_DEVICES_H

#include "bm/port.h"

extern const struct bm_exit arch_semihosting;
void arch_semihost_exit(const struct bm_exit *dev, int status);

struct armv7m_systick_alarm {
	struct bm_alarm alarm; /** the device core sees */
	uint32_t hz;           /** SysTick's count rate: the core clock (CLKSOURCE=1) */
};

int armv7m_systick_alarm_init(struct bm_alarm *a);
void armv7m_systick_arm(struct bm_alarm *a, uint32_t ms);
void armv7m_systick_disarm(struct bm_alarm *a);

#define ARMV7M_SYSTICK_ALARM(hz_)                                                          \
	{.alarm = {.name = "systick-wrap-watchdog", .init = armv7m_systick_alarm_init,     \
	           .arm = armv7m_systick_arm, .disarm = armv7m_systick_disarm},            \
	 .hz = (hz_)}

#endif
