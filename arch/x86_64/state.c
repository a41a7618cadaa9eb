/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit sets up of an x86_64 core that benchmark code (also ring 0) can change, kept and
 * put back after every benchmark (bm/port.h, arch_state_restore): the interrupt descriptor table,
 * CR0 and CR4 (paging, write protection, the FPU's and SSE's enables), the x87 and SSE control
 * words (rounding, precision, exception masks), RFLAGS' direction and alignment-check flags (code
 * compiled for the ABI assumes DF clear: a privileged benchmark that leaves it set turns the kit's
 * string copies backwards), and the local APIC's task priority and software enable (either masks
 * the watchdog). The tables themselves (the page tables, the IDT, the GDT and the TSS) are
 * read-only to ring 0 too (CR0.WP, above), and which ones CR3 points to is kept; a benchmark that
 * clears WP, writes them and sets it again leaves the dirty bit set in the entry of the page it
 * wrote: only then are they compared with the kit's copy, and put back. */
#include "arch/arch.h"
#include "bm/port.h"

struct idtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

/* Which register an entry is (its arg); IDTR is two, its base and its limit, each put back alone. */
enum { R_CR0, R_CR3, R_CR4, R_IDT_BASE, R_IDT_LIMIT, R_MXCSR, R_FCW, R_RFLAGS, R_TPR, R_SVR };

static uintptr_t read_reg(const struct bm_state_reg *r)
{
	uintptr_t v;
	uint32_t m;
	uint16_t w;
	struct idtr idt;
	switch (r->arg) {
	case R_CR0: __asm__ volatile("mov %%cr0, %0" : "=r"(v)); break;
	case R_CR3: __asm__ volatile("mov %%cr3, %0" : "=r"(v)); break;
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
	case R_CR3: __asm__ volatile("mov %0, %%cr3" : : "r"(kit) : "memory"); break;
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

/* start.S's .x86tables, page by page: the PML4, the PDPT, 4 PDs, the page tables of the blocks
 * with 4 KiB pages (paging.c), the IDT, then the GDT with the TSS; all in one 2 MiB block of
 * 4 KiB pages (boards/qemu-x86_64/memory.ld), their entries side by side in its page table. */
#define PAGE_BYTES 4096u
#define PAGE_WORDS 512u
#define BLOCK_BYTES (PAGE_WORDS * PAGE_BYTES)
#define PAGING_PAGES (6u + X86_PT_BLOCKS)
#define TABLE_PAGES X86_TABLE_PAGES
#define PAGES(lo, hi) ((lo) << 8 | (hi)) /* an entry's arg: its pages lo..hi-1 */
extern uint64_t arch_x86_pt[X86_PT_BLOCKS][PAGE_WORDS];
extern char __flash_origin[];

/* The kit's copy (paging.c's, before the tables went read-only; in FLASH, out of the kit's .bss);
 * at the first read (arch_state_save) the dirty bits are cleared. */
uint64_t arch_x86_tables_kept[X86_TABLE_PAGES * 512] __attribute__((section(".ro_after_init"), aligned(8)));
static uint8_t tables_clean_once;

static volatile uint64_t *table_entry(unsigned page)
{
	uintptr_t a = (uintptr_t)arch_x86_tables + page * PAGE_BYTES;
	return &arch_x86_pt[a / BLOCK_BYTES - (uintptr_t)__flash_origin / BLOCK_BYTES][a / PAGE_BYTES % PAGE_WORDS];
}

static void write_protect(int on)
{
	uintptr_t v;
	__asm__ volatile("mov %%cr0, %0" : "=r"(v));
	v = on ? v | X86_CR0_WP : v & ~(uintptr_t)X86_CR0_WP;
	__asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory");
}

/* Clears every table page's dirty bit, twice (the first store into the page table that holds the
 * entries sets its own entry's, which the second pass clears), then drops the TLB, which
 * remembers a page dirty: the next write to any of them sets its bit again. */
static void tables_clean(void)
{
	write_protect(0);
	for (unsigned pass = 0; pass < 2; pass++)
		for (unsigned i = 0; i < TABLE_PAGES; i++)
			*table_entry(i) &= ~X86_PTE_D;
	write_protect(1);
	__asm__ volatile("mov %%cr3, %%rax\n\tmov %%rax, %%cr3" : : : "rax", "memory");
}

/* What the CPU itself writes into paging entries (accessed, dirty) is no change of the kit's. */
static uint64_t word_mask(unsigned w)
{
	return w < PAGING_PAGES * PAGE_WORDS ? ~(X86_PTE_A | X86_PTE_D) : ~(uint64_t)0;
}

/* 0 while the entry's pages are as the kit's copy (their dirty bits clear: not written at all),
 * else 1 + the first word that differs. */
static uintptr_t tables_get(const struct bm_state_reg *r)
{
	const uint64_t *t = arch_x86_tables;
	unsigned lo = (unsigned)r->arg >> 8, hi = (unsigned)r->arg & 0xffu;
	if (!tables_clean_once) {
		tables_clean();
		tables_clean_once = 1;
	}
	uint64_t dirty = 0;
	for (unsigned i = lo; i < hi; i++)
		dirty |= *table_entry(i);
	if (!(dirty & X86_PTE_D))
		return 0;
	for (unsigned w = lo * PAGE_WORDS; w < hi * PAGE_WORDS; w++)
		if ((t[w] ^ arch_x86_tables_kept[w]) & word_mask(w))
			return 1 + w;
	tables_clean(); /* (written, but as it was) */
	return 0;
}

static void tables_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)kit;
	(void)now;
	volatile uint64_t *t = arch_x86_tables;
	unsigned lo = (unsigned)r->arg >> 8, hi = (unsigned)r->arg & 0xffu;
	write_protect(0);
	for (unsigned w = lo * PAGE_WORDS; w < hi * PAGE_WORDS; w++)
		if ((t[w] ^ arch_x86_tables_kept[w]) & word_mask(w))
			t[w] = arch_x86_tables_kept[w];
	write_protect(1);
	tables_clean();
}

#define ALL (~(uintptr_t)0)
/* (CR0 first: with TS or EM set the x87 and SSE reads below would fault) */
static const struct bm_state_reg regs[] = {
	BM_STATE_REG("CR0 (the FPU's and paging's enables)", read_reg, write_reg, R_CR0, ALL),
	BM_STATE_REG("CR4 (SSE's enables, the TSC's access)", read_reg, write_reg, R_CR4, ALL),
	BM_STATE_REG("the page tables' root (CR3)", read_reg, write_reg, R_CR3, ALL),
	BM_STATE_REG("the page tables (a page's rights or address)", tables_get, tables_put,
	             PAGES(0u, PAGING_PAGES), ALL),
	BM_STATE_REG("the interrupt descriptor table (IDTR)", read_reg, write_reg, R_IDT_BASE, ALL),
	BM_STATE_REG("the interrupt descriptor table (IDTR)", read_reg, write_reg, R_IDT_LIMIT, ALL),
	BM_STATE_REG("the interrupt descriptor table's gates (a handler replaced)", tables_get, tables_put,
	             PAGES(PAGING_PAGES, PAGING_PAGES + 1u), ALL),
	BM_STATE_REG("the GDT or the TSS (the segments, the trap stack)", tables_get, tables_put,
	             PAGES(PAGING_PAGES + 1u, TABLE_PAGES), ALL),
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
