/* The Cortex-M hardware stack guard: an MPU no-access region below the main stack and FLASH
 * read-only (ARMv7-M with an MPU), or PSPLIM (ARMv8-M mainline). Included by arch.c only, so
 * arch_init keeps it inline: arch_init runs after the SysTick wrap test restarted the count, and
 * its instruction count sets the SysTick phase of every figure under deterministic QEMU. */
#ifndef ARCH_ARMV7M_MPU_GUARD_H
#define ARCH_ARMV7M_MPU_GUARD_H

#include <stdint.h>

#include "bm/out.h"
#include "internal.h"

static char guard_buf[160];

#if MAINLINE && !ARMV8M
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
	__asm__ volatile("msr psplim, %0\n\tmsr msplim, %1\n\tisb"
	                 : : "r"(bottom), "r"((uintptr_t)__trap_stack_bottom));
	char *p = bm_append_str(guard_buf, "PSPLIM=");
	p = bm_append_hex(p, bottom, 8);
	bm_append_str(p, " (stack overflow: UsageFault STKOF)");
	(void)guard;
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
