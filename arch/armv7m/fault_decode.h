/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M fault causes in words: the configurable fault status (CFSR: MMFSR, BFSR, UFSR) and
 * HFSR decoded, or on ARMv6-M, which has no status registers, what the instruction at the
 * faulting PC says. Static functions included by trap.c only, so the handler is one translation
 * unit and the compiler can inline them into it: the handler's instruction count is part of
 * every figure measured after a fault under deterministic QEMU. */
#ifndef ARCH_ARMV7M_FAULT_DECODE_H
#define ARCH_ARMV7M_FAULT_DECODE_H

#include <stdint.h>

#include "bm/out.h"
#include "internal.h"

/* Thumb encodings of the two instructions that fault by design: UDF #imm8 and BKPT #imm8. */
#define THUMB_IMM8_OP 0xff00u
#define THUMB_UDF 0xde00u
#define THUMB_BKPT 0xbe00u

/* One fault at a time: the cause is built here. */
static char cause_buf[112];

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
		return "MemManage: data access the MPU refuses (no access, or the kit's memory to benchmark code), and no room to stack the exception frame (stack overflow)";
	if (cfsr & CFSR_MSTKERR)
		return "MemManage: the exception frame could not be stacked (a region the MPU refuses: stack overflow)";
	if (cfsr & CFSR_MUNSTKERR)
		return "MemManage: the exception frame could not be unstacked";
	if (cfsr & CFSR_MLSPERR)
		return "MemManage: lazy FP state preservation hit a no-access region";
	if (cfsr & CFSR_IACCVIOL)
		return "MemManage: instruction fetch from a no-access or execute-never region";
	if (cfsr & CFSR_DACCVIOL)
		return "MemManage: data access violation (an MPU region that refuses it: no access, read-only, or the kit's memory to benchmark code)";
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
	if (exc >= EXC_IRQ0) {
		p = append(p, "unexpected interrupt IRQ ");
		char num[BM_FMT_U64_MAX];
		bm_fmt_u64(num, exc - EXC_IRQ0);
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
		if ((hw & THUMB_IMM8_OP) == THUMB_UDF)
			return "HardFault: undefined instruction (UDF)";
		if ((hw & THUMB_IMM8_OP) == THUMB_BKPT)
			return "HardFault: breakpoint (BKPT) with no debugger";
		return "HardFault (ARMv6-M names no cause: a bus error, an unaligned access or an undefined instruction)";
	}
#endif
	p = append(p, "unexpected exception: ");
	append(p, system_names[exc & (EXC_IRQ0 - 1)]);
	return cause_buf;
}

#endif /* ARCH_ARMV7M_FAULT_DECODE_H */
