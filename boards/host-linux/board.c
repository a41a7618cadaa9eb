/* host-linux board: stdout as the console (the kit's own buffer, so a signal handler can flush
 * it with write(2)), CLOCK_MONOTONIC_RAW as the timer, exit(2) as the exit device, facts about
 * the OS, and per-benchmark OS accounting as the bench hooks (perf.c). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "arch/hosted.h"
#include "host.h"

static char out_buf[1 << 16];
static size_t out_len;

void host_console_flush(void)
{
	size_t off = 0;
	while (off < out_len) {
		ssize_t n = write(STDOUT_FILENO, out_buf + off, out_len - off);
		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			break;
		}
		off += (size_t)n;
	}
	out_len = 0;
}

static void stdout_putc(struct bm_console *con, char c)
{
	(void)con;
	out_buf[out_len++] = c;
	if (c == '\n' || out_len == sizeof out_buf)
		host_console_flush();
}

uint64_t host_clock_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static uint64_t clock_read(struct bm_timer *t)
{
	(void)t;
	return host_clock_ns();
}

static void process_exit(const struct bm_exit *dev, int status)
{
	(void)dev;
	host_console_flush();
	_exit(status);
}

static void stdout_write(struct bm_console *con, const char *s, size_t n)
{
	while (n--)
		stdout_putc(con, *s++);
}

static struct bm_console console = {.name = "stdout", .putc = stdout_putc, .write = stdout_write, .lf_only = 1};
static struct bm_timer clock_raw = {
	.name = "clock_gettime(CLOCK_MONOTONIC_RAW)", .read = clock_read, .hz = 1000000000u,
};
static const struct bm_exit exit_dev = {.name = "exit(2)", .exit = process_exit};
static struct bm_kv facts[12]; /* the last stays {0, 0} */

void host_add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof facts[0], key, value);
}

/* A process's stack is the kernel's: it grows on demand down to RLIMIT_STACK below its top, with
 * an unmapped gap below that (stack_guard_gap, 1 MiB by default). Known once, at the first call
 * (from main's thread), so a fault there is told apart as a stack overflow; not painted (paint
 * would commit the whole limit), so there is no high-water mark. Unknown (lo == hi) when the limit
 * is unlimited or /proc is not there. */
void bm_rt_stack(struct bm_stack *s)
{
	static uintptr_t lo, hi;
	static int known;
	if (!known) {
		known = 1;
		struct rlimit rl;
		FILE *f = fopen("/proc/self/maps", "r");
		char line[256];
		while (f && fgets(line, sizeof line, f))
			if (strstr(line, "[stack]")) {
				unsigned long a, b;
				if (sscanf(line, "%lx-%lx", &a, &b) == 2)
					hi = b;
				break;
			}
		if (f)
			fclose(f);
		if (hi && getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < hi)
			lo = hi - rl.rlim_cur;
		else
			hi = 0;
	}
	s->lo = lo;
	s->hi = lo ? hi : 0;
	s->guard = lo ? 1u << 20 : 0;
	s->painted = 0;
	s->paint = 0;
}

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &console,
	.timer = &clock_raw,
	.alarm = &arch_host_alarm,
	.exit = &exit_dev,
	.bench_begin = host_bench_begin,
	.bench_end = host_bench_end,
	.facts = facts,
};
