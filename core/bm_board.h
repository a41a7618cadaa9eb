/* SPDX-License-Identifier: Apache-2.0 */
/* How core calls the board (NULL-safe, cold path): the wrappers of bm/port.h's board structs that
 * core alone uses (the two an arch may use too, bm_port_timer and bm_port_mem_map, are offered in
 * bm/services.h). Core-private: not for arch or board code. Core reaches the board's devices only
 * through these, so each device has one rule for whether it is there: a console that can write
 * (putc) and, in a served image, read (getc), a timer that reads and has a rate (read and hz,
 * after its init), an alarm that arms and disarms and whose init (if any) succeeded. Optional
 * hooks are called only when set. bm_run brings them up in this order: board, console, (the first
 * console line), timer, arch, alarm. */
#ifndef BM_BOARD_H
#define BM_BOARD_H

#include "bm/port.h"

static inline void bm_port_board_init(void)
{
	if (board_desc.init)
		board_desc.init();
}

static inline void bm_port_console_init(void)
{
	struct bm_console *con = board_desc.console;
	if (con && con->init)
		con->init(con);
}

static inline void bm_port_putc(char c)
{
	struct bm_console *con = board_desc.console;
	if (con && con->putc)
		(con->putc)(con, c); /* parenthesised: <stdio.h> may define putc as a macro */
}

static inline void bm_port_write(const char *s, size_t n)
{
	struct bm_console *con = board_desc.console;
	if (con && con->write)
		con->write(con, s, n);
	else
		while (n--)
			bm_port_putc(*s++);
}

/* 1: the console is a serial line ('\n' goes out as "\r\n"); 0: a file or a pipe (lf_only). */
static inline int bm_port_console_crlf(void)
{
	struct bm_console *con = board_desc.console;
	return con && !con->lf_only;
}

/* 1: the console had been changed and is set up again (the benchmark that just ran did it). */
static inline int bm_port_console_restore(void)
{
	struct bm_console *con = board_desc.console;
	return con && con->restore ? con->restore(con) != 0 : 0;
}

/* 1: the console can read (a served image's commands, BM_SERVE). */
static inline int bm_port_console_reads(void)
{
	struct bm_console *con = board_desc.console;
	return con && con->getc;
}

/* The next byte the console received, or -1: none yet (or a console that cannot read). */
static inline int bm_port_getc(void)
{
	struct bm_console *con = board_desc.console;
	return con && con->getc ? (con->getc)(con) : -1; /* parenthesised: <stdio.h> may define getc */
}

/* For the header and the meta record ("none" without a console). */
static inline const char *bm_port_console_name(void)
{
	struct bm_console *con = board_desc.console;
	return con && con->name ? con->name : "none";
}

static inline void bm_port_timer_init(void)
{
	struct bm_timer *t = board_desc.timer;
	if (t && t->init)
		t->init(t);
}

static inline uint64_t bm_port_timer_read(void)
{
	struct bm_timer *t = bm_port_timer();
	return t ? t->read(t) : 0;
}

/* The watchdog's alarm when the board has one that works: set by bm_port_alarm_init (after
 * arch_init), NULL before and without one. */
extern struct bm_alarm *bm_port_alarm;
void bm_port_alarm_init(void);

static inline void bm_port_bench_begin(const char *name)
{
	if (board_desc.bench_begin)
		board_desc.bench_begin(name);
}

static inline void bm_port_bench_end(const char *name, struct bm_record *r)
{
	if (board_desc.bench_end)
		board_desc.bench_end(name, r);
}

#endif /* BM_BOARD_H */
