/* Cortex-M SysTick, its 24-bit count extended to 64 bits for the cold path, and the
 * per-benchmark watchdog on its wrap interrupt (struct armv7m_systick_alarm, arch/devices.h; the
 * interrupt itself is in trap.c, the snapshots' reading in arch/arch.h). */
#include <stdint.h>

#include "arch/devices.h"
#include "bm/port.h"
#include "internal.h"

struct arch_watchdog arch_watchdog;

/* The extended SysTick count: the same algorithm as ARCH_SYSTICK_ASM (arch/arch.h), for the
 * watchdog's deadline. Thread mode only: it updates the last reading. */
static uint64_t systick_now(void)
{
	uint32_t w, c, p;
	do {
		w = arch_counter.wraps;
		c = REG(SYST_CVR);
		p = REG(SCB_ICSR);
	} while (w != arch_counter.wraps);
	uint32_t phase = (0u - c) & (SYST_PERIOD - 1);
	if ((p & SCB_ICSR_PENDSTSET) && phase < SYST_PERIOD / 2)
		w++;
	uint64_t v = ((uint64_t)w << SYST_BITS) | phase;
	uint64_t last = ((uint64_t)arch_counter.last_hi << 32) | arch_counter.last_lo;
	if (v < last)
		v += SYST_PERIOD;
	arch_counter.last_lo = (uint32_t)v;
	arch_counter.last_hi = (uint32_t)(v >> 32);
	return v;
}

/* Nonzero (no watchdog) where SysTick does not count, or the board gave no rate. */
int armv7m_systick_alarm_init(struct bm_alarm *a)
{
	const struct armv7m_systick_alarm *s = (const struct armv7m_systick_alarm *)a;
	return !arch_systick_present || s->hz < 1000u;
}

void armv7m_systick_arm(struct bm_alarm *a, uint32_t ms)
{
	const struct armv7m_systick_alarm *s = (const struct armv7m_systick_alarm *)a;
	if (!arch_systick_present || !s->hz || !ms)
		return;
	/* The watchdog is the SysTick exception: SysTick set up as the kit has it (a benchmark's
	 * setup may have made it an RTOS tick), and interrupts on (one may have left them masked,
	 * cpsid i, and no later hang could then be stopped), as the other arches' arm does. */
	if (REG(SYST_RVR) != SYST_PERIOD - 1u || (REG(SYST_CSR) & SYST_CSR_KIT) != SYST_CSR_KIT)
		systick_configure();
	irq_unmask_all();
	arch_watchdog.armed = 0;
	barrier();
	arch_watchdog.deadline = systick_now() + (uint64_t)ms * (s->hz / 1000u);
	barrier();
	arch_watchdog.armed = WATCHDOG_ARMED;
}

void armv7m_systick_disarm(struct bm_alarm *a)
{
	(void)a;
	arch_watchdog.armed = 0;
	/* Every NVIC interrupt off and not pending (the kit's watchdog is SysTick, a system exception;
	 * it polls everything else): one a benchmark enabled would otherwise be taken in the next
	 * benchmark, blamed on it. */
	for (unsigned i = 0; i < NVIC_WORDS; i++) {
		REG(NVIC_ICER(i)) = 0xffffffffu;
		REG(NVIC_ICPR(i)) = 0xffffffffu;
	}
	/* Interrupts back on as soon as the benchmark's code is done, not at the next arm: the
	 * counter's 64-bit extension counts SysTick wraps, and the report between two benchmarks
	 * (a slow UART) can outlast a wrap period. */
	irq_unmask_all();
}
