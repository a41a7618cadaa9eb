/* SPDX-License-Identifier: Apache-2.0 */
/* Console output without printf (see bm/out.h). Division by 10 on 32-bit cores is a libgcc
 * call, which is fine here: this is report time, never inside a timed region. */
#include "bm/out.h"

#include "bm_board.h"

/* Line endings are decided here, once: a serial line gets CR LF, a console that says lf_only
 * (a file or a pipe) gets LF. */
void bm_out_char(char c)
{
	if (c == '\n' && bm_port_console_crlf())
		bm_port_putc('\r');
	bm_port_putc(c);
}

void bm_out_mem(const char *s, size_t n)
{
	int crlf = bm_port_console_crlf();
	while (n) {
		size_t k = 0;
		if (crlf)
			while (k < n && s[k] != '\n')
				k++;
		else
			k = n;
		if (k)
			bm_port_write(s, k);
		if (k < n) {
			bm_port_write("\r\n", 2);
			k++;
		}
		s += k;
		n -= k;
	}
}

void bm_out_str(const char *s)
{
	bm_out_mem(s, bm_strlen(s));
}

size_t bm_strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

/* "00" .. "99": two digits per division (a record is mostly numbers, ~130 a benchmark). */
static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                                     "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                                     "8081828384858687888990919293949596979899";

/* The last n decimal digits of w (leading zeros included), written backwards from end. */
static void put_digits(char *end, uint32_t w, unsigned n)
{
	for (; n >= 2; n -= 2) {
		uint32_t q = w / 100, r = 2 * (w - q * 100);
		end -= 2;
		end[0] = digit_pairs[r];
		end[1] = digit_pairs[r + 1];
		w = q;
	}
	if (n)
		end[-1] = (char)('0' + w % 10);
}

size_t bm_fmt_u64(char *buf, uint64_t v)
{
	/* Nine digits split off at a time while v needs 64 bits (at most twice): on a 32-bit core a
	 * 64-bit division is a libgcc call, and one per digit would be most of what a record costs. Then
	 * the digit count, and every digit written in its place (no reversal). */
	uint32_t group[2];
	unsigned g = 0, n = 1;
	while (v > UINT32_MAX) {
		group[g++] = (uint32_t)(v % 1000000000u);
		v /= 1000000000u;
	}
	uint32_t w = (uint32_t)v;
	for (uint32_t p = 10; n < 10 && w >= p; p *= 10)
		n++;
	put_digits(buf + n, w, n);
	for (unsigned i = 0; i < g; i++)
		put_digits(buf + n + 9 * (i + 1), group[g - 1 - i], 9);
	n += 9 * g;
	buf[n] = '\0';
	return n;
}

size_t bm_fmt_hex(char *buf, uint64_t v, unsigned digits)
{
	static const char hex[] = "0123456789abcdef";
	if (digits == 0 || digits > 16)
		digits = 16;
	for (unsigned i = 0; i < digits; i++)
		buf[i] = hex[(v >> (4 * (digits - 1 - i))) & 0xf];
	buf[digits] = '\0';
	return digits;
}

size_t bm_fmt_milli(char *buf, uint64_t milli, unsigned frac)
{
	static const uint32_t div[] = {1000, 100, 10, 1};
	if (frac > 3)
		frac = 3;
	uint64_t unit = div[frac];
	uint64_t v = milli / unit;
	if (milli % unit >= (unit + 1) / 2 && unit > 1)
		v++; /* round half up at the printed precision */
	uint64_t scale = 1000 / unit;
	size_t n = bm_fmt_u64(buf, v / scale);
	if (frac) {
		uint64_t f = v % scale;
		buf[n++] = '.';
		for (unsigned i = frac; i-- > 0;) {
			buf[n + i] = (char)('0' + f % 10);
			f /= 10;
		}
		n += frac;
		buf[n] = '\0';
	}
	return n;
}

size_t bm_fmt_u128(char *buf, struct bm_u128 v)
{
	if (!v.hi)
		return bm_fmt_u64(buf, v.lo);
	/* Groups of 9 digits from the bottom, each a division by 10^9 (a one-word divisor, which
	 * bm_u128_divmod does natively), until the rest fits 64 bits: at most 3 for 2^128 - 1. */
	uint32_t group[4];
	unsigned g = 0;
	const struct bm_u128 e9 = bm_u128_from64(1000000000u);
	while (v.hi) {
		struct bm_u128 rem;
		v = bm_u128_divmod(v, e9, &rem);
		group[g++] = (uint32_t)rem.lo;
	}
	size_t n = bm_fmt_u64(buf, v.lo);
	while (g--) {
		for (int i = 8; i >= 0; i--) {
			buf[n + (size_t)i] = (char)('0' + group[g] % 10);
			group[g] /= 10;
		}
		n += 9;
	}
	buf[n] = '\0';
	return n;
}

size_t bm_fmt_milli128(char *buf, struct bm_u128 milli, unsigned frac)
{
	if (!milli.hi)
		return bm_fmt_milli(buf, milli.lo, frac);
	static const uint32_t div[] = {1000, 100, 10, 1};
	if (frac > 3)
		frac = 3;
	/* v = milli / unit rounded half up, printed as whole . fraction (frac digits) */
	struct bm_u128 unit = bm_u128_from64(div[frac]), rem, f;
	bm_u128_add64(&milli, div[frac] / 2);
	struct bm_u128 v = bm_u128_divmod(milli, unit, &rem);
	struct bm_u128 whole = bm_u128_divmod(v, bm_u128_from64(1000 / div[frac]), &f);
	size_t n = bm_fmt_u128(buf, whole);
	if (frac) {
		buf[n++] = '.';
		for (unsigned i = frac; i-- > 0;) {
			buf[n + i] = (char)('0' + f.lo % 10);
			f.lo /= 10;
		}
		n += frac;
		buf[n] = '\0';
	}
	return n;
}

void bm_out_u64(uint64_t v)
{
	char b[BM_FMT_U64_MAX];
	bm_fmt_u64(b, v);
	bm_out_str(b);
}

void bm_out_hex(uint64_t v, unsigned digits)
{
	char b[17];
	bm_fmt_hex(b, v, digits);
	bm_out_str(b);
}

/* n spaces, up to 16 per console write (a table line pads ~100 columns: a byte per call would be
 * a status poll per space). */
static void out_spaces(size_t n)
{
	static const char spaces[16] = "                ";
	for (size_t k; n; n -= k) {
		k = n < sizeof spaces ? n : sizeof spaces;
		bm_out_mem(spaces, k);
	}
}

void bm_out_padded(const char *s, unsigned width, int right)
{
	size_t n = bm_strlen(s);
	if (!right)
		bm_out_mem(s, n);
	out_spaces(n < width ? width - n : 0);
	if (right)
		bm_out_mem(s, n);
}

char *bm_append_str(char *p, const char *s)
{
	while (*s)
		*p++ = *s++;
	*p = '\0';
	return p;
}

char *bm_append_u64(char *p, uint64_t v)
{
	return p + bm_fmt_u64(p, v);
}

char *bm_append_hex(char *p, uint64_t v, unsigned digits)
{
	p = bm_append_str(p, "0x");
	return p + bm_fmt_hex(p, v, digits);
}
