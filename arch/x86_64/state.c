/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit sets up of an x86_64 core that benchmark code (also ring 0) can change, kept and
 * put back after every benchmark (bm/port.h, arch_state_restore): the interrupt descriptor table,
 * CR0 and CR4 (paging, write protection, the FPU's and SSE's enables), the x87 and SSE control
 * words (rounding, precision, exception masks), RFLAGS' direction and alignment-check flags (code
 * compiled for the ABI assumes DF clear: a privileged benchmark that leaves it set turns the kit's
 * string copies backwards), and the local APIC's task priority and software enable (either masks
 * the watchdog). The IDT, the GDT and the page tables are read-only to ring 0 too (CR0.WP, above). */
#include "arch/x86.h"
#include "bm/port.h"

struct idtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

/* Which register an entry is (its arg); IDTR is two, its base and its limit, each put back alone. */
enum { R_CR0, R_CR4, R_IDT_BASE, R_IDT_LIMIT, R_MXCSR, R_FCW, R_RFLAGS, R_TPR, R_SVR };

static uintptr_t read_reg(const struct bm_state_reg *r)
{
	uintptr_t v;
	uint32_t m;
	uint16_t w;
	struct idtr idt;
	switch (r->arg) {
	case R_CR0: __asm__ volatile("mov %%cr0, %0" : "=r"(v)); break;
	case R_CR4: __asm__ volatile("mov %%cr4, %0" : "=r"(v)); break;
	case R_IDT_BASE:
	case R_IDT_LIMIT:
		__asm__ volatile("sidt %0" : "=m"(idt));
		v = r->arg == R_IDT_BASE ? idt.base : idt.limit;
		break;
	case R_MXCSR:
		__asm__ volatile("stmxcsr %0" : "=m"(m));
		v = m;
		break;
	case R_RFLAGS: __asm__ volatile("pushfq\n\tpopq %0" : "=r"(v)); break;
	case R_TPR: v = arch_x86_lapic_read(LAPIC_TPR); break;
	case R_SVR: v = arch_x86_lapic_read(LAPIC_SVR); break;
	default:
		__asm__ volatile("fnstcw %0" : "=m"(w));
		v = w;
		break;
	}
	return v;
}

static void write_reg(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)now;
	struct idtr idt;
	uint32_t m = (uint32_t)kit;
	uint16_t w = (uint16_t)kit;
	switch (r->arg) {
	case R_CR0: __asm__ volatile("mov %0, %%cr0" : : "r"(kit) : "memory"); break;
	case R_CR4: __asm__ volatile("mov %0, %%cr4" : : "r"(kit) : "memory"); break;
	case R_IDT_BASE:
	case R_IDT_LIMIT:
		__asm__ volatile("sidt %0" : "=m"(idt));
		if (r->arg == R_IDT_BASE)
			idt.base = kit;
		else
			idt.limit = w;
		__asm__ volatile("lidt %0" : : "m"(idt));
		break;
	case R_MXCSR: __asm__ volatile("ldmxcsr %0" : : "m"(m)); break;
	case R_RFLAGS: /* (the kit's DF and AC; the rest, IF included, as they are) */
		__asm__ volatile("pushq %0\n\tpopfq"
		                 : : "r"((now & ~(uintptr_t)(X86_RFLAGS_DF | X86_RFLAGS_AC)) |
		                         (kit & (X86_RFLAGS_DF | X86_RFLAGS_AC)))
		                 : "memory", "cc");
		break;
	case R_TPR: arch_x86_lapic_write(LAPIC_TPR, (uint32_t)kit); break;
	case R_SVR: arch_x86_lapic_write(LAPIC_SVR, (uint32_t)kit); break;
	default: __asm__ volatile("fldcw %0" : : "m"(w)); break;
	}
}

#define ALL (~(uintptr_t)0)
/* (CR0 first: with TS or EM set the x87 and SSE reads below would fault) */
static const struct bm_state_reg regs[] = {
	BM_STATE_REG("CR0 (the FPU's and paging's enables)", read_reg, write_reg, R_CR0, ALL),
	BM_STATE_REG("CR4 (SSE's enables, the TSC's access)", read_reg, write_reg, R_CR4, ALL),
	BM_STATE_REG("the interrupt descriptor table (IDTR)", read_reg, write_reg, R_IDT_BASE, ALL),
	BM_STATE_REG("the interrupt descriptor table (IDTR)", read_reg, write_reg, R_IDT_LIMIT, ALL),
	BM_STATE_REG("the SSE control (MXCSR: rounding, exception masks)", read_reg, write_reg, R_MXCSR,
	             X86_MXCSR_CONTROL),
	BM_STATE_REG("the x87 control word (rounding, precision)", read_reg, write_reg, R_FCW, ALL),
	BM_STATE_REG("RFLAGS' direction or alignment-check flag (DF, AC)", read_reg, write_reg, R_RFLAGS,
	             X86_RFLAGS_DF | X86_RFLAGS_AC),
	BM_STATE_REG("the local APIC's task priority (TPR: the watchdog's interrupt masked)", read_reg, write_reg, R_TPR,
	             0xffu),
	BM_STATE_REG("the local APIC's software enable (SVR)", read_reg, write_reg, R_SVR, 0x1ffu),
};

BM_STATE_ARCH(regs)
