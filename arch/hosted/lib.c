/* SPDX-License-Identifier: Apache-2.0 */
/* A hosted library build (docs/library.md): the CPU's arch.c probes the counters as for
 * host-linux, but the program that links the kit owns its signals: no handler is installed, and
 * a fault in a benchmark is the program's (or reaches the kit through its bm_lib_fault). */
#include "arch/hosted.h"

void arch_host_install_traps(void)
{
}
