/* SPDX-License-Identifier: Apache-2.0 */
/* Built for hosted boards (a Linux process): names the system C library for the meta record. */
#include <stddef.h>

#include "bm/port.h"
#include "libc/heap.h"

#define STR2(x) #x
#define STR(x) STR2(x)
#if defined(__GLIBC__)
const char bm_libc_name[] = "glibc " STR(__GLIBC__) "." STR(__GLIBC_MINOR__);
#else
const char bm_libc_name[] = "system libc (not glibc)";
#endif

/* The process's heap is the system C library's: nothing for the kit to reset or read. */
void bm_heap_reset(void)
{
}

size_t bm_heap_used_bytes(size_t *heap_bytes)
{
	*heap_bytes = 0;
	return 0;
}
