/* SPDX-License-Identifier: Apache-2.0 */
/* Cortex-M SVC numbers between benchmark code in unprivileged Thread mode and the kit (arch/arch.h's
 * snapshots, usermode.c): the immediate says which; the arguments and the result travel in r0-r2
 * / r0 (r0 and r1 for a reading). Shared by C and the asm strings. */
#ifndef ARCH_ARMV7M_SVC_H
#define ARCH_ARMV7M_SVC_H
#define ARCH_SVC_KIT 1    /* bm_kit_service(r0, r1, r2), its result in r0 */
#define ARCH_SVC_RETURN 2 /* arch_user_exit: the call into benchmark code is done, r0 its result */
#define ARCH_SVC_SNAP 3   /* a counter reading (the snapshots): low word in r0, high word in r1 */
#define ARCH_SVC_STR_(n) #n
#define ARCH_SVC_STR(n) ARCH_SVC_STR_(n) /* the number as text, for an asm string */
#endif
