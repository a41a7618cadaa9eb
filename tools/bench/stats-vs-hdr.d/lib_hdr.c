/* SPDX-License-Identifier: Apache-2.0 */
/* HdrHistogram_c set up as the issue measured it: values 1 .. 2^32, 2 significant figures. */
#include <stdlib.h>
#include "hdr_histogram.h"
#include "libs.h"

void *hdr_new(void)
{
	struct hdr_histogram *h = 0;
	if (hdr_init(1, INT64_C(4294967296), 2, &h))
		return 0;
	return h;
}

size_t hdr_bytes(void *h)
{
	return hdr_get_memory_size(h);
}

uint64_t hdr_count(void *h)
{
	return (uint64_t)((struct hdr_histogram *)h)->total_count;
}
