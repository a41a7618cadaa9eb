/* SPDX-License-Identifier: Apache-2.0 */
/* Your own benchmark, kept in your repository: parse a line of comma-separated numbers with the C
 * library's string and ctype functions (every libc the kit links, and BM_LIBC=none, has them). Its
 * data is a static array, as most suites keep theirs: no scratch needed. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "bm/bench.h"

static char line[] = "12, 7,301, 45,9 ,1000, 2 ,88,650,3, 17,42";
static long total;

static int total_right(void)
{
	return total == 12 + 7 + 301 + 45 + 9 + 1000 + 2 + 88 + 650 + 3 + 17 + 42 ? 0 : -1;
}

BM_BENCHMARK(oot_parse_csv, total_right)
{
	long t = 0;
	const char *stop = line + strlen(line);
	for (const char *p = line; p < stop;) {
		while (*p && !isdigit((unsigned char)*p))
			p++;
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		t += v;
		p = end;
	}
	total = t;
	bm_clobber_memory();
}
