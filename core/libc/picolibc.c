/* SPDX-License-Identifier: Apache-2.0 */
/* Built when BM_LIBC=picolibc: names the C library for the meta record and does its start-up.
 * The core itself uses none of it; benchmarks may (memcpy is the library's, which is the point
 * of measuring it). */
#include <picolibc.h>
#include <picotls.h>

#include "bm/port.h"
#include "libc/heap.h"

const char bm_libc_name[] = "picolibc " __PICOLIBC_VERSION__;

/* picolibc keeps errno (and little else) thread-local: point the thread pointer at the one TLS
 * block (linker/common.ld), as picolibc's own crt0 would. Then malloc's heap (core/libc/heap.c). */
void bm_libc_init(void)
{
#ifdef PICOLIBC_TLS
	extern char __tls_base[];
	_set_tls(__tls_base);
#endif
	bm_heap_init();
}
