/* The board interface: everything the portable core needs from a board that is NOT on the
 * hot path (console, memory-mapped timer, exit). A board fills one `const struct bm_board`
 * named `board_desc`; core calls it only through the NULL-safe wrappers below. */
#ifndef BM_BOARD_H
#define BM_BOARD_H

#include <stdint.h>

struct bm_record;

/* Exit statuses the firmware reports (and QEMU returns). Never fail with 0. */
enum bm_exit_status {
	BM_EXIT_PASS = 0,        /* every benchmark ran and verified */
	BM_EXIT_FAIL = 1,        /* at least one benchmark failed (setup or verify) */
	BM_EXIT_CONFIG = 2,      /* the kit itself is misconfigured (e.g. no benchmarks, bad option) */
	BM_EXIT_TRAP = 3,        /* an unexpected trap/exception ended the run */
};

struct bm_board {
	/** Board name, as its folder under boards/ (e.g. "qemu-virt-riscv64"). */
	const char *name;
	/** Console description for the meta record (e.g. "ns16550a@0x10000000"). */
	const char *console;
	/** Optional: bring up clocks and the UART; called once, before any output. */
	void (*init)(void);
	/** Write one byte to the console, blocking until the UART accepts it. */
	void (*putc)(char c);
	/** Optional: free-running memory-mapped timer, in timer ticks. NULL if the board has none. */
	uint64_t (*timer_ticks)(void);
	/** Frequency of timer_ticks, in Hz (0 if no timer). */
	uint64_t timer_hz;
	/** Timer description for the meta record (e.g. "clint-mtime@0x0200bff8"). */
	const char *timer_name;
	/** End the run with a bm_exit_status: leaves QEMU with it, or halts a real board. Never returns. */
	void (*exit)(int status);
	/** Optional: called before a benchmark's setup (e.g. to snapshot OS accounting). */
	void (*bench_begin)(const char *name);
	/** Optional: called after the benchmark, while its result record is open, to add board keys
	 *  (e.g. CPU time); `r` is NULL when the benchmark failed (a failure carries no numbers). */
	void (*bench_end)(const char *name, struct bm_record *r);
};

/* Defined by exactly one board (boards/<name>/board.c). */
extern const struct bm_board board_desc;

static inline void bm_board_putc(char c)
{
	if (board_desc.putc)
		board_desc.putc(c);
}

static inline uint64_t bm_board_timer_ticks(void)
{
	return board_desc.timer_ticks ? board_desc.timer_ticks() : 0;
}

static inline int bm_board_has_timer(void)
{
	return board_desc.timer_ticks != 0 && board_desc.timer_hz != 0;
}

/* Ends the run. If a board's exit returns (it must not), spin so the caller never continues. */
__attribute__((noreturn)) void bm_board_exit(int status);

#endif /* BM_BOARD_H */
