/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M start-up (ARMv6-M, ARMv7-M, ARMv8-M): probe the core and its counters, start SysTick
 * and check its 64-bit extension across forced wraps, pick the snapshots' source (DWT_CYCCNT,
 * else SysTick extended to 64 bits, else the board timer), and turn on the stack guard and, where
 * benchmark code runs unprivileged, the line between its memory and the kit's (mpu_guard.h).
 * SysTick's extension and watchdog are in systick.c, the exceptions in trap.c. */
#include <stddef.h>
#include <stdint.h>

#include "arch/devices.h"
#include "bm/out.h"
#include "bm/port.h"
#include "internal.h"
#include "mpu_guard.h"

const struct bm_exit arch_semihosting = {.name = "semihosting", .exit = arch_semihost_exit};

/* Defined in arch_init's translation unit, which writes them: the compiler then generates
 * arch_init as for objects of its own (its instruction count sets the SysTick phase of every
 * later figure under deterministic QEMU). */
struct arch_counter arch_counter;
int arch_systick_present;

/* The asm in arch/arch.h and start.S addresses these by offset. */
_Static_assert(offsetof(struct arch_counter, wraps) == 4, "arch_counter layout (arch.h asm)");
_Static_assert(offsetof(struct arch_counter, last_lo) == 8, "arch_counter layout (arch.h asm)");
_Static_assert(offsetof(struct arch_counter, last_hi) == 12, "arch_counter layout (arch.h asm)");
_Static_assert(offsetof(struct arch_counter, timer) == 16, "arch_counter layout (arch.h asm)");
_Static_assert(offsetof(struct arch_counter, timer_read) == 20, "arch_counter layout (arch.h asm)");

static struct bm_kv facts[16]; /* the last stays {0, 0} */
static char cpu_buf[64];

static struct arch_info info = {
	.isa =
#if defined(__ARM_FEATURE_MVE) /* (GCC 12 names ARMv8.1-M 8M_MAIN too; only 8.1-M has MVE) */
	    "armv8.1-m.main"
#elif defined(__ARM_ARCH_8M_MAIN__)
	    "armv8-m.main"
#elif defined(__ARM_ARCH_8M_BASE__)
	    "armv8-m.base"
#elif defined(__ARM_ARCH_7EM__)
	    "armv7e-m"
#elif defined(__ARM_ARCH_7M__)
	    "armv7-m"
#else
	    "armv6-m"
#endif
#if defined(__ARM_FEATURE_MVE) && (__ARM_FEATURE_MVE & 2)
	    "+mve.fp"
#elif defined(__ARM_FEATURE_MVE)
	    "+mve"
#endif
#if defined(__ARM_FP) && (__ARM_FP & 8) && defined(__ARM_PCS_VFP)
	    "+fp.dp (Thumb-2, hard-float ABI)",
#elif defined(__ARM_FP) && (__ARM_FP & 8)
	    "+fp.dp (Thumb-2, soft-float ABI)",
#elif defined(__ARM_FP) && defined(__ARM_PCS_VFP)
	    "+fp (Thumb-2, hard-float ABI)",
#elif defined(__ARM_FP)
	    "+fp (Thumb-2, soft-float ABI)",
#elif MAINLINE
	    " (Thumb-2)",
#else
	    " (Thumb)",
#endif
	.cycle_counter = "none",
	.instret_counter = 0,
	.facts = facts,
};

static void add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof facts[0], key, value);
}

static const char *core_name(uint32_t cpuid)
{
	if (SCB_CPUID_IMPLEMENTER(cpuid) != CPUID_IMPLEMENTER_ARM)
		return "non-Arm Cortex-M";
	switch (SCB_CPUID_PARTNO(cpuid)) {
	case 0xc20: return "Cortex-M0";
	case 0xc60: return "Cortex-M0+";
	case 0xc21: return "Cortex-M1";
	case 0xc23: return "Cortex-M3";
	case 0xc24: return "Cortex-M4";
	case 0xc27: return "Cortex-M7";
	case 0xd20: return "Cortex-M23";
	case 0xd21: return "Cortex-M33";
	case 0xd22: return "Cortex-M55";
	case 0xd23: return "Cortex-M85";
	default: return "Arm Cortex-M";
	}
}

#if MAINLINE
/* What a real core of these has that a model may not: caches (Cortex-M7, M55, M85: CLIDR says
 * which levels exist) and the ARMv8.1-M PMU (M55, M85: PMU_TYPE). The kit turns neither on nor
 * counts with the PMU; the facts say what is there and how the start-up found it. */
static void optional_units(uint32_t cpuid)
{
	static char caches_buf[96], pmu_buf[80];
	uint32_t part = SCB_CPUID_PARTNO(cpuid);
	if (SCB_CPUID_IMPLEMENTER(cpuid) != CPUID_IMPLEMENTER_ARM)
		return;
	if (part != CPUID_PART_CORTEX_M7 && part != CPUID_PART_CORTEX_M55 && part != CPUID_PART_CORTEX_M85)
		return;
	uint32_t clidr = REG(SCB_CLIDR), ccr = REG(SCB_CCR);
	if (!clidr) {
		add_fact("caches", "none here (CLIDR reads 0: QEMU models no caches; the real core may have I and D caches)");
	} else {
		char *p = bm_append_str(caches_buf, (ccr & SCB_CCR_IC) ? "I-cache on, " : "I-cache off, ");
		p = bm_append_str(p, (ccr & SCB_CCR_DC) ? "D-cache on" : "D-cache off");
		p = bm_append_str(p, ", as the start-up found them (CLIDR=");
		p = bm_append_hex(p, clidr, 8);
		bm_append_str(p, ")");
		add_fact("caches", caches_buf);
	}
	if (part == CPUID_PART_CORTEX_M7)
		return;
	uint32_t type = REG(PMU_TYPE);
	if (!type) {
		add_fact("pmu", "none here (PMU_TYPE reads 0: QEMU models no PMU; the real core has one)");
	} else {
		char *p = bm_append_str(pmu_buf, "present (PMU_TYPE=");
		p = bm_append_hex(p, type, 8);
		bm_append_str(p, "), not used: the kit counts with DWT_CYCCNT or SysTick");
		add_fact("pmu", pmu_buf);
	}
}
#endif

#if ARMV8M
/* The Security Extension, and whether the kit runs Secure (as reset leaves a core that has it):
 * only Secure state reads the SCS's Non-secure alias. */
static const char *security_state(uint32_t cpuid)
{
	if (!ID_PFR1_SECURITY(REG(SCB_ID_PFR1)))
		return "no Security Extension";
	uint32_t ns_cpuid = 0;
	if (BM_PROBE(ns_cpuid = REG(SCB_CPUID_NS)) && ns_cpuid == cpuid)
		return (REG(SAU_CTRL) & SAU_CTRL_ENABLE) ? "Secure state (the SAU is on: the board's attribution)"
		                                         : "Secure state, SAU off: every address is Secure";
	return "Non-secure state (a Secure firmware started the kit)";
}
#endif

/* 1: DWT_CYCCNT counts (enabled). ARMv6-M has no cycle counter. */
static int dwt_probe(const char **what)
{
#if MAINLINE
	uint32_t ctrl = 0, c0 = 0, c1 = 0;
	int ok = BM_PROBE(REG(DCB_DEMCR) |= DCB_DEMCR_TRCENA);
	ok = ok && BM_PROBE(REG(DWT_LAR) = DWT_LAR_KEY); /* Cortex-M7: unlock the DWT */
	ok = ok && BM_PROBE(ctrl = REG(DWT_CTRL));
	if (!ok) {
		*what = "not accessible (the access faults)";
		return 0;
	}
	if (ctrl & DWT_CTRL_NOCYCCNT) {
		*what = "not implemented (DWT_CTRL.NOCYCCNT)";
		return 0;
	}
	REG(DWT_CYCCNT) = 0;
	REG(DWT_CTRL) = ctrl | DWT_CTRL_CYCCNTENA;
	c0 = REG(DWT_CYCCNT);
	spin();
	c1 = REG(DWT_CYCCNT);
	if (c1 == c0) {
		*what = "does not advance (enabled with DEMCR.TRCENA and DWT_CTRL.CYCCNTENA; QEMU does not model it)";
		return 0;
	}
	*what = "counts core cycles";
	return 1;
#else
	*what = "absent (ARMv6-M has no DWT cycle counter)";
	return 0;
#endif
}

void arch_init(void)
{
	uint32_t cpuid = REG(SCB_CPUID);
	char *p = bm_append_str(cpu_buf, core_name(cpuid));
	p = bm_append_str(p, " r");
	p = bm_append_u64(p, SCB_CPUID_VARIANT(cpuid));
	p = bm_append_str(p, "p");
	p = bm_append_u64(p, SCB_CPUID_REVISION(cpuid));
	p = bm_append_str(p, " (CPUID ");
	p = bm_append_hex(p, cpuid, 8);
	bm_append_str(p, ")");
	add_fact("cpu", cpu_buf);
	add_fact("mode", "privileged Thread mode on PSP (the main stack); handlers on MSP (the trap stack)");
#if MAINLINE
	/* Faults get their own handlers (else everything escalates to HardFault), and an integer
	 * division by zero traps instead of giving 0. */
	REG(SCB_SHCSR) |= SCB_SHCSR_MEMFAULTENA | SCB_SHCSR_BUSFAULTENA | SCB_SHCSR_USGFAULTENA;
	REG(SCB_CCR) |= SCB_CCR_DIV_0_TRP;
	__asm__ volatile("dsb\n\tisb" : : : "memory");
	add_fact("faults", "MemManage, BusFault, UsageFault enabled; divide by zero traps");
#else
	add_fact("faults", "HardFault only (ARMv6-M)");
#endif
#if defined(__ARM_FP)
	add_fact("fpu", __ARM_FP & 8 ? "single and double precision, on (CPACR CP10/CP11), lazy stacking"
	                             : "single precision, on (CPACR CP10/CP11), lazy stacking");
#endif
#if ARMV8M
	add_fact("security", security_state(cpuid));
#endif
#if MAINLINE
	optional_units(cpuid);
#endif

	const char *dwt_what;
	int dwt = dwt_probe(&dwt_what);
	add_fact("dwt_cyccnt", dwt_what);
	const char *what;
	arch_systick_present = arch_systick_start(&what);
	add_fact("systick", arch_systick_present ? what : "absent (does not count)");
	add_fact("instret", "not counted: Cortex-M has no instructions-retired counter");

	if (arch_systick_present) {
		int ok = arch_systick_wrap_test(&what);
		add_fact("systick_wrap_test", what);
		if (!ok)
			bm_config_error("the SysTick extension lost or doubled a wrap (see systick_wrap_test)");
	}

	int systick_counts = arch_systick_present;
	struct bm_timer *timer;
#ifdef ARCH_ARMV7M_FORCE_TIMER
	/* Test hook: the board-timer fallback (the real nRF51's path) where DWT or SysTick work. */
	dwt = systick_counts = 0;
#endif
	if (dwt) {
		arch_counter.source = ARCH_SRC_DWT;
		info.cycle_counter = "DWT_CYCCNT (core cycles)";
	} else if (systick_counts) {
		arch_counter.source = ARCH_SRC_SYSTICK;
		info.cycle_unit = "systick_ticks";
		info.cycle_counter = MAINLINE ? "SysTick extended to 64 bits (fallback: DWT_CYCCNT does not count)"
		                              : "SysTick extended to 64 bits (ARMv6-M: no DWT cycle counter)";
	} else if ((timer = bm_port_timer())) {
		arch_counter.source = ARCH_SRC_TIMER;
		arch_counter.timer = timer;
		arch_counter.timer_read = timer->read;
		info.cycle_unit = "timer_ticks";
		info.cycle_counter = arch_systick_present ? "the board timer (fallback forced by ARCH_ARMV7M_FORCE_TIMER)"
		                                          : "the board timer (fallback: no DWT_CYCCNT, no SysTick)";
	} else {
		bm_config_error("no counter: DWT_CYCCNT and SysTick do not count and the board has no timer");
	}

	stack_guard();
	add_fact("stack_guard", guard_buf);
#if ARCH_USER_ISOLATED
	add_fact("benchmarks", user_buf[0] ? user_buf
	                                   : "unprivileged Thread mode on PSP, on their own stack; detection only, not "
	                                     "isolated (no MPU): the kit's memory is theirs to write");
#else
	/* (a core without an MPU, ARMv6-M's here: the kit's memory is theirs to write) */
	add_fact("benchmarks", "privileged Thread mode on the kit's stack; detection only, not isolated (ARMv6-M, no MPU): "
	                       "a write into the kit's memory is detected (guard words, the band above their frames, the "
	                       "checks after each benchmark), not prevented");
#endif
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
