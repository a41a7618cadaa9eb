/* SPDX-License-Identifier: Apache-2.0 */
/* The upstream tree's own test driver: a hosted main that must not be built into an image
 * (THIRD_PARTY_EXCLUDE leaves it out; built, it would define main twice). */
#include <stdio.h>
int main(void)
{
	puts("upstream test driver");
	return 0;
}
