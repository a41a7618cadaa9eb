/* SPDX-License-Identifier: Apache-2.0 */
/* Trap recovery: each benchmark runs under a recovery point the harness sets (bm_run_one). A
 * fault or the watchdog's interrupt reaches the arch's trap handler, which hands it to core
 * (bm_fault_take); when a recovery point is set core keeps the fault, the arch restores its own
 * state and calls bm_recover(), and the harness resumes at the point with the fault in hand.
 * One benchmark runs at a time, so this state is static. */
#include "bm/out.h"
#include "bm_board.h"
#include "guard/guard.h"

/* Guarded like the rest of the kit's state (bm_recover_state_intact), jump buffer included. */
static struct {
	uint64_t head;
	void *buf[5];
	volatile int armed;
	const char *volatile phase;
	struct bm_fault taken;
	void *current[3]; /* what the harness needs back at its recovery point (bm_recover_set) */
	uint64_t tail;
} rs = {BM_KIT_GUARD, {0}, 0, BM_PHASE_SETUP, {0}, {0}, BM_KIT_GUARD};

void **bm_recover_jmpbuf(void)
{
	return rs.buf;
}

void bm_recover_set(void *a, void *b, void *c)
{
	rs.current[0] = a;
	rs.current[1] = b;
	rs.current[2] = c;
}

void *bm_recover_get(unsigned i)
{
	return rs.current[i];
}

int bm_recover_state_intact(void)
{
	return rs.head == BM_KIT_GUARD && rs.tail == BM_KIT_GUARD;
}

void bm_recover_arm(void)
{
	rs.armed = 1;
}

void bm_recover_disarm(void)
{
	rs.armed = 0;
}

void bm_recover_phase(const char *p)
{
	rs.phase = p;
}

const char *bm_recover_current_phase(void)
{
	return rs.phase;
}

const struct bm_fault *bm_recover_taken(void)
{
	return &rs.taken;
}

int bm_fault_take(const struct bm_fault *f)
{
	struct bm_alarm *a = bm_port_alarm;
	if (a)
		a->disarm(a);
	if (!rs.armed)
		return 0;
	if (!bm_recover_state_intact()) {
		/* Jumping through an overwritten buffer would only fault again, without a word. */
		bm_out_str("\n*** baremark: the benchmark wrote over the kit's own state (the recovery's "
		           "guard words); the fault below cannot be recovered\n");
		return 0;
	}
	rs.armed = 0;
	rs.taken = *f;
	return 1;
}

void bm_recover(void)
{
	__builtin_longjmp(rs.buf, 1);
}
