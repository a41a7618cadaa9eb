/* Cortex-M cold path (ARMv6-M, ARMv7-M, ARMv8-M mainline): probe the counters and pick the
 * snapshots' source (DWT_CYCCNT, else SysTick extended to 64 bits, else the board timer), run
 * SysTick with its wrap interrupt (the extension and the watchdog), check the extension across
 * forced wraps, guard the main stack (an MPU no-access region below it, or PSPLIM on ARMv8-M),
 * and turn every exception into a recovered benchmark (trap recovery) or a report in words
 * (HardFault/MemManage/BusFault/UsageFault with CFSR, HFSR, MMFAR and BFAR decoded). */
#include <stddef.h>
#include <stdint.h>

#include "arch/armv7m.h"
#include "arch/devices.h"
#include "bm/out.h"
#include "bm/port.h"

#define REG ARMV7M_REG

#ifdef __thumb2__
#define MAINLINE 1 /* ARMv7-M / ARMv8-M mainline: fault status registers, DWT, MPU, VTOR */
#else
#define MAINLINE 0 /* ARMv6-M / ARMv8-M baseline: HardFault only, no status registers */
#endif

#if defined(__ARM_ARCH_8M_MAIN__) || defined(__ARM_ARCH_8M_BASE__)
#define ARMV8M 1
#else
#define ARMV8M 0
#endif

struct arch_counter arch_counter;

/* The asm in arch/arch.h and start.S addresses these by offset. */
_Static_assert(offsetof(struct arch_counter, wraps) == 4, "arch_counter layout (arch.h asm)");
_Static_assert(offsetof(struct arch_counter, last_lo) == 8, "arch_counter layout (arch.h asm)");
_Static_assert(offsetof(struct arch_counter, last_hi) == 12, "arch_counter layout (arch.h asm)");
_Static_assert(offsetof(struct arch_counter, timer) == 16, "arch_counter layout (arch.h asm)");
_Static_assert(offsetof(struct arch_counter, timer_read) == 20, "arch_counter layout (arch.h asm)");

/* From start.S, semihost.S and linker/common.ld. */
extern char arch_vectors[], arch_semihost_bkpt[], arch_recover_trampoline[];
extern char __data_load[];
extern char __stack_bottom[], __stack_top[], __trap_stack_bottom[], __trap_stack_top[];
extern char __stack_guard_size[], __flash_origin[], __flash_limit[];

#define barrier() __asm__ volatile("" : : : "memory")

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

/* ==== SysTick: the 64-bit extension and the watchdog ======================================== */

static int systick_present;
/* armed holds a magic value, so a benchmark that wrote over .bss does not arm it. */
#define ARMED 0x61726d64u
static struct {
	volatile uint32_t armed;
	uint64_t deadline;     /* in SysTick ticks (the 64-bit count) */
} watchdog;

/* The extended SysTick count: the same algorithm as ARCH_SYSTICK_ASM (arch/arch.h), for the
 * cold path (the watchdog, the wrap test). Thread mode only: it updates the last reading. */
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
	return !systick_present || s->hz < 1000u;
}

#define SYST_CSR_KIT (SYST_CSR_ENABLE | SYST_CSR_TICKINT | SYST_CSR_CLKSOURCE)

/* SysTick as the kit has it: 24-bit period, the processor clock, the wrap interrupt at the lowest
 * priority (CVR left alone: the count goes on). */
static void systick_configure(void)
{
	REG(SYST_RVR) = SYST_PERIOD - 1u;
	REG(SCB_SHPR3) = (REG(SCB_SHPR3) & 0x00ffffffu) | 0xff000000u;
	REG(SYST_CSR) = SYST_CSR_KIT;
}

void armv7m_systick_arm(struct bm_alarm *a, uint32_t ms)
{
	const struct armv7m_systick_alarm *s = (const struct armv7m_systick_alarm *)a;
	if (!systick_present || !s->hz || !ms)
		return;
	/* The watchdog is the SysTick exception: SysTick set up as the kit has it (a benchmark's
	 * setup may have made it an RTOS tick), and interrupts on (one may have left them masked,
	 * cpsid i, which kept every later hang from being stopped), as the other arches' arm does. */
	if (REG(SYST_RVR) != SYST_PERIOD - 1u || (REG(SYST_CSR) & 7u) != SYST_CSR_KIT)
		systick_configure();
#if MAINLINE
	__asm__ volatile("msr basepri, %0" : : "r"(0u));
#endif
	__asm__ volatile("cpsie i" : : : "memory");
	watchdog.armed = 0;
	barrier();
	watchdog.deadline = systick_now() + (uint64_t)ms * (s->hz / 1000u);
	barrier();
	watchdog.armed = ARMED;
}

void armv7m_systick_disarm(struct bm_alarm *a)
{
	(void)a;
	watchdog.armed = 0;
	/* Every NVIC interrupt off and not pending (the kit's watchdog is SysTick, a system exception;
	 * it polls everything else): one a benchmark enabled would otherwise be taken in the next
	 * benchmark, blamed on it. Words past the implemented interrupts ignore the writes. */
	for (unsigned i = 0; i < 16; i++) {
		REG(0xE000E180u + 4u * i) = 0xffffffffu; /* NVIC_ICER */
		REG(0xE000E280u + 4u * i) = 0xffffffffu; /* NVIC_ICPR */
	}
	/* Interrupts back on as soon as the benchmark's code is done, not at the next arm: the
	 * counter's 64-bit extension counts SysTick wraps, and the report between two benchmarks
	 * (a slow UART) can outlast a wrap period. */
#if MAINLINE
	__asm__ volatile("msr basepri, %0" : : "r"(0u));
#endif
	__asm__ volatile("cpsie i" : : : "memory");
}

/* ==== Exceptions ============================================================================== */

struct frame {
	uint32_t r0, r1, r2, r3, r12, lr, pc, xpsr;
};

/* What arch_exception_entry saved on ARMv6-M (start.S), in this order. */
struct saved_regs {
	uint32_t r8, r9, r10, r11, r4, r5, r6, r7;
};

/* Set while a fault is reported, so a fault in the report stops instead of looping. A magic
 * value, not 1: a benchmark that wrote over .bss must not make every later fault look nested. */
#define IN_TRAP 0x696e7472u
static volatile uint32_t in_trap;
static char cause_buf[112];
/* Trap recovery returns to Thread mode through a fresh frame here, never on the faulting stack
 * (which may be the overflowed one); bm_recover() then switches to the harness's own. */
static uint64_t recover_stack[32];

/* Whether an exception frame of 8 words at sp lies on a stack of ours (so it can be read). */
static int frame_readable(uint32_t sp)
{
	uintptr_t lo = (uintptr_t)__stack_bottom, hi = (uintptr_t)__stack_top;
	uintptr_t tlo = (uintptr_t)__trap_stack_bottom, thi = (uintptr_t)__trap_stack_top;
	return (sp % 4 == 0) && ((sp >= lo && sp + sizeof(struct frame) <= hi) ||
	                         (sp >= tlo && sp + sizeof(struct frame) <= thi));
}

/* Thumb: a halfword whose top five bits are 0b11101, 0b11110 or 0b11111 starts a 32-bit one. */
static uint32_t insn_bytes(uint32_t pc)
{
	uint16_t hw = *(const volatile uint16_t *)(uintptr_t)pc;
	return (hw >> 11) >= 0x1d ? 4 : 2;
}

static int pc_in_code(uint32_t pc)
{
	return pc >= (uintptr_t)arch_vectors && pc + 4 <= (uintptr_t)__data_load && pc % 2 == 0;
}

static char *append(char *p, const char *s)
{
	char *end = cause_buf + sizeof cause_buf - 1;
	while (*s && p < end)
		*p++ = *s++;
	*p = '\0';
	return p;
}

#if MAINLINE
static const char *memmanage_cause(uint32_t cfsr)
{
	if ((cfsr & CFSR_DACCVIOL) && (cfsr & CFSR_MSTKERR))
		return "MemManage: data access in an MPU no-access region, and no room to stack the exception frame (stack overflow)";
	if (cfsr & CFSR_MSTKERR)
		return "MemManage: the exception frame could not be stacked (no-access region: stack overflow)";
	if (cfsr & CFSR_MUNSTKERR)
		return "MemManage: the exception frame could not be unstacked";
	if (cfsr & CFSR_MLSPERR)
		return "MemManage: lazy FP state preservation hit a no-access region";
	if (cfsr & CFSR_IACCVIOL)
		return "MemManage: instruction fetch from a no-access or execute-never region";
	if (cfsr & CFSR_DACCVIOL)
		return "MemManage: data access violation (an MPU no-access or read-only region)";
	return 0;
}

static const char *busfault_cause(uint32_t cfsr)
{
	if ((cfsr & CFSR_PRECISERR) && (cfsr & CFSR_STKERR))
		return "BusFault: data bus error, and no room to stack the exception frame (stack overflow?)";
	if (cfsr & CFSR_STKERR)
		return "BusFault: the exception frame could not be stacked (stack overflow?)";
	if (cfsr & CFSR_UNSTKERR)
		return "BusFault: the exception frame could not be unstacked";
	if (cfsr & CFSR_LSPERR)
		return "BusFault: lazy FP state preservation";
	if (cfsr & CFSR_IBUSERR)
		return "BusFault: instruction fetch bus error";
	if (cfsr & CFSR_PRECISERR)
		return "BusFault: precise data bus error (bad address)";
	if (cfsr & CFSR_IMPRECISERR)
		return "BusFault: imprecise data bus error (a buffered write to a bad address)";
	return 0;
}

static const char *usagefault_cause(uint32_t cfsr)
{
	if (cfsr & CFSR_STKOF)
		return "UsageFault: stack overflow (below the stack limit register)";
	if (cfsr & CFSR_UNDEFINSTR)
		return "UsageFault: undefined instruction";
	if (cfsr & CFSR_INVSTATE)
		return "UsageFault: invalid state (a branch to an address without the Thumb bit)";
	if (cfsr & CFSR_INVPC)
		return "UsageFault: invalid PC load (bad EXC_RETURN)";
	if (cfsr & CFSR_NOCP)
		return "UsageFault: coprocessor access (FPU disabled or absent)";
	if (cfsr & CFSR_UNALIGNED)
		return "UsageFault: unaligned access";
	if (cfsr & CFSR_DIVBYZERO)
		return "UsageFault: divide by zero";
	return 0;
}

/* The configurable fault's own register bits; for an escalated HardFault, the first set. */
static const char *cfsr_cause(uint32_t exc, uint32_t cfsr)
{
	if (exc == EXC_MEMMANAGE)
		return memmanage_cause(cfsr);
	if (exc == EXC_BUSFAULT)
		return busfault_cause(cfsr);
	if (exc == EXC_USAGEFAULT)
		return usagefault_cause(cfsr);
	const char *c = usagefault_cause(cfsr);
	if (!c)
		c = busfault_cause(cfsr);
	if (!c)
		c = memmanage_cause(cfsr);
	return c;
}
#endif

static const char *const system_names[16] = {
	"?", "reset", "NMI", "HardFault", "MemManage", "BusFault", "UsageFault", "SecureFault",
	"exception 8", "exception 9", "exception 10", "SVCall", "DebugMonitor", "exception 13",
	"PendSV", "SysTick",
};

/* The cause in words (cause_buf), from the status registers, or on ARMv6-M (which has none)
 * from the instruction at the faulting PC. */
static const char *describe(uint32_t exc, uint32_t cfsr, uint32_t hfsr, const struct frame *fr)
{
	char *p = cause_buf;
	if (exc >= 16) {
		p = append(p, "unexpected interrupt IRQ ");
		char num[BM_FMT_U64_MAX];
		bm_fmt_u64(num, exc - 16);
		append(p, num);
		return cause_buf;
	}
#if MAINLINE
	(void)fr;
	if (exc == EXC_HARDFAULT) {
		if (hfsr & SCB_HFSR_DEBUGEVT)
			return "HardFault: breakpoint or debug event with no debugger (BKPT)";
		if (hfsr & SCB_HFSR_VECTTBL)
			return "HardFault: vector table read error";
		const char *c = cfsr_cause(exc, cfsr);
		if (!c)
			return "HardFault";
		p = append(p, c);
		append(p, (hfsr & SCB_HFSR_FORCED) ? " (escalated to HardFault)" : " (HardFault)");
		return cause_buf;
	}
	if (exc >= EXC_MEMMANAGE && exc <= EXC_USAGEFAULT) {
		const char *c = cfsr_cause(exc, cfsr);
		return c ? c : system_names[exc];
	}
#else
	(void)cfsr;
	(void)hfsr;
	if (exc == EXC_HARDFAULT) {
		if (!fr)
			return "HardFault with an unreadable stack (ARMv6-M: stack overflow or bad SP)";
		if (!pc_in_code(fr->pc))
			return "HardFault: execution at an address outside the code (a bad jump or return)";
		uint16_t hw = *(const volatile uint16_t *)(uintptr_t)fr->pc;
		if ((hw & 0xff00u) == 0xde00u)
			return "HardFault: undefined instruction (UDF)";
		if ((hw & 0xff00u) == 0xbe00u)
			return "HardFault: breakpoint (BKPT) with no debugger";
		return "HardFault (ARMv6-M names no cause: a bus error, an unaligned access or an undefined instruction)";
	}
#endif
	p = append(p, "unexpected exception: ");
	append(p, system_names[exc & 15]);
	return cause_buf;
}

static void report(const struct bm_fault *f, uint32_t cfsr, uint32_t hfsr, uint32_t exc_return)
{
	bm_out_str("\n*** TRAP: ");
	bm_out_str(f->cause);
#if MAINLINE
	bm_out_str(" (CFSR=0x");
	bm_out_hex(cfsr, 8);
	bm_out_str(" HFSR=0x");
	bm_out_hex(hfsr, 8);
	bm_out_str(")");
#else
	(void)cfsr;
	(void)hfsr;
#endif
	bm_out_str(" pc=0x");
	bm_out_hex(f->pc, 8);
	if (f->has_addr) {
		bm_out_str(" addr=0x");
		bm_out_hex(f->addr, 8);
	}
	bm_out_str(" sp=0x");
	bm_out_hex(f->sp, 8);
	bm_out_str((exc_return & EXC_RETURN_THREAD) ? " (from Thread mode)" : " (from Handler mode)");
	bm_out_str("\n*** the run is aborted (exit status 3)\n");
}

#if !MAINLINE
static uint32_t reg_value(unsigned n, const struct frame *fr, const struct saved_regs *regs, uint32_t sp);

/* ARMv6-M names no cause, but the faulting instruction does: for a 16-bit load or store (the only
 * kind ARMv6-M has), the address it used and its size tell an unaligned access (which this
 * profile never allows) from a bus error (nothing answers there). Called for HardFaults with a
 * readable frame whose PC is in the code; sp is the SP before the exception. */
static void v6m_access_fault(struct bm_fault *f, const struct frame *fr, const struct saved_regs *regs, uint32_t sp)
{
	if (!pc_in_code(fr->pc))
		return;
	uint16_t hw = *(const volatile uint16_t *)(uintptr_t)fr->pc;
	uint32_t addr, size;
	int load;
	unsigned rn = (hw >> 3) & 7u, imm5 = (hw >> 6) & 31u;
	if ((hw & 0xf800u) == 0x4800u) { /* LDR (literal) */
		addr = ((fr->pc + 4u) & ~3u) + (hw & 0xffu) * 4u, size = 4, load = 1;
	} else if ((hw & 0xf000u) == 0x5000u) { /* register offset: STR STRH STRB LDRSB LDR LDRH LDRB LDRSH */
		static const uint8_t sizes[8] = {4, 2, 1, 1, 4, 2, 1, 2};
		unsigned op = (hw >> 9) & 7u;
		addr = reg_value(rn, fr, regs, sp) + reg_value((hw >> 6) & 7u, fr, regs, sp);
		size = sizes[op], load = op >= 3;
	} else if ((hw & 0xe000u) == 0x6000u) { /* STR/LDR, STRB/LDRB (immediate) */
		size = (hw & 0x1000u) ? 1 : 4;
		addr = reg_value(rn, fr, regs, sp) + imm5 * size, load = (hw >> 11) & 1u;
	} else if ((hw & 0xf000u) == 0x8000u) { /* STRH/LDRH (immediate) */
		addr = reg_value(rn, fr, regs, sp) + imm5 * 2u, size = 2, load = (hw >> 11) & 1u;
	} else if ((hw & 0xf000u) == 0x9000u) { /* STR/LDR (SP-relative) */
		addr = sp + (hw & 0xffu) * 4u, size = 4, load = (hw >> 11) & 1u;
	} else if ((hw & 0xf000u) == 0xc000u) { /* STM/LDM */
		addr = reg_value((hw >> 8) & 7u, fr, regs, sp), size = 4, load = (hw >> 11) & 1u;
	} else if ((hw & 0xfe00u) == 0xb400u) { /* PUSH */
		unsigned n = 0;
		for (unsigned bit = 0; bit < 9; bit++)
			n += (hw >> bit) & 1u;
		addr = sp - 4u * n, size = 4, load = 0;
	} else if ((hw & 0xfe00u) == 0xbc00u) { /* POP */
		addr = sp, size = 4, load = 1;
	} else {
		return;
	}
	char *p = append(cause_buf, addr % size ? "HardFault: unaligned " : "HardFault: bus error on a ");
	char num[BM_FMT_U64_MAX];
	bm_fmt_u64(num, size);
	p = append(p, num);
	p = append(p, load ? "-byte load" : "-byte store");
	append(p, addr % size ? " (ARMv6-M allows none)" : " (nothing answers at its address)");
	f->cause = cause_buf;
	f->has_addr = 1;
	f->addr = addr;
}

static uint32_t reg_value(unsigned n, const struct frame *fr, const struct saved_regs *regs, uint32_t sp)
{
	switch (n) {
	case 0: return fr->r0;
	case 1: return fr->r1;
	case 2: return fr->r2;
	case 3: return fr->r3;
	case 4: return regs->r4;
	case 5: return regs->r5;
	case 6: return regs->r6;
	case 7: return regs->r7;
	case 8: return regs->r8;
	case 9: return regs->r9;
	case 10: return regs->r10;
	case 11: return regs->r11;
	case 12: return fr->r12;
	case 13: return sp;
	case 14: return fr->lr;
	default: return fr->pc + 4u;
	}
}
#endif

/* Back to Thread mode on a fresh frame whose PC is the trampoline (start.S), which calls
 * bm_recover(). What the benchmark may have left behind is put back: interrupt masks, a pending
 * lazy FP save (its frame is gone), the fault status. */
static uint32_t recover(uint32_t exc_return)
{
#if defined(__ARM_FP)
	REG(FPU_FPCCR) &= ~FPU_FPCCR_LSPACT;
#endif
#if MAINLINE
	__asm__ volatile("msr basepri, %0" : : "r"(0u));
#endif
	__asm__ volatile("cpsie i" : : : "memory");
	struct frame *fr = (struct frame *)(recover_stack + sizeof recover_stack / sizeof recover_stack[0]) - 1;
	*fr = (struct frame){
		.lr = 0xffffffffu,
		.pc = (uint32_t)(uintptr_t)arch_recover_trampoline & ~1u,
		.xpsr = 1u << 24, /* Thumb */
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
	if (in_trap == IN_TRAP)
		halt_forever(); /* a fault while reporting one: the console or exit path is broken */
	if (base && bm_fault_take(f))
		return recover(exc_return);
	in_trap = IN_TRAP;
	report(f, cfsr, hfsr, exc_return);
	bm_board_exit(BM_EXIT_TRAP);
}

/* The watchdog's deadline passed (at a SysTick wrap): the running benchmark is stopped. */
static __attribute__((noinline)) uint32_t timeout(uint32_t exc_return, uint32_t sp)
{
	struct bm_fault f = {.kind = BM_FAULT_TIMEOUT};
	watchdog.armed = 0;
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
	f.pc = fr ? fr->pc : 0;
#if !MAINLINE
	if (exc == EXC_HARDFAULT && fr && regs)
		v6m_access_fault(&f, fr, regs, sp + 32u + ((fr->xpsr & (1u << 9)) ? 4u : 0u));
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
	/* The stack pointer before the exception: above the frame (8 words, 26 with the FP
	 * registers, plus the alignment word); where no frame could be stacked, the SP itself. */
	f.sp = sp;
	if (fr)
		f.sp = sp + ((exc_return & EXC_RETURN_BASIC_FRAME) ? 32u : 104u) + ((fr->xpsr & (1u << 9)) ? 4u : 0u);
#if MAINLINE && ARMV8M
	/* STKOF: an instruction tried to move SP below PSPLIM and was stopped, so SP still looks
	 * fine; what it tried is below the stack, and that is what sp reports. */
	if (cfsr & CFSR_STKOF)
		f.sp = (uintptr_t)__stack_bottom - 4u;
#endif
	/* An interrupt nobody enabled: disable it, so the next benchmark does not meet it again. */
	if (exc >= 16)
		REG(0xE000E180u + 4u * ((exc - 16u) / 32u)) = 1u << ((exc - 16u) % 32u);
	if (exc == EXC_PENDSV)
		REG(SCB_ICSR) = 1u << 27; /* PENDSVCLR */
	return fault(&f, cfsr, hfsr, exc_return);
}

/* Called by arch_exception_entry (start.S) for every exception but reset, on MSP, with the
 * EXC_RETURN it came with and MSP as it was on entry. Returns the EXC_RETURN to leave with. The
 * SysTick wrap, every 2^24 ticks, takes the short way: one more period, the deadline checked. */
uint32_t arch_exception(uint32_t exc_return, uint32_t msp, const struct saved_regs *regs);
uint32_t arch_exception(uint32_t exc_return, uint32_t msp, const struct saved_regs *regs)
{
	uint32_t exc = get_ipsr() & 0x1ffu;
	uint32_t sp = (exc_return & EXC_RETURN_SPSEL) ? get_psp() : msp;
	if (exc == EXC_SYSTICK) {
		uint32_t w = arch_counter.wraps + 1;
		arch_counter.wraps = w;
		if (__builtin_expect(watchdog.armed != ARMED, 1) || ((uint64_t)w << SYST_BITS) < watchdog.deadline)
			return exc_return;
		return timeout(exc_return, sp);
	}
	return other_exception(exc, exc_return, sp, regs);
}

const struct bm_exit arch_semihosting = {.name = "semihosting", .exit = arch_semihost_exit};

/* ==== Probes and start-up ===================================================================== */

static struct bm_kv facts[12]; /* the last stays {0, 0} */
static char cpu_buf[64], systick_buf[128], wrap_buf[224], guard_buf[160];

static struct arch_info info = {
	.isa =
#if defined(__ARM_ARCH_8M_MAIN__)
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
#if defined(__ARM_FP) && defined(__ARM_PCS_VFP)
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

/* ~10^4 instructions: many ticks of SysTick and of any DWT counter. */
static void spin(void)
{
	for (volatile uint32_t i = 0; i < 2000u; i++)
		;
}

static const char *core_name(uint32_t cpuid)
{
	if ((cpuid >> 24) != 0x41)
		return "non-Arm Cortex-M";
	switch ((cpuid >> 4) & 0xfffu) {
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

/* Starts SysTick: 24-bit period, the processor clock, the wrap interrupt at the lowest
 * priority. 1 when it counts. */
static int systick_start(void)
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

/* The extension across forced wraps, through the snapshots themselves: a fixed region (the
 * known loop) measured far from a wrap (the reference), then once for every tick from 1 to 2x
 * the region's length before a wrap (~110 runs on MPS2; at least 64, at most 1000), so the wrap
 * falls at every tick in and around the region, inside the snapshots too. (A fixed 1000 runs
 * visited each position ~9 times and was half a second of every boot under QEMU.) A lost or doubled wrap shows as an error of 2^24 ticks; otherwise a
 * wrap adds only its interrupt's time. Then once with interrupts masked, so a reading sees the
 * wrap pended but not yet taken. Under QEMU icount every figure repeats exactly. */
static int systick_wrap_test(void)
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
	p = bm_append_u64(p, d_min);
	p = bm_append_str(p, "..");
	p = bm_append_u64(p, d_max);
	p = bm_append_str(p, " ticks vs ");
	p = bm_append_u64(p, ref_min);
	p = bm_append_str(p, "..");
	p = bm_append_u64(p, ref_max);
	p = bm_append_str(p, " without a wrap; ");
	p = bm_append_u64(p, bad);
	p = bm_append_str(p, " miscounted; a masked wrap ");
	bm_append_str(p, masked_ok ? "counted once" : "MISCOUNTED");
	return !bad && masked_ok;
}

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
	REG(MPU_RASR) = attrs | ((log2 - 1) << 1) | MPU_RASR_ENABLE;
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
	uint32_t regions = (REG(MPU_TYPE) >> 8) & 0xffu;
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

void arch_init(void)
{
	uint32_t cpuid = REG(SCB_CPUID);
	char *p = bm_append_str(cpu_buf, core_name(cpuid));
	p = bm_append_str(p, " r");
	p = bm_append_u64(p, (cpuid >> 20) & 0xf);
	p = bm_append_str(p, "p");
	p = bm_append_u64(p, cpuid & 0xf);
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

	const char *dwt_what;
	int dwt = dwt_probe(&dwt_what);
	add_fact("dwt_cyccnt", dwt_what);
	systick_present = systick_start();
	add_fact("systick", systick_present ? systick_buf : "absent (does not count)");
	add_fact("instret", "not counted: Cortex-M has no instructions-retired counter");

	if (systick_present) {
		int ok = systick_wrap_test();
		add_fact("systick_wrap_test", wrap_buf);
		if (!ok)
			bm_config_error("the SysTick extension lost or doubled a wrap (see systick_wrap_test)");
	}

	int systick_counts = systick_present;
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
	} else if (board_desc.timer && board_desc.timer->read) {
		arch_counter.source = ARCH_SRC_TIMER;
		arch_counter.timer = board_desc.timer;
		arch_counter.timer_read = board_desc.timer->read;
		info.cycle_unit = "timer_ticks";
		info.cycle_counter = systick_present ? "the board timer (fallback forced by ARCH_ARMV7M_FORCE_TIMER)"
		                                     : "the board timer (fallback: no DWT_CYCCNT, no SysTick)";
	} else {
		bm_config_error("no counter: DWT_CYCCNT and SysTick do not count and the board has no timer");
	}

	stack_guard();
	add_fact("stack_guard", guard_buf);
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}
