/* SPDX-License-Identifier: Apache-2.0 */
/* A library routine with a large frame (1,536 bytes, as a crypto routine's state on the stack),
 * built as a static library the image names in LIBRARIES: the fit plan's stack figure of the
 * benchmark that calls it holds this frame (tests/fitplan/CMakeLists.txt). */
#include <stdint.h>

uint32_t fit_deep_frame(uint32_t seed);

uint32_t fit_deep_frame(uint32_t seed)
{
	volatile uint32_t buf[384];
	for (unsigned i = 0; i < 384; i++)
		buf[i] = seed + i;
	uint32_t s = 0;
	for (unsigned i = 0; i < 384; i++)
		s += buf[i];
	return s;
}
