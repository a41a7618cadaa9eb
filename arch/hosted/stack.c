/* SPDX-License-Identifier: Apache-2.0 */
/* The hosted C runtime's part of the port contract (bm/port.h): the main thread's stack as the
 * kernel gives it, so core tells a fault below it apart as a stack overflow. */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "bm/port.h"

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
	s->above = 0;
	s->painted = 0;
	s->paint = 0;
}

/* Benchmark code runs as the process does: no stack of its own. */
void bm_rt_user_stack(struct bm_stack *s)
{
	*s = (struct bm_stack){0};
}
