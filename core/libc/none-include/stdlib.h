/* SPDX-License-Identifier: Apache-2.0 */
/* <stdlib.h> for images built with BM_LIBC=none (core/libc/none.c): the arithmetic and
 * conversion helpers benchmark code calls. No heap: malloc is not provided on purpose (the kit
 * has no heap; use static arrays or bm_scratch_alloc). */
#ifndef BM_NONE_STDLIB_H
#define BM_NONE_STDLIB_H

#include <stddef.h>

#define RAND_MAX 0x7fffffff

int abs(int v);
long labs(long v);
long long llabs(long long v);
int atoi(const char *s);
long strtol(const char *restrict s, char **restrict end, int base);
unsigned long strtoul(const char *restrict s, char **restrict end, int base);
int rand(void);
void srand(unsigned seed);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
