/* SPDX-License-Identifier: Apache-2.0 */
/* isa-debug-exit (see isa_debug_exit.h). x86 only: port I/O. */
#include "isa_debug_exit.h"

#include "arch/pio.h"

void isa_debug_exit_exit(const struct bm_exit *dev, int status)
{
	arch_outl(((const struct isa_debug_exit *)dev)->port, (uint32_t)status);
	for (;;)
		__asm__ volatile("cli; hlt");
}
