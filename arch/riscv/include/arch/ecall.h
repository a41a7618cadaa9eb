/* SPDX-License-Identifier: Apache-2.0 */
/* The ecalls of RISC-V benchmark code to the kit (a7 says which; the kit's trap handler answers),
 * shared by the C side and usermode.S. */
#ifndef ARCH_RISCV_ECALL_H
#define ARCH_RISCV_ECALL_H

#define ARCH_ECALL_RETURN 0x626d7200 /* "bmr": a U-mode call is over, its result in a0 */
#define ARCH_ECALL_KIT 0x626d6b00    /* "bmk": bm_kit_service(a0, a1, a2), its result in a0 */

#endif
