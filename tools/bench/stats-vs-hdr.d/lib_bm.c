/* SPDX-License-Identifier: Apache-2.0 */
/* bm_stats behind one non-inlined entry point, in its own translation unit (the driver cannot
 * inline it, as it could not inline HdrHistogram_c's). */
#include <stdlib.h>
#include "bm/stats.h"
#include "libs.h"

void *bm_new(void)
{
	struct bm_stats *s = malloc(sizeof *s);
	if (s)
		bm_stats_init(s);
	return s;
}

size_t bm_bytes(void)
{
	return sizeof(struct bm_stats);
}

/* The insert as a caller outside the library sees it: bm_stats_add's inline fast path behind
 * one call, as HdrHistogram_c's hdr_record_value is. */
void bm_add(void *s, uint64_t v)
{
	bm_stats_add(s, v);
}

uint64_t bm_count(void *s)
{
	return bm_stats_count(s);
}
