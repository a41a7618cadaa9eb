/* SPDX-License-Identifier: Apache-2.0 */
/* The port contract, what core OFFERS the ports (bm/port.h is what they supply; it includes this
 * header at its end, so arch and board code include bm/port.h alone). Arch and board code may use
 * of the core what is listed here and nothing else (tests/host/port-contract checks every bm_/BM_
 * name in arch/ and boards/ against these headers):
 *   - this header: the items below, each with who calls it;
 *   - bm/out.h: console output and short strings without libc (bm_out_*, bm_fmt_*, bm_append_*),
 *     for a trap handler's report and the facts of arch_info and board_facts;
 *   - bm/record.h: the bm_rec_* writers, in a board's bench_end hook (its own keys);
 *   - bm/wide.h: exact 64/128-bit arithmetic (bm_muldiv64, bm_u128_*);
 *   - bm/harness.h: a hosted runtime's main() (bm_config_defaults, bm_run, bm_bench_next);
 *   - bm/events.h and bm/event_slots.h: struct bm_event, BM_EVENT_SLOTS and the helpers of
 *     arch_events_setup (bm_event_name_is, bm_event_reason_buf);
 *   - void bm_crt_start(void) (core/crt/bm_crt.c): where a bare-metal start-up jumps, with a
 *     stack and a trap vector; it initialises memory and runs the kit, and never returns.
 * Sections: the kit's services to benchmark code; faults and the run's end; probes; facts; the
 * kit's set-up kept; the board's devices an arch may use. */
#ifndef BM_SERVICES_H
#define BM_SERVICES_H

#ifdef __cplusplus
extern "C" {
#endif

#ifndef BM_PORT_H
#error "include bm/port.h: it includes this header after the types this one uses"
#endif

/* ==== The kit's services to benchmark code =====================================================
 * Benchmark code asks the kit through arch_kit_call (bm/port.h); the arch's handler of the call
 * runs bm_kit_service privileged and hands its result back. */
enum bm_kit_service_id {
	BM_KIT_SCRATCH_ALLOC = 1, /* a: bytes, b: alignment; returns the address or 0 (bm_scratch_alloc) */
	BM_KIT_CONSOLE_WRITE = 2, /* a: the bytes' address, b: how many; written to the console as bm_out_mem
	                           * writes them (a C library's stdout: newlib's _write); returns b */
};
uintptr_t bm_kit_service(unsigned service, uintptr_t a, uintptr_t b);
#if !ARCH_USER_ISOLATED
/* An arch that does not isolate benchmark code: a call into it, and its call back, are plain. */
static inline uintptr_t arch_user_call(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a0, uintptr_t a1)
{
	return fn(a0, a1);
}
static inline uintptr_t arch_kit_call(unsigned service, uintptr_t a, uintptr_t b)
{
	return bm_kit_service(service, a, b);
}
#endif

/* ==== Faults and the run's end ==================================================================
 * For the arch's trap handler (bm/port.h, "Bare-metal arches also provide") and for every port
 * that must end the run. */

/* Exit statuses the firmware reports (and QEMU returns). Never fail with 0. */
enum bm_exit_status {
	BM_EXIT_PASS = 0,   /* every benchmark ran and verified */
	BM_EXIT_FAIL = 1,   /* at least one benchmark did not pass (the end record says how) */
	BM_EXIT_CONFIG = 2, /* the kit is misconfigured (nothing selected, a dead counter, bad option) */
	BM_EXIT_TRAP = 3,   /* the run was aborted: a fault outside a benchmark, or corrupted kit state */
};

/* A fault the arch's trap handler hands to core. */
enum bm_fault_kind {
	BM_FAULT_TRAP = 1,  /* an exception: illegal instruction, access fault, ... */
	BM_FAULT_TIMEOUT,   /* the alarm fired: the benchmark overran its budget */
};
struct bm_fault {
	uint8_t kind;       /* enum bm_fault_kind */
	uint8_t has_addr;   /* addr is the faulting data/instruction address the core reported */
	const char *cause;  /* in words, e.g. "illegal instruction", "data abort, translation fault" */
	uint64_t code;      /* the raw cause register (mcause, ESR_EL1, vector, CFSR, signal) */
	uint64_t pc;        /* where it happened */
	uint64_t addr;      /* the faulting address, when has_addr */
	uint64_t sp;        /* the stack pointer at the fault (0: unknown): below the stack = overflow */
};
/* Returns 1 when core takes the fault (a benchmark runs under a recovery point): the handler then
 * restores the arch's own state and calls bm_recover(). Returns 0 when nothing can recover: the
 * handler reports the fault and ends the run. Disarms the alarm either way. Called by the arch's
 * trap handler, for every exception or interrupt it cannot resume from. */
int bm_fault_take(const struct bm_fault *f);
/* Continues in the harness at the running benchmark's recovery point; never returns. Call it in
 * the arch's normal execution state (thread mode, the exception level the kit runs at), with the
 * trap stack free again; any stack pointer is fine (the recovery point restores its own). */
__attribute__((noreturn)) void bm_recover(void);
/* End the run with a bm_exit_status through the board's exit device (after 5 ms of the board's
 * timer, for the console to drain); never returns. Called by core at the run's end and by a trap
 * handler that could not recover. */
__attribute__((noreturn)) void bm_board_exit(int status);

/* The fatal end of the run (core/guard/bm_fatal.c), when bm_fault_take() returned 0:
 * bm_fatal_trap writes "*** TRAP: <cause>", each register as its label and value (hex_digits 0:
 * decimal), the tail's strings (NULL-ended; NULL: none), then the line that says the run is
 * aborted, and ends the run with BM_EXIT_TRAP. A handler first asks bm_fatal_nested(): 1 when a fatal report had begun (a fault
 * inside it: the console or the exit path is broken), and then halts without a word. Where the
 * run cannot go on for a reason in words (core's own checks, a hosted arch), bm_fatal_abort
 * writes "*** <what...>" (NULL-ended) and the same end on that line. */
struct bm_fatal_reg {
	const char *label; /* printed before the value, e.g. " mepc=0x" */
	uint64_t value;
	unsigned hex_digits;
};
int bm_fatal_nested(void);
__attribute__((noreturn)) void bm_fatal_trap(const char *cause, const struct bm_fatal_reg *regs, unsigned n,
                                             const char *const *tail);
__attribute__((noreturn)) void bm_fatal_abort(const char *const *what);
/* "baremark: error: <why>" on the console, then the run ends with BM_EXIT_CONFIG: for an arch
 * whose probe finds the core unusable (no counter that counts, a counter it cannot reach). */
__attribute__((noreturn)) void bm_config_error(const char *why);

/* ==== Probes ====================================================================================
 * Probing optional hardware from arch code: run one instruction that may not exist and learn
 * whether it trapped. BM_PROBE(stmt) evaluates to 1 when stmt ran without trapping. The arch's
 * trap handler, on an undefined-instruction trap, calls bm_probe_fault(): when it returns 1 a
 * probe was running and the handler resumes after the (4-byte) instruction. Cold path only. */
extern volatile int bm_probe_active;
extern volatile int bm_probe_faulted;
static inline int bm_probe_fault(void)
{
	if (!bm_probe_active)
		return 0;
	bm_probe_faulted = 1;
	return 1;
}
#define BM_PROBE(stmt)                                                    \
	({                                                                \
		bm_probe_faulted = 0;                                     \
		bm_probe_active = 1;                                      \
		__asm__ volatile("" : : : "memory");                      \
		stmt;                                                     \
		__asm__ volatile("" : : : "memory");                      \
		bm_probe_active = 0;                                      \
		!bm_probe_faulted;                                        \
	})

/* ==== Facts =====================================================================================
 * Appends a fact to a {0,0}-ended array of `cap` entries (the last one stays the end mark); a
 * fact that does not fit is dropped. For arch_info.facts and board facts built at run time. */
void bm_kv_add(struct bm_kv *facts, unsigned cap, const char *key, const char *value);

/* ==== The kit's set-up, kept =====================================================================
 * What arch_state_save records of the kit's set-up (bm/port.h) lies in the kit's memory too: core
 * keeps it with a sealed copy and, when the two no longer agree (a benchmark wrote over them),
 * restores nothing and returns bm_state_lost: core then ends the run as for any write over the
 * kit's state. */
extern const char bm_state_lost[];
/* The kit's set-up that arch_state_save/arch_state_restore keep (above), as a table of registers:
 * read gives the register now (core keeps the bits in mask), write puts the kit's value back
 * (now: what it held, both masked), arg is the arch's own (an address, a register's number). The
 * arch keeps kit and copy, BM_STATE_WORDS(n) register-wide words each (BM_STATE_ARCH defines them and
 * arch_state_save/arch_state_restore over the table); bm_state_save reads every entry once
 * (one whose read traps, BM_PROBE, is absent and never compared) and seals the copy;
 * bm_state_restore puts back, in the table's order, each entry that differs and returns the
 * first one's reason, bm_state_lost when kit and copy disagree (it then puts nothing back), or
 * NULL. n is at most the bits of a word. */
struct bm_state_reg {
	uintptr_t (*read)(const struct bm_state_reg *r);
	void (*write)(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now);
	const char *reason;
	uintptr_t arg;
	uintptr_t mask;
};
#define BM_STATE_REG(what, read, write, arg, mask)                                            \
	{read, write, "changed " what " and did not put it back (restored)", arg, mask}
#define BM_STATE_WORDS(n) (1 + (n))
void bm_state_save(const struct bm_state_reg *regs, unsigned n, uintptr_t *kit, uintptr_t *copy);
const char *bm_state_restore(const struct bm_state_reg *regs, unsigned n, const uintptr_t *kit, const uintptr_t *copy);
/* arch_state_save and arch_state_restore over an arch's static table regs[], with kit and copy. */
#define BM_STATE_ARCH(regs)                                                                          \
	_Static_assert(sizeof regs / sizeof *regs <= 8 * sizeof(uintptr_t), "too many (bm_state_save)"); \
	static uintptr_t bm_state_kit_[BM_STATE_WORDS(sizeof regs / sizeof *regs)],                   \
		bm_state_copy_[BM_STATE_WORDS(sizeof regs / sizeof *regs)];                          \
	void arch_state_save(void)                                                                   \
	{                                                                                            \
		bm_state_save(regs, sizeof regs / sizeof *regs, bm_state_kit_, bm_state_copy_);      \
	}                                                                                            \
	const char *arch_state_restore(void)                                                         \
	{                                                                                            \
		return bm_state_restore(regs, sizeof regs / sizeof *regs, bm_state_kit_, bm_state_copy_); \
	}
/* Events (arch_events_setup, above): core settles an operating system's event (unless arch/arch.h
 * defines ARCH_COUNTS_OS_EVENTS 1, as a hosted arch does) and an event past the snapshot's slots
 * before it asks the arch; the arch finds them with their reason set and leaves them as they are. */

/* ==== The board's devices an arch may use (NULL-safe, cold path) ================================
 * Core's own calls into the board are core-private (core/bm_board.h); these two an arch needs. */

/* The timer, when the board has one that works (a read and a rate, after its init); else NULL:
 * no ns figures, no clock. For an arch whose fallback counter is the board's timer. */
static inline struct bm_timer *bm_port_timer(void)
{
	struct bm_timer *t = board_desc.timer;
	return t && t->read && t->hz ? t : 0;
}

/* The board's memory map (*n regions; NULL and 0 without one), for an arch that maps memory. */
static inline const struct bm_mem_region *bm_port_mem_map(unsigned *n)
{
	*n = board_desc.mem_map ? board_desc.mem_map_len : 0;
	return *n ? board_desc.mem_map : 0;
}

#ifdef __cplusplus
}
#endif

#endif /* BM_SERVICES_H */
