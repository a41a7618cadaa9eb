/* SPDX-License-Identifier: Apache-2.0 */
/* <ctype.h> for images built with BM_LIBC=none (core/libc/none.c): the "C" locale only. */
#ifndef BM_NONE_CTYPE_H
#define BM_NONE_CTYPE_H

int isalnum(int c);
int isalpha(int c);
int isdigit(int c);
int islower(int c);
int isprint(int c);
int ispunct(int c);
int isspace(int c);
int isupper(int c);
int isxdigit(int c);
int tolower(int c);
int toupper(int c);

#endif
