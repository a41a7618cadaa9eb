/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit sets up of a Cortex-M core that benchmark code (privileged too) can change, kept
 * and put back after every benchmark (bm/port.h, arch_state_restore): the vector table's base,
 * the fault enables and traps, the MPU's enable and its regions (the line between benchmark code
 * and the kit's memory), FAULTMASK (left set, the next fault locks the core up), the FPU's enable
 * and control (rounding mode, flush-to-zero, default NaN), and SysTick's control and period (the
 * counter and the watchdog). */
#include "bm/port.h"
#include "internal.h"

#define SHCSR_KIT_BITS (SCB_SHCSR_MEMFAULTENA | SCB_SHCSR_BUSFAULTENA | SCB_SHCSR_USGFAULTENA)
#define FPSCR_CONTROL 0x07c00000u /* AHP, DN, FZ, RMode (26:22); the rest are flags */

/* A memory-mapped register at r->arg: the kit's bits (mask) put back, the others kept. */
static uintptr_t mmio_get(const struct bm_state_reg *r)
{
	return REG(r->arg);
}

static void mmio_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)now;
	REG(r->arg) = (REG(r->arg) & ~(uint32_t)r->mask) | (uint32_t)kit;
	__asm__ volatile("dsb\n\tisb" : : : "memory");
}
#if defined(__ARM_FP)

static uintptr_t fpscr_get(const struct bm_state_reg *r)
{
	(void)r;
	uint32_t v;
	__asm__ volatile("vmrs %0, fpscr" : "=r"(v));
	return v;
}

static void fpscr_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)now;
	uint32_t all = (uint32_t)fpscr_get(r);
	all = (all & ~FPSCR_CONTROL) | (uint32_t)kit;
	__asm__ volatile("vmsr fpscr, %0" : : "r"(all));
}
#endif

#if MAINLINE
/* The MPU's regions (each one's base and attributes or limit, selected by MPU_RNR: the same
 * addresses on PMSAv7 and PMSAv8) folded into one word; the kit's are kept whole at the first
 * read (arch_state_save, once the MPU is programmed) and written back. */
#define MPU_KEPT_MAX 16u
static uint32_t mpu_kept[MPU_KEPT_MAX][2];
static unsigned mpu_kept_n;

static uintptr_t mpu_regions_get(const struct bm_state_reg *r)
{
	(void)r;
	unsigned n = MPU_TYPE_DREGION(REG(MPU_TYPE));
	n = n < MPU_KEPT_MAX ? n : MPU_KEPT_MAX;
	uint32_t sum = 0;
	for (unsigned i = 0; i < n; i++) {
		REG(MPU_RNR) = i;
		uint32_t base = REG(MPU_RBAR), attr = REG(MPU_RASR);
		if (!mpu_kept_n) {
			mpu_kept[i][0] = base;
			mpu_kept[i][1] = attr;
		}
		sum = (sum << 5 | sum >> 27) ^ base ^ (attr * 0x9e3779b1u);
	}
	mpu_kept_n = mpu_kept_n ? mpu_kept_n : n + 1;
	return sum;
}

static void mpu_regions_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)r;
	(void)kit;
	(void)now;
	for (unsigned i = 0; i + 1 < mpu_kept_n; i++) {
		REG(MPU_RNR) = i;
		REG(MPU_RBAR) = mpu_kept[i][0];
		REG(MPU_RASR) = mpu_kept[i][1];
	}
	__asm__ volatile("dsb\n\tisb" : : : "memory");
}

static uintptr_t faultmask_get(const struct bm_state_reg *r)
{
	(void)r;
	uint32_t v;
	__asm__ volatile("mrs %0, faultmask" : "=r"(v));
	return v;
}

static void faultmask_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)r;
	(void)now;
	__asm__ volatile("msr faultmask, %0" : : "r"((uint32_t)kit) : "memory");
}
#endif

#define MMIO(what, addr, mask) BM_STATE_REG(what, mmio_get, mmio_put, addr, mask)
/* (in this order: the FPU's enable before FPSCR, which cannot be read with the FPU off) */
static const struct bm_state_reg regs[] = {
	MMIO("SysTick's control (SYST_CSR)", SYST_CSR, SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE),
	MMIO("SysTick's period (SYST_RVR)", SYST_RVR, 0xffffffu),
#if MAINLINE
	MMIO("the vector table (VTOR)", SCB_VTOR, 0xffffffffu),
	MMIO("the fault enables (SHCSR)", SCB_SHCSR, SHCSR_KIT_BITS),
	MMIO("the configuration and traps (CCR)", SCB_CCR, 0xffffffffu),
	MMIO("the MPU's control (MPU_CTRL)", MPU_CTRL, 0xffffffffu),
	BM_STATE_REG("the MPU's regions (MPU_RBAR, MPU_RASR/RLAR)", mpu_regions_get, mpu_regions_put, 0, 0xffffffffu),
	BM_STATE_REG("FAULTMASK (every fault but NMI masked: the next one would lock the core up)", faultmask_get,
	             faultmask_put, 0, 1u),
#endif
#if defined(__ARM_FP)
	MMIO("the FPU's enable (CPACR)", SCB_CPACR, CPACR_FP_FULL),
	BM_STATE_REG("the FP control (FPSCR: rounding mode, flush-to-zero)", fpscr_get, fpscr_put, 0, FPSCR_CONTROL),
#endif
};

BM_STATE_ARCH(regs)
