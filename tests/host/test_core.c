/* SPDX-License-Identifier: Apache-2.0 */
/* Unit tests for the core's small pieces: CRC-32 against zlib's check value, number
 * formatting and rounding, the JSON record writer (escaping, CRC over the line), and the
 * 128-bit arithmetic against the compiler's __int128. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm/crc32.h"
#include "bm/out.h"
#include "bm/record.h"
#include "bm/wide.h"
#include "bm_test.h"
#include "fake_platform.h"

static void crc32_check_value(void)
{
	BM_CHECK_EQ_U64(bm_crc32_update(0, "123456789", 9), 0xcbf43926u);
	BM_CHECK_EQ_U64(bm_crc32_update(0, "", 0), 0);
	/* Incremental equals one-shot. */
	uint32_t c = bm_crc32_update(0, "12345", 5);
	BM_CHECK_EQ_U64(bm_crc32_update(c, "6789", 4), 0xcbf43926u);
}

static void fmt_numbers(void)
{
	char b[BM_FMT_NUM_MAX];
	bm_fmt_u64(b, 0);
	BM_CHECK_STR(b, "0");
	bm_fmt_u64(b, UINT64_MAX);
	BM_CHECK_STR(b, "18446744073709551615");
	/* every length, each power of ten and its neighbours, and random values, against snprintf */
	for (uint64_t p = 1, k = 0; k < 20; k++, p *= 10) {
		const uint64_t vs[] = {p - 1, p, p + 1, p * 9 + (p - 1), p * 5 + 7};
		for (unsigned j = 0; j < 5; j++) {
			char want[32];
			size_t n = bm_fmt_u64(b, vs[j]);
			snprintf(want, sizeof want, "%llu", (unsigned long long)vs[j]);
			BM_CHECK_STR(b, want);
			BM_CHECK_EQ_U64(n, strlen(want));
		}
	}
	for (uint64_t i = 0, x = 88172645463325252ull; i < 100000; i++) {
		char want[32];
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t v = x >> (i % 64);
		size_t n = bm_fmt_u64(b, v);
		snprintf(want, sizeof want, "%llu", (unsigned long long)v);
		BM_CHECK(strcmp(b, want) == 0 && n == strlen(want));
	}
	bm_fmt_hex(b, 0xcbf43926u, 8);
	BM_CHECK_STR(b, "cbf43926");
	bm_fmt_hex(b, 0xab, 4);
	BM_CHECK_STR(b, "00ab");
	bm_fmt_milli(b, 12250, 3);
	BM_CHECK_STR(b, "12.250");
	bm_fmt_milli(b, 12250, 1);
	BM_CHECK_STR(b, "12.3"); /* half up */
	bm_fmt_milli(b, 12249, 1);
	BM_CHECK_STR(b, "12.2");
	bm_fmt_milli(b, 999999, 0);
	BM_CHECK_STR(b, "1000");
	bm_fmt_milli(b, 5, 2);
	BM_CHECK_STR(b, "0.01");
	bm_fmt_milli(b, 7, 3);
	BM_CHECK_STR(b, "0.007");
	bm_fmt_milli(b, UINT64_MAX, 3);
	BM_CHECK_STR(b, "18446744073709551.615");
}

/* The record's CRC covers every byte before "crc":, and the line ends with "}\n". */
static void record_crc_and_escaping(void)
{
	fake_reset();
	struct bm_record r;
	bm_rec_begin(&r, "meta"); /* seq 0: a meta record starts a boot */
	bm_rec_end(&r);
	fake_reset();
	bm_rec_begin(&r, "result");
	bm_rec_str(&r, "name", "a\"b\\c\n");
	bm_rec_u64(&r, "n", 42);
	bm_rec_milli(&r, "p50", 1500);
	bm_rec_bool(&r, "ok", 1);
	bm_rec_obj_begin(&r, "o");
	bm_rec_u64(&r, "x", 1);
	bm_rec_obj_end(&r);
	/* keys that are not short plain names: escaped, and longer than the one-piece buffer */
	bm_rec_u64(&r, "k\"q", 2);
	bm_rec_u64(&r, "a_key_of_fifty_characters_which_is_past_the_buffer", 3);
	bm_rec_end(&r);
	const char *want_prefix = "{\"type\":\"result\",\"format\":2,\"seq\":1,\"name\":\"a\\\"b\\\\c\\u000a\","
	                          "\"n\":42,\"p50\":1.500,\"ok\":true,\"o\":{\"x\":1},\"k\\\"q\":2,"
	                          "\"a_key_of_fifty_characters_which_is_past_the_buffer\":3,";
	size_t plen = strlen(want_prefix);
	BM_CHECK(strncmp(fake_console, want_prefix, plen) == 0);
	char crc[9];
	bm_fmt_hex(crc, bm_crc32_update(0, fake_console, plen), 8);
	char tail[32];
	snprintf(tail, sizeof tail, "\"crc\":\"%s\"}\n", crc);
	BM_CHECK_STR(fake_console + plen, tail);
	printf("  record: %s", fake_console);
}

static unsigned __int128 to128(struct bm_u128 a)
{
	return ((unsigned __int128)a.hi << 64) | a.lo;
}

static void u128_against_int128(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < 20000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t a = seed;
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t b = seed >> (seed & 63);
		struct bm_u128 p = bm_u128_mul64(a, b);
		BM_CHECK(to128(p) == (unsigned __int128)a * b);
		struct bm_u128 s = p;
		unsigned carry = bm_u128_add(&s, p);
		unsigned __int128 s2 = to128(p) + to128(p);
		BM_CHECK(to128(s) == s2 && carry == (s2 < to128(p)));
		if (b) {
			struct bm_u128 rem;
			struct bm_u128 q = bm_u128_divmod(p, bm_u128_from64(b | 1), &rem);
			BM_CHECK(to128(q) == to128(p) / (b | 1));
			BM_CHECK(to128(rem) == to128(p) % (b | 1));
		}
		uint64_t r = bm_u128_isqrt(p);
		BM_CHECK((unsigned __int128)r * r <= to128(p));
		BM_CHECK((unsigned __int128)(r + 1) * (r + 1) > to128(p));
	}
	/* The root below 2^64 (its own one-word path): edges, squares and their neighbours, random. */
	const uint64_t roots[] = {0, 1, 2, 3, 4, 5, 8, 9, 15, 16, 17, UINT32_MAX, 1ull << 32, (1ull << 32) + 1,
	                          0xfffffffe00000001ull, 0xfffffffe00000000ull, 0xfffffffe00000002ull,
	                          1ull << 62, (1ull << 62) - 1, 1ull << 63, UINT64_MAX - 1, UINT64_MAX};
	for (int i = 0; i < 20000 + (int)(sizeof roots / sizeof roots[0]); i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t v = i < (int)(sizeof roots / sizeof roots[0]) ? roots[i] : seed >> (seed & 63);
		uint64_t r = bm_u128_isqrt(bm_u128_from64(v));
		BM_CHECK((unsigned __int128)r * r <= v);
		BM_CHECK((unsigned __int128)(r + 1) * (r + 1) > v);
	}
	/* Divisors from 2^32 to 2^64 - 1 (the two-digit 128/64 path), every normalising shift, with
	 * dividends whose quotient does and does not pass 64 bits, and the digit corrections' edges
	 * (a divisor's low word all ones, a dividend just under a multiple). */
	for (int i = 0; i < 64000; i++) {
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		uint64_t dv = (seed | 1ull << 63) >> (i % 32);
		if (i % 7 == 0)
			dv |= UINT32_MAX;
		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		struct bm_u128 a = {seed, i & 1 ? seed * 0x9e3779b97f4a7c15ull : (seed >> 7) % dv}, rem;
		if (i % 5 == 0)
			a = bm_u128_mul64(dv, seed | 1), bm_u128_add64(&a, UINT64_MAX); /* q d - 1 + 2^64 */
		struct bm_u128 q = bm_u128_divmod(a, bm_u128_from64(dv), &rem);
		BM_CHECK(to128(q) == to128(a) / dv && to128(rem) == to128(a) % dv);
	}
	/* Each division path: both halves 64-bit, a divisor under 2^32 (the report's 10^3, a clock
	 * rate), up to 2^64, and one with a high half. */
	const uint64_t divs[] = {1, 3, 10, 1000, 1000000000u, UINT32_MAX, 1ull << 32, 10000000000000000000ull,
	                         UINT64_MAX};
	for (unsigned k = 0; k < sizeof divs / sizeof divs[0]; k++)
		for (int i = 0; i < 200; i++) {
			seed = seed * 6364136223846793005ull + 1442695040888963407ull;
			struct bm_u128 a = {seed, i & 1 ? seed >> (i % 64) : 0}, rem;
			struct bm_u128 q = bm_u128_divmod(a, bm_u128_from64(divs[k]), &rem);
			BM_CHECK(to128(q) == to128(a) / divs[k] && to128(rem) == to128(a) % divs[k]);
			struct bm_u128 d2 = {seed | 1, (uint64_t)i + 1};
			q = bm_u128_divmod(a, d2, &rem);
			BM_CHECK(to128(q) == to128(a) / to128(d2) && to128(rem) == to128(a) % to128(d2));
		}
	BM_CHECK_EQ_U64(bm_muldiv64(3, 1000, 2), 1500);
	BM_CHECK_EQ_U64(bm_muldiv64(1, 1, 3), 0);
	BM_CHECK_EQ_U64(bm_muldiv64(2, 1, 3), 1); /* rounds to nearest */
	BM_CHECK_EQ_U64(bm_muldiv64(UINT64_MAX, UINT64_MAX, 1), UINT64_MAX); /* saturates */
}

/* 128-bit formatting against the host's __int128 and printf of its two halves. */
static void fmt_u128_and_milli128(void)
{
	char b[BM_FMT_NUM_MAX];
	struct bm_u128 max = {UINT64_MAX, UINT64_MAX};
	bm_fmt_u128(b, max);
	BM_CHECK_STR(b, "340282366920938463463374607431768211455");
	bm_fmt_u128(b, (struct bm_u128){0, 1}); /* 2^64 */
	BM_CHECK_STR(b, "18446744073709551616");
	bm_fmt_u128(b, (struct bm_u128){5, 0});
	BM_CHECK_STR(b, "5");
	/* 10^19 exactly: the low half is all zeros after the split. */
	unsigned __int128 e = (unsigned __int128)10000000000000000000ull * 10u;
	bm_fmt_u128(b, (struct bm_u128){(uint64_t)e, (uint64_t)(e >> 64)});
	BM_CHECK_STR(b, "100000000000000000000");
	/* (2^64-1) thousandths x 1000: the largest sample value, exact. */
	struct bm_u128 m = bm_u128_mul64(UINT64_MAX, 1000);
	bm_fmt_milli128(b, m, 3);
	BM_CHECK_STR(b, "18446744073709551615.000");
	bm_fmt_milli128(b, bm_u128_from64(1500), 3);
	BM_CHECK_STR(b, "1.500");
	bm_fmt_milli128(b, bm_u128_from64(7), 3);
	BM_CHECK_STR(b, "0.007");
	/* Fewer digits: rounded half up at the printed precision, past 2^64 thousandths as below. */
	bm_fmt_milli128(b, bm_u128_from64(1500), 0);
	BM_CHECK_STR(b, "2");
	bm_fmt_milli128(b, bm_u128_from64(1449), 1);
	BM_CHECK_STR(b, "1.4");
	m = bm_u128_mul64(UINT64_MAX, 1000);
	bm_u128_add64(&m, 995); /* 18446744073709551615.995 */
	bm_fmt_milli128(b, m, 2);
	BM_CHECK_STR(b, "18446744073709551616.00");
	bm_fmt_milli128(b, m, 1);
	BM_CHECK_STR(b, "18446744073709551616.0");
	bm_fmt_milli128(b, m, 0);
	BM_CHECK_STR(b, "18446744073709551616");
	m.lo -= 500; /* ...615.495 */
	bm_fmt_milli128(b, m, 2);
	BM_CHECK_STR(b, "18446744073709551615.50");
	bm_fmt_milli128(b, m, 0);
	BM_CHECK_STR(b, "18446744073709551615");
}

/* Arrays nest and take commas like objects; 128-bit keys print exactly. */
static void record_arrays_and_wide(void)
{
	fake_reset();
	struct bm_record r;
	bm_rec_begin(&r, "meta");
	bm_rec_end(&r);
	fake_reset();
	bm_rec_begin(&r, "hist");
	bm_rec_array_begin(&r, "bins");
	bm_rec_elem_array_begin(&r);
	bm_rec_elem_u64(&r, 1);
	bm_rec_elem_u64(&r, 2);
	bm_rec_array_end(&r);
	bm_rec_elem_array_begin(&r);
	bm_rec_array_end(&r);
	bm_rec_array_end(&r);
	bm_rec_array_begin(&r, "tail");
	bm_rec_array_end(&r);
	bm_rec_u128(&r, "sum", (struct bm_u128){0, 1});
	bm_rec_milli128(&r, "max", bm_u128_mul64(UINT64_MAX, 1000));
	bm_rec_end(&r);
	const char *want = "{\"type\":\"hist\",\"format\":2,\"seq\":1,\"bins\":[[1,2],[]],\"tail\":[],"
	                   "\"sum\":18446744073709551616,\"max\":18446744073709551615.000,\"crc\":";
	BM_CHECK(strncmp(fake_console, want, strlen(want)) == 0);
	printf("  record: %s", fake_console);
}

int main(void)
{
	static const struct bm_test_case cases[] = {
		BM_TEST_CASE(crc32_check_value), BM_TEST_CASE(fmt_numbers),
		BM_TEST_CASE(record_crc_and_escaping), BM_TEST_CASE(u128_against_int128),
		BM_TEST_CASE(fmt_u128_and_milli128), BM_TEST_CASE(record_arrays_and_wide),
	};
	return bm_test_main(cases, sizeof cases / sizeof cases[0]);
}
