/* SPDX-License-Identifier: Apache-2.0 */
/* AArch64 SVC numbers between benchmark code at EL0 and the kit (usermode.S, arch.c's arch_trap):
 * the immediate says which; the arguments and the result travel in x0-x2 / x0. Shared by C and
 * assembly. */
#ifndef ARCH_AARCH64_SVC_H
#define ARCH_AARCH64_SVC_H
#define ARCH_SVC_KIT 1    /* bm_kit_service(x0, x1, x2), its result in x0 */
#define ARCH_SVC_RETURN 2 /* arch_user_exit: the call into benchmark code is done, x0 its result */
#endif
