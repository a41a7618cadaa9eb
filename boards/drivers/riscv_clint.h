/* RISC-V CLINT/ACLINT machine timer: mtime, a 64-bit free-running MMIO counter, as the board
 * timer. The rate is the board's (10 MHz on QEMU virt and sifive_e, 1 MHz on sifive_u, the
 * 32.768 kHz RTC on a real HiFive1), given in `timer.hz` or set by the board's init. */
#ifndef DRIVERS_RISCV_CLINT_H
#define DRIVERS_RISCV_CLINT_H

#include "bm/port.h"

struct clint {
	struct bm_timer timer; /** the device core sees */
	uintptr_t base;        /** CLINT base; mtime is at +0xbff8 */
};

uint64_t clint_mtime_read(const struct bm_timer *t);

#define CLINT_TIMER(name_, hz_) {.name = (name_), .read = clint_mtime_read, .hz = (hz_)}

#endif
