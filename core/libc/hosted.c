/* SPDX-License-Identifier: Apache-2.0 */
/* Built for hosted boards (a Linux process): names the system C library for the meta record. */
#include <stddef.h>

#include "bm/port.h"

#define STR2(x) #x
#define STR(x) STR2(x)
#if defined(__GLIBC__)
const char bm_libc_name[] = "glibc " STR(__GLIBC__) "." STR(__GLIBC_MINOR__);
#else
const char bm_libc_name[] = "system libc (not glibc)";
#endif
