/* SPDX-License-Identifier: Apache-2.0 */
/* Registering a program of an existing suite whose programs share their entry points' names
 * (Embench-style: initialise_benchmark, benchmark, verify_benchmark), without editing it: one
 * wrapper source per program renames the entry points and includes the program, then registers
 * it. For example, third_party/wrappers/prog_a.c:
 *
 *   #define initialise_benchmark prog_a_initialise_benchmark
 *   #define benchmark prog_a_benchmark
 *   #define verify_benchmark prog_a_verify_benchmark
 *   #include "../suite/prog_a.c"
 *   #include "bm/wrap.h"
 *   BM_WRAP_EMBENCH(suite_prog_a, prog_a)
 *
 * Other global names the programs share can be renamed the same way. Build the wrappers as third-
 * party code (BM_THIRD_PARTY_DIRS, or THIRD_PARTY in baremark_add_firmware) so the suite's
 * warnings do not fail the build. */
#ifndef BM_WRAP_H
#define BM_WRAP_H

#include "bm/bench.h"

#undef initialise_benchmark
#undef benchmark
#undef verify_benchmark

/* Registers benchmark `name_` for the program whose entry points carry `prefix_` (the program is
 * included above it, so they are declared): setup calls its initialise_benchmark, the body its
 * benchmark (once per iteration), verify its verify_benchmark with the last result (non-zero
 * there means right). */
#define BM_WRAP_EMBENCH(name_, prefix_)                                                         \
	static int bm_wrap_result_##name_;                                                      \
	static int bm_wrap_setup_##name_(void)                                                  \
	{                                                                                       \
		prefix_##_initialise_benchmark();                                               \
		return 0;                                                                       \
	}                                                                                       \
	static int bm_wrap_verify_##name_(void)                                                 \
	{                                                                                       \
		return prefix_##_verify_benchmark(bm_wrap_result_##name_) ? 0 : -1;             \
	}                                                                                       \
	BM_BENCHMARK(name_, bm_wrap_verify_##name_, .setup = bm_wrap_setup_##name_)            \
	{                                                                                       \
		bm_wrap_result_##name_ = prefix_##_benchmark();                                 \
		bm_do_not_optimize(bm_wrap_result_##name_);                                     \
	}

/* Registers benchmark `name_` for a program of a suite whose programs each define main (TACLe-
 * style: <prog>_init, <prog>_main, <prog>_return), built by baremark_wrap_program with its global
 * names prefixed (docs/firmware.md, "Third-party code"), so the names given here are the renamed
 * ones: setup calls init_ (void init_(void)), the body calls main_ (void main_(void)) once per
 * iteration, verify calls check_ (int check_(void), 0 when the result is right, as the
 * program's own main returns it). */
#define BM_WRAP_PROGRAM(name_, init_, main_, check_)                                            \
	void init_(void);                                                                       \
	void main_(void);                                                                       \
	int check_(void);                                                                       \
	static int bm_wrap_setup_##name_(void)                                                  \
	{                                                                                       \
		init_();                                                                        \
		return 0;                                                                       \
	}                                                                                       \
	static int bm_wrap_verify_##name_(void)                                                 \
	{                                                                                       \
		return check_() == 0 ? 0 : -1;                                                  \
	}                                                                                       \
	BM_BENCHMARK(name_, bm_wrap_verify_##name_, .setup = bm_wrap_setup_##name_)            \
	{                                                                                       \
		main_();                                                                        \
	}

#endif /* BM_WRAP_H */
