/* SPDX-License-Identifier: Apache-2.0 */
/* Fake arch and board for host unit tests: the scripted clock, a timer derived from it
 * (1 timer tick = 100 cycles, i.e. a 10 MHz timer beside a 1 GHz core), and a console that
 * captures output in memory so tests can read back records (and gives a served loop its input). Exit is recorded, not taken. */
#include <stdio.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include "arch/arch.h"
#include "bm/build_info.h"
#include "bm/events.h"
#include "bm/port.h"
#include "bm/record.h"
#include "fake_platform.h"

uint64_t fake_cycles, fake_instret;
uint64_t fake_counter_written; /* cycles added by writes to the counter: the timer does not see them */
uint64_t fake_read_cost_cycles = 1, fake_read_cost_instret = 1;

char fake_console[1 << 20];
size_t fake_console_len;
int fake_exit_status = -1;

static void fake_putc(struct bm_console *con, char c)
{
	(void)con;
	if (fake_console_len + 1 < sizeof fake_console)
		fake_console[fake_console_len++] = c;
	fake_console[fake_console_len] = '\0';
}

static uint64_t fake_timer(struct bm_timer *t)
{
	(void)t;
	/* Reading the timer also takes time, so a busy-wait on it terminates. */
	fake_cycles += 10;
	return (fake_cycles - fake_counter_written) / 100;
}

int fake_exit_fd = -1;

static void fake_exit(const struct bm_exit *dev, int status)
{
	(void)dev;
	fake_exit_status = status;
	if (fake_exit_fd >= 0) { /* (a forked run: its console to the parent, and a real exit) */
		for (size_t off = 0; off < fake_console_len;) {
			ssize_t n = write(fake_exit_fd, fake_console + off, fake_console_len - off);
			if (n <= 0)
				break;
			off += (size_t)n;
		}
		_exit(status);
	}
}

/* Per-benchmark hooks: count the calls, and add one key to records of benchmarks that passed. */
int fake_bench_begins, fake_bench_ends;

static void fake_bench_begin(const char *name)
{
	(void)name;
	fake_bench_begins++;
}

static void fake_bench_end(const char *name, struct bm_record *r)
{
	(void)name;
	fake_bench_ends++;
	if (r)
		bm_rec_u64(r, "fake_board_key", 42);
}

/* A served image's commands (test_serve.c): the bytes of fake_console_in, then none. A served
 * loop that keeps waiting once they are all read (it missed its `end`) would spin forever: the
 * test is ended instead, naming why. */
const char *fake_console_in;
size_t fake_console_in_len;

static int fake_getc(struct bm_console *con)
{
	static unsigned long idle;
	(void)con;
	if (fake_console_in_len) {
		idle = 0;
		fake_console_in_len--;
		return (unsigned char)*fake_console_in++;
	}
	if (++idle > 1000000) {
		printf("  fake console: the served loop still waits after its input ran out (no `end` taken?)\n");
		exit(1);
	}
	return -1;
}

/* lf_only: the captured text is compared with C strings that end lines with '\n'. */
int fake_console_restore(struct bm_console *con);
static struct bm_console console = {.name = "memory", .putc = fake_putc, .lf_only = 1, .restore = fake_console_restore,
                                    .getc = fake_getc};
static struct bm_timer timer = {.name = "fake-timer", .read = fake_timer, .hz = 10000000};
static const struct bm_exit exit_dev = {.name = "recorded", .exit = fake_exit};
static const struct bm_kv board_facts[] = {{"fake_board", "yes"}, {0, 0}};

const struct bm_board board_desc = {
	.name = "fake",
	.console = &console,
	.timer = &timer,
	.exit = &exit_dev,
	.bench_begin = fake_bench_begin,
	.bench_end = fake_bench_end,
	.facts = board_facts,
};

static const struct bm_kv facts[] = {{"priv", "test"}, {0, 0}};
static const struct arch_info info = {
	.isa = "fake",
	.cycle_counter = "scripted",
	.instret_counter = "scripted",
	.facts = facts,
};

const struct bm_build_info bm_build_info = {
	.kit_vcs = "test", .label = "", .built_for = "hosted", .cflags = "host", .opt = "-O0", .icount = 0,
};

/* The unit tests have no stack paint, and no stack of the benchmarks' own. */
void bm_rt_stack(struct bm_stack *s)
{
	s->lo = s->hi = s->guard = s->above = 0;
	s->painted = s->paint = 0;
}

void bm_rt_user_stack(struct bm_stack *s)
{
	bm_rt_stack(s);
}

/* What the linker provides in an image: 64 KiB of scratch between two symbols. */
__asm__(".bss\n.balign 64\n.globl __bm_scratch_start\n__bm_scratch_start:\n.skip 65536\n"
        ".globl __bm_scratch_end\n__bm_scratch_end:\n.text\n");

void arch_init(void)
{
}

const struct arch_info *arch_get_info(void)
{
	return &info;
}

/* The arch's set-up as a test scripts it: what the next arch_state_restore finds changed. */
const char *fake_state_changed;
int fake_console_changed;

void arch_state_save(void)
{
}

const char *arch_state_restore(void)
{
	const char *c = fake_state_changed;
	fake_state_changed = 0;
	return c;
}

int fake_console_restore(struct bm_console *con)
{
	(void)con;
	int c = fake_console_changed;
	fake_console_changed = 0;
	return c;
}

/* Events (bm/events.h): the fake core counts the first BM_EVENT_SLOTS names asked for when
 * fake_events_on, as "pmu" events 0x100 + slot on counters FAKE0..; none otherwise. */
int fake_events_on;
#if BM_EVENT_SLOTS
uint64_t fake_ev[BM_EVENT_SLOTS], fake_ev_read_cost, fake_ev_snaps;
#endif
void arch_events_setup(struct bm_event *ev, unsigned n)
{
	static const char *const counters[] = {"FAKE0", "FAKE1", "FAKE2", "FAKE3"};
	for (unsigned i = 0; i < n; i++) {
		if (ev[i].reason) /* (settled by core: an OS's event, or past the slots) */
			continue;
		if (!fake_events_on) {
			ev[i].reason = "the fake core counts no events";
			continue;
		}
		ev[i].source = "pmu";
		ev[i].raw = 0x100 + i;
		ev[i].counter = counters[i % 4];
	}
}

void fake_reset(void)
{
	fake_cycles = 1000;
	fake_instret = 1000;
	fake_counter_written = 0;
	fake_read_cost_cycles = 1;
	fake_read_cost_instret = 1;
	fake_console_len = 0;
	fake_console[0] = '\0';
	fake_exit_status = -1;
	fake_bench_begins = fake_bench_ends = 0;
}

const char bm_libc_name[] = "host libc (fake board)";

/* No C library heap on the fake board. */
void bm_heap_reset(void)
{
}

size_t bm_heap_used_bytes(size_t *heap_bytes)
{
	*heap_bytes = 0;
	return 0;
}
