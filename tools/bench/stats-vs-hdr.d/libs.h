/* SPDX-License-Identifier: Apache-2.0 */
/* Set-up helpers of the two libraries, each in its own translation unit. */
#ifndef LIBS_H
#define LIBS_H
#include <stddef.h>
#include <stdint.h>
void *bm_new(void);
size_t bm_bytes(void);
void bm_add(void *s, uint64_t v);
uint64_t bm_count(void *s);
void *hdr_new(void);
size_t hdr_bytes(void *h);
uint64_t hdr_count(void *h);
#endif
