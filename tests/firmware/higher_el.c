/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image (AArch64): exceptions taken at a higher exception level are reported like any
 * other. Run where EL2 and EL3 exist (QEMU virt,secure=on,virtualization=on): an SMC traps to EL3
 * and an HVC to EL2, and both must come back to the EL1 handler, named, and recovered. */
#include "bm/bench.h"

static int never_right(void)
{
	return -1;
}

static int smc_setup(void)
{
	__asm__ volatile("mov x0, xzr\n\tsmc #0" : : : "x0", "x1", "x2", "x3", "memory");
	return 0;
}

static int hvc_setup(void)
{
	__asm__ volatile("mov x0, xzr\n\thvc #0" : : : "x0", "x1", "x2", "x3", "memory");
	return 0;
}

BM_BENCHMARK(higher_el_hvc, never_right, .setup = hvc_setup, .privileged = 1)
{
}

BM_BENCHMARK(higher_el_smc, never_right, .setup = smc_setup, .privileged = 1)
{
}
