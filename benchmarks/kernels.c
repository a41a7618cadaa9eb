/* SPDX-License-Identifier: Apache-2.0 */
/* Standard kernels with result checks: table-driven CRC-32 over 1 KiB, a 4 KiB memcpy (the C
 * library's when there is one), and a 16x16 integer matrix multiply. Each result is checked
 * against a second, independent computation made in setup. On boards with little RAM
 * (BM_SUITE_SMALL) the copy is 1 KiB and the matrices 12x12, and the names say so. */
#include "bm/bench.h"
#include "bm/crc32.h"

#define CRC_BYTES 1024u
#if BM_SUITE_SMALL
#define COPY_BYTES 1024u
#define COPY_NAME memcpy_1k
#define MAT_N 12u
#define MAT_NAME matmul_12
#else
#define COPY_BYTES 4096u
#define COPY_NAME memcpy_4k
#define MAT_N 16u
#define MAT_NAME matmul_16
#endif

/* ---- CRC-32, byte-at-a-time with a 256-entry table (the classic zlib-style loop) ---- */
static uint32_t *crc_table;
static uint8_t *crc_data;
static uint32_t crc_result, crc_expected;

static int crc_setup(void)
{
	crc_table = bm_scratch_alloc(256 * sizeof *crc_table, 8);
	crc_data = bm_scratch_alloc(CRC_BYTES, 8);
	if (!crc_table || !crc_data)
		return -1;
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0xedb88320u & (0u - (c & 1)));
		crc_table[i] = c;
	}
	uint32_t x = bm_seed(0x12345678u);
	for (uint32_t i = 0; i < CRC_BYTES; i++) {
		x = x * 1664525u + 1013904223u;
		crc_data[i] = (uint8_t)(x >> 24);
	}
	/* The reference: the core's nibble-table implementation, itself checked by unit tests
	 * against zlib's check value. */
	crc_expected = bm_crc32_update(0, crc_data, CRC_BYTES);
	return 0;
}

static int crc_verify(void)
{
	return crc_result == crc_expected ? 0 : -1;
}

BM_SCRATCH(crc32, 256 * 4 + CRC_BYTES + 8);
BM_BENCHMARK(crc32, crc_verify, .setup = crc_setup, .bytes = CRC_BYTES)
{
	uint32_t c = 0xffffffffu;
	for (uint32_t i = 0; i < CRC_BYTES; i++)
		c = crc_table[(c ^ crc_data[i]) & 0xff] ^ (c >> 8);
	crc_result = ~c;
	bm_clobber_memory();
}

/* ---- memcpy of COPY_BYTES ---- */
static uint8_t *copy_src, *copy_dst;

static int copy_setup(void)
{
	copy_src = bm_scratch_alloc(COPY_BYTES, 64);
	copy_dst = bm_scratch_alloc(COPY_BYTES, 64);
	if (!copy_src || !copy_dst)
		return -1;
	for (uint32_t i = 0; i < COPY_BYTES; i++) {
		copy_src[i] = (uint8_t)bm_seed(i * 31 + 7);
		copy_dst[i] = 0;
	}
	return 0;
}

/* Byte-by-byte comparison against the generator, not against src (which memcpy could clobber). */
static int copy_verify(void)
{
	for (uint32_t i = 0; i < COPY_BYTES; i++)
		if (copy_dst[i] != (uint8_t)(i * 31 + 7))
			return -1;
	return 0;
}

BM_SCRATCH(COPY_NAME, 2 * COPY_BYTES + 64);
BM_BENCHMARK(COPY_NAME, copy_verify, .setup = copy_setup, .bytes = COPY_BYTES)
{
	/* A call to the C library's memcpy (core/libc/none.c's byte loop with BM_LIBC=none). */
	__builtin_memcpy(copy_dst, copy_src, COPY_BYTES);
	bm_clobber_memory();
}

/* ---- MAT_N x MAT_N int32 matrix multiply ---- */
static int32_t (*mat_a)[MAT_N], (*mat_b)[MAT_N], (*mat_c)[MAT_N];
static int64_t mat_expected;

static int mat_setup(void)
{
	mat_a = bm_scratch_alloc(sizeof(int32_t) * MAT_N * MAT_N, 8);
	mat_b = bm_scratch_alloc(sizeof(int32_t) * MAT_N * MAT_N, 8);
	mat_c = bm_scratch_alloc(sizeof(int32_t) * MAT_N * MAT_N, 8);
	if (!mat_a || !mat_b || !mat_c)
		return -1;
	for (uint32_t i = 0; i < MAT_N; i++)
		for (uint32_t j = 0; j < MAT_N; j++) {
			mat_a[i][j] = (int32_t)bm_seed(i * 3 + j) - 20;
			mat_b[i][j] = (int32_t)bm_seed(i + 2 * j) % 7 - 3;
		}
	/* Reference: sum of all entries of A*B = sum_k (column sum of A at k) * (row sum of B at k). */
	mat_expected = 0;
	for (uint32_t k = 0; k < MAT_N; k++) {
		int64_t ca = 0, rb = 0;
		for (uint32_t i = 0; i < MAT_N; i++) {
			ca += mat_a[i][k];
			rb += mat_b[k][i];
		}
		mat_expected += ca * rb;
	}
	return 0;
}

static int mat_verify(void)
{
	int64_t s = 0;
	for (uint32_t i = 0; i < MAT_N; i++)
		for (uint32_t j = 0; j < MAT_N; j++)
			s += mat_c[i][j];
	/* Spot-check one entry fully as well, so compensating errors cannot pass. */
	int32_t c00 = 0;
	for (uint32_t k = 0; k < MAT_N; k++)
		c00 += mat_a[0][k] * mat_b[k][0];
	return s == mat_expected && c00 == mat_c[0][0] ? 0 : -1;
}

BM_SCRATCH(MAT_NAME, 3 * 4 * MAT_N * MAT_N + 16);
BM_BENCHMARK(MAT_NAME, mat_verify, .setup = mat_setup)
{
	for (uint32_t i = 0; i < MAT_N; i++)
		for (uint32_t j = 0; j < MAT_N; j++) {
			int32_t s = 0;
			for (uint32_t k = 0; k < MAT_N; k++)
				s += mat_a[i][k] * mat_b[k][j];
			mat_c[i][j] = s;
		}
	bm_clobber_memory();
}
