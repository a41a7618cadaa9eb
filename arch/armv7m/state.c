/* What the kit sets up of a Cortex-M core that benchmark code (privileged too) can change, kept
 * and put back after every benchmark (bm/port.h, arch_state_restore): the vector table's base,
 * the fault enables and traps, the MPU's enable, the FPU's enable and control (rounding mode,
 * flush-to-zero, default NaN), and SysTick's control and period (the counter and the watchdog). */
#include "bm/port.h"
#include "internal.h"

#define SHCSR_KIT_BITS (SCB_SHCSR_MEMFAULTENA | SCB_SHCSR_BUSFAULTENA | SCB_SHCSR_USGFAULTENA)
#define FPSCR_CONTROL 0x07c00000u /* AHP, DN, FZ, RMode (26:22); the rest are flags */

#define CHANGED(what) "changed " what " and did not put it back (restored)"

struct reg {
	const char *reason;
	uint32_t addr, mask;
};

static const struct reg regs[] = {
	{CHANGED("SysTick's control (SYST_CSR)"), SYST_CSR, SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE},
	{CHANGED("SysTick's period (SYST_RVR)"), SYST_RVR, 0xffffffu},
#if MAINLINE
	{CHANGED("the vector table (VTOR)"), SCB_VTOR, 0xffffffffu},
	{CHANGED("the fault enables (SHCSR)"), SCB_SHCSR, SHCSR_KIT_BITS},
	{CHANGED("the configuration and traps (CCR)"), SCB_CCR, 0xffffffffu},
	{CHANGED("the MPU's control (MPU_CTRL)"), MPU_CTRL, 0xffffffffu},
#endif
#if defined(__ARM_FP)
	{CHANGED("the FPU's enable (CPACR)"), SCB_CPACR, CPACR_FP_FULL},
#endif
};
#define N_REGS (sizeof regs / sizeof regs[0])

struct kit_state {
	uint32_t reg[N_REGS];
	uint32_t fpscr;
};
static struct kit_state k, k_copy; /* (the copy sealed: bm/port.h, bm_state_seal) */
#if defined(__ARM_FP)

static uint32_t fpscr_now(void)
{
	uint32_t v;
	__asm__ volatile("vmrs %0, fpscr" : "=r"(v));
	return v & FPSCR_CONTROL;
}
#endif

void arch_state_save(void)
{
	for (unsigned i = 0; i < N_REGS; i++)
		k.reg[i] = REG(regs[i].addr) & regs[i].mask;
#if defined(__ARM_FP)
	k.fpscr = fpscr_now();
#endif
	bm_state_seal(&k, &k_copy, sizeof k);
}

const char *arch_state_restore(void)
{
	const char *first = 0;
	if (!bm_state_intact(&k, &k_copy, sizeof k))
		return bm_state_lost;
	/* (in this order: the FPU's enable before FPSCR, which cannot be read with the FPU off) */
	for (unsigned i = 0; i < N_REGS; i++) {
		uint32_t v = REG(regs[i].addr) & regs[i].mask;
		if (v == k.reg[i])
			continue;
		first = first ? first : regs[i].reason;
		REG(regs[i].addr) = (REG(regs[i].addr) & ~regs[i].mask) | k.reg[i];
		__asm__ volatile("dsb\n\tisb" : : : "memory");
	}
#if defined(__ARM_FP)
	if (fpscr_now() != k.fpscr) {
		first = first ? first : CHANGED("the FP control (FPSCR: rounding mode, flush-to-zero)");
		uint32_t all;
		__asm__ volatile("vmrs %0, fpscr" : "=r"(all));
		all = (all & ~FPSCR_CONTROL) | k.fpscr;
		__asm__ volatile("vmsr fpscr, %0" : : "r"(all));
	}
#endif
	return first;
}
