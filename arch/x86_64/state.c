/* What the kit sets up of an x86_64 core that benchmark code (also ring 0) can change, kept and
 * put back after every benchmark (bm/port.h, arch_state_restore): the interrupt descriptor table,
 * CR0 and CR4 (paging, write protection, the FPU's and SSE's enables), and the x87 and SSE control
 * words (rounding, precision, exception masks). */
#include "arch/x86.h"
#include "bm/port.h"

struct idtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

struct kit_state {
	struct idtr idt;
	uint64_t cr0, cr4;
	uint32_t mxcsr;
	uint16_t fcw;
};
static struct kit_state kit, kit_copy; /* (the copy sealed: bm/port.h, bm_state_seal) */

static struct idtr idt_now(void)
{
	struct idtr r;
	__asm__ volatile("sidt %0" : "=m"(r));
	return r;
}

static uint64_t cr0_now(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	return v;
}

static uint64_t cr4_now(void)
{
	uint64_t v;
	__asm__ volatile("mov %%cr4, %0" : "=r"(v));
	return v;
}

static uint32_t mxcsr_now(void)
{
	uint32_t v;
	__asm__ volatile("stmxcsr %0" : "=m"(v));
	return v & X86_MXCSR_CONTROL;
}

static uint16_t fcw_now(void)
{
	uint16_t v;
	__asm__ volatile("fnstcw %0" : "=m"(v));
	return v;
}

void arch_state_save(void)
{
	kit.idt = idt_now();
	kit.cr0 = cr0_now();
	kit.cr4 = cr4_now();
	kit.mxcsr = mxcsr_now();
	kit.fcw = fcw_now();
	bm_state_seal(&kit, &kit_copy, sizeof kit);
}

#define CHANGED(what) "changed " what " and did not put it back (restored)"

const char *arch_state_restore(void)
{
	const char *first = 0;
	if (!bm_state_intact(&kit, &kit_copy, sizeof kit))
		return bm_state_lost;
	/* (CR0 first: with TS or EM set the x87 and SSE reads below would fault) */
	if (cr0_now() != kit.cr0) {
		first = CHANGED("CR0 (the FPU's and paging's enables)");
		__asm__ volatile("mov %0, %%cr0" : : "r"(kit.cr0) : "memory");
	}
	if (cr4_now() != kit.cr4) {
		first = first ? first : CHANGED("CR4 (SSE's enables, the TSC's access)");
		__asm__ volatile("mov %0, %%cr4" : : "r"(kit.cr4) : "memory");
	}
	struct idtr idt = idt_now();
	if (idt.base != kit.idt.base || idt.limit != kit.idt.limit) {
		first = first ? first : CHANGED("the interrupt descriptor table (IDTR)");
		__asm__ volatile("lidt %0" : : "m"(kit.idt));
	}
	if (mxcsr_now() != kit.mxcsr) {
		first = first ? first : CHANGED("the SSE control (MXCSR: rounding, exception masks)");
		uint32_t m = kit.mxcsr;
		__asm__ volatile("ldmxcsr %0" : : "m"(m));
	}
	if (fcw_now() != kit.fcw) {
		first = first ? first : CHANGED("the x87 control word (rounding, precision)");
		uint16_t w = kit.fcw;
		__asm__ volatile("fldcw %0" : : "m"(w));
	}
	return first;
}
