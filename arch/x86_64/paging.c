/* SPDX-License-Identifier: Apache-2.0 */
/* x86_64's 4 KiB pages, set once from start.S before the kit's C start: start.S maps 4 GiB in
 * 2 MiB pages for ring 0; here the 2 MiB blocks from FLASH's to the user region's end get 4 KiB
 * pages, each with its own rights, for ring 0 and for ring 3, where benchmark code runs
 * (usermode.S; bm/port.h, "Benchmark code out of the kit's reach"). Intel SDM vol. 3, 4.5-4.6.
 * Runs before bm_crt_start: no .data or .bss. */
#include <stdint.h>

#include "arch/arch.h"

#define PAGE_BYTES 4096u
#define BLOCK_BYTES (512u * PAGE_BYTES)

extern uint64_t arch_x86_pml4[512], arch_x86_pdpt[512], arch_x86_pd[4 * 512], arch_x86_pt[X86_PT_BLOCKS][512];
extern char __flash_origin[], __flash_limit[], __x86_tables_lo[], __stack_bottom[], __stack_guard_size[],
	__user_stack_bottom[], __user_stack_top[], __user_start[], __user_end[];

static int in(uintptr_t a, const char *lo, const char *hi)
{
	return a >= (uintptr_t)lo && a < (uintptr_t)hi;
}

/* The entry of the 4 KiB page at a (identity-mapped). Ring 3 (X86_PTE_US) may read and run FLASH
 * and write its own stack and the user region (linker/common.ld), nothing else: the kit's stack
 * and trap stack, .kit_data below the benchmarks' stack and .kit_bss above it, these tables, the
 * rest of RAM and the devices (2 MiB pages, start.S) are ring 0's. Every edge between the two
 * lies on a page (the board's __bm_user_align): the rights are exact, and nothing changes per
 * call. For ring 0 as before: the stack guard absent, FLASH read-only (with CR0.WP a stray store
 * faults, a frame that jumps the guard too), and so are what lies below it and the tables. */
static uint64_t page_entry(uintptr_t a)
{
	const char *guard_lo = __stack_bottom - (uintptr_t)__stack_guard_size;
	if (in(a, guard_lo, __stack_bottom))
		return 0;
	if (in(a, __flash_origin, __flash_limit))
		return a | X86_PTE_P | X86_PTE_US;
	if (a < (uintptr_t)__flash_origin || in(a, __x86_tables_lo, guard_lo))
		return a | X86_PTE_P;
	if (in(a, __user_stack_bottom, __user_stack_top) || in(a, __user_start, __user_end))
		return a | X86_PTE_P | X86_PTE_RW | X86_PTE_US;
	return a | X86_PTE_P | X86_PTE_RW;
}

/* What ring 3 reads of the kit's own besides code and constants, and the kit's copy of its
 * tables: written here, while FLASH is still writable (linker/common.ld's .ro_after_init),
 * read-only to both rings after. */
static void ro_after_init(void)
{
	arch_x86_has_rdtscp = (uint8_t)x86_has_rdtscp();
}

/* The PD entry of block i from FLASH's: its page table, which says what each page may do. */
static uint64_t pd_entry(uintptr_t i)
{
	return (uintptr_t)arch_x86_pt[i] | X86_PTE_P | X86_PTE_RW | X86_PTE_US;
}

void arch_x86_paging_init(void);
void arch_x86_paging_init(void)
{
	ro_after_init();
	/* The upper levels let ring 3 through; each page says what it may do. */
	arch_x86_pml4[0] |= X86_PTE_US;
	for (unsigned i = 0; i < 4; i++)
		arch_x86_pdpt[i] |= X86_PTE_US;
	uintptr_t first = (uintptr_t)__flash_origin / BLOCK_BYTES;
	uintptr_t end = ((uintptr_t)__user_end + BLOCK_BYTES - 1) / BLOCK_BYTES;
	if (end - first > X86_PT_BLOCKS) /* (boards/qemu-x86_64/memory.ld asserts it never is) */
		end = first + X86_PT_BLOCKS;
	for (uintptr_t b = first; b < end; b++)
		for (unsigned i = 0; i < 512; i++)
			arch_x86_pt[b - first][i] = page_entry(b * BLOCK_BYTES + i * PAGE_BYTES);
	/* The copy, as the tables will be once the blocks below have their pages (FLASH is read-only
	 * from the first of them on). */
	for (unsigned w = 0; w < X86_TABLE_PAGES * 512u; w++)
		arch_x86_tables_kept[w] = arch_x86_tables[w];
	for (uintptr_t b = first; b < end; b++)
		arch_x86_tables_kept[((uintptr_t)&arch_x86_pd[b] - (uintptr_t)arch_x86_tables) / 8] = pd_entry(b - first);
	/* Then the blocks take their pages, the tables' own block last: from that write on, the
	 * tables are read-only. */
	uintptr_t tables = (uintptr_t)__x86_tables_lo / BLOCK_BYTES;
	for (uintptr_t b = first; b < end; b++)
		if (b != tables)
			arch_x86_pd[b] = pd_entry(b - first);
	arch_x86_pd[tables] = pd_entry(tables - first);
	/* (no TLB entry of before may stay: the 2 MiB pages were writable) */
	__asm__ volatile("mov %%cr3, %%rax\n\tmov %%rax, %%cr3" : : : "rax", "memory");
}
