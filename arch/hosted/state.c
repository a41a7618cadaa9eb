/* What the kit relies on of a Linux process that benchmark code can change, kept and put back
 * after every benchmark (bm/port.h, arch_state_restore): the floating-point environment's
 * rounding mode (fesetround). Signal handlers and the rest are the OS's to keep. */
#include <fenv.h>

#include "arch/hosted.h"

static int kit_round, kit_round_copy; /* (the copy sealed: bm/port.h, bm_state_seal) */

void arch_state_save(void)
{
	kit_round = fegetround();
	bm_state_seal(&kit_round, &kit_round_copy, sizeof kit_round);
}

const char *arch_state_restore(void)
{
	if (!bm_state_intact(&kit_round, &kit_round_copy, sizeof kit_round))
		return bm_state_lost;
	if (fegetround() == kit_round)
		return 0;
	fesetround(kit_round);
	return "changed the FP rounding mode (fesetround) and did not put it back (restored)";
}
