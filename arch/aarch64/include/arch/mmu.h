/* AArch64 MMU: an identity map of the low 4 GiB in 2 MiB blocks, built from the board's memory
 * map (board_desc.mem_map: RAM as Normal write-back cacheable, MMIO as Device-nGnRE); addresses
 * it does not list are unmapped, so a stray access faults with FAR. */
#ifndef ARCH_AARCH64_MMU_H
#define ARCH_AARCH64_MMU_H

/* Builds the tables from board_desc.mem_map and turns on the MMU and the I/D caches
 * (SCTLR_EL1.M/C/I). Returns 0, or -1 when the board has no map, or a region is not 2 MiB
 * aligned or lies above 4 GiB (the MMU stays off). */
int arch_mmu_enable(void);

#endif /* ARCH_AARCH64_MMU_H */
