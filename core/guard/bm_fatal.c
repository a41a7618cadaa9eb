/* SPDX-License-Identifier: Apache-2.0 */
/* The run's fatal end, written once for every arch (bm/port.h): the guard against a fault inside
 * the report, the report's frame ("*** TRAP: ..." and the abort line) and the exit with
 * BM_EXIT_TRAP. An arch hands it the fault it decoded and its registers; core's own checks and a
 * hosted arch hand it the reason in words. */
#include "bm/out.h"
#include "bm/port.h"

/* Set once a fatal report begins, so a fault in the report stops instead of looping. A magic
 * value, not 1: a benchmark that wrote over .bss must not make every later fault look nested
 * (and halt without a word). */
#define IN_REPORT 0x696e7472u
static volatile uint32_t in_report;

int bm_fatal_nested(void)
{
	return in_report == IN_REPORT;
}

static __attribute__((noreturn)) void aborted(const char *lead)
{
	bm_out_str(lead);
	bm_out_str("the run is aborted (exit status 3)\n");
	bm_board_exit(BM_EXIT_TRAP);
}

void bm_fatal_trap(const char *cause, const struct bm_fatal_reg *regs, unsigned n, const char *const *tail)
{
	in_report = IN_REPORT;
	bm_out_str("\n*** TRAP: ");
	bm_out_str(cause);
	for (unsigned i = 0; i < n; i++) {
		bm_out_str(regs[i].label);
		if (regs[i].hex_digits)
			bm_out_hex(regs[i].value, regs[i].hex_digits);
		else
			bm_out_u64(regs[i].value);
	}
	for (; tail && *tail; tail++)
		bm_out_str(*tail);
	aborted("\n*** ");
}

void bm_fatal_abort(const char *const *what)
{
	in_report = IN_REPORT;
	bm_out_str("\n*** ");
	for (; *what; what++)
		bm_out_str(*what);
	aborted(": ");
}
