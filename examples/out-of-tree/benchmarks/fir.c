/* SPDX-License-Identifier: Apache-2.0 */
/* Your own benchmark: a 16-tap Q15 FIR filter over 64 samples, the kind of fixed-point kernel a
 * firmware team ships. Its inputs come through bm_seed() (so the compiler cannot fold them) and
 * its result is checked against a second, plainer computation made in setup. */
#include <stdint.h>

#include "bm/bench.h"

#define TAPS 16
#define N 64

static int16_t coeff[TAPS], input[N + TAPS];
static int32_t output[N], expected[N];

static int fir_setup(void)
{
	for (int i = 0; i < TAPS; i++)
		coeff[i] = (int16_t)(bm_seed((uint32_t)i) * 1021u % 4096u) - 2048;
	for (int i = 0; i < N + TAPS; i++)
		input[i] = (int16_t)((bm_seed((uint32_t)i) * 7919u) % 32768u) - 16384;
	for (int n = 0; n < N; n++) {
		int64_t acc = 0;
		for (int k = 0; k < TAPS; k++)
			acc += (int64_t)coeff[k] * input[n + k];
		expected[n] = (int32_t)(acc >> 15);
	}
	return 0;
}

static int fir_verify(void)
{
	for (int n = 0; n < N; n++)
		if (output[n] != expected[n])
			return -1;
	return 0;
}

BM_BENCHMARK(oot_fir_q15, fir_verify, .setup = fir_setup)
{
	for (int n = 0; n < N; n++) {
		int32_t acc = 0;
		for (int k = 0; k < TAPS; k++)
			acc += (int32_t)coeff[k] * input[n + k];
		output[n] = acc >> 15;
	}
	bm_clobber_memory();
}
