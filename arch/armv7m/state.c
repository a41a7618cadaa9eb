/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit sets up of a Cortex-M core that benchmark code (privileged too) can change, kept
 * and put back after every benchmark (bm/port.h, arch_state_restore): the vector table's base,
 * the fault enables and traps, the MPU's enable, the FPU's enable and control (rounding mode,
 * flush-to-zero, default NaN), and SysTick's control and period (the counter and the watchdog). */
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
#endif
#if defined(__ARM_FP)
	MMIO("the FPU's enable (CPACR)", SCB_CPACR, CPACR_FP_FULL),
	BM_STATE_REG("the FP control (FPSCR: rounding mode, flush-to-zero)", fpscr_get, fpscr_put, 0, FPSCR_CONTROL),
#endif
};

BM_STATE_ARCH(regs)
