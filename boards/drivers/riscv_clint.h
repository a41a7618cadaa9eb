/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V CLINT/ACLINT machine timer: mtime, a 64-bit free-running MMIO counter, as the board
 * timer, and mtimecmp (hart 0) as the watchdog's alarm: a machine timer interrupt at a deadline.
 * The rate is the board's (10 MHz on QEMU virt and sifive_e, 1 MHz on sifive_u, the 32.768 kHz
 * RTC on a real HiFive1), given in `timer.hz` or set by the board's timer init. */
#ifndef DRIVERS_RISCV_CLINT_H
#define DRIVERS_RISCV_CLINT_H

#include "bm/port.h"

struct clint {
	struct bm_timer timer; /** the timer core sees (first member) */
	struct bm_alarm alarm; /** the watchdog's alarm (board_desc.alarm = &clint.alarm) */
	uintptr_t base;        /** CLINT base; mtime is at +0xbff8, hart 0's mtimecmp at +0x4000 */
};

uint64_t clint_mtime_read(struct bm_timer *t);
void clint_alarm_arm(struct bm_alarm *a, uint32_t ms);
void clint_alarm_disarm(struct bm_alarm *a);

#define CLINT_TIMER(name_, hz_) {.name = (name_), .read = clint_mtime_read, .hz = (hz_)}
#define CLINT_ALARM {.name = "clint-mtimecmp (hart 0)", .arm = clint_alarm_arm, .disarm = clint_alarm_disarm}

#endif
