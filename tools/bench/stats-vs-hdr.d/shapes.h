/* SPDX-License-Identifier: Apache-2.0 */
/* Input shapes shared by the drivers of tools/bench/stats-vs-hdr. */
#ifndef SHAPES_H
#define SHAPES_H
#include <stddef.h>
#include <stdint.h>

struct shape {
	const char *name;
	size_t n; /* inserts */
};
extern const struct shape shapes[];
extern const int n_shapes;
int shape_find(const char *name);
void shape_fill(int k, uint64_t *x, size_t n);
#endif
