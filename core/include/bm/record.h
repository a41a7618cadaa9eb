/* SPDX-License-Identifier: Apache-2.0 */
/* Machine-readable result records: one JSON object per console line, each ending with
 * "crc":"xxxxxxxx" = CRC-32 of every byte of the line before "crc":. Streamed through a 64-byte
 * buffer in the record itself (on the writer's stack), so a record costs no static RAM and the
 * console is called once per 64 bytes, not per byte. Format documented in docs/records.md. */
#ifndef BM_RECORD_H
#define BM_RECORD_H

#include <stdint.h>

#include "bm/shared.h" /* BM_RECORD_FORMAT */
#include "bm/wide.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BM_RECORD_CHUNK 64

struct bm_record {
	uint32_t crc;     /* running CRC of the bytes written so far, inverted (bm_crc32_step) */
	uint8_t need_comma; /* a member was written at this nesting level */
	uint8_t len;      /* bytes in buf, not yet sent */
	char buf[BM_RECORD_CHUNK];
};

/* Opens a record of `type` with the next sequence number of this boot; a "meta" record starts a
 * boot (seq 0). */
void bm_rec_begin(struct bm_record *r, const char *type);
void bm_rec_str(struct bm_record *r, const char *key, const char *value);
void bm_rec_u64(struct bm_record *r, const char *key, uint64_t value);
/* A number given in thousandths, printed with 3 decimals (e.g. 12.250). */
void bm_rec_milli(struct bm_record *r, const char *key, uint64_t milli);
void bm_rec_bool(struct bm_record *r, const char *key, int value);
/* 128-bit values: an integer (e.g. an exact sum), and thousandths printed with 3 decimals. */
void bm_rec_u128(struct bm_record *r, const char *key, struct bm_u128 value);
void bm_rec_milli128(struct bm_record *r, const char *key, struct bm_u128 milli);
/* A number the caller formatted (decimal digits only), e.g. an exact integer wider than 128 bits. */
void bm_rec_num(struct bm_record *r, const char *key, const char *digits);
/* Arrays: "key":[ ... ]; elements are numbers (bm_rec_elem_u64), strings (bm_rec_elem_str) or
 * nested arrays (bm_rec_elem_array_begin ... bm_rec_array_end). */
void bm_rec_array_begin(struct bm_record *r, const char *key);
void bm_rec_elem_array_begin(struct bm_record *r);
void bm_rec_elem_u64(struct bm_record *r, uint64_t value);
void bm_rec_elem_str(struct bm_record *r, const char *value);
void bm_rec_array_end(struct bm_record *r);
void bm_rec_obj_begin(struct bm_record *r, const char *key);
void bm_rec_obj_end(struct bm_record *r);
/* Writes "crc":"xxxxxxxx"} and the newline. */
void bm_rec_end(struct bm_record *r);

#ifdef __cplusplus
}
#endif

#endif /* BM_RECORD_H */
