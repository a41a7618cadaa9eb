/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 identity map (see arch/mmu.h): 4 KiB granule, T0SZ = 32 (4 GiB of VA starting at
 * level 1), one level-2 table per GiB, 2 MiB blocks from the board's memory map, and 4 KiB pages
 * in the blocks that hold the image: FLASH read-only (a stray store, e.g. a stack frame far below
 * the stack, faults instead of rewriting code), the guard below the stack not mapped at all. EL0,
 * where benchmark code runs (usermode.S), may read and run FLASH and write its own stack and the
 * user region (linker/common.ld): the kit's stacks and variables, the devices and the rest of RAM
 * are EL1's only. On real cores the MMU is also what makes RAM cacheable (with it off, every data
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
#define N_PAGE_TABLES 8

/* MAIR_EL1 attribute indexes. */
#define ATTR_DEVICE_nGnRE 1
#define ATTR_NORMAL_WB 2
#define MAIR_VALUE (MAIR_ATTR(ATTR_DEVICE_nGnRE, MAIR_DEVICE_nGnRE) | MAIR_ATTR(ATTR_NORMAL_WB, MAIR_NORMAL_WB))

/* TCR_EL1: 4 GiB of VA, table walks inner/outer write-back cacheable and inner shareable, 4 KiB
 * granule, TTBR1 walks disabled, 32-bit physical addresses (IPS 0): both boards fit. */
#define TCR_VALUE (TCR_T0SZ(32) | TCR_IRGN0_WB | TCR_ORGN0_WB | TCR_SH0_INNER | TCR_TG0_4K | TCR_EPD1)

extern char __flash_origin[], __flash_limit[], __stack_bottom[], __stack_top[], __stack_guard_size[], __kit_start[],
	__user_stack_bottom[], __user_stack_top[], __user_start[], __user_end[];

/* What EL0 may touch (0 while the layout does not allow it: then all RAM is open to it). */
static int el0_pages;

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
		if (r->type == BM_MEM_NORMAL) /* (never run at EL0: AP[1] = 0 alone leaves it executable there) */
			return addr | kind | DESC_ATTR(ATTR_NORMAL_WB) | DESC_SH_INNER | DESC_AF | DESC_UXN |
			       (el0_pages ? 0 : DESC_EL0);
		return addr | kind | DESC_ATTR(ATTR_DEVICE_nGnRE) | DESC_AF | DESC_PXN | DESC_UXN;
	}
	return 0; /* invalid: an access here is a translation fault */
}

static int in(uint64_t pa, const char *lo, const char *hi)
{
	return pa >= (uintptr_t)lo && pa < (uintptr_t)hi;
}

/* 4 KiB pages for the 2 MiB block at `base`: FLASH read-only (and runnable at EL0), the stack
 * guard absent, the benchmarks' stack and the user region writable at EL0. */
static void fill_pages(uint64_t *t, uint64_t base)
{
	for (unsigned i = 0; i < 512; i++) {
		uint64_t pa = base + i * PAGE_SIZE;
		uint64_t d = in(pa, __stack_bottom - (uintptr_t)__stack_guard_size, __stack_bottom) ? 0 : desc_of(pa, DESC_PAGE);
		if (d && in(pa, __flash_origin, __flash_limit))
			d = (d & ~DESC_UXN) | DESC_RO | DESC_EL0;
		else if (d && (in(pa, __user_stack_bottom, __user_stack_top) || in(pa, __user_start, __user_end)))
			d |= DESC_EL0;
		t[i] = d;
	}
}

static int block_overlaps(uint64_t base, uint64_t lo, uint64_t hi)
{
	return base < hi && base + BLOCK_SIZE > lo;
}

/* Whether the 2 MiB block at `base` needs pages: it holds FLASH, the stack guard, or (with
 * el0_pages) anything of the image's RAM. */
static int needs_pages(uint64_t base)
{
	uint64_t guard_hi = (uintptr_t)__stack_bottom, guard_lo = guard_hi - (uintptr_t)__stack_guard_size;
	return block_overlaps(base, (uintptr_t)__flash_origin, (uintptr_t)__flash_limit) ||
	       block_overlaps(base, guard_lo, guard_hi) ||
	       (el0_pages && block_overlaps(base, guard_hi, (uintptr_t)__user_end));
}

static unsigned blocks_needing_pages(void)
{
	unsigned k = 0;
	for (uint64_t base = 0; base < VA_LIMIT; base += BLOCK_SIZE)
		k += (unsigned)needs_pages(base);
	return k;
}

/* EL0's pages need the bounds between what it may and may not write on page boundaries. */
static int el0_layout_ok(void)
{
	uintptr_t bounds = (uintptr_t)__stack_bottom | (uintptr_t)__stack_top | (uintptr_t)__kit_start |
	                   (uintptr_t)__user_stack_bottom | (uintptr_t)__user_stack_top | (uintptr_t)__user_start |
	                   (uintptr_t)__user_end;
	return !(bounds & (PAGE_SIZE - 1)) && (uintptr_t)__stack_top == (uintptr_t)__kit_start;
}

int arch_mmu_enable(int *el0_isolated)
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
	el0_pages = el0_layout_ok();
	if (el0_pages && blocks_needing_pages() > N_PAGE_TABLES)
		el0_pages = 0;
	*el0_isolated = el0_pages;
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
