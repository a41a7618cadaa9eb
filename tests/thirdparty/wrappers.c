/* SPDX-License-Identifier: Apache-2.0 */
/* The suite's programs registered through their renamed entry points (baremark_wrap_program
 * prefixed every global name of each program: sort's main is tp_sort_main, its data tp_sort_data). */
#include "bm/wrap.h"

BM_WRAP_PROGRAM(tp_sort, tp_sort_sort_init, tp_sort_sort_main, tp_sort_sort_return)
BM_WRAP_PROGRAM(tp_crc, tp_crc_crc_init, tp_crc_crc_main, tp_crc_crc_return)
