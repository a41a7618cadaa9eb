/* SPDX-License-Identifier: Apache-2.0 */
/* A program from a third-party suite (Embench-style entry points), kept as its authors wrote it:
 * it compiles with warnings under -Wall -Wextra, and shares its entry points' names with the
 * suite's other programs. */
#include <string.h>

#define SIZE 40

static int values[SIZE];
static int scratch_copy[SIZE];

void initialise_benchmark()
{
	int i;
	for (i = 0; i < SIZE; i++)
		values[i] = (i * 7919) % 101;
}

static int compare_and_swap(int *a, int *b, int unused)
{
	int t;
	if (*a > *b) {
		t = *a;
		*a = *b;
		*b = t;
		return 1;
	}
	return 0;
}

int benchmark()
{
	int i, swapped, count = 0;
	unsigned n = SIZE;
	memcpy(scratch_copy, values, sizeof values);
	do {
		swapped = 0;
		for (i = 0; i < n - 1; i++)
			swapped |= compare_and_swap(&scratch_copy[i], &scratch_copy[i + 1], i);
		count++;
	} while (swapped);
	return scratch_copy[0] + scratch_copy[SIZE - 1] * 1000;
}

int verify_benchmark(int r)
{
	int expected_min = 0, expected_max = 100;
	return r == expected_min + expected_max * 1000;
}
