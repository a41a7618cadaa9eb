/* Built when BM_LIBC=picolibc: names the C library for the meta record. The core itself uses
 * none of it; benchmarks may (memcpy is the library's, which is the point of measuring it). */
#include <picolibc.h>

#include "bm/port.h"

const char bm_libc_name[] = "picolibc " __PICOLIBC_VERSION__;
