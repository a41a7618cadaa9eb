/* SPDX-License-Identifier: Apache-2.0 */
/* The Cortex-M MPU: the hardware stack guard and read-only FLASH (an MPU no-access region below
 * the main stack and a read-only region over FLASH on ARMv7-M, PMSAv7; PSPLIM and a read-only
 * region on ARMv8-M mainline, PMSAv8), and, where benchmark code runs unprivileged
 * (ARCH_USER_ISOLATED), the regions that give it its stack and the RAM from the user region up
 * while the kit's memory and the devices stay privileged only. Included by arch.c only, so
 * arch_init keeps it inline: arch_init runs after the SysTick wrap test restarted the count, and
 * its instruction count sets the SysTick phase of every figure under deterministic QEMU. */
#ifndef ARCH_ARMV7M_MPU_GUARD_H
#define ARCH_ARMV7M_MPU_GUARD_H

#include <stdint.h>

#include "bm/out.h"
#include "internal.h"

static char guard_buf[224];
#if ARCH_USER_ISOLATED
static char user_buf[320];
/* The end of RAM (linker/common.ld: the free RAM after the scratch runs to it). */
extern char __bm_scratch_end[], __ram_free[];
#define RAM_END ((uintptr_t)__bm_scratch_end + (uintptr_t)__ram_free)
#endif

#if MAINLINE
/* Appends "first..last" of [lo, hi) at p. */
static char *append_range(char *p, uintptr_t lo, uintptr_t hi)
{
	p = bm_append_hex(p, lo, 8);
	p = bm_append_str(p, "..");
	return bm_append_hex(p, hi - 1, 8);
}
#endif

#if MAINLINE && ARMV8M
/* Optional, from the board's memory.ld: another address range that reaches FLASH's memory (an
 * SSE subsystem's Non-secure alias of the Secure code, at 0: a store through NULL lands there),
 * made read-only too. Undefined: both 0, no region. */
extern char __flash_alias_origin[] __attribute__((weak));
extern char __flash_alias_limit[] __attribute__((weak));

/* A PMSAv8 region over the 32-byte steps inside [base, limit): rbar its access and XN bits,
 * memory attribute attr (MPU_MAIR0). 0 (nothing set) when no step fits. */
static int mpu_v8_region(uint32_t region, uintptr_t base, uintptr_t limit, uint32_t rbar, uint32_t attr)
{
	base = (base + PMSAV8_GRAIN - 1) & ~(uintptr_t)(PMSAV8_GRAIN - 1);
	limit &= ~(uintptr_t)(PMSAV8_GRAIN - 1);
	if (limit <= base)
		return 0;
	REG(MPU_RNR) = region;
	REG(MPU_RBAR) = (uint32_t)base | rbar;
	REG(MPU_RLAR) = (uint32_t)(limit - PMSAV8_GRAIN) | MPU_RLAR_ATTR(attr) | MPU_RLAR_ENABLE;
	return 1;
}

/* A read-only one (memory attribute 0); xn: not executable either. Appends "; MPU region N:
 * first..last" at p and returns the end of the text; NULL (nothing set or appended) when no step
 * fits. */
static char *mpu_ro_region(char *p, uint32_t region, uintptr_t base, uintptr_t limit, uint32_t xn)
{
	if (!mpu_v8_region(region, base, limit, MPU_RBAR_AP_RO | xn, 0))
		return 0;
	p = bm_append_str(p, "; MPU region ");
	p = bm_append_u64(p, region);
	p = bm_append_str(p, ": ");
	return append_range(p, (base + PMSAV8_GRAIN - 1) & ~(uintptr_t)(PMSAV8_GRAIN - 1),
	                    limit & ~(uintptr_t)(PMSAV8_GRAIN - 1));
}

#if ARCH_USER_ISOLATED
/* Benchmark code's memory: regions 0 and 1 over its stack and over the RAM from the user region
 * up (the free RAM after it is the C library's heap), read/write at any privilege and not
 * executable; the rest of RAM (the kit's stacks, .kit_data and .kit_bss) and the devices fall to
 * the background map, privileged only. 0 when the MPU has too few regions. */
static int user_regions(uint32_t regions)
{
	uintptr_t ulo = (uintptr_t)__user_stack_bottom, uhi = (uintptr_t)__user_stack_top;
	if (regions < 4)
		return 0;
	REG(MPU_MAIR0) = MPU_MAIR_FLASH | (MPU_MAIR_SRAM << 8); /* attributes 0 (FLASH) and 1 (RAM) */
	mpu_v8_region(0, ulo, uhi, MPU_RBAR_AP_RW | MPU_RBAR_XN, 1);
	mpu_v8_region(1, (uintptr_t)__user_start, RAM_END, MPU_RBAR_AP_RW | MPU_RBAR_XN, 1);
	char *p = bm_append_str(user_buf, "unprivileged Thread mode on PSP, on their own stack ");
	p = append_range(p, ulo, uhi);
	p = bm_append_str(p, "; MPU regions 0-1 read/write: that stack and ");
	p = append_range(p, (uintptr_t)__user_start, RAM_END);
	bm_append_str(p, " (the user region, the free RAM); the kit's memory and the devices privileged "
	                 "only; counter reads and the kit's services by SVC");
	return 1;
}
#endif
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

#if ARCH_USER_ISOLATED
/* Appends "region first" or "regions first-last" at p. */
static char *append_regions(char *p, uint32_t first, uint32_t last)
{
	p = bm_append_str(p, first == last ? "region " : "regions ");
	p = bm_append_u64(p, first);
	if (first == last)
		return p;
	return bm_append_u64(bm_append_str(p, "-"), last);
}

/* PMSAv7 regions from `region` on over exactly [lo, hi) (multiples of 32 bytes): each a power of
 * two aligned to its size with a run of its eight subregions on (a region of 256 bytes or more
 * has them), at each step the one that reaches furthest. Returns the next region, or end + 1
 * when [lo, hi) needs regions from end on. */
static uint32_t mpu_cover(uint32_t region, uint32_t end, uintptr_t lo, uintptr_t hi, uint32_t attrs)
{
	while (lo < hi) {
		uintptr_t reach = lo, base = 0, sub = 0;
		uint32_t log2 = 0;
		for (uint32_t l = 5; l <= 30; l++) {
			uintptr_t size = (uintptr_t)1 << l, s = l >= 8 ? size >> 3 : size;
			uintptr_t b = lo & ~(size - 1), r = b + (hi - b) / s * s;
			if (lo & (s - 1))
				continue;
			r = r < b + size ? r : b + size;
			if (r > reach)
				reach = r, base = b, sub = s, log2 = l;
		}
		if (reach == lo || region >= end)
			return end + 1;
		uint32_t on = (0xffu << ((lo - base) / sub)) & (0xffu >> (8 - (reach - base) / sub));
		REG(MPU_RNR) = region++;
		REG(MPU_RBAR) = (uint32_t)base;
		REG(MPU_RASR) = attrs | (log2 >= 8 ? MPU_RASR_SRD(~on & 0xffu) : 0) | MPU_RASR_SIZE(log2) | MPU_RASR_ENABLE;
		lo = reach;
	}
	return region;
}

/* Benchmark code's memory: from region 0 up, RAM read/write at any privilege, then over it the
 * kit's memory below and above the benchmarks' stack (its stacks and .kit_data; .kit_bss)
 * privileged only, all of it not executable: benchmark code writes its stack and the RAM from
 * the user region up (the free RAM after it is the C library's heap). The devices fall to the
 * background map, privileged only. The two regions at the top (the guard, FLASH) stay as they
 * are. 0 when that takes more regions than there are below them. */
static int user_regions(uint32_t regions)
{
	uintptr_t ram = (uintptr_t)__stack_bottom, ulo = (uintptr_t)__user_stack_bottom, uhi = (uintptr_t)__user_stack_top;
	uint32_t end = regions >= 2 ? regions - 2 : 0, r;
	r = mpu_cover(0, end, ram, RAM_END, MPU_RASR_AP_RW | MPU_RASR_XN | MPU_RASR_SRAM);
	uint32_t kit = r;
	r = mpu_cover(r, end, ram, ulo, MPU_RASR_AP_PRIV | MPU_RASR_XN | MPU_RASR_SRAM);
	r = mpu_cover(r, end, uhi, (uintptr_t)__user_start, MPU_RASR_AP_PRIV | MPU_RASR_XN | MPU_RASR_SRAM);
	if (r > end)
		return 0;
	char *p = bm_append_str(user_buf, "unprivileged Thread mode on PSP, on their own stack ");
	p = append_range(p, ulo, uhi);
	p = append_regions(bm_append_str(p, "; MPU "), 0, kit - 1);
	p = bm_append_str(p, " RAM ");
	p = append_range(p, ram, RAM_END);
	p = append_regions(bm_append_str(p, " read/write, "), kit, r - 1);
	p = bm_append_str(p, " privileged only: the kit's ");
	p = append_range(p, ram, ulo);
	p = bm_append_str(p, " and ");
	p = append_range(p, uhi, (uintptr_t)__user_start);
	bm_append_str(p, "; counter reads and the kit's services by SVC");
	return 1;
}
#endif
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
#if ARCH_USER_ISOLATED
	if (!user_regions(regions))
		bm_config_error("the MPU has fewer than 4 regions: benchmark code cannot have its own memory");
#endif
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
		p = append_range(p, bottom - size, bottom);
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
		p = append_range(p, flash, flash + ro);
		bm_append_str(p, " read-only (FLASH)");
	}
#if ARCH_USER_ISOLATED
	if (!user_regions(regions))
		bm_config_error("the MPU has too few regions for the line between the kit's memory and benchmark "
		                "code's (the benchmarks fact)");
#endif
	REG(MPU_CTRL) = MPU_CTRL_PRIVDEFENA | MPU_CTRL_ENABLE;
	__asm__ volatile("dsb\n\tisb" : : : "memory");
#else
	(void)bottom;
	(void)guard;
	bm_append_str(guard_buf, "none in hardware (ARMv6-M has no MPU here); below RAM a bus error");
#endif
}

#endif /* ARCH_ARMV7M_MPU_GUARD_H */
