/* SPDX-License-Identifier: Apache-2.0 */
/* The hand-computable kernels on this machine, for Valgrind's cache simulation (callgrind
 * --cache-sim=yes): `callgrind_driver KERNEL PASSES` runs one warm-up pass, then PASSES passes
 * with collection on, so callgrind's totals / PASSES are per-iteration figures comparable to the
 * QEMU cache model's (tools/bench/cache-model). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <valgrind/callgrind.h>

#include "../kernels/cache_kernels.h"

static uint64_t ck_2x[CK_SEQ_2X_BYTES / 8] __attribute__((aligned(CK_LINE)));
static uint64_t ck_half[CK_SEQ_HALF_BYTES / 8] __attribute__((aligned(CK_LINE)));
static volatile uint64_t ck_strided[CK_STRIDE_BYTES / 8] __attribute__((aligned(CK_LINE)));

static __attribute__((noinline)) uint64_t pass(const char *k)
{
	if (!strcmp(k, "ck_seq_2x"))
		return ck_walk(ck_2x, CK_SEQ_2X_BYTES);
	if (!strcmp(k, "ck_seq_half"))
		return ck_walk(ck_half, CK_SEQ_HALF_BYTES);
	return ck_stride(ck_strided);
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[1], "ck_seq_2x") && strcmp(argv[1], "ck_seq_half") &&
	                  strcmp(argv[1], "ck_stride5")) || atoi(argv[2]) < 1) {
		fprintf(stderr, "usage: %s ck_seq_2x|ck_seq_half|ck_stride5 PASSES\n", argv[0]);
		return 2;
	}
	for (size_t i = 0; i < CK_SEQ_2X_BYTES / 8; i++)
		ck_2x[i] = i;
	for (size_t i = 0; i < CK_SEQ_HALF_BYTES / 8; i++)
		ck_half[i] = i;
	for (size_t i = 0; i < CK_STRIDE_BYTES / 8; i++)
		ck_strided[i] = i;
	uint64_t s = pass(argv[1]);
	int n = atoi(argv[2]);
	CALLGRIND_TOGGLE_COLLECT;
	for (int i = 0; i < n; i++)
		s += pass(argv[1]);
	CALLGRIND_TOGGLE_COLLECT;
	printf("%llu\n", (unsigned long long)s);
	return 0;
}
