/* SPDX-License-Identifier: Apache-2.0 */
/* Reading hist records (docs/records.md) back into statistics states: the CRC rule, a parser for
 * the record's keys, and the rebuild through the core's bm_stats_rebuild_*. Host C (libc); used
 * by bm-stats and by the statistics tests. */
#ifndef BM_HIST_READ_H
#define BM_HIST_READ_H

#include <stddef.h>
#include <stdint.h>

#include "bm/stats.h"

/* A parsed hist record: what bm_stats_rebuild_* needs, plus its name, unit and div. */
struct hist {
	char name[128], unit[64], type[16];
	uint64_t div;
	struct bm_stats_hist_head head;
	uint64_t (*bins)[3]; /* [lo, hi, count], grown with realloc; free() it */
	size_t nbins, cap;
	uint64_t tail[BM_STATS_TOPK];
	size_t ntail;
	uint64_t values[BM_STATS_TOPK][2]; /* [value, count]: an exact-mode state's ("values") */
	size_t nvalues;
	unsigned seen; /* keys found, one bit each */
};

/* 1 when the line (without its newline) ends in the "crc" of docs/records.md and it matches. */
int bm_hist_crc_ok(const char *line, size_t len);
/* A record line into h (h->bins kept for reuse): 1 a hist record, 0 another record type, -1 a
 * damaged or malformed hist record (*err says why: a bad CRC, a missing key, a bad number). */
int bm_hist_parse(const char *line, size_t len, struct hist *h, const char **err);
/* The state h describes, rebuilt through the core: 0, or why the record is inconsistent (an
 * exact state's "bins" and "tail" must be what bm_stats_view gives of its "values"). */
const char *bm_hist_rebuild(struct bm_stats *s, struct hist *h);

#endif
