/* SPDX-License-Identifier: Apache-2.0 */
/* The C library's heap, as the kit sees it (core/libc/heap.c for picolibc and newlib; the other
 * C libraries' files say there is none): reset before each benchmark, its high-water mark read
 * for the result record. */
#ifndef BM_LIBC_HEAP_H
#define BM_LIBC_HEAP_H

#include <stddef.h>

/* At start-up, from the C library's bm_libc_init (before static constructors): the heap empty. */
void bm_heap_init(void);
/* The allocator back to its state before the first benchmark (what static constructors took
 * stays taken), the heap's used bytes filled with one pattern. Kit code, privileged. */
void bm_heap_reset(void);
/* The heap's high-water mark since the last reset, in bytes from its start (0: this benchmark
 * took nothing from it, or the image has no heap), and the heap's size in *heap_bytes. */
size_t bm_heap_used_bytes(size_t *heap_bytes);

#endif
