/* Between a hosted arch's CPU part (arch/host-<cpu>) and the code hosted arches share
 * (arch/hosted): signals as traps. */
#ifndef ARCH_HOSTED_H
#define ARCH_HOSTED_H

#include <stdint.h>

/* The interrupted program counter of a signal's ucontext_t (supplied per CPU). */
uint64_t arch_host_signal_pc(void *ucontext);
/* Installs the fatal-signal handlers (called by arch_init). */
void arch_host_install_traps(void);

#endif
