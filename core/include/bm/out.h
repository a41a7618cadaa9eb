/* SPDX-License-Identifier: Apache-2.0 */
/* Console output without printf: strings, decimal, hex and fixed-point numbers, written byte by
 * byte to the board's console. Works with BM_LIBC=none and keeps the firmware small. The
 * bm_fmt_* functions format into a caller's buffer (for column widths and JSON). */
#ifndef BM_OUT_H
#define BM_OUT_H

#include <stddef.h>
#include <stdint.h>

#include "bm/wide.h"

#ifdef __cplusplus
extern "C" {
#endif

#define BM_FMT_U64_MAX 21   /* 20 digits + NUL */
#define BM_FMT_NUM_MAX 48   /* any bm_fmt_* result + NUL (a 128-bit value in thousandths too) */

void bm_out_char(char c);
void bm_out_str(const char *s);
/* n bytes of s (through the console's write, '\n' as the console wants it). */
void bm_out_mem(const char *s, size_t n);
void bm_out_u64(uint64_t v);
void bm_out_hex(uint64_t v, unsigned digits);
/* Pad `s` with spaces to `width` (right-aligned when right != 0). */
void bm_out_padded(const char *s, unsigned width, int right);

/* Each returns the length written (without the NUL). */
size_t bm_fmt_u64(char *buf, uint64_t v);
size_t bm_fmt_hex(char *buf, uint64_t v, unsigned digits);
/* A value in thousandths as a decimal with `frac` (0..3) digits, rounded half up. */
size_t bm_fmt_milli(char *buf, uint64_t milli, unsigned frac);
/* The same for 128-bit values: every integer up to 2^128-1, and thousandths. */
size_t bm_fmt_u128(char *buf, struct bm_u128 v);
size_t bm_fmt_milli128(char *buf, struct bm_u128 milli, unsigned frac);
size_t bm_strlen(const char *s);

/* Building short strings (meta-record facts) without libc: each writes at p, NUL-terminates,
 * and returns the new end, so calls chain. The caller sizes the buffer. */
char *bm_append_str(char *p, const char *s);
char *bm_append_u64(char *p, uint64_t v);
char *bm_append_hex(char *p, uint64_t v, unsigned digits); /* "0x" + digits */

#ifdef __cplusplus
}
#endif

#endif /* BM_OUT_H */
