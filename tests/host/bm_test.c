/* SPDX-License-Identifier: Apache-2.0 */
/* Test runner for the host unit tests (see bm_test.h). */
#include "bm_test.h"

int bm_test_failures;

int bm_test_main(const struct bm_test_case *cases, size_t n)
{
	unsigned passed = 0, failed = 0;
	for (size_t i = 0; i < n; i++) {
		bm_test_failures = 0;
		cases[i].fn();
		if (bm_test_failures) {
			printf("FAIL %s (%d checks)\n", cases[i].name, bm_test_failures);
			failed++;
		} else {
			printf("ok   %s\n", cases[i].name);
			passed++;
		}
	}
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}
