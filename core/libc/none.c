/* SPDX-License-Identifier: Apache-2.0 */
/* Built when BM_LIBC=none: the four functions GCC may emit calls to even in freestanding code
 * (struct copies, zeroing), and the small set of string, ctype and stdlib functions ordinary
 * benchmark code calls (headers in core/libc/none-include), written plainly. The core itself needs
 * nothing from a C library; with --gc-sections an image links only what it calls. */
#include <ctype.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bm/port.h"
#include "libc/heap.h"

const char bm_libc_name[] = "none";

void bm_libc_init(void)
{
}

/* volatile keeps GCC from recognising these loops as memcpy/memset and calling themselves. */
void *memcpy(void *restrict dst, const void *restrict src, size_t n)
{
	volatile uint8_t *d = dst;
	const uint8_t *s = src;
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	volatile uint8_t *d = dst;
	const uint8_t *s = src;
	if (d < s) {
		while (n--)
			*d++ = *s++;
	} else {
		while (n--)
			d[n] = s[n];
	}
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	volatile uint8_t *d = dst;
	while (n--)
		*d++ = (uint8_t)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const uint8_t *x = a, *y = b;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x < *y ? -1 : 1;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	for (const unsigned char *p = s; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++)
		if (*a != *b || !*a)
			return (unsigned char)*a - (unsigned char)*b;
	return 0;
}

char *strcpy(char *restrict dst, const char *restrict src)
{
	char *d = dst;
	while ((*d++ = *src++))
		;
	return dst;
}

char *strncpy(char *restrict dst, const char *restrict src, size_t n)
{
	size_t i = 0;
	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
	return dst;
}

char *strcat(char *restrict dst, const char *restrict src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

char *strchr(const char *s, int c)
{
	for (;; s++) {
		if (*s == (char)c)
			return (char *)s;
		if (!*s)
			return NULL;
	}
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;
	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return n ? NULL : (char *)hay;
}

int isdigit(int c)
{
	return c >= '0' && c <= '9';
}
int islower(int c)
{
	return c >= 'a' && c <= 'z';
}
int isupper(int c)
{
	return c >= 'A' && c <= 'Z';
}
int isalpha(int c)
{
	return islower(c) || isupper(c);
}
int isalnum(int c)
{
	return isalpha(c) || isdigit(c);
}
int isxdigit(int c)
{
	return isdigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int isspace(int c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}
int isprint(int c)
{
	return c >= 0x20 && c < 0x7f;
}
int ispunct(int c)
{
	return isprint(c) && !isalnum(c) && c != ' ';
}
int tolower(int c)
{
	return isupper(c) ? c - 'A' + 'a' : c;
}
int toupper(int c)
{
	return islower(c) ? c - 'a' + 'A' : c;
}

int abs(int v)
{
	return v < 0 ? -v : v;
}
long labs(long v)
{
	return v < 0 ? -v : v;
}
long long llabs(long long v)
{
	return v < 0 ? -v : v;
}

unsigned long strtoul(const char *restrict s, char **restrict end, int base)
{
	const char *p = s;
	while (isspace((unsigned char)*p))
		p++;
	int neg = *p == '-';
	if (*p == '+' || *p == '-')
		p++;
	if ((base == 0 || base == 16) && p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2]))
		p += 2, base = 16;
	else if (base == 0)
		base = *p == '0' ? 8 : 10;
	unsigned long v = 0;
	const char *digits = p;
	for (;; p++) {
		int d = isdigit((unsigned char)*p) ? *p - '0' : isalpha((unsigned char)*p) ? tolower(*p) - 'a' + 10 : 99;
		if (d >= base)
			break;
		v = v * (unsigned long)base + (unsigned long)d;
	}
	if (end)
		*end = (char *)(p == digits ? s : p);
	return neg ? -v : v;
}

long strtol(const char *restrict s, char **restrict end, int base)
{
	return (long)strtoul(s, end, base);
}

int atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

/* The C standard's own example generator: repeatable, the same on every board. */
static unsigned long rand_next = 1;

int rand(void)
{
	rand_next = rand_next * 1103515245u + 12345u;
	return (int)((rand_next / 65536u) % 32768u);
}

void srand(unsigned seed)
{
	rand_next = seed;
}

/* Insertion sort: small, no recursion, no heap; benchmark inputs on a board are small. */
void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	unsigned char *b = base;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && cmp(b + (j - 1) * size, b + j * size) > 0; j--)
			for (size_t k = 0; k < size; k++) {
				unsigned char t = b[(j - 1) * size + k];
				b[(j - 1) * size + k] = b[j * size + k];
				b[j * size + k] = t;
			}
}

/* No heap here: the C library's malloc family as stand-ins the link refuses (linker/common.ld's
 * ASSERT on .bm_no_malloc names BM_LIBC), so a call to one is a message naming the option, not an
 * "undefined reference". Never run. */
#define NO_MALLOC __attribute__((section(".bm_no_malloc"), noinline, used))
NO_MALLOC void *malloc(size_t n)
{
	(void)n;
	return NULL;
}
NO_MALLOC void *calloc(size_t n, size_t size)
{
	(void)n;
	(void)size;
	return NULL;
}
NO_MALLOC void *realloc(void *p, size_t n)
{
	(void)p;
	(void)n;
	return NULL;
}
NO_MALLOC void free(void *p)
{
	(void)p;
}

void bm_heap_reset(void)
{
}

size_t bm_heap_used_bytes(size_t *heap_bytes)
{
	*heap_bytes = 0;
	return 0;
}
