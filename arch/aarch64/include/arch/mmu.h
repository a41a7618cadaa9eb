/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 MMU: an identity map of the low 4 GiB in 2 MiB blocks, built from the board's memory
 * map (board_desc.mem_map: RAM as Normal write-back cacheable, MMIO as Device-nGnRE); addresses
 * it does not list are unmapped, so a stray access faults with FAR. The descriptor and register
 * fields mmu.c uses are defined here. */
#ifndef ARCH_AARCH64_MMU_H
#define ARCH_AARCH64_MMU_H

#include <stdint.h>

/* Translation table descriptors (VMSAv8-64, 4 KiB granule). */
#define DESC_TABLE 3ull
#define DESC_BLOCK 1ull
#define DESC_PAGE 3ull
#define DESC_ATTR(i) ((uint64_t)(i) << 2) /* the MAIR_EL1 attribute index */
#define DESC_EL0 (1ull << 6)   /* AP[1]: EL0 may access it too (AP[2] says whether it may write) */
#define DESC_RO (1ull << 7)    /* AP[2]: read-only (at EL1, and at EL0 where EL0 may access it) */
#define DESC_SH_INNER (3ull << 8)
#define DESC_AF (1ull << 10)   /* access flag set: no access-flag faults (no hardware AF on v8.0) */
#define DESC_PXN (1ull << 53)
#define DESC_UXN (1ull << 54)

/* MAIR_EL1: one attribute byte per index. */
#define MAIR_ATTR(i, attr) ((uint64_t)(attr) << (8 * (i)))
#define MAIR_DEVICE_nGnRE 0x04ull
#define MAIR_NORMAL_WB 0xffull /* inner and outer write-back, read/write-allocate */

/* TCR_EL1 (TTBR0 walks; EPD1 turns TTBR1's off). */
#define TCR_T0SZ(n) ((uint64_t)(n)) /* VA bits = 64 - n */
#define TCR_IRGN0_WB (1ull << 8)
#define TCR_ORGN0_WB (1ull << 10)
#define TCR_SH0_INNER (3ull << 12)
#define TCR_TG0_4K (0ull << 14)
#define TCR_EPD1 (1ull << 23)

/* SCTLR_EL1 */
#define SCTLR_M (1ull << 0)  /* the MMU */
#define SCTLR_A (1ull << 1)  /* alignment checks */
#define SCTLR_C (1ull << 2)  /* data cache */
#define SCTLR_I (1ull << 12) /* instruction cache */

/* Builds the tables from board_desc.mem_map and turns on the MMU and the I/D caches
 * (SCTLR_EL1.M/C/I). Returns 0, or -1 when the board has no map, or a region is not 2 MiB
 * aligned or lies above 4 GiB (the MMU stays off). *el0_isolated is 1 when EL0 (benchmark code)
 * may read and run FLASH and write only the main stack and the user region, 0 when every RAM
 * page is open to it (the image's layout is not page-aligned, or too large for the page tables). */
int arch_mmu_enable(int *el0_isolated);

#endif /* ARCH_AARCH64_MMU_H */
