/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image: bodies that change the state their own work depends on (an in-place sort, a
 * filter with history, an encoder with state), each given fresh input by .setup_each, so every
 * timed run costs exactly one run on fresh input (tests/firmware/stateful-check compares them with
 * the cold figure and with the same sort timed once after a plain setup); the same sort without
 * .setup_each, which a deterministic build must flag (and which fails the run), and once more
 * declared .carries_state (timing runs on its own output is then what it measures: a plain ok); an
 * empty body with a setup_each (0 on every exact counter); and a setup_each that fails during the
 * samples. */
#include "bm/bench.h"
#include "bm/shared.h"

#define N 48u

/* ---- an in-place insertion sort: its cost depends on how sorted its input already is ---- */

static uint32_t input[N], sort_buf[N], plain_buf[N], carried_buf[N];

static __attribute__((noinline)) void isort(uint32_t *a, unsigned n)
{
	for (unsigned i = 1; i < n; i++) {
		uint32_t v = a[i];
		unsigned j = i;
		while (j > 0 && a[j - 1] > v) {
			a[j] = a[j - 1];
			j--;
		}
		a[j] = v;
	}
}

static void copy(uint32_t *to, const uint32_t *from)
{
	for (unsigned i = 0; i < N; i++)
		to[i] = from[i];
}

static int make_input(void)
{
	uint32_t x = bm_seed(0x12345678u);
	for (unsigned i = 0; i < N; i++) {
		x = x * 1664525u + 1013904223u;
		input[i] = x >> 8;
	}
	return 0;
}

/* 0 when a is the input sorted (ascending, and the same multiset by sum, xor and sum of squares) */
static int sorted_input(const uint32_t *a)
{
	uint32_t s0 = 0, s1 = 0, x0 = 0, x1 = 0, q0 = 0, q1 = 0;
	for (unsigned i = 0; i < N; i++) {
		if (i && a[i - 1] > a[i])
			return -1;
		s0 += input[i], s1 += a[i];
		x0 ^= input[i], x1 ^= a[i];
		q0 += input[i] * input[i], q1 += a[i] * a[i];
	}
	return s0 == s1 && x0 == x1 && q0 == q1 ? 0 : -1;
}

static int sort_each_setup(void)
{
	copy(sort_buf, input);
	return 0;
}

static int sort_each_verify(void)
{
	return sorted_input(sort_buf);
}

BM_BENCHMARK(sort_each, sort_each_verify, .setup = make_input, .setup_each = sort_each_setup)
{
	isort(sort_buf, N);
}

/* The same sort timed on its own output: right (verify passes), but every run after the first
 * sorts sorted input. */
static int input_into(uint32_t *buf)
{
	make_input();
	copy(buf, input);
	return 0;
}

static int sort_plain_setup(void) { return input_into(plain_buf); }
static int sort_plain_verify(void) { return sorted_input(plain_buf); }

BM_BENCHMARK(sort_plain, sort_plain_verify, .setup = sort_plain_setup)
{
	isort(plain_buf, N);
}

/* The same again, declared: its figures are those of sorting sorted input, on purpose. */
static int sort_carried_setup(void) { return input_into(carried_buf); }
static int sort_carried_verify(void) { return sorted_input(carried_buf); }

BM_BENCHMARK(sort_carried, sort_carried_verify, .setup = sort_carried_setup, .carries_state = 1)
{
	isort(carried_buf, N);
}

/* ---- a filter with history: a second-order integer IIR, saturated to 16 bits ---- */

#define BLOCK 32u
static int16_t samples[BLOCK], filtered[BLOCK];
static int32_t hist[2];

static int32_t clamp16(int32_t v)
{
	return v > 32767 ? 32767 : v < -32768 ? -32768 : v;
}

static __attribute__((noinline)) void iir(const int16_t *in, int16_t *out, unsigned n, int32_t *h)
{
	for (unsigned i = 0; i < n; i++) {
		int32_t y = clamp16((in[i] * 3 + h[0] * 7 - h[1] * 2) / 4);
		h[1] = h[0];
		h[0] = y;
		out[i] = (int16_t)y;
	}
}

static int filter_setup(void)
{
	uint32_t x = bm_seed(7u);
	for (unsigned i = 0; i < BLOCK; i++) {
		x = x * 1103515245u + 12345u;
		samples[i] = (int16_t)(x >> 16);
	}
	return 0;
}

static int filter_each_setup(void)
{
	hist[0] = hist[1] = 0;
	return 0;
}

/* the block filtered from silence, by the same recurrence written out again */
static int filter_verify(void)
{
	int32_t a = 0, b = 0;
	for (unsigned i = 0; i < BLOCK; i++) {
		int32_t y = (samples[i] * 3 + a * 7 - b * 2) / 4;
		y = y > 32767 ? 32767 : y < -32768 ? -32768 : y;
		if (filtered[i] != y)
			return -1;
		b = a;
		a = y;
	}
	return 0;
}

BM_BENCHMARK(filter_each, filter_verify, .setup = filter_setup, .setup_each = filter_each_setup)
{
	iir(samples, filtered, BLOCK, hist);
}

/* ---- an encoder with state: 4-bit ADPCM (predictor and step index carried across calls) ---- */

static const uint16_t steps[16] = {7, 10, 14, 19, 26, 36, 50, 69, 95, 131, 181, 249, 343, 473, 651, 897};
static const int8_t step_adjust[4] = {-1, -1, 2, 4};
struct adpcm {
	int32_t pred;
	int32_t index;
};
static struct adpcm enc_state;
static uint8_t codes[BLOCK];

static uint8_t adpcm_one(struct adpcm *s, int32_t x)
{
	int32_t step = steps[s->index], diff = x - s->pred;
	uint8_t code = 0;
	if (diff < 0) {
		code = 8;
		diff = -diff;
	}
	int32_t delta = step >> 1;
	for (int bit = 2; bit >= 1; bit--) {
		if (diff >= step) {
			code |= (uint8_t)(bit == 2 ? 2 : 1);
			diff -= step;
			delta += step;
		}
		step >>= 1;
	}
	s->pred = clamp16(code & 8 ? s->pred - delta : s->pred + delta);
	s->index += step_adjust[code & 3];
	s->index = s->index < 0 ? 0 : s->index > 15 ? 15 : s->index;
	return code;
}

static __attribute__((noinline)) void adpcm_encode(struct adpcm *s, const int16_t *in, uint8_t *out, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		out[i] = adpcm_one(s, in[i]);
}

static int encoder_each_setup(void)
{
	enc_state = (struct adpcm){0, 0};
	return 0;
}

static int encoder_verify(void)
{
	struct adpcm s = {0, 0};
	for (unsigned i = 0; i < BLOCK; i++)
		if (codes[i] != adpcm_one(&s, samples[i]))
			return -1;
	return 0;
}

BM_BENCHMARK(encoder_each, encoder_verify, .setup = filter_setup, .setup_each = encoder_each_setup)
{
	adpcm_encode(&enc_state, samples, codes, BLOCK);
}

/* ---- an empty body between a setup_each and a teardown_each: 0 on every exact counter ---- */

static volatile uint32_t each_in, each_out;

static int count_in(void)
{
	each_in++;
	return 0;
}

static void count_out(void)
{
	each_out++;
}

/* every timed run had both, and there were runs */
static int counted(void)
{
	return each_in > 1 && each_in == each_out ? 0 : -1;
}

BM_BENCHMARK(empty_each, counted, .setup_each = count_in, .teardown_each = count_out)
{
}

/* ---- a setup_each that fails once the samples have begun (after the longest warm-up) ---- */

static uint32_t fail_calls;

static int fails_late(void)
{
	/* cold run, warm-up (at most BM_WARMUP_MAX), one warm run, then the samples */
	return ++fail_calls > BM_WARMUP_MAX + 4 ? -1 : 0;
}

static int always_right(void)
{
	return 0;
}

BM_BENCHMARK(each_fails_in_samples, always_right, .setup_each = fails_late)
{
	bm_clobber_memory();
}
