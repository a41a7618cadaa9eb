/* SPDX-License-Identifier: Apache-2.0 */
/* Memory-mapped device registers, for the drivers here, the board families and the boards: a
 * register is `*mmio32(base + OFFSET)`, read, written or changed in place (`|=`). Volatile: every
 * access reaches the device, at its width, in program order. (x86 port I/O is the arch's.) */
#ifndef DRIVERS_MMIO_H
#define DRIVERS_MMIO_H

#include <stdint.h>

static inline volatile uint8_t *mmio8(uintptr_t addr)
{
	return (volatile uint8_t *)addr;
}

static inline volatile uint32_t *mmio32(uintptr_t addr)
{
	return (volatile uint32_t *)addr;
}

static inline volatile uint64_t *mmio64(uintptr_t addr)
{
	return (volatile uint64_t *)addr;
}

#endif
