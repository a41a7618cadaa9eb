/* SiFive test finisher (see sifive_test.h). Without the device (real hardware) the store does
 * nothing and the board halts here. */
#include "sifive_test.h"

void sifive_test_exit(const struct bm_exit *dev, int status)
{
	const struct sifive_test *t = (const struct sifive_test *)dev;
	/* Status 0 would look like success through the fail code, so it has its own value. */
	*(volatile uint32_t *)t->base = status == 0 ? 0x5555u : ((uint32_t)status << 16) | 0x3333u;
	for (;;)
		;
}
