/* host-linux board: stdout as the console (the kit's own buffer, so a signal handler can flush
 * it with write(2)), CLOCK_MONOTONIC_RAW as the timer, exit(2) as the exit device, facts about
 * the OS, and per-benchmark OS accounting as the bench hooks (perf.c). */
#include <errno.h>
#include <time.h>
#include <unistd.h>

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

static uint64_t clock_read(const struct bm_timer *t)
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

static struct bm_console console = {.name = "stdout", .putc = stdout_putc, .lf_only = 1};
static struct bm_timer clock_raw = {
	.name = "clock_gettime(CLOCK_MONOTONIC_RAW)", .read = clock_read, .hz = 1000000000u,
};
static const struct bm_exit exit_dev = {.name = "exit(2)", .exit = process_exit};
static struct bm_kv facts[12]; /* the last stays {0, 0} */

void host_add_fact(const char *key, const char *value)
{
	bm_kv_add(facts, sizeof facts / sizeof facts[0], key, value);
}

/* A process's stack is the kernel's: no paint, no high-water mark. */
void bm_rt_stack(struct bm_stack *s)
{
	s->lo = s->hi = s->guard = 0;
	s->paint = 0;
}

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &console,
	.timer = &clock_raw,
	.exit = &exit_dev,
	.bench_begin = host_bench_begin,
	.bench_end = host_bench_end,
	.facts = facts,
};
