/* SPDX-License-Identifier: Apache-2.0 */
/* A third-party header that brings its own size_t (a 32-bit habit): on a 64-bit target it clashes
 * with <stddef.h> in either order, so the kit's header must not include <stddef.h>. */
#ifndef SIZE_TYPEDEF_H
#define SIZE_TYPEDEF_H
typedef unsigned size_t;
#endif
