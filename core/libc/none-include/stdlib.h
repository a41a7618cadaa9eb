/* SPDX-License-Identifier: Apache-2.0 */
/* <stdlib.h> for images built with BM_LIBC=none (core/libc/none.c): the arithmetic and
 * conversion helpers benchmark code calls. No heap: a call to malloc, calloc, realloc or free is
 * refused when compiled (and, from code built with other headers, when linked: core/libc/none.c);
 * the C libraries have one (BM_LIBC=picolibc or newlib), or use static arrays or bm_scratch_alloc. */
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
#define BM_NO_HEAP __attribute__((error("BM_LIBC=none has no heap: configure with -DBM_LIBC=picolibc (or newlib) to call malloc")))
BM_NO_HEAP void *malloc(size_t n);
BM_NO_HEAP void *calloc(size_t n, size_t size);
BM_NO_HEAP void *realloc(void *p, size_t n);
BM_NO_HEAP void free(void *p);
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *));

#endif
