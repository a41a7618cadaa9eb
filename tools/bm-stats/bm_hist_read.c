/* SPDX-License-Identifier: Apache-2.0 */
/* Reading hist records back into statistics states (see bm_hist_read.h). A small JSON reader for
 * exactly what the record writer prints: one object per line, strings, unsigned integers (up to
 * 192 bits for sumsq), booleans, nested objects and arrays; keys it does not use are skipped. */
#define _GNU_SOURCE /* memmem */
#include "bm_hist_read.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm/crc32.h"

enum { K_N = 1, K_MIN = 2, K_MAX = 4, K_SUM = 8, K_SUMSQ = 16, K_TOPK = 32, K_BPO = 64, K_BINS = 128,
       K_TAIL = 256, K_DIV = 512, K_NAME = 1024, K_UNIT = 2048 };
#define K_ALL 4095u

struct jp {
	const char *p, *end;
	const char *err;
};

static void ws(struct jp *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\t'))
		j->p++;
}

static int expect(struct jp *j, char c)
{
	ws(j);
	if (j->p < j->end && *j->p == c) {
		j->p++;
		return 1;
	}
	if (!j->err)
		j->err = "not a well-formed record";
	return 0;
}

/* A JSON string (escapes \" \\ \/ \uXXXX for control bytes) into buf, truncated to n-1 bytes. */
static int str(struct jp *j, char *buf, size_t n)
{
	size_t k = 0;
	if (!expect(j, '"'))
		return 0;
	while (j->p < j->end && *j->p != '"') {
		char c = *j->p++;
		if (c == '\\') {
			if (j->p >= j->end)
				break;
			c = *j->p++;
			if (c == 'u') {
				unsigned v = 0;
				for (int i = 0; i < 4 && j->p < j->end; i++, j->p++)
					v = v * 16 + (unsigned)(*j->p <= '9' ? *j->p - '0' : (*j->p | 32) - 'a' + 10);
				c = (char)v;
			}
		}
		if (buf && k + 1 < n)
			buf[k++] = c;
	}
	if (buf)
		buf[k] = 0;
	return expect(j, '"');
}

/* An unsigned integer of up to 192 bits, as 64-bit words. 0: not one (or a fraction). */
static int bignum(struct jp *j, uint64_t w[3])
{
	ws(j);
	w[0] = w[1] = w[2] = 0;
	if (j->p >= j->end || *j->p < '0' || *j->p > '9') {
		j->err = j->p < j->end && *j->p == '-' ? "a negative number" : "not a number where one belongs";
		return 0;
	}
	for (; j->p < j->end && *j->p >= '0' && *j->p <= '9'; j->p++) {
		unsigned __int128 c = (unsigned)(*j->p - '0');
		for (int k = 0; k < 3; k++) {
			unsigned __int128 t = (unsigned __int128)w[k] * 10 + c;
			w[k] = (uint64_t)t;
			c = t >> 64;
		}
		if (c) {
			j->err = "a number above 2^192";
			return 0;
		}
	}
	if (j->p < j->end && (*j->p == '.' || *j->p == 'e' || *j->p == 'E')) {
		j->err = "a fractional number where an integer belongs";
		return 0;
	}
	return 1;
}

static int u64v(struct jp *j, uint64_t *v)
{
	uint64_t w[3];
	if (!bignum(j, w))
		return 0;
	if (w[1] || w[2]) {
		j->err = "a number above 2^64-1 where a 64-bit one belongs";
		return 0;
	}
	*v = w[0];
	return 1;
}

static int boolv(struct jp *j, bool *b)
{
	ws(j);
	if (j->end - j->p >= 4 && !memcmp(j->p, "true", 4)) {
		j->p += 4;
		*b = true;
		return 1;
	}
	if (j->end - j->p >= 5 && !memcmp(j->p, "false", 5)) {
		j->p += 5;
		*b = false;
		return 1;
	}
	j->err = "not a boolean where one belongs";
	return 0;
}

/* Any value (for keys we do not use). */
static int skip(struct jp *j, int depth)
{
	ws(j);
	if (j->p >= j->end || depth > 8)
		return expect(j, '?');
	char c = *j->p;
	if (c == '"')
		return str(j, 0, 0);
	if (c == '{' || c == '[') {
		char close = c == '{' ? '}' : ']';
		j->p++;
		ws(j);
		if (j->p < j->end && *j->p == close) {
			j->p++;
			return 1;
		}
		for (;;) {
			if (c == '{' && (!str(j, 0, 0) || !expect(j, ':')))
				return 0;
			if (!skip(j, depth + 1))
				return 0;
			ws(j);
			if (j->p < j->end && *j->p == ',') {
				j->p++;
				continue;
			}
			return expect(j, close);
		}
	}
	if (c == 't' || c == 'f') {
		bool b;
		return boolv(j, &b);
	}
	if (j->end - j->p >= 4 && !memcmp(j->p, "null", 4)) {
		j->p += 4;
		return 1;
	}
	while (j->p < j->end && (*j->p == '-' || *j->p == '+' || *j->p == '.' || *j->p == 'e' || *j->p == 'E' ||
	                         (*j->p >= '0' && *j->p <= '9')))
		j->p++;
	return 1;
}

static int list_begin(struct jp *j)
{
	if (!expect(j, '['))
		return -1;
	ws(j);
	if (j->p < j->end && *j->p == ']') {
		j->p++;
		return 0;
	}
	return 1;
}

/* After an element: 1 another follows, 0 the list ended, -1 malformed. */
static int list_next(struct jp *j)
{
	ws(j);
	if (j->p < j->end && *j->p == ',') {
		j->p++;
		return 1;
	}
	return expect(j, ']') ? 0 : -1;
}

static int bins(struct jp *j, struct hist *h)
{
	int more = list_begin(j);
	while (more > 0) {
		uint64_t b[3];
		if (!expect(j, '[') || !u64v(j, &b[0]) || !expect(j, ',') || !u64v(j, &b[1]) || !expect(j, ',') ||
		    !u64v(j, &b[2]) || !expect(j, ']'))
			return 0;
		if (h->nbins == h->cap) {
			size_t cap = h->cap ? 2 * h->cap : 64;
			void *nb = realloc(h->bins, cap * sizeof *h->bins);
			if (!nb) {
				j->err = "out of memory";
				return 0;
			}
			h->bins = nb;
			h->cap = cap;
		}
		memcpy(h->bins[h->nbins++], b, sizeof b);
		more = list_next(j);
	}
	return more == 0;
}

static int tail(struct jp *j, struct hist *h)
{
	int more = list_begin(j);
	while (more > 0) {
		uint64_t v;
		if (!u64v(j, &v))
			return 0;
		if (h->ntail == BM_STATS_TOPK) {
			j->err = "the tail is longer than this build's BM_STATS_TOPK";
			return 0;
		}
		h->tail[h->ntail++] = v;
		more = list_next(j);
	}
	return more == 0;
}

/* "values": [[v, count], ...], at most BM_STATS_TOPK of them. */
static int values(struct jp *j, struct hist *h)
{
	int more = list_begin(j);
	while (more > 0) {
		uint64_t v, c;
		if (!expect(j, '[') || !u64v(j, &v) || !expect(j, ',') || !u64v(j, &c) || !expect(j, ']'))
			return 0;
		if (h->nvalues == BM_STATS_TOPK) {
			j->err = "more values than this build's BM_STATS_TOPK";
			return 0;
		}
		h->values[h->nvalues][0] = v;
		h->values[h->nvalues++][1] = c;
		more = list_next(j);
	}
	if (more == 0 && h->nvalues == 0) {
		j->err = "an empty values list";
		return 0;
	}
	return more == 0;
}

/* One record (the line up to its closing brace) into h. */
static int record(struct jp *j, struct hist *h)
{
	uint64_t w[3];
	if (!expect(j, '{'))
		return 0;
	for (;;) {
		char key[32];
		if (!str(j, key, sizeof key) || !expect(j, ':'))
			return 0;
		int ok = 1;
		unsigned bit = 0;
		if (!strcmp(key, "type"))
			ok = str(j, h->type, sizeof h->type);
		else if (!strcmp(key, "name"))
			ok = str(j, h->name, sizeof h->name), bit = K_NAME;
		else if (!strcmp(key, "unit"))
			ok = str(j, h->unit, sizeof h->unit), bit = K_UNIT;
		else if (!strcmp(key, "div"))
			ok = u64v(j, &h->div), bit = K_DIV;
		else if (!strcmp(key, "n"))
			ok = u64v(j, &h->head.n), bit = K_N;
		else if (!strcmp(key, "min"))
			ok = u64v(j, &h->head.min), bit = K_MIN;
		else if (!strcmp(key, "max"))
			ok = u64v(j, &h->head.max), bit = K_MAX;
		else if (!strcmp(key, "topk"))
			ok = u64v(j, &h->head.topk), bit = K_TOPK;
		else if (!strcmp(key, "bins_per_octave"))
			ok = u64v(j, &h->head.bins_per_octave), bit = K_BPO;
		else if (!strcmp(key, "sum")) {
			ok = bignum(j, w), bit = K_SUM;
			h->head.sum.lo = w[0];
			h->head.sum.hi = w[1];
			if (ok && w[2])
				j->err = "sum is above 2^128 (beyond what a state holds)", ok = 0;
		} else if (!strcmp(key, "sumsq")) {
			ok = bignum(j, h->head.sumsq), bit = K_SUMSQ;
		} else if (!strcmp(key, "saturated")) {
			ok = expect(j, '{');
			while (ok) {
				char k2[16];
				bool b;
				ok = str(j, k2, sizeof k2) && expect(j, ':') && boolv(j, &b);
				if (ok && !strcmp(k2, "sum"))
					h->head.sum_saturated = b;
				if (ok && !strcmp(k2, "bins"))
					h->head.bins_saturated = b;
				ws(j);
				if (!ok || j->p >= j->end || *j->p != ',')
					break;
				j->p++;
			}
			ok = ok && expect(j, '}');
		} else if (!strcmp(key, "bins"))
			ok = bins(j, h), bit = K_BINS;
		else if (!strcmp(key, "tail"))
			ok = tail(j, h), bit = K_TAIL;
		else if (!strcmp(key, "values"))
			ok = values(j, h);
		else if (!strcmp(key, "crc"))
			return str(j, 0, 0) && expect(j, '}');
		else
			ok = skip(j, 0);
		if (!ok)
			return 0;
		h->seen |= bit;
		if (!expect(j, ','))
			return 0;
	}
}

/* The CRC rule of docs/records.md: CRC-32 of every byte before "crc":, as 8 lowercase hex digits. */
int bm_hist_crc_ok(const char *line, size_t len)
{
	static const char tag[] = "\"crc\":\"";
	const char *p = 0;
	for (size_t i = 0; i + sizeof tag - 1 + 10 <= len; i++)
		if (!memcmp(line + i, tag, sizeof tag - 1))
			p = line + i;
	if (!p)
		return 0;
	char want[9];
	snprintf(want, sizeof want, "%08x", (unsigned)bm_crc32_update(0, line, (size_t)(p - line)));
	return !memcmp(p + sizeof tag - 1, want, 8) && p[sizeof tag - 1 + 8] == '"';
}

int bm_hist_parse(const char *line, size_t len, struct hist *h, const char **err)
{
	void *keep = h->bins;
	size_t kcap = h->cap;
	memset(h, 0, sizeof *h);
	h->bins = keep;
	h->cap = kcap;
	*err = 0;
	/* A damaged line is refused when it looks like a hist record at all (its type may be what
	 * was damaged); other damaged lines are not this reader's to judge. */
	if (!bm_hist_crc_ok(line, len)) {
		static const char *const marks[] = {"{\"type\":\"hist\"", "\"bins\":[", "\"tail\":[", "\"sumsq\":"};
		for (size_t k = 0; k < sizeof marks / sizeof marks[0]; k++)
			if (memmem(line, len, marks[k], strlen(marks[k]))) {
				*err = "its CRC does not match (damaged on the way)";
				return -1;
			}
		return 0;
	}
	struct jp j = {line, line + len, 0};
	int ok = record(&j, h);
	if (strcmp(h->type, "hist"))
		return 0;
	if (!ok) {
		*err = j.err ? j.err : "not a well-formed record";
		return -1;
	}
	if ((h->seen & K_ALL) != K_ALL) {
		*err = "a key is missing (n, min, max, sum, sumsq, topk, bins_per_octave, bins, tail, name, unit, div)";
		return -1;
	}
	if (h->div == 0) {
		*err = "div is 0";
		return -1;
	}
	return 1;
}

/* An exact state's view against the record's bins and tail, element by element. */
struct view_check {
	const struct hist *h;
	size_t bin, tail;
	int bad;
};

static void check_bin(void *ctx, uint64_t lo, uint64_t hi, uint64_t count)
{
	struct view_check *c = ctx;
	if (c->bin >= c->h->nbins || c->h->bins[c->bin][0] != lo || c->h->bins[c->bin][1] != hi ||
	    c->h->bins[c->bin][2] != count)
		c->bad = 1;
	c->bin++;
}

static void check_tail(void *ctx, uint64_t v)
{
	struct view_check *c = ctx;
	if (c->tail >= c->h->ntail || c->h->tail[c->tail] != v)
		c->bad = 1;
	c->tail++;
}

static const char *rebuild_values(struct bm_stats *s, struct hist *h)
{
	h->head.nvalues = h->nvalues;
	const char *why = bm_stats_rebuild_begin(s, &h->head);
	for (size_t i = 0; !why && i < h->nvalues; i++)
		why = bm_stats_rebuild_value(s, h->values[i][0], h->values[i][1]);
	if (!why)
		why = bm_stats_rebuild_end(s, &h->head);
	if (why)
		return why;
	struct view_check c = {h, 0, 0, 0};
	struct bm_stats_view v = {check_bin, check_tail, 0, &c};
	bm_stats_view(s, &v);
	return c.bad || c.bin != h->nbins || c.tail != h->ntail ? "bins or tail are not what its values give" : 0;
}

const char *bm_hist_rebuild(struct bm_stats *s, struct hist *h)
{
	if (h->nvalues)
		return rebuild_values(s, h);
	h->head.nbins = h->nbins;
	h->head.last_lo = h->nbins ? h->bins[h->nbins - 1][0] : 0;
	h->head.nvalues = 0;
	const char *why = bm_stats_rebuild_begin(s, &h->head);
	for (size_t i = 0; !why && i < h->nbins; i++)
		why = bm_stats_rebuild_bin(s, h->bins[i][0], h->bins[i][1], h->bins[i][2]);
	for (size_t i = 0; !why && i < h->ntail; i++)
		why = bm_stats_rebuild_tail(s, h->tail[i]);
	if (!why)
		why = bm_stats_rebuild_end(s, &h->head);
	return why;
}
