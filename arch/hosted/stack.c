/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted C runtime's part of the port contract (bm/port.h): the main thread's stack as the
 * kernel gives it, so core tells a fault below it apart as a stack overflow. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "bm/port.h"

/* A process's stack is the kernel's: it grows on demand down to RLIMIT_STACK below its top, with
 * an unmapped gap below that (stack_guard_gap, 1 MiB by default). Known once, at the first call
 * (from main's thread), so a fault there is told apart as a stack overflow; not painted (paint
 * would commit the whole limit), so there is no high-water mark. Unknown (lo == hi) when the limit
 * is unlimited or /proc is not there. */
/* The end of /proc/self/maps' "[stack]" line, 0 when not found: read with open and read, not
 * stdio, which would take its FILE from malloc (a benchmark file may replace malloc for the whole
 * process). The [stack] line is near the end: the file is read in windows with the last line's
 * start carried over. */
static uintptr_t stack_top(void)
{
	char buf[4096 + 1];
	size_t have = 0;
	uintptr_t top = 0;
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	for (ssize_t n; fd >= 0 && !top && (n = read(fd, buf + have, sizeof buf - 1 - have)) > 0;) {
		have += (size_t)n;
		buf[have] = '\0';
		char *line = buf, *nl;
		while (!top && (nl = strchr(line, '\n')) != NULL) {
			*nl = '\0';
			char *dash = strchr(line, '-');
			if (strstr(line, "[stack]") && dash)
				top = (uintptr_t)strtoul(dash + 1, NULL, 16);
			line = nl + 1;
		}
		have = (size_t)(buf + have - line);
		memmove(buf, line, have);
		if (have == sizeof buf - 1) /* (a line longer than the window: dropped) */
			have = 0;
	}
	if (fd >= 0)
		close(fd);
	return top;
}

void bm_rt_stack(struct bm_stack *s)
{
	static uintptr_t lo, hi;
	static int known;
	if (!known) {
		known = 1;
		struct rlimit rl;
		hi = stack_top();
		if (hi && getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < hi)
			lo = hi - rl.rlim_cur;
		else
			hi = 0;
	}
	s->lo = lo;
	s->hi = lo ? hi : 0;
	s->guard = lo ? 1u << 20 : 0;
	s->above = 0;
	s->painted = 0;
	s->paint = 0;
}

/* Benchmark code runs as the process does: no stack of its own. */
void bm_rt_user_stack(struct bm_stack *s)
{
	*s = (struct bm_stack){0};
}
