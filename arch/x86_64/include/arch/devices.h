/* SPDX-License-Identifier: Apache-2.0 */
/* Devices the x86_64 arch provides to boards: port I/O as a byte register accessor, so port
 * drivers (the 16550 on COM1) take it like an MMIO one (.io = &arch_pio8); and the local APIC's
 * timer as the watchdog's alarm (.alarm = &arch_lapic_alarm), calibrated against the board's
 * timer at start-up. */
#ifndef ARCH_DEVICES_H
#define ARCH_DEVICES_H

#include "bm/port.h"

extern const struct bm_io8 arch_pio8;
extern struct bm_alarm arch_lapic_alarm;

#endif
