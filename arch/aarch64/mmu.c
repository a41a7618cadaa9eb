/* AArch64 identity map (see arch/mmu.h): 4 KiB granule, T0SZ = 32 (4 GiB of VA starting at
 * level 1), one level-2 table per GiB, 2 MiB blocks from the board's memory map, and 4 KiB pages
 * in the blocks that hold FLASH or the stack guard: FLASH read-only (a stray store, e.g. a stack
 * frame far below the stack, faults instead of rewriting code), the guard below the stack not
 * mapped at all. On real cores the MMU is also what makes RAM cacheable (with it off, every data
 * access is Device memory: no caches, and an unaligned access faults), so cycle counts measured
 * without it would say little about the core. */
#include <stdint.h>

#include "arch/arch.h"
#include "arch/mmu.h"
#include "bm/port.h"

#define BLOCK_SHIFT 21
#define BLOCK_SIZE (1ull << BLOCK_SHIFT)
#define PAGE_SIZE 4096ull
#define VA_LIMIT (1ull << 32)
#define N_PAGE_TABLES 4

/* MAIR_EL1 attribute indexes. */
#define ATTR_DEVICE_nGnRE 1
#define ATTR_NORMAL_WB 2
#define MAIR_VALUE (MAIR_ATTR(ATTR_DEVICE_nGnRE, MAIR_DEVICE_nGnRE) | MAIR_ATTR(ATTR_NORMAL_WB, MAIR_NORMAL_WB))

/* TCR_EL1: 4 GiB of VA, table walks inner/outer write-back cacheable and inner shareable, 4 KiB
 * granule, TTBR1 walks disabled, 32-bit physical addresses (IPS 0): both boards fit. */
#define TCR_VALUE (TCR_T0SZ(32) | TCR_IRGN0_WB | TCR_ORGN0_WB | TCR_SH0_INNER | TCR_TG0_4K | TCR_EPD1)

extern char __flash_origin[], __flash_limit[], __stack_bottom[], __stack_guard_size[];

/* Written before the MMU is on, then read-only (linker/common.ld .ro_after_init): a benchmark
 * that writes over RAM cannot take the translation tables with it. Every entry is written. */
#define RO_AFTER_INIT __attribute__((section(".ro_after_init"), aligned(4096)))
static uint64_t l1_table[512] RO_AFTER_INIT;
static uint64_t l2_tables[4][512] RO_AFTER_INIT;
static uint64_t l3_tables[N_PAGE_TABLES][512] RO_AFTER_INIT;

/* The block or page descriptor of `addr` from the board's map (0: not mapped). */
static uint64_t desc_of(uint64_t addr, uint64_t kind)
{
	unsigned n;
	const struct bm_mem_region *map = bm_port_mem_map(&n);
	for (unsigned i = 0; i < n; i++) {
		const struct bm_mem_region *r = &map[i];
		if (addr < r->base || addr - r->base >= r->size)
			continue;
		if (r->type == BM_MEM_NORMAL)
			return addr | kind | DESC_ATTR(ATTR_NORMAL_WB) | DESC_SH_INNER | DESC_AF;
		return addr | kind | DESC_ATTR(ATTR_DEVICE_nGnRE) | DESC_AF | DESC_PXN | DESC_UXN;
	}
	return 0; /* invalid: an access here is a translation fault */
}

/* 4 KiB pages for the 2 MiB block at `base`: FLASH read-only, the stack guard absent. */
static void fill_pages(uint64_t *t, uint64_t base)
{
	uint64_t flash_lo = (uintptr_t)__flash_origin, flash_hi = (uintptr_t)__flash_limit;
	uint64_t guard_hi = (uintptr_t)__stack_bottom, guard_lo = guard_hi - (uintptr_t)__stack_guard_size;
	for (unsigned i = 0; i < 512; i++) {
		uint64_t pa = base + i * PAGE_SIZE;
		uint64_t d = pa >= guard_lo && pa < guard_hi ? 0 : desc_of(pa, DESC_PAGE);
		if (d && pa >= flash_lo && pa < flash_hi)
			d |= DESC_RO;
		t[i] = d;
	}
}

static int block_overlaps(uint64_t base, uint64_t lo, uint64_t hi)
{
	return base < hi && base + BLOCK_SIZE > lo;
}

/* Whether the 2 MiB block at `base` needs pages: it holds FLASH or the stack guard. */
static int needs_pages(uint64_t base)
{
	uint64_t guard_hi = (uintptr_t)__stack_bottom, guard_lo = guard_hi - (uintptr_t)__stack_guard_size;
	return block_overlaps(base, (uintptr_t)__flash_origin, (uintptr_t)__flash_limit) ||
	       block_overlaps(base, guard_lo, guard_hi);
}

int arch_mmu_enable(void)
{
	unsigned n;
	const struct bm_mem_region *map = bm_port_mem_map(&n);
	if (!n)
		return -1;
	for (unsigned i = 0; i < n; i++) {
		const struct bm_mem_region *r = &map[i];
		if ((r->base | r->size) & (BLOCK_SIZE - 1) || r->base >= VA_LIMIT ||
		    r->size > VA_LIMIT - r->base)
			return -1;
	}
	unsigned used = 0;
	for (unsigned g = 0; g < 4; g++) {
		for (unsigned b = 0; b < 512; b++) {
			uint64_t base = ((uint64_t)g << 30) | ((uint64_t)b << BLOCK_SHIFT);
			if (needs_pages(base) && used < N_PAGE_TABLES) {
				fill_pages(l3_tables[used], base);
				l2_tables[g][b] = (uint64_t)(uintptr_t)l3_tables[used++] | DESC_TABLE;
			} else {
				l2_tables[g][b] = desc_of(base, DESC_BLOCK);
			}
		}
		l1_table[g] = (uint64_t)(uintptr_t)l2_tables[g] | DESC_TABLE;
	}
	/* The tables were written with the MMU (and so the data cache) off: they are in memory,
	 * and a core out of reset has no stale lines for them. Make the writes visible to the
	 * walker, install, drop any TLB entries and I-cache lines from before, then enable. */
	__asm__ volatile("dsb ish" : : : "memory");
	arch_sysreg_write(mair_el1, MAIR_VALUE);
	arch_sysreg_write(tcr_el1, TCR_VALUE);
	arch_sysreg_write(ttbr0_el1, (uint64_t)(uintptr_t)l1_table);
	__asm__ volatile("isb\n\t"
	                 "tlbi vmalle1\n\t"
	                 "ic iallu\n\t"
	                 "dsb nsh\n\t"
	                 "isb" : : : "memory");
	uint64_t sctlr = arch_sysreg_read(sctlr_el1);
	sctlr |= SCTLR_M | SCTLR_C | SCTLR_I;
	sctlr &= ~SCTLR_A; /* Normal memory may be accessed unaligned, as the compiler assumes */
	arch_sysreg_write(sctlr_el1, sctlr);
	arch_isb();
	return 0;
}
