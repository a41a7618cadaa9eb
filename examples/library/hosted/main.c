/* SPDX-License-Identifier: Apache-2.0 */
/* An existing Linux program that runs the kit's benchmarks from its own main through the hosted
 * library: its stdout for the records, CLOCK_MONOTONIC for ns, the names to run from its command
 * line (default: every benchmark the library holds). */
#include <stdio.h>
#include <time.h>

#include "bm/lib.h"

static void out(const char *buf, size_t len)
{
	fwrite(buf, 1, len, stdout);
}

static uint64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int main(int argc, char **argv)
{
	printf("hosted-app: its own work first, then the kit\n");
	const struct bm_lib_config cfg = {
		.write = out,
		.lf_only = 1,
		.timer_read = monotonic_ns,
		.timer_hz = 1000000000u,
		.select = argc > 1 ? argv[1] : NULL,
		.board = "hosted-app",
	};
	int status = bm_lib_run(&cfg);
	fflush(stdout);
	fprintf(stderr, "hosted-app: bm_lib_run returned %d\n", status);
	return status;
}
