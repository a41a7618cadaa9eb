/* SPDX-License-Identifier: Apache-2.0 */
/* Devices the AArch64 arch provides to boards:
 * - arch_semihosting: exit through semihosting (QEMU -semihosting); on a board without a
 *   debugger HLT traps and the trap handler halts quietly after the end record.
 * - arch_generic_timer: CNTVCT_EL0 as the board timer, for boards without a memory-mapped one;
 *   its rate is read from CNTFRQ_EL0 at init. */
#ifndef ARCH_DEVICES_H
#define ARCH_DEVICES_H

#include "bm/port.h"

extern const struct bm_exit arch_semihosting;
extern struct bm_timer arch_generic_timer;
void arch_semihost_exit(const struct bm_exit *dev, int status);

#endif
