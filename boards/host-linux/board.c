/* SPDX-License-Identifier: Apache-2.0 */
/* host-linux board: stdout as the console (the kit's own buffer, so a signal handler can flush
 * it with write(2)), the process's clock as the timer, _exit as the exit device. The rest of a
 * Linux program (main, the command line, OS facts and accounting) is the hosted runtime's. */
#include <errno.h>
#include <unistd.h>

#include "arch/hosted.h"

static char out_buf[1 << 16];
static size_t out_len;

static void stdout_flush(void)
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
		stdout_flush();
}

static void stdout_write(struct bm_console *con, const char *s, size_t n)
{
	while (n--)
		stdout_putc(con, *s++);
}

static uint64_t clock_read(struct bm_timer *t)
{
	(void)t;
	return arch_host_clock_ns();
}

static void process_exit(const struct bm_exit *dev, int status)
{
	(void)dev;
	stdout_flush();
	_exit(status);
}

static struct bm_console console = {.name = "stdout", .putc = stdout_putc, .write = stdout_write, .lf_only = 1};
static struct bm_timer clock_raw = {
	.name = "clock_gettime(CLOCK_MONOTONIC_RAW)", .read = clock_read, .hz = 1000000000u,
};
static const struct bm_exit exit_dev = {.name = "exit(2)", .exit = process_exit};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &console,
	.timer = &clock_raw,
	.alarm = &arch_host_alarm,
	.exit = &exit_dev,
	.bench_begin = arch_host_bench_begin,
	.bench_end = arch_host_bench_end,
	.facts = arch_host_facts,
};
