/* SPDX-License-Identifier: Apache-2.0 */
/* JSON record writer (see bm/record.h). Every byte goes to the console and into the running
 * CRC at once; strings are escaped so a record always parses. */
#include "bm/record.h"

#include "bm/crc32.h"
#include "bm/out.h"
#include "bm_board.h"

/* Straight to the console: a record's text holds no newline (JSON escapes control characters;
 * its one line end is bm_rec_end's, through bm_out_str), so nothing needs CR LF here. */
static void flush(struct bm_record *r)
{
	bm_port_write(r->buf, r->len);
	r->len = 0;
}

static void put(struct bm_record *r, char c)
{
	r->crc = bm_crc32_step(r->crc, (uint8_t)c); /* kept inverted until the end */
	r->buf[r->len++] = c;
	if (r->len == BM_RECORD_CHUNK)
		flush(r);
}

/* The CRC and the fill level in locals: a char store may alias any field of *r, so through r
 * they would be reloaded and stored for every byte. */
static void put_raw(struct bm_record *r, const char *s)
{
	uint32_t crc = r->crc;
	size_t len = r->len;
	for (char c; (c = *s) != 0; s++) {
		crc = bm_crc32_step(crc, (uint8_t)c);
		r->buf[len++] = c;
		if (len == BM_RECORD_CHUNK) {
			r->len = (uint8_t)len;
			flush(r);
			len = 0;
		}
	}
	r->crc = crc;
	r->len = (uint8_t)len;
}

/* Whether a string goes into JSON as it is (nothing to escape). */
static int plain(const char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || (unsigned char)*s < 0x20 || *s == 0x7f)
			return 0;
	return 1;
}

/* s with JSON's escapes, without quotes. */
static void put_escaped(struct bm_record *r, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	if (plain(s)) {
		put_raw(r, s);
		return;
	}
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '"' || c == '\\') {
			put(r, '\\');
			put(r, (char)c);
		} else if (c < 0x20 || c == 0x7f) {
			put_raw(r, "\\u00");
			put(r, hex[c >> 4]);
			put(r, hex[c & 0xf]);
		} else {
			put(r, (char)c);
		}
	}
}

static void put_string(struct bm_record *r, const char *s)
{
	put(r, '"');
	put_escaped(r, s);
	put(r, '"');
}

/* ,"key": -- as one piece when the key is a short plain name (every key of the kit's), copied
 * and checked in one pass. */
static void key(struct bm_record *r, const char *k)
{
	char b[48];
	size_t n = 0, i = 0;
	if (r->need_comma)
		b[n++] = ',';
	r->need_comma = 1;
	b[n++] = '"';
	for (; k[i] && n < sizeof b - 3; i++) {
		unsigned char c = (unsigned char)k[i];
		if (c == '"' || c == '\\' || c < 0x20 || c == 0x7f)
			break;
		b[n++] = (char)c;
	}
	if (!k[i]) {
		b[n++] = '"';
		b[n++] = ':';
		b[n] = '\0';
		put_raw(r, b);
		return;
	}
	b[n - i] = '\0'; /* a long or unusual key: the quote, then the key escaped */
	put_raw(r, b);
	put_escaped(r, k);
	put_raw(r, "\":");
}

/* (In the kit's .bss, between the guard words linker/common.ld puts around it: a user's global
 * that overflowed into it renumbered every later record, a seq of 1.5e9 once, unsaid.) */
static uint32_t next_seq;

void bm_rec_begin(struct bm_record *r, const char *type)
{
	const char *m = "meta", *t = type;
	while (*m && *m == *t)
		m++, t++;
	if (*m == *t) /* a meta record starts a boot */
		next_seq = 0;
	r->crc = ~0u;
	r->need_comma = 0;
	r->len = 0;
	put(r, '{');
	bm_rec_str(r, "type", type);
	bm_rec_u64(r, "format", BM_RECORD_FORMAT);
	bm_rec_u64(r, "seq", next_seq++);
}

void bm_rec_str(struct bm_record *r, const char *k, const char *value)
{
	key(r, k);
	put_string(r, value ? value : "");
}

void bm_rec_u64(struct bm_record *r, const char *k, uint64_t value)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_u64(b, value);
	key(r, k);
	put_raw(r, b);
}

void bm_rec_milli(struct bm_record *r, const char *k, uint64_t milli)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_milli(b, milli, 3);
	key(r, k);
	put_raw(r, b);
}

void bm_rec_bool(struct bm_record *r, const char *k, int value)
{
	key(r, k);
	put_raw(r, value ? "true" : "false");
}

void bm_rec_u128(struct bm_record *r, const char *k, struct bm_u128 value)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_u128(b, value);
	key(r, k);
	put_raw(r, b);
}

void bm_rec_milli128(struct bm_record *r, const char *k, struct bm_u128 milli)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_milli128(b, milli, 3);
	key(r, k);
	put_raw(r, b);
}

void bm_rec_num(struct bm_record *r, const char *k, const char *digits)
{
	key(r, k);
	put_raw(r, digits);
}

/* An array element: a comma first unless it is the first in its array. */
static void elem(struct bm_record *r)
{
	if (r->need_comma)
		put(r, ',');
	r->need_comma = 1;
}

/* An object or array opens (its first member or element needs no comma) or closes (the next
 * one after it does). */
static inline __attribute__((always_inline)) void open_(struct bm_record *r, char bracket)
{
	put(r, bracket);
	r->need_comma = 0;
}

static inline __attribute__((always_inline)) void close_(struct bm_record *r, char bracket)
{
	put(r, bracket);
	r->need_comma = 1;
}

void bm_rec_array_begin(struct bm_record *r, const char *k)
{
	key(r, k);
	open_(r, '[');
}

void bm_rec_elem_array_begin(struct bm_record *r)
{
	elem(r);
	open_(r, '[');
}

void bm_rec_elem_u64(struct bm_record *r, uint64_t value)
{
	char b[BM_FMT_NUM_MAX + 1];
	b[0] = ',';
	bm_fmt_u64(b + 1, value);
	put_raw(r, r->need_comma ? b : b + 1);
	r->need_comma = 1;
}

void bm_rec_elem_str(struct bm_record *r, const char *value)
{
	elem(r);
	put_string(r, value ? value : "");
}

void bm_rec_array_end(struct bm_record *r)
{
	close_(r, ']');
}

void bm_rec_obj_begin(struct bm_record *r, const char *k)
{
	key(r, k);
	open_(r, '{');
}

void bm_rec_obj_end(struct bm_record *r)
{
	close_(r, '}');
}

void bm_rec_end(struct bm_record *r)
{
	char b[9];
	if (r->need_comma)
		put(r, ',');
	/* The CRC covers everything before "crc":, so take it now and stop feeding it. */
	bm_fmt_hex(b, ~r->crc, 8);
	flush(r);
	bm_out_str("\"crc\":\"");
	bm_out_str(b);
	bm_out_str("\"}\n");
}
