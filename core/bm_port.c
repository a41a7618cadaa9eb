/* SPDX-License-Identifier: Apache-2.0 */
/* What core offers the ports (bm/services.h): the run's end through the board's exit device, a
 * configuration error, the state of a hardware probe that the arch's trap handler consults, the
 * sealed set-up's loss, and fact lists; and for core itself (bm_board.h) the watchdog's alarm once
 * it is up. */
#include "bm/out.h"
#include "bm_board.h"

struct bm_alarm *bm_port_alarm;
const char bm_state_lost[] = "the kit's record of its set-up was written over";
volatile int bm_probe_active;
volatile int bm_probe_faulted;

void bm_board_exit(int status)
{
	const struct bm_exit *e = board_desc.exit;
	/* 5 ms of the board's timer first: an emulator whose exit device ends it at once drops the
	 * console output that a host reading it through a pseudo-terminal (QEMU -serial pty, bm
	 * capture --port) has not taken yet: often the end record. */
	struct bm_timer *t = bm_port_timer();
	if (e && e->exit && t) {
		/* (a timer not started yet, as before bm_run's init of it, reads the same value: after
		 * 4096 such reads in a row there is nothing to wait for) */
		uint64_t last = t->read(t), until = last + t->hz / 200;
		for (uint32_t same = 0; (int64_t)(last - until) < 0 && same < 4096u;) {
			uint64_t now = t->read(t);
			same = now == last ? same + 1 : 0;
			last = now;
		}
	}
	if (e && e->exit)
		e->exit(e, status);
	for (;;) /* an exit device that returned (it must not): never continue the run */
		;
}

void bm_port_alarm_init(void)
{
	struct bm_alarm *a = board_desc.alarm;
	bm_port_alarm = a && a->arm && a->disarm && (!a->init || a->init(a) == 0) ? a : 0;
}

void bm_config_error(const char *why)
{
	bm_out_str("baremark: error: ");
	bm_out_str(why);
	bm_out_str("\n");
	bm_board_exit(BM_EXIT_CONFIG);
}

void bm_kv_add(struct bm_kv *facts, unsigned cap, const char *key, const char *value)
{
	unsigned n = 0;
	while (n < cap && facts[n].key)
		n++;
	if (n + 1 < cap)
		facts[n] = (struct bm_kv){key, value};
}
