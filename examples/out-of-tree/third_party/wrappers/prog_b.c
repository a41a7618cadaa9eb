/* SPDX-License-Identifier: Apache-2.0 */
/* Registers the suite's program b with the kit, unedited: its entry points renamed here so they
 * do not clash with the suite's other programs (bm/wrap.h explains the pattern). */
#define initialise_benchmark prog_b_initialise_benchmark
#define benchmark prog_b_benchmark
#define verify_benchmark prog_b_verify_benchmark
#include "../suite/prog_b.c"
#include "bm/wrap.h"
BM_WRAP_EMBENCH(suite_prog_b, prog_b)
