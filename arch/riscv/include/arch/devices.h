/* SPDX-License-Identifier: Apache-2.0 */
/* Devices the RISC-V arch provides to boards. Semihosting exit, for boards with no exit device
 * of their own (.exit = &arch_semihosting): under QEMU it needs -semihosting; on a board without
 * a debugger the ebreak traps and the trap handler halts quietly after the end record. */
#ifndef ARCH_DEVICES_H
#define ARCH_DEVICES_H

#include "bm/port.h"

extern const struct bm_exit arch_semihosting;
void arch_semihost_exit(const struct bm_exit *dev, int status);

#endif
