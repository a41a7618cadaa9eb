/* Traps of a hosted arch (a Linux process): fatal signals are the exceptions, reported like a
 * bare-metal trap (cause in words, pc, faulting address) and ending the run with status 3.
 * Shared by arch/host-x86_64 and arch/host-aarch64, which supply arch_host_signal_pc(). */
#include <signal.h>
#include <string.h>

#include "arch/hosted.h"
#include "bm/out.h"
#include "bm/port.h"

/* Only async-signal-safe work here: the console's own buffer, formatting (pure code), and the
 * board's exit, which flushes with write(2) and calls _exit. */
static void on_fatal_signal(int sig, siginfo_t *si, void *ctx)
{
	const char *what = sig == SIGILL    ? "illegal instruction (SIGILL)"
	                   : sig == SIGSEGV ? "segmentation fault (SIGSEGV)"
	                   : sig == SIGBUS  ? "bus error (SIGBUS)"
	                   : sig == SIGFPE  ? "arithmetic exception (SIGFPE)"
	                   : sig == SIGTRAP ? "trace/breakpoint trap (SIGTRAP)"
	                                    : "fatal signal";
	bm_out_str("\n*** TRAP: ");
	bm_out_str(what);
	bm_out_str(" at 0x");
	bm_out_hex(arch_host_signal_pc(ctx), 16);
	bm_out_str(" (si_addr 0x");
	bm_out_hex((uint64_t)(uintptr_t)si->si_addr, 16);
	bm_out_str(")\n*** the run is aborted (exit status 3)\n");
	bm_board_exit(BM_EXIT_TRAP);
}

void arch_host_install_traps(void)
{
	/* An alternate stack, so a stack overflow's SIGSEGV can still be reported. */
	static char alt[64 * 1024];
	stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
	sigaltstack(&ss, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fatal_signal;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	const int sigs[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP};
	for (unsigned i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		sigaction(sigs[i], &sa, 0);
}
