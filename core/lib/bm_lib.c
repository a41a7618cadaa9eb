/* SPDX-License-Identifier: Apache-2.0 */
/* The kit as a library (bm/lib.h): the port an image's board and C runtime would supply, made of
 * the application's config instead. Console: cfg->write; timer: cfg->timer_read; the run's end:
 * a return from bm_lib_run; no alarm (the application owns the interrupts), no stack of the kit's
 * own, nothing of the machine's set-up kept (it is the application's). The arch's counters are
 * its library file's (arch/<arch>/lib.c or its hosted arch.c). */
#include "bm/events.h"
#include "bm/harness.h"
#include "bm/lib.h"
#include "libc/heap.h"

static const struct bm_lib_config *lib_cfg;
static void *exit_buf[5];
static volatile int exit_status;
static char board_name[32];

static void kick(void)
{
	if (lib_cfg && lib_cfg->watchdog_kick)
		lib_cfg->watchdog_kick();
}

static void lib_write(struct bm_console *con, const char *s, size_t n)
{
	(void)con;
	kick();
	lib_cfg->write(s, n);
}

static void lib_putc(struct bm_console *con, char c)
{
	lib_write(con, &c, 1);
}

static struct bm_console lib_console = {.name = "application", .putc = lib_putc, .write = lib_write};

static uint64_t lib_timer_read(struct bm_timer *t)
{
	(void)t;
	return lib_cfg->timer_read();
}

static struct bm_timer lib_timer = {.name = "application"};

/* The run's end: back to bm_lib_run's frame, whatever core was doing (core never returns from
 * bm_board_exit). */
__attribute__((noreturn)) static void lib_exit(const struct bm_exit *dev, int status)
{
	(void)dev;
	exit_status = status;
	__builtin_longjmp(exit_buf, 1);
}

static const struct bm_exit lib_exit_dev = {.name = "return from bm_lib_run", .exit = lib_exit};

static void lib_bench_hook(const char *name)
{
	(void)name;
	kick();
}

static void lib_bench_end(const char *name, struct bm_record *r)
{
	(void)r;
	lib_bench_hook(name);
}

/* What the kit cannot own here, said in the meta record's board_facts. */
#define GUARDS_OFF "stack guard and high-water mark, isolation of benchmark code, watchdog alarm, " \
                   "the machine's set-up kept across benchmarks, the heap's reset"
static const struct bm_kv lib_facts[] = {
	{"mode", "library"},
	{"guards_off", GUARDS_OFF},
	{"interrupts", "the application's: they stay on, and one inside a sample shows in its distribution"},
	{0, 0},
};
static const char guards_off_no_faults[] = GUARDS_OFF ", trap recovery (no fault forwarded: bm_lib_fault)";
static struct bm_kv board_facts[4];

/* (no alarm: the interrupts are the application's) */
const struct bm_board board_desc = {
	.name = board_name, .console = &lib_console, .timer = &lib_timer, .exit = &lib_exit_dev,
	.bench_begin = lib_bench_hook, .bench_end = lib_bench_end, .facts = board_facts,
};

const char bm_libc_name[] = "the application's";

/* No stack of the kit's own: core neither paints nor marks one. */
void bm_rt_stack(struct bm_stack *s)
{
	*s = (struct bm_stack){0};
}

void bm_rt_user_stack(struct bm_stack *s)
{
	*s = (struct bm_stack){0};
}

/* The heap is the application's (its C library's, its RTOS's): nothing for the kit to reset or
 * read; a result says nothing of it. */
void bm_heap_reset(void)
{
}

size_t bm_heap_used_bytes(size_t *heap_bytes)
{
	*heap_bytes = 0;
	return 0;
}

/* The machine's set-up is the application's: nothing recorded, nothing put back. */
void arch_state_save(void)
{
}

const char *arch_state_restore(void)
{
	return 0;
}

void arch_events_setup(struct bm_event *ev, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (!ev[i].reason)
			ev[i].reason = "not counted in a library build";
}

/* cfg->select: a comma-separated list of names. */
static int select_listed(const char *name, void *ctx)
{
	const char *p = ctx;
	while (*p) {
		const char *n = name;
		while (*n && *p == *n)
			n++, p++;
		if (!*n && (!*p || *p == ','))
			return 1;
		while (*p && *p != ',')
			p++;
		if (*p == ',')
			p++;
	}
	return 0;
}

/* Read by the arch's library file (arch/<arch>/lib.c): 1 when it may probe (a probe's fault comes
 * back through bm_lib_fault). */
int arch_lib_probe_ok;

int bm_lib_run(const struct bm_lib_config *cfg)
{
	if (!cfg || !cfg->write || lib_cfg)
		return BM_EXIT_CONFIG; /* (no way to say so; or a run is going on already) */
	lib_cfg = cfg;
	const char *name = cfg->board ? cfg->board : "library";
	size_t i = 0;
	for (; name[i] && i + 1 < sizeof board_name; i++)
		board_name[i] = name[i];
	board_name[i] = '\0';
	lib_console.lf_only = cfg->lf_only;
	lib_timer.read = cfg->timer_read && cfg->timer_hz ? lib_timer_read : 0;
	lib_timer.hz = cfg->timer_read ? cfg->timer_hz : 0;
	arch_lib_probe_ok = cfg->faults_forwarded;
	for (i = 0; lib_facts[i].key; i++)
		board_facts[i] = lib_facts[i];
	if (!cfg->faults_forwarded)
		board_facts[1].value = guards_off_no_faults;
	struct bm_config c;
	bm_config_defaults(&c);
	if (cfg->samples)
		c.samples = cfg->samples;
	if (cfg->select && cfg->select[0]) {
		c.select = select_listed;
		c.select_ctx = (void *)(uintptr_t)cfg->select;
	}
	int status;
	if (__builtin_setjmp(exit_buf) == 0)
		status = bm_run(&c);
	else
		status = exit_status;
	lib_cfg = 0;
	return status;
}

int bm_lib_fault(const char *cause, uint64_t code, uint64_t pc, uint64_t addr, int has_addr)
{
	if (!lib_cfg || !lib_cfg->faults_forwarded)
		return 0;
	if (bm_probe_fault())
		return 1;
	struct bm_fault flt = {.kind = BM_FAULT_TRAP, .has_addr = (uint8_t)(has_addr != 0), .cause = cause,
	                       .code = code, .pc = pc, .addr = addr};
	if (!bm_fault_take(&flt))
		return 0;
	bm_recover();
}
