/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M exceptions: every exception but reset enters arch_exception (from start.S). The
 * SysTick wrap counts a period and checks the watchdog's deadline; a probe resumes after its
 * instruction; any other fault or interrupt becomes a struct bm_fault, recovered (trap recovery:
 * back to Thread mode and bm_recover()) when a benchmark was running, else reported in words
 * (fault_decode.h, v6m_decode.h) and the run ends. */
#include <stdint.h>

#include "bm/port.h"
#include "fault_decode.h"
#include "internal.h"
#include "v6m_decode.h"

static inline uint32_t get_ipsr(void)
{
	uint32_t v;
	__asm__ volatile("mrs %0, ipsr" : "=r"(v));
	return v;
}

static inline uint32_t get_psp(void)
{
	uint32_t v;
	__asm__ volatile("mrs %0, psp" : "=r"(v));
	return v;
}

static void halt_forever(void)
{
	for (;;)
		__asm__ volatile("wfi");
}

/* Trap recovery returns to Thread mode through a fresh frame here, never on the faulting stack
 * (which may be the overflowed one); bm_recover() then switches to the harness's own. */
static uint64_t recover_stack[32];

/* Whether an exception frame of 8 words at sp lies on a stack of ours (so it can be read). */
static int frame_readable(uint32_t sp)
{
	uintptr_t lo = (uintptr_t)__stack_bottom, hi = (uintptr_t)__stack_top;
	uintptr_t tlo = (uintptr_t)__trap_stack_bottom, thi = (uintptr_t)__trap_stack_top;
#if ARCH_USER_ISOLATED
	uintptr_t ulo = (uintptr_t)__user_stack_bottom, uhi = (uintptr_t)__user_stack_top;
	if (sp % 4 == 0 && sp >= ulo && sp + sizeof(struct frame) <= uhi)
		return 1; /* (benchmark code's, on its own stack) */
#endif
	return (sp % 4 == 0) && ((sp >= lo && sp + sizeof(struct frame) <= hi) ||
	                         (sp >= tlo && sp + sizeof(struct frame) <= thi));
}

/* Thumb: a halfword whose top five bits are 0b11101, 0b11110 or 0b11111 starts a 32-bit one. */
static uint32_t insn_bytes(uint32_t pc)
{
	uint16_t hw = *(const volatile uint16_t *)(uintptr_t)pc;
	return (hw >> 11) >= 0x1d ? 4 : 2;
}

/* The report's registers: the fault status (mainline), pc, the fault address where the core
 * latched one, sp, and whether the kit's own code (a handler) faulted. */
static __attribute__((noreturn)) void report(const struct bm_fault *f, uint32_t cfsr, uint32_t hfsr,
                                             uint32_t exc_return)
{
	struct bm_fatal_reg regs[5];
	unsigned n = 0;
#if MAINLINE
	regs[n++] = (struct bm_fatal_reg){" (CFSR=0x", cfsr, 8};
	regs[n++] = (struct bm_fatal_reg){" HFSR=0x", hfsr, 8};
	regs[n++] = (struct bm_fatal_reg){") pc=0x", f->pc, 8};
#else
	(void)cfsr;
	(void)hfsr;
	regs[n++] = (struct bm_fatal_reg){" pc=0x", f->pc, 8};
#endif
	if (f->has_addr)
		regs[n++] = (struct bm_fatal_reg){" addr=0x", f->addr, 8};
	regs[n++] = (struct bm_fatal_reg){" sp=0x", f->sp, 8};
	bm_fatal_trap(f->cause, regs, n,
	              (const char *const[]){(exc_return & EXC_RETURN_THREAD) ? " (from Thread mode)" : " (from Handler mode)",
	                                    0});
}

/* Back to Thread mode on a fresh frame whose PC is the trampoline (start.S), which calls
 * bm_recover(). What the benchmark may have left behind is put back: interrupt masks, a pending
 * lazy FP save (its frame is gone), the fault status. */
static uint32_t recover(uint32_t exc_return)
{
	arch_kit_privilege();
#if ARCH_USER_ISOLATED
	arch_user_ctx.sp = 0; /* (a call into benchmark code ends here, if one was in progress) */
#endif
	irq_unmask_all();
	struct frame *fr = (struct frame *)(recover_stack + sizeof recover_stack / sizeof recover_stack[0]) - 1;
	*fr = (struct frame){
		.lr = 0xffffffffu, /* the trampoline never returns: a return would fault */
		.pc = (uint32_t)(uintptr_t)arch_recover_trampoline & ~1u,
		.xpsr = XPSR_T,
	};
	__asm__ volatile("msr psp, %0\n\tisb" : : "r"(fr) : "memory");
	return exc_return | EXC_RETURN_THREAD | EXC_RETURN_SPSEL | EXC_RETURN_BASIC_FRAME;
}

/* A fault ends here: core takes it (a benchmark was running: recover), or it is reported and the
 * run ends. Recovery needs the exception to have come from Thread mode with nothing else active:
 * a fault inside a handler is the kit's own and ends the run. */
static uint32_t fault(struct bm_fault *f, uint32_t cfsr, uint32_t hfsr, uint32_t exc_return)
{
	int base = (exc_return & EXC_RETURN_THREAD) != 0;
#if MAINLINE
	base = base && (REG(SCB_ICSR) & SCB_ICSR_RETTOBASE);
#endif
	if (bm_fatal_nested())
		halt_forever(); /* a fault while reporting one: the console or exit path is broken */
	if (base && bm_fault_take(f))
		return recover(exc_return);
	report(f, cfsr, hfsr, exc_return);
}

/* The watchdog's deadline passed (at a SysTick wrap): the running benchmark is stopped. */
static __attribute__((noinline)) uint32_t timeout(uint32_t exc_return, uint32_t sp)
{
	struct bm_fault f = {.kind = BM_FAULT_TIMEOUT};
	arch_watchdog.armed = 0;
	f.cause = "watchdog: the benchmark overran its time budget";
	const struct frame *fr = frame_readable(sp) ? (const struct frame *)(uintptr_t)sp : 0;
	f.pc = fr ? fr->pc : 0;
	f.sp = sp;
	return fault(&f, 0, 0, exc_return);
}

/* Every exception but SysTick: a fault, a probe, or an interrupt nobody asked for. */
static __attribute__((noinline)) uint32_t other_exception(uint32_t exc, uint32_t exc_return, uint32_t sp,
                                                          const struct saved_regs *regs)
{
	uint32_t cfsr = 0, hfsr = 0;
	struct bm_fault f = {.kind = BM_FAULT_TRAP};
#if MAINLINE
	cfsr = REG(SCB_CFSR);
	hfsr = REG(SCB_HFSR);
	REG(SCB_CFSR) = cfsr; /* write 1 to clear: the next fault reads its own bits */
	REG(SCB_HFSR) = hfsr;
	uint32_t unusable = CFSR_STACKING | (ARMV8M ? CFSR_STKOF : 0);
	const struct frame *fr = (!(cfsr & unusable) && frame_readable(sp)) ? (const struct frame *)(uintptr_t)sp : 0;
#else
	const struct frame *fr = frame_readable(sp) ? (const struct frame *)(uintptr_t)sp : 0;
#endif
	int sync = exc >= EXC_HARDFAULT && exc <= EXC_USAGEFAULT;

	/* A probe (BM_PROBE) of a register that may not exist: resume after the instruction. */
	if (sync && fr && pc_in_code(fr->pc) && bm_probe_fault()) {
		((struct frame *)(uintptr_t)sp)->pc = fr->pc + insn_bytes(fr->pc);
		return exc_return;
	}
	/* The semihosting BKPT with no debugger (a real board): the end record is out; stop. */
	if (exc == EXC_HARDFAULT && fr && fr->pc == (uintptr_t)arch_semihost_bkpt)
		halt_forever();

	f.cause = describe(exc, cfsr, hfsr, fr);
#if MAINLINE && defined(__ARM_FP)
	/* The FPU turned off (CPACR) by a benchmark, then an FP instruction: the benchmark's, or the
	 * kit's own (hard-float code). On again first, so the recovery and the report can run. */
	if ((cfsr & CFSR_NOCP) && (REG(SCB_CPACR) & CPACR_FP_FULL) != CPACR_FP_FULL) {
		REG(SCB_CPACR) |= CPACR_FP_FULL;
		__asm__ volatile("dsb\n\tisb" : : : "memory");
		f.cause = "FP instruction with the FPU turned off (CPACR CP10/CP11): the kit turned it back on";
	}
#endif
	f.pc = fr ? fr->pc : 0;
#if !MAINLINE
	if (exc == EXC_HARDFAULT && fr && regs)
		v6m_access_fault(&f, fr, regs, sp + FRAME_BASIC_BYTES + ((fr->xpsr & XPSR_FRAME_ALIGNED) ? 4u : 0u));
#else
	(void)regs;
#endif
#if MAINLINE
	f.code = ((uint64_t)hfsr << 32) | cfsr;
	if ((cfsr & CFSR_MMARVALID) && (exc == EXC_MEMMANAGE || !(cfsr & CFSR_BFARVALID))) {
		f.has_addr = 1;
		f.addr = REG(SCB_MMFAR);
	} else if (cfsr & CFSR_BFARVALID) {
		f.has_addr = 1;
		f.addr = REG(SCB_BFAR);
	}
#else
	f.code = exc;
#endif
	/* The stack pointer before the exception: above the frame (and its alignment word); where no
	 * frame could be stacked, the SP itself. */
	f.sp = sp;
	if (fr)
		f.sp = sp + ((exc_return & EXC_RETURN_BASIC_FRAME) ? FRAME_BASIC_BYTES : FRAME_FP_BYTES) +
		       ((fr->xpsr & XPSR_FRAME_ALIGNED) ? 4u : 0u);
#if MAINLINE && ARMV8M
	/* STKOF: an instruction tried to move SP below PSPLIM and was stopped, so SP still looks
	 * fine; what it tried is below the stack, and that is what sp reports. */
	if (cfsr & CFSR_STKOF)
		f.sp = (uintptr_t)__stack_bottom - 4u;
#endif
	/* An interrupt nobody enabled: disable it, so the next benchmark does not meet it again. */
	if (exc >= EXC_IRQ0)
		REG(NVIC_ICER((exc - EXC_IRQ0) / 32u)) = 1u << ((exc - EXC_IRQ0) % 32u);
	if (exc == EXC_PENDSV)
		REG(SCB_ICSR) = SCB_ICSR_PENDSVCLR;
	return fault(&f, cfsr, hfsr, exc_return);
}

/* Called by arch_exception_entry (start.S) for every exception but reset, on MSP, with the
 * EXC_RETURN it came with and MSP as it was on entry. Returns the EXC_RETURN to leave with. The
 * SysTick wrap, every 2^24 ticks, takes the short way: one more period, the deadline checked. */
uint32_t arch_exception(uint32_t exc_return, uint32_t msp, const struct saved_regs *regs);
uint32_t arch_exception(uint32_t exc_return, uint32_t msp, const struct saved_regs *regs)
{
	uint32_t exc = get_ipsr() & IPSR_EXCEPTION;
	uint32_t sp = (exc_return & EXC_RETURN_SPSEL) ? get_psp() : msp;
	if (exc == EXC_SYSTICK) {
		uint32_t w = arch_counter.wraps + 1;
		arch_counter.wraps = w;
		if (__builtin_expect(arch_watchdog.armed != WATCHDOG_ARMED, 1) ||
		    ((uint64_t)w << SYST_BITS) < arch_watchdog.deadline)
			return exc_return;
		return timeout(exc_return, sp);
	}
#if ARCH_USER_ISOLATED
	uint32_t r;
	if (exc == EXC_SVCALL && (r = arch_svc(exc_return, sp)) != 0)
		return r;
#endif
	return other_exception(exc, exc_return, sp, regs);
}
