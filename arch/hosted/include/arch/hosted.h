/* Between a hosted arch's CPU part (arch/host-<cpu>) and the code hosted arches share
 * (arch/hosted): signals as traps, and an interval timer as the watchdog. */
#ifndef ARCH_HOSTED_H
#define ARCH_HOSTED_H

#include <stdint.h>

#include "bm/port.h"

/* The interrupted program counter and stack pointer of a signal's ucontext_t (per CPU). */
uint64_t arch_host_signal_pc(void *ucontext);
uint64_t arch_host_signal_sp(void *ucontext);
/* The watchdog's alarm for hosted boards (.alarm = &arch_host_alarm). */
extern struct bm_alarm arch_host_alarm;
/* Installs the fatal-signal handlers (called by arch_init). */
void arch_host_install_traps(void);

#endif
