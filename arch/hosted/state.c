/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit relies on of a Linux process that benchmark code can change, kept and put back
 * after every benchmark (bm/port.h, arch_state_restore): the floating-point environment's
 * rounding mode (fesetround). Signal handlers and the rest are the OS's to keep. */
#include <fenv.h>

#include "arch/hosted.h"

static uintptr_t round_get(const struct bm_state_reg *r)
{
	(void)r;
	return (uintptr_t)(unsigned)fegetround();
}

static void round_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)r;
	(void)now;
	fesetround((int)(unsigned)kit);
}

static const struct bm_state_reg regs[] = {
	BM_STATE_REG("the FP rounding mode (fesetround)", round_get, round_put, 0, 0xffffffffu),
};

BM_STATE_ARCH(regs)
