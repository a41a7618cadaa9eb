/* SPDX-License-Identifier: Apache-2.0 */
/* A third-party header as some old code ships it: it names a fixed-width type by a macro, which
 * breaks a <stdint.h> included after it unless the kit's header sets the macro aside. */
#ifndef INT32_DEFINE_H
#define INT32_DEFINE_H
#define int32_t int
#define uint32_t unsigned int
#endif
