/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit relies on of a Linux process that benchmark code can change, kept and put back
 * after every benchmark (bm/port.h, arch_state_restore): the floating-point environment's
 * rounding mode (fesetround), the kit's signal handlers and their mask (its traps and watchdog),
 * standard output (its console: closed or redirected, the run's records would be lost), and the
 * perf group of an events build (disabled, every later count 0; reset, a batch across it wraps). */
#include <fcntl.h>
#include <fenv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "arch/hosted.h"
#include "runtime.h"

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

static uintptr_t signals_get(const struct bm_state_reg *r)
{
	(void)r;
	return arch_host_signals_read();
}

static void signals_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)r;
	(void)now;
	arch_host_signals_restore(kit);
}

/* Standard output as a word: its file's identity (device and inode, and what the descriptor
 * opens), or all ones when it is closed. The first read (arch_state_save, at start-up) keeps a
 * duplicate of it, high and close-on-exec, to put back. */
static int stdout_copy = -1;

static uintptr_t stdout_get(const struct bm_state_reg *r)
{
	(void)r;
	struct stat st;
	int fl = fcntl(STDOUT_FILENO, F_GETFL);
	if (fl < 0 || fstat(STDOUT_FILENO, &st) != 0)
		return ~(uintptr_t)0;
	if (stdout_copy < 0)
		stdout_copy = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 100);
	return ((uintptr_t)st.st_dev << 40) ^ (uintptr_t)st.st_ino ^ ((uintptr_t)(unsigned)fl << 32);
}

static void stdout_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)r;
	(void)kit;
	(void)now;
	if (stdout_copy >= 0)
		dup2(stdout_copy, STDOUT_FILENO);
}

static const struct bm_state_reg regs[] = {
	BM_STATE_REG("the FP rounding mode (fesetround)", round_get, round_put, 0, 0xffffffffu),
	BM_STATE_REG("the kit's signal handlers or their mask (SIGALRM, SIGSEGV, ...)", signals_get, signals_put, 0,
	             ~(uintptr_t)0),
	BM_STATE_REG("standard output (the console: closed or redirected)", stdout_get, stdout_put, 0, ~(uintptr_t)0),
	BM_STATE_REG("the perf event group (disabled, or its counts reset)", arch_host_events_state,
	             arch_host_events_state_put, 0, ~(uintptr_t)0),
};

BM_STATE_ARCH(regs)
