/* SPDX-License-Identifier: Apache-2.0 */
/* Traps of a hosted arch (a Linux process): fatal signals are the exceptions, and SIGALRM is the
 * watchdog's interrupt. Each is handed to core like a bare-metal fault: recovered when a benchmark
 * runs (the handler jumps back to the harness), else reported (cause in words, pc, faulting
 * address) with the run ended with status 3. Shared by arch/host-x86_64 and arch/host-aarch64,
 * which supply arch_host_signal_pc(). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "arch/hosted.h"
#include "bm/port.h"

static const char *signal_name(int sig)
{
	return sig == SIGILL    ? "illegal instruction (SIGILL)"
	       : sig == SIGSEGV ? "segmentation fault (SIGSEGV)"
	       : sig == SIGBUS  ? "bus error (SIGBUS)"
	       : sig == SIGFPE  ? "arithmetic exception (SIGFPE)"
	       : sig == SIGTRAP ? "trace/breakpoint trap (SIGTRAP)"
	       : sig == SIGABRT ? "abort() (SIGABRT: a failed assert?)"
	       : sig == SIGALRM ? "watchdog (SIGALRM)"
	                        : "fatal signal";
}

/* Only async-signal-safe work until the jump or the exit: the console's own buffer, formatting
 * (pure code), setitimer, and the board's exit, which flushes with write(2) and calls _exit.
 * SA_NODEFER (below) keeps the signal unblocked after the jump back to the harness. */
static void on_signal(int sig, siginfo_t *si, void *ctx)
{
	struct bm_fault f = {
		.kind = sig == SIGALRM ? BM_FAULT_TIMEOUT : BM_FAULT_TRAP,
		.has_addr = sig == SIGSEGV || sig == SIGBUS,
		.cause = signal_name(sig),
		.code = (uint64_t)sig,
		.pc = arch_host_signal_pc(ctx),
		.addr = (uint64_t)(uintptr_t)si->si_addr,
		.sp = arch_host_signal_sp(ctx),
	};
	if (bm_fault_take(&f))
		bm_recover();
	if (sig == SIGALRM)
		return; /* an alarm outside any benchmark: nothing to end */
	const struct bm_fatal_reg regs[] = {{" at 0x", f.pc, 16}, {" (si_addr 0x", f.addr, 16}};
	bm_fatal_trap(f.cause, regs, 2, (const char *const[]){")", 0});
}

/* The kit ends a run with _exit (the board's exit device): a handler registered with atexit runs
 * only when a benchmark called exit(). Leaving an atexit handler by a jump is undefined, so this is
 * not a fault the run survives: it is aborted with status 3 and says why (bm run names the
 * benchmark that was running), rather than ending with the benchmark's status, results unsaid. */
static void on_exit_call(void)
{
	bm_fatal_abort((const char *const[]){"exit() was called (by the benchmark that was running)", 0});
}

static const int kit_signals[] = {SIGILL, SIGSEGV, SIGBUS, SIGFPE, SIGTRAP, SIGABRT, SIGALRM};
#define N_SIGNALS (sizeof kit_signals / sizeof kit_signals[0])
#define KIT_SA_FLAGS (SA_SIGINFO | SA_ONSTACK | SA_NODEFER)

/* The handlers, and the alternate stack a stack overflow's SIGSEGV is reported on. */
static void install_handlers(void)
{
	static char alt[64 * 1024];
	stack_t ss = {.ss_sp = alt, .ss_size = sizeof alt, .ss_flags = 0};
	sigaltstack(&ss, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_signal;
	sa.sa_flags = KIT_SA_FLAGS;
	sigemptyset(&sa.sa_mask);
	for (unsigned i = 0; i < N_SIGNALS; i++)
		sigaction(kit_signals[i], &sa, 0);
}

void arch_host_install_traps(void)
{
	install_handlers();
	atexit(on_exit_call);
}

/* For arch/hosted/state.c: bit i set when the kit's handler (with its flags) takes kit_signals[i],
 * and bit 8 + i when that signal is blocked; and putting both back. A benchmark that ignores
 * SIGALRM or blocks it would leave every later hang unended; one that resets SIGSEGV, every later
 * fault fatal to the run. */
uintptr_t arch_host_signals_read(void)
{
	uintptr_t v = 0;
	sigset_t blocked;
	sigprocmask(SIG_BLOCK, 0, &blocked);
	for (unsigned i = 0; i < N_SIGNALS; i++) {
		struct sigaction sa;
		if (sigaction(kit_signals[i], 0, &sa) == 0 && sa.sa_sigaction == on_signal &&
		    (sa.sa_flags & KIT_SA_FLAGS) == KIT_SA_FLAGS)
			v |= (uintptr_t)1 << i;
		if (sigismember(&blocked, kit_signals[i]) == 1)
			v |= (uintptr_t)1 << (8 + i);
	}
	return v;
}

void arch_host_signals_restore(uintptr_t kit)
{
	install_handlers();
	sigset_t set;
	sigemptyset(&set);
	for (unsigned i = 0; i < N_SIGNALS; i++)
		if (!(kit & ((uintptr_t)1 << (8 + i))))
			sigaddset(&set, kit_signals[i]);
	sigprocmask(SIG_UNBLOCK, &set, 0);
}

/* ---- the watchdog: a one-shot ITIMER_REAL, whose SIGALRM the handler above takes ---- */

static void itimer(uint32_t ms)
{
	struct itimerval v = {{0, 0}, {(time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000}};
	setitimer(ITIMER_REAL, &v, 0);
}

static void alarm_arm(struct bm_alarm *a, uint32_t ms)
{
	(void)a;
	itimer(ms ? ms : 1);
}

static void alarm_disarm(struct bm_alarm *a)
{
	(void)a;
	itimer(0);
}

struct bm_alarm arch_host_alarm = {.name = "setitimer(ITIMER_REAL) -> SIGALRM", .arm = alarm_arm, .disarm = alarm_disarm};
