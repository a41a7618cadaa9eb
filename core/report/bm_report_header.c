/* SPDX-License-Identifier: Apache-2.0 */
/* The run's first human lines (bm_report.c decides when they go out): the hello line as soon as
 * the console is up, and the header: what ran where (board, build, arch, counters), its devices
 * and how it measured. */
#include "bm/build_info.h"
#include "bm/out.h"
#include "bm_board.h"
#include "report/report.h"

#define LABEL_WIDTH 14

static void out_line(const char *label, const char *value)
{
	bm_out_padded(label, LABEL_WIDTH, 0);
	bm_out_str(value);
	bm_out_char('\n');
}

void bm_report_mhz(uint64_t hz)
{
	char b[BM_FMT_NUM_MAX];
	/* MHz with 3 decimals: hz / 1000 is kHz = MHz x 1000, i.e. milli-MHz. */
	bm_fmt_milli(b, hz / 1000, 3);
	bm_out_str(b);
	bm_out_str(" MHz");
}

static void out_facts(const struct bm_kv *f)
{
	for (unsigned i = 0; f && f[i].key; i++) {
		bm_out_str(i ? ", " : " (");
		bm_out_str(f[i].key);
		bm_out_char('=');
		bm_out_str(f[i].value);
		if (!f[i + 1].key)
			bm_out_char(')');
	}
}

/* The first line, as soon as the console is up (before the arch probes its counters, which takes
 * a while on some cores): the user sees at once that the kit started, and on which board. */
void bm_report_hello(const struct bm_config *cfg)
{
	if (!(cfg->format & BM_FORMAT_TABLE))
		return;
	bm_out_str("baremark " BM_KIT_VERSION ": bare-metal benchmarks on ");
	bm_out_str(board_desc.name);
	bm_out_char('\n');
}

/* The header: what ran where (board, build, arch, counters), its devices, and how it measured. */
static void header_machine(const struct bm_run_info *run)
{
	const struct arch_info *ai = run->ai;
	bm_out_padded("results", LABEL_WIDTH, 0);
	bm_out_str(bm_cycle_unit(ai));
	bm_out_str(" per iteration\n");
	bm_out_padded("board", LABEL_WIDTH, 0);
	bm_out_str(board_desc.name);
	out_facts(board_desc.facts);
	bm_out_char('\n');
	bm_out_padded("build", LABEL_WIDTH, 0);
	bm_out_str(bm_build_info.built_for);
	bm_out_str(" build of kit " BM_KIT_VERSION " ");
	bm_out_str(bm_build_info.kit_vcs);
	if (bm_build_info.label[0]) {
		bm_out_str(", label ");
		bm_out_str(bm_build_info.label);
	}
	bm_out_char('\n');
	out_line("console", bm_port_console_name());
	bm_out_padded("arch", LABEL_WIDTH, 0);
	bm_out_str(ai->isa);
	out_facts(ai->facts);
	bm_out_char('\n');
	bm_out_padded("cycles", LABEL_WIDTH, 0);
	bm_out_str(ai->cycle_counter);
	if (run->tick_insns) {
		bm_out_str("; one tick = ");
		bm_out_u64(run->tick_insns);
		bm_out_str(" instructions under -icount (its resolution)");
	}
	bm_out_char('\n');
	out_line("instructions", ai->instret_counter ? ai->instret_counter : "not counted on this core");
}

static void header_devices(const struct bm_run_info *run)
{
	const struct bm_timer *timer = bm_port_timer();
	bm_out_padded("timer", LABEL_WIDTH, 0);
	if (timer) {
		bm_out_str(timer->name);
		bm_out_str(", ");
		bm_report_mhz(timer->hz);
	} else {
		bm_out_str("none (no ns or ops/s figures)");
	}
	bm_out_char('\n');
	bm_out_padded("watchdog", LABEL_WIDTH, 0);
	if (bm_port_alarm && run->cfg->bench_timeout_ms) {
		bm_out_str(bm_port_alarm->name);
		bm_out_str(", ");
		bm_out_u64(run->cfg->bench_timeout_ms);
		bm_out_str(" ms per benchmark unless it sets its own");
	} else {
		bm_out_str("none (a benchmark that hangs stops the run)");
	}
	bm_out_char('\n');
}

static void header_method(const struct bm_run_info *run)
{
	bm_out_padded("overhead", LABEL_WIDTH, 0);
	bm_out_u64(run->oh.cycles);
	bm_out_str(" cycles, ");
	bm_out_u64(run->oh.instret);
	bm_out_str(" instructions per counter read pair and loop pass (subtracted; max seen ");
	bm_out_u64(run->oh.cycles_max);
	bm_out_str(" cycles); each further pass of a batch's loop, ");
	bm_out_u64(run->oh.loop_cycles);
	bm_out_str(" cycles, ");
	bm_out_u64(run->oh.loop_instret);
	bm_out_str(" instructions, is in its figures\n");
#if ARCH_USER_SNAP_TRAPS
	/* (benchmark code that runs unprivileged reads the counters through a trap: its own probe) */
	bm_out_padded("", LABEL_WIDTH, 0);
	bm_out_u64(run->oh_user.cycles);
	bm_out_str(" cycles per read pair and loop pass of unprivileged benchmark code, whose reads trap into the "
	           "kit (subtracted from its batches; max seen ");
	bm_out_u64(run->oh_user.cycles_max);
	bm_out_str(" cycles)\n");
#endif
	out_line("libc", bm_libc_name);
	out_line("compiler", "GCC " __VERSION__);
	out_line("flags", bm_build_info.cflags);
	bm_out_padded("method", LABEL_WIDTH, 0);
	bm_out_u64(run->cfg->samples);
	bm_out_str(" samples per benchmark; batches of >= ");
	bm_out_u64(run->cfg->min_batch_cycles);
	bm_out_str(" cycles; ");
	bm_out_u64(run->n);
	bm_out_str(run->n == 1 ? " benchmark\n\n" : " benchmarks\n\n");
}

void bm_report_header(const struct bm_run_info *run)
{
	header_machine(run);
	header_devices(run);
	header_method(run);
}
