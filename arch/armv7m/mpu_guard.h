/* SPDX-License-Identifier: Apache-2.0 */
/* The Cortex-M hardware stack guard and read-only FLASH: an MPU no-access region below the main
 * stack and an MPU read-only region over FLASH (ARMv7-M with an MPU, PMSAv7), or PSPLIM and a
 * read-only region (ARMv8-M mainline, PMSAv8). Included by arch.c only, so
 * arch_init keeps it inline: arch_init runs after the SysTick wrap test restarted the count, and
 * its instruction count sets the SysTick phase of every figure under deterministic QEMU. */
#ifndef ARCH_ARMV7M_MPU_GUARD_H
#define ARCH_ARMV7M_MPU_GUARD_H

#include <stdint.h>

#include "bm/out.h"
#include "internal.h"

static char guard_buf[224];

#if MAINLINE && ARMV8M
/* Optional, from the board's memory.ld: another address range that reaches FLASH's memory (an
 * SSE subsystem's Non-secure alias of the Secure code, at 0: a store through NULL lands there),
 * made read-only too. Undefined: both 0, no region. */
extern char __flash_alias_origin[] __attribute__((weak));
extern char __flash_alias_limit[] __attribute__((weak));

/* A PMSAv8 read-only region over the 32-byte steps inside [base, limit), memory attribute 0;
 * xn: not executable either. Appends "; MPU region N: first..last" at p and returns the end of
 * the text; NULL (nothing set or appended) when no step fits. */
static char *mpu_ro_region(char *p, uint32_t region, uintptr_t base, uintptr_t limit, uint32_t xn)
{
	base = (base + PMSAV8_GRAIN - 1) & ~(uintptr_t)(PMSAV8_GRAIN - 1);
	limit &= ~(uintptr_t)(PMSAV8_GRAIN - 1);
	if (limit <= base)
		return 0;
	REG(MPU_RNR) = region;
	REG(MPU_RBAR) = (uint32_t)base | MPU_RBAR_AP_RO | xn;
	REG(MPU_RLAR) = (uint32_t)(limit - PMSAV8_GRAIN) | MPU_RLAR_ATTR(0) | MPU_RLAR_ENABLE;
	p = bm_append_str(p, "; MPU region ");
	p = bm_append_u64(p, region);
	p = bm_append_str(p, ": ");
	p = bm_append_hex(p, base, 8);
	p = bm_append_str(p, "..");
	return bm_append_hex(p, limit - 1, 8);
}
#elif MAINLINE
/* An MPU region (PMSAv7: a power of two >= 32 bytes, aligned to its size) over [base, base + len)
 * or, where len is not such a size, the largest one that fits [base, base + len) from base. Returns
 * its size, 0 when none fits. */
static uint32_t mpu_region(uint32_t region, uintptr_t base, uintptr_t len, uint32_t attrs)
{
	uint32_t size = 32, log2 = 5;
	while (size < len && size < (1u << 31))
		size <<= 1, log2++;
	while (size >= 32 && ((base & (size - 1)) || size > len))
		size >>= 1, log2--;
	if (size < 32)
		return 0;
	REG(MPU_RNR) = region;
	REG(MPU_RBAR) = (uint32_t)base;
	REG(MPU_RASR) = attrs | MPU_RASR_SIZE(log2) | MPU_RASR_ENABLE;
	return size;
}
#endif

/* The hardware guards: the stack's (ARMv8-M's PSPLIM, else an MPU no-access region over the guard
 * below the main stack, linker/common.ld: __stack_guard_size bytes below __stack_bottom) and, with
 * an MPU, FLASH read-only: a store into the code or the constants (the kit's tables included, or
 * through a NULL pointer where FLASH starts at 0) faults as a trap instead of changing what every
 * later benchmark computes. */
static void stack_guard(void)
{
	uintptr_t bottom = (uintptr_t)__stack_bottom, guard = (uintptr_t)__stack_guard_size;
#if MAINLINE && ARMV8M
	/* The stack limit registers: an instruction that would move SP below them faults (STKOF)
	 * before anything is written there, however large the frame. */
	__asm__ volatile("msr psplim, %0\n\tmsr msplim, %1\n\tisb"
	                 : : "r"(bottom), "r"((uintptr_t)__trap_stack_bottom));
	char *p = bm_append_str(guard_buf, "PSPLIM=");
	p = bm_append_hex(p, bottom, 8);
	p = bm_append_str(p, " (stack overflow: UsageFault STKOF)");
	(void)guard;
	uint32_t regions = MPU_TYPE_DREGION(REG(MPU_TYPE));
	if (!regions) {
		bm_append_str(p, "; FLASH writable (no MPU)");
		return;
	}
	/* The highest-numbered regions, as on ARMv7-M. PMSAv8 regions must not overlap: a board's
	 * alias range is another address range than FLASH's. */
	REG(MPU_MAIR0) = MPU_MAIR_FLASH; /* attribute 0 */
	char *q = mpu_ro_region(p, regions - 1, (uintptr_t)__flash_origin, (uintptr_t)__flash_limit, 0);
	if (q)
		p = bm_append_str(q, " read-only (FLASH)");
	q = regions < 2 ? 0
	                : mpu_ro_region(p, regions - 2, (uintptr_t)__flash_alias_origin,
	                                (uintptr_t)__flash_alias_limit, MPU_RBAR_XN);
	if (q)
		bm_append_str(q, " read-only, not executable (FLASH's alias)");
	REG(MPU_CTRL) = MPU_CTRL_PRIVDEFENA | MPU_CTRL_ENABLE;
	__asm__ volatile("dsb\n\tisb" : : : "memory");
#elif MAINLINE
	uint32_t regions = MPU_TYPE_DREGION(REG(MPU_TYPE));
	if (!regions) {
		bm_append_str(guard_buf, "none (no MPU)");
		return;
	}
	/* Numbered from the top: where regions overlap, the highest number wins. The guard's size
	 * shrinks until the stack's bottom is aligned to it (the guard ends there). */
	uint32_t size = 32;
	while (size < guard)
		size <<= 1;
	while (size >= 32 && (bottom & (size - 1)))
		size >>= 1;
	char *p = guard_buf;
	if (guard && size >= 32 && mpu_region(regions - 1, bottom - size, size, MPU_RASR_XN)) {
		p = bm_append_str(p, "MPU region ");
		p = bm_append_u64(p, regions - 1);
		p = bm_append_str(p, ": ");
		p = bm_append_hex(p, bottom - size, 8);
		p = bm_append_str(p, "..");
		p = bm_append_hex(p, bottom - 1, 8);
		p = bm_append_str(p, " no access (stack overflow: MemManage)");
	} else {
		p = bm_append_str(p, "none (no __stack_guard_size)");
	}
	uintptr_t flash = (uintptr_t)__flash_origin, flash_len = (uintptr_t)(__flash_limit - __flash_origin);
	uint32_t ro = regions >= 2 ? mpu_region(regions - 2, flash, flash_len, MPU_RASR_AP_RO | MPU_RASR_FLASH) : 0;
	if (ro) {
		p = bm_append_str(p, "; region ");
		p = bm_append_u64(p, regions - 2);
		p = bm_append_str(p, ": ");
		p = bm_append_hex(p, flash, 8);
		p = bm_append_str(p, "..");
		p = bm_append_hex(p, flash + ro - 1, 8);
		bm_append_str(p, " read-only (FLASH)");
	}
	REG(MPU_CTRL) = MPU_CTRL_PRIVDEFENA | MPU_CTRL_ENABLE;
	__asm__ volatile("dsb\n\tisb" : : : "memory");
#else
	(void)bottom;
	(void)guard;
	bm_append_str(guard_buf, "none in hardware (ARMv6-M has no MPU here); below RAM a bus error");
#endif
}

#endif /* ARCH_ARMV7M_MPU_GUARD_H */
