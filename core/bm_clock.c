/* The cycle clock: the counter read outside timed regions, and its frequency estimated against
 * the board's timer over windows opened and closed on the timer's tick edges (struct bm_clock,
 * bm/harness_internal.h). Each window is also checked against the estimate so far, so a counter
 * that was written, stopped or missed wraps during a benchmark fails that benchmark. */
#include "bm/harness_internal.h"
#include "bm/wide.h"

/* Not inlined: it brackets untimed code (setup, verify, teardown), and inlined into the measuring
 * frame its counter read (a call that clobbers r0-r3 on Cortex-M) left a Cortex-M0 no low
 * registers for its operands. */
__attribute__((noinline)) uint64_t bm_cycles_now(void)
{
	struct arch_snap s;
	arch_snap_end(&s);
	return s.cycles;
}


/* A timer read just after the timer ticked, with the cycle counter read right after it: both
 * readings then start (or end) a window on a tick edge, so a window's tick count is short by
 * less than one tick. A timer that does not tick gives up after 2^24 reads and reads 0 cycles. */
static uint64_t timer_edge(struct bm_timer *timer, uint64_t *cycles)
{
	struct arch_snap c;
	uint64_t t0 = timer->read(timer), t1 = t0;
	for (uint32_t spins = 0; t1 == t0 && spins < (1u << 24); spins++)
		t1 = timer->read(timer);
	arch_snap_end(&c);
	*cycles = t1 == t0 ? 0 : c.cycles;
	return t1;
}

void bm_clock_open(struct bm_clock *clk)
{
	struct bm_timer *timer = bm_port_timer();
	clk->open = 0;
	if (timer) {
		clk->open_ticks = timer_edge(timer, &clk->open_cycles);
		clk->open = clk->open_cycles != 0;
	}
}

int bm_clock_close(struct bm_clock *clk)
{
	struct bm_timer *timer = bm_port_timer();
	uint64_t cycles;
	if (!timer || !clk->open)
		return 0;
	clk->open = 0;
	uint64_t ticks = timer_edge(timer, &cycles) - clk->open_ticks, dc = cycles - clk->open_cycles;
	/* No window lasts 2^63 cycles: the counter was set back during it (the counter-wrap self-test
	 * does so in verify; a benchmark may in its batches): left out, or it would be the clock. */
	if (!cycles || !ticks || dc >> 63 || ticks >> 63) /* (or the timer was set back) */
		return 0;
	/* The counter against the timer and the clock so far: a counter moved forward (written),
	 * stopped, or short of the wraps a software extension missed (SysTick with interrupts masked
	 * past a period) is off by far more than a tenth, which no clock estimate is; such a window
	 * would carry its error into every later ns figure. Both ends lie on tick edges, so the
	 * window lasted between ticks - 1 and ticks + 1 ticks. */
	if (clk->cycle_hz) {
		uint64_t lo = bm_muldiv64(ticks - 1, clk->cycle_hz, timer->hz);
		uint64_t hi = bm_muldiv64(ticks + 1, clk->cycle_hz, timer->hz);
		if (dc < lo - lo / 100 * BM_CLOCK_AGREE_PCT || dc > hi + hi / 100 * BM_CLOCK_AGREE_PCT)
			return -1;
	}
	clk->window_ticks += ticks;
	clk->window_cycles += dc;
	clk->cycle_hz = bm_muldiv64(clk->window_cycles, timer->hz, clk->window_ticks);
	return 0;
}

void bm_clock_spin(struct bm_clock *clk, uint32_t ms)
{
	struct bm_timer *timer = bm_port_timer();
	if (!timer)
		return;
	bm_clock_open(clk);
	uint64_t until = clk->open_ticks + bm_muldiv64(timer->hz, ms, 1000) + 1;
	for (uint32_t spins = 0; timer->read(timer) - until > (UINT64_MAX >> 1) && spins < (1u << 30); spins++)
		;
	bm_clock_close(clk);
}
