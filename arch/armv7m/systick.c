/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M SysTick: its start-up probe, the check at boot that its 24-bit count extended to 64
 * bits by the wrap interrupt loses and doubles no wrap, the extended count for the cold path, and
 * the per-benchmark watchdog on its wrap interrupt (struct armv7m_systick_alarm, arch/devices.h;
 * the interrupt itself is in trap.c, the snapshots' reading in arch/arch.h). */
#include <stdint.h>

#include "arch/devices.h"
#include "bm/out.h"
#include "bm/port.h"
#include "internal.h"

struct arch_watchdog arch_watchdog;

/* The start-up's and the wrap test's facts for the meta record (arch_init). */
static char systick_buf[128], wrap_buf[224];

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

/* Starts SysTick: 24-bit period, the processor clock, the wrap interrupt at the lowest
 * priority. 1 when it counts. */
int arch_systick_start(const char **what)
{
	uint32_t csr = 0;
	if (!BM_PROBE(REG(SYST_CSR) = 0))
		return 0;
	REG(SYST_CVR) = 0;
	systick_configure();
	csr = REG(SYST_CSR);
	if (!(csr & SYST_CSR_ENABLE))
		return 0; /* RAZ/WI: not implemented */
	uint32_t v0 = REG(SYST_CVR);
	spin();
	uint32_t v1 = REG(SYST_CVR);
	if (v1 == v0) {
		REG(SYST_CSR) = 0;
		return 0;
	}
	char *p = bm_append_str(systick_buf, (csr & SYST_CSR_CLKSOURCE) ? "counts the processor clock (CLKSOURCE=1)"
	                                                                : "counts the reference clock (CLKSOURCE=0)");
	bm_append_str(p, "; 24 bits, extended to 64 by its wrap interrupt every 2^24 ticks");
	*what = systick_buf;
	return 1;
}

/* Restarts SysTick's count with a first period of `first` ticks: a write to CVR clears it, and
 * it reloads RVR (= first) at the next tick without a wrap; RVR then goes back to the full 24
 * bits, used from the next reload on. The extended count jumps here, so the last reading is
 * forgotten. */
static void systick_restart(uint32_t first)
{
	REG(SYST_RVR) = first;
	REG(SYST_CVR) = 0;
	for (unsigned i = 0; i < 100000u && REG(SYST_CVR) == 0; i++)
		;
	REG(SYST_RVR) = SYST_PERIOD - 1;
	barrier();
	arch_counter.last_lo = 0;
	arch_counter.last_hi = 0;
	barrier();
}

/* Waits until SysTick is at most `ticks_left` ticks before its wrap (bounded). */
static void systick_wait_until(uint32_t ticks_left)
{
	for (unsigned i = 0; i < 1000000u && REG(SYST_CVR) > ticks_left; i++)
		;
}

static uint64_t timed_known_loop(uint64_t *begin)
{
	struct arch_snap a, b;
	arch_snap_begin(&a);
	arch_known_loop();
	arch_snap_end(&b);
	*begin = a.cycles;
	return b.cycles - a.cycles;
}

/* "lo..hi" */
static char *append_range(char *p, uint64_t lo, uint64_t hi)
{
	p = bm_append_u64(p, lo);
	p = bm_append_str(p, "..");
	return bm_append_u64(p, hi);
}

/* The extension across forced wraps, through the snapshots themselves: a fixed region (the
 * known loop) measured far from a wrap (the reference), then once for every tick from 1 to 2x
 * the region's length before a wrap (~110 runs on MPS2; at least 64, at most 1000), so the wrap
 * falls at every tick in and around the region, inside the snapshots too: once per position is
 * enough, as every figure repeats. A lost or doubled wrap shows as an error of 2^24 ticks;
 * otherwise a wrap adds only its interrupt's time. Then once with interrupts masked, so a reading sees the
 * wrap pended but not yet taken. Under QEMU icount every figure repeats exactly. */
int arch_systick_wrap_test(const char **what)
{
	uint32_t saved = arch_counter.source;
	arch_counter.source = ARCH_SRC_SYSTICK;
	barrier();
	uint64_t begin, ref_min = UINT64_MAX, ref_max = 0;
	for (unsigned i = 0; i < 64; i++) {
		systick_restart(SYST_PERIOD - 1);
		systick_wait_until(SYST_PERIOD - 2 - i % 16); /* starting at every phase of a tick */
		uint64_t d = timed_known_loop(&begin);
		ref_min = d < ref_min ? d : ref_min;
		ref_max = d > ref_max ? d : ref_max;
	}
	/* Far enough from the restart that RVR is back at 2^24 before the wrap. */
	uint32_t span = (uint32_t)(2 * ref_max + 8), lead = span + 256;
	uint32_t runs = span < 64 ? 64 : span > 1000 ? 1000 : span;
	uint64_t d_min = UINT64_MAX, d_max = 0;
	unsigned inside = 0, bad = 0;
	for (unsigned i = 0; i < runs; i++) {
		systick_restart(lead);
		uint32_t w0 = arch_counter.wraps;
		systick_wait_until(1 + i * span / runs);
		uint64_t d = timed_known_loop(&begin);
		if (((begin + d) >> SYST_BITS) != (begin >> SYST_BITS))
			inside++;
		/* The wrap's interrupt must run (once) before the next restart. */
		unsigned n = 0;
		while (arch_counter.wraps == w0 && ++n < 1000000u)
			;
		if (arch_counter.wraps != w0 + 1 || d > ref_max + SYST_PERIOD / 2 || d + SYST_PERIOD / 2 < ref_min)
			bad++;
		d_min = d < d_min ? d : d_min;
		d_max = d > d_max ? d : d_max;
	}
	/* Masked: the wrap is pended while the snapshot reads; it must count, once. */
	struct arch_snap a, b, c;
	systick_restart(lead);
	systick_wait_until(8);
	__asm__ volatile("cpsid i" : : : "memory");
	arch_snap_begin(&a);
	for (unsigned i = 0; i < 100000u && REG(SYST_CVR) <= lead; i++)
		;
	arch_snap_end(&b);
	__asm__ volatile("cpsie i\n\tisb" : : : "memory");
	arch_snap_end(&c);
	int masked_ok = b.cycles > a.cycles && b.cycles - a.cycles < SYST_PERIOD / 2 && c.cycles >= b.cycles &&
	                c.cycles - b.cycles < SYST_PERIOD / 2;

	barrier();
	arch_counter.source = saved;
	char *p = bm_append_str(wrap_buf, bad || !masked_ok ? "FAILED: " : "ok: ");
	p = bm_append_u64(p, runs);
	p = bm_append_str(p, " forced wraps (");
	p = bm_append_u64(p, inside);
	p = bm_append_str(p, " inside the timed region): deltas ");
	p = append_range(p, d_min, d_max);
	p = bm_append_str(p, " ticks vs ");
	p = append_range(p, ref_min, ref_max);
	p = bm_append_str(p, " without a wrap; ");
	p = bm_append_u64(p, bad);
	p = bm_append_str(p, " miscounted; a masked wrap ");
	bm_append_str(p, masked_ok ? "counted once" : "MISCOUNTED");
	*what = wrap_buf;
	return !bad && masked_ok;
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
