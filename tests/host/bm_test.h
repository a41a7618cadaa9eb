/* SPDX-License-Identifier: Apache-2.0 */
/* A minimal test framework for the host unit tests: checks record failures with file:line and
 * keep going; the runner prints "N passed, N failed" (read by ctest users and CI). */
#ifndef BM_TEST_H
#define BM_TEST_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "bm/wide.h"

extern int bm_test_failures;  /* checks failed in the current test */

#define BM_CHECK(cond)                                                                    \
	do {                                                                              \
		if (!(cond)) {                                                            \
			printf("  %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			bm_test_failures++;                                               \
		}                                                                         \
	} while (0)

#define BM_CHECK_EQ_U64(a, b)                                                             \
	do {                                                                              \
		uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b);                          \
		if (a_ != b_) {                                                           \
			printf("  %s:%d: %s == %s: %" PRIu64 " != %" PRIu64 "\n", __FILE__,  \
			       __LINE__, #a, #b, a_, b_);                                 \
			bm_test_failures++;                                               \
		}                                                                         \
	} while (0)

/* A 128-bit figure (struct bm_u128) equals the integer b (up to unsigned __int128). */
#define BM_CHECK_EQ_U128(a, b)                                                            \
	do {                                                                              \
		struct bm_u128 a_ = (a);                                                  \
		unsigned __int128 b_ = (b);                                               \
		if (((unsigned __int128)a_.hi << 64 | a_.lo) != b_) {                     \
			printf("  %s:%d: %s == %s: 0x%016" PRIx64 "%016" PRIx64                \
			       " != 0x%016" PRIx64 "%016" PRIx64 "\n", __FILE__, __LINE__, #a, #b, \
			       a_.hi, a_.lo, (uint64_t)(b_ >> 64), (uint64_t)b_);          \
			bm_test_failures++;                                               \
		}                                                                         \
	} while (0)

#define BM_CHECK_STR(a, b)                                                                \
	do {                                                                              \
		const char *a_ = (a), *b_ = (b);                                          \
		if (strcmp(a_, b_) != 0) {                                                \
			printf("  %s:%d: %s == %s:\n    got  \"%s\"\n    want \"%s\"\n",       \
			       __FILE__, __LINE__, #a, #b, a_, b_);                       \
			bm_test_failures++;                                               \
		}                                                                         \
	} while (0)

typedef void (*bm_test_fn)(void);
struct bm_test_case {
	const char *name;
	bm_test_fn fn;
};
#define BM_TEST_CASE(fn) {#fn, fn}

/* Runs every case, prints a line per case and the closing "N passed, N failed" line.
 * Returns the process exit status. */
int bm_test_main(const struct bm_test_case *cases, size_t n);

#endif /* BM_TEST_H */
