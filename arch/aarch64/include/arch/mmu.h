/* AArch64 MMU: an identity map of the low 4 GiB in 2 MiB blocks, built from the board's memory
 * map. Each AArch64 board defines board_mem_map[] (RAM as Normal write-back cacheable, MMIO as
 * Device-nGnRE); addresses it does not list are unmapped, so a stray access faults with FAR. */
#ifndef ARCH_AARCH64_MMU_H
#define ARCH_AARCH64_MMU_H

#include <stdint.h>

enum arch_mem_type {
	ARCH_MEM_NORMAL = 1, /* RAM: Normal, inner/outer write-back read/write-allocate, inner shareable */
	ARCH_MEM_DEVICE = 2, /* MMIO: Device-nGnRE, never executable */
};

struct arch_mem_region {
	uint64_t base;           /** physical = virtual address, 2 MiB aligned */
	uint64_t size;           /** bytes, a multiple of 2 MiB */
	enum arch_mem_type type; /** how the region is mapped */
};

/* Defined by each AArch64 board (boards/<name>/board.c), in any order, non-overlapping. */
extern const struct arch_mem_region board_mem_map[];
extern const unsigned board_mem_map_len;

/* Builds the tables and turns on the MMU and the I/D caches (SCTLR_EL1.M/C/I). Returns 0, or
 * -1 when a board region is not 2 MiB aligned or lies above 4 GiB (the MMU stays off). */
int arch_mmu_enable(void);

#endif /* ARCH_AARCH64_MMU_H */
