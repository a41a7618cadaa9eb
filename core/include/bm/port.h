/* SPDX-License-Identifier: Apache-2.0 */
/* The port contract, what a port SUPPLIES: everything an architecture, a board and the C runtime
 * give the portable core, and nothing else. What core offers them in return is bm/services.h,
 * included at the end, so a port includes this header alone. A port that misses a symbol fails to
 * build with a message naming it (an #error below, a -Werror implicit declaration, or the
 * linker's undefined reference). Each item says what it is, its unit, its default and who calls
 * it.
 *
 * Layers: arch/<arch>/ (ISA: counters, traps, start-up), boards/<board>/ (addresses, device
 * instances, memory map, exit), core/ (portable; never tests an arch or board macro). The hot
 * path (counter reads) is static inline and resolved at compile time; everything else is cold
 * and goes through the board's devices. Sections: the arch's hot path, benchmark isolation (the
 * arch, optional), shared types, the arch's cold path, the board, the C runtime. */
#ifndef BM_PORT_H
#define BM_PORT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bm_record;

/* ==== Supplied by the arch: hot path, in arch/<arch>/include/arch/arch.h ====================
 * Found by include path (seL4-style), so core never tests an arch macro.
 *
 *   struct arch_snap { uint64_t cycles, instret; ... };
 *       One reading of the counters. cycles in the unit arch_info.cycle_unit names; instret 0
 *       where the core cannot count instructions (arch_info.instret_counter is then NULL).
 *   void arch_snap_begin(struct arch_snap *s);   static inline, always_inline
 *   void arch_snap_end(struct arch_snap *s);     static inline, always_inline
 *       Read at the start / end of a timed region, each ONE asm block that stores to *s, so the
 *       code between two reads is fixed by construction: `empty` then measures exactly 0 after
 *       the boot-time overhead subtraction. Called by the generated batch functions (bench.h).
 *       Either read alone must also be a free-running 64-bit count (a narrower counter extended
 *       in software): the clock estimate and the run's time accounting subtract readings taken
 *       far apart, not only begin/end pairs.
 *   void arch_known_loop(void);  ARCH_KNOWN_LOOP_INSNS
 *       An asm loop of exactly ARCH_KNOWN_LOOP_INSNS instructions retired (the `known_loop`
 *       self-check must report exactly that under deterministic QEMU).
 *   ARCH_HAS_CLZ64  1 when __builtin_clzll is one or two instructions (no libgcc call), else
 *       0: the statistics use a table instead.
 *   ARCH_CMP_BRANCH  (optional, default 0) 1 when one instruction compares two registers and
 *       branches (RISC-V's beq/bne): the sampling loop then tests a reading's words one by one;
 *       elsewhere it ors their differences into one test (run/run.h, bm_delta_same).
 *   ARCH_COUNTS_INSTRET  (optional, default 1) 0 when the core has no instructions-retired
 *       counter at all (Cortex-M: instret is 0 in every reading): the sampling paths then carry
 *       no instret word (a reading's compare, its seal, its accounting; run/run.h). */
#include "arch/arch.h"

#ifndef ARCH_KNOWN_LOOP_INSNS
#error "arch/arch.h must define ARCH_KNOWN_LOOP_INSNS and arch_known_loop() (see bm/port.h)"
#endif
#ifndef ARCH_HAS_CLZ64
#error "arch/arch.h must define ARCH_HAS_CLZ64 to 0 or 1 (see bm/port.h)"
#endif
#ifndef ARCH_CMP_BRANCH
#define ARCH_CMP_BRANCH 0
#endif
#ifndef ARCH_COUNTS_INSTRET
#define ARCH_COUNTS_INSTRET 1
#endif

/* Benchmark code out of the kit's reach (optional; said by the arch's arch.cmake, BM_USER_ISOLATED
 * and BM_USER_STACK_BOUNDED, from which the build defines the two macros below):
 *   ARCH_USER_ISOLATED  1 when the arch runs benchmark code unprivileged, with the kit's memory,
 *       its trap vectors and its counter set-up out of reach; then also:
 *   uintptr_t arch_user_call(uintptr_t (*fn)(uintptr_t, uintptr_t), uintptr_t a0, uintptr_t a1);
 *       Runs fn(a0, a1) unprivileged with its stack pointer at a1 (16-byte aligned: core passes
 *       the call's job, at the top of the benchmark's own stack, bm_rt_user_stack), and returns
 *       fn's result; the kit's registers (callee-saved ones, stack pointer, interrupt state) are
 *       the kit's again on return. A fault in it is a fault like any other (bm_fault_take).
 *       What it may write, set once at arch_init, never per call (linker/common.ld's symbols):
 *       its stack [__user_stack_bottom, __user_stack_top) and the user region [__user_start,
 *       __user_end); what it may read besides: FLASH. Everything else is the kit's: its stack
 *       and trap stack, .kit_data below its stack and .kit_bss above it, the devices. Each of
 *       those edges lies on __bm_user_align (the board's memory.ld: the protection's granule).
 *   uintptr_t arch_kit_call(unsigned service, uintptr_t a, uintptr_t b);
 *       From such code, or from the kit: core's bm_kit_service(service, a, b), run privileged.
 *   ARCH_USER_STACK_BOUNDED  1 when a write past the top of the benchmark's stack (beyond the
 *       band and the job) faults: the kit's memory above it is out of its reach (a write there
 *       is named as one past the top of its frames); 0 when the arch cannot say so yet.
 *   ARCH_USER_SNAP_TRAPS  1 (arch/arch.h) when such code reads the counters through a trap into
 *       the kit (arch_snap_begin/end take another path there: Cortex-M, whose counters answer
 *       privileged code only): core then measures the read overhead on that path too, the probe
 *       run as benchmark code, and subtracts it from the batches of the benchmarks that run so;
 *       0 (default): the snapshots are the same instructions in both modes.
 * Without ARCH_USER_ISOLATED (or 0) benchmark code runs as the kit does, on the kit's stack
 * (arch_user_call and arch_kit_call are then plain calls), and core detects what it can (guard
 * words, the band above its frames, the checks after every benchmark). Benchmarks marked
 * .privileged run so everywhere. */
#ifndef ARCH_USER_STACK_BOUNDED
#define ARCH_USER_STACK_BOUNDED 0
#endif
#ifndef ARCH_USER_ISOLATED
#define ARCH_USER_ISOLATED 0 /* (then core supplies both calls itself: bm/services.h) */
#endif
#ifndef ARCH_USER_SNAP_TRAPS
#define ARCH_USER_SNAP_TRAPS 0
#endif

/* ==== Types the arch and the board both supply in ============================================= */

/* A fact for the meta record: lowercase [a-z0-9_] key, value printed as a JSON string. Arrays of
 * facts end with {0, 0}. */
struct bm_kv {
	const char *key;
	const char *value;
};

/* Byte-wide register access, for drivers whose device sits on different buses (a 16550 on an
 * 8-bit or a 32-bit MMIO bus, or on x86 port I/O): the driver takes one of these, the board
 * picks it. boards/drivers supplies the MMIO ones, an arch with port I/O its own. */
struct bm_io8 {
	uint8_t (*read)(uintptr_t addr);
	void (*write)(uintptr_t addr, uint8_t value);
	/** Optional: n bytes into the one register at addr, in order (a FIFO's data register: x86's
	 *  rep outsb, an MMIO loop without a call per byte). NULL: write() byte by byte. */
	void (*write_rep)(uintptr_t addr, const char *s, size_t n);
};

/* ==== Supplied by the arch: cold path, arch/<arch>/ C sources ======================================= */

/* What the arch tells the meta record after probing its counters (filled by arch_init). */
struct arch_info {
	/** ISA as built, e.g. "rv64imac". */
	const char *isa;
	/** Source of the cycles figures, e.g. "cycle (rdcycle)"; names the fallback when the
	 *  preferred counter did not advance. */
	const char *cycle_counter;
	/** Unit of the cycles figures when they are not core cycles ("tsc_ticks", "cntvct_ticks",
	 *  "systick_ticks"); NULL means "cycles". */
	const char *cycle_unit;
	/** Source of instructions retired, or NULL when the core cannot count them. */
	const char *instret_counter;
	/** Facts for the meta record's arch_facts (counter enabling, privilege, caches); {0,0}-ended. */
	const struct bm_kv *facts;
	/** Optional: core cycles per counter tick in ppm, measured now, for arches whose counter is
	 *  not the core clock (x86 TSC). Called by the harness before each benchmark. NULL: none. */
	uint32_t (*core_per_tick_ppm)(void);
	/** 1: under deterministic QEMU (-icount) the cycle counter and the instruction counter count
	 *  the same thing, every instruction once (core checks each benchmark's totals agree). */
	uint8_t icount_cycles_are_insns;
};

/* Events (optional; bm/events.h, docs/events.md). Where arch.cmake gives BM_EVENT_SLOTS_MAX > 0
 * and BM_EVENTS asks for events, the build sets BM_EVENT_SLOTS (bm/event_slots.h) and then:
 *   struct arch_snap has uint64_t ev[BM_EVENT_SLOTS];
 *   void arch_snap_begin_ev(struct arch_snap *s);   static inline, always_inline
 *   void arch_snap_end_ev(struct arch_snap *s);     static inline, always_inline
 *       arch_snap_begin/end that also read the slots, in the same asm block as the cycles and
 *       instructions (bm/event_slots.h: BM_EV_OPERANDS, BM_EV_N): the batches that call them
 *       are a second copy the harness runs only when arch_events_setup found the counters, so a
 *       core without them never executes a read;
 *   ARCH_EVENT_MASK  the counters' width as a mask: a slot's delta is taken modulo it.
 * Every arch supplies (cold, once after arch_init, also with no slots: the reasons are facts):
 *   void arch_events_setup(struct bm_event *ev, unsigned n);
 *       For each event asked: counted (source, counter, raw; only i < BM_EVENT_SLOTS: slot i is
 *       programmed, enabled and zeroed for it) or not (reason: what the probe found). */
struct bm_event;
void arch_events_setup(struct bm_event *ev, unsigned n);

/** Called once by core (bm_run) after the board's init: enable and probe the counters, install
 *  the trap vector, turn on what the counters need (MMU and caches on AArch64). */
void arch_init(void);
/** The facts above, valid after arch_init(). */
const struct arch_info *arch_get_info(void);
/** The kit's own set-up of the core that benchmark code can change: the trap vector, exception
 *  and FPU control (rounding mode, enable), the counters' enables. arch_state_save() records it,
 *  called once by core after arch_init; arch_state_restore(), called by core after every
 *  benchmark (after its teardown, or after the fault that ended it), puts back whatever differs
 *  and returns the first it found, as a benchmark's failure reason (a string in read-only memory,
 *  e.g. "changed the trap vector (mtvec) and did not put it back (restored)"), or NULL. An arch
 *  writes them as a table of its registers over core's helper (BM_STATE_ARCH, bm/services.h),
 *  which keeps what it recorded sealed and checks the seal before it restores anything. An arch whose trap handler
 *  finds the FPU turned off puts it back on before anything else (the kit's own code may use its
 *  registers). */
void arch_state_save(void);
const char *arch_state_restore(void);
/* Bare-metal arches also provide the entry `_start` (stack, trap vector, then bm_crt_start())
 * and a trap handler. For every exception or interrupt it cannot resume from it fills a
 * struct bm_fault (bm/services.h) and calls bm_fault_take(): when that returns 1 a benchmark was
 * running, and the handler puts the arch's own state back (its trap stack, interrupt masks, mode
 * or exception level) and calls bm_recover(), which continues in the harness with the next
 * benchmark. When it returns 0 the handler passes its registers to bm_fatal_trap(), which reports
 * the fault and ends the run (a handler entered again while that report runs halts at once:
 * bm_fatal_nested()). While a probe runs (BM_PROBE, bm/services.h) an
 * undefined-instruction trap calls bm_probe_fault() and resumes after the instruction instead.
 * Where the core can, the arch also guards the main stack in hardware: the
 * __stack_guard_size bytes below __stack_bottom (linker/common.ld) fault on any access. */

/* ==== Supplied by the board: boards/<board>/board.c ========================================
 * A board is data: device instances from boards/drivers/ (each driver embeds the device struct
 * and implements its ops), a memory map, and one `const struct bm_board board_desc`. */

/* The console: a byte sink (and, where the driver reads, a source of commands). Drivers embed it
 * (e.g. struct ns16550 { struct bm_console con; ...}). */
struct bm_console {
	/** For the meta record, e.g. "ns16550a@0x10000000". */
	const char *name;
	/** Optional: bring the UART up (baud, 8N1, FIFOs); called once by core before any output. */
	void (*init)(struct bm_console *con);
	/** Write one byte, blocking until the device takes it (bounded where the device may be absent). */
	void (*putc)(struct bm_console *con, char c);
	/** Optional: write n bytes as putc would (core's strings and records come in pieces: one call
	 *  per piece, not per byte; NULL: core calls putc for each). */
	void (*write)(struct bm_console *con, const char *s, size_t n);
	/** 0 (default): core sends "\r\n" for '\n' (a serial line); 1: '\n' alone (a file, a pipe). */
	uint8_t lf_only;
	/** Optional: set the device up again if it no longer transmits as init left it (a benchmark
	 *  turned the transmitter off, changed the frame format); 1 when it had to. Called by core
	 *  after every benchmark, before its row is printed. */
	int (*restore)(struct bm_console *con);
	/** Optional: the next byte received (0..255), or -1 when none has arrived; never blocks.
	 *  Called by core only in a served image (BM_SERVE, docs/records.md), from the kit's own code
	 *  between benchmarks. NULL: the console cannot read, and BM_SERVE is refused for the board. */
	int (*getc)(struct bm_console *con);
};

/* A free-running timer, the reference for the cycle-counter frequency and for ns figures. */
struct bm_timer {
	/** For the meta record, e.g. "clint-mtime@0x0200bff8". */
	const char *name;
	/** Optional: start the timer and set hz when it is only known at run time. Called once by
	 *  core before the clock estimate. */
	void (*init)(struct bm_timer *t);
	/** Current count in ticks (64-bit, never torn on 32-bit buses). Not const: a driver that
	 *  extends a narrower counter keeps its wrap state in its own instance. */
	uint64_t (*read)(struct bm_timer *t);
	/** Ticks per second; 0 means "no usable timer" (no ns figures). Settable by init. */
	uint64_t hz;
};

/* How the run ends: a QEMU exit device, semihosting, a watchdog reset, or a halt on hardware. */
struct bm_exit {
	/** For the board's README and tests only. */
	const char *name;
	/** End the run with a bm_exit_status (bm/services.h). Must not return (core spins if it
	 *  does). Called by core's bm_board_exit only. */
	void (*exit)(const struct bm_exit *dev, int status);
};

/* A one-shot interrupt, the per-benchmark watchdog: armed by the harness before a benchmark's
 * setup and disarmed after its teardown, so it never fires inside a timed region of a benchmark
 * that keeps its budget. When it fires, the arch's trap handler reports BM_FAULT_TIMEOUT. */
struct bm_alarm {
	/** For the meta record, e.g. "clint-mtimecmp". */
	const char *name;
	/** Optional: set it up once; nonzero when it cannot work here (the run then has no watchdog,
	 *  and the meta record says bench_timeout_ms 0). Called by core after arch_init. */
	int (*init)(struct bm_alarm *a);
	/** Interrupt `ms` milliseconds from now (and enable what delivers it to the arch's handler). */
	void (*arm)(struct bm_alarm *a, uint32_t ms);
	/** Cancel it; idempotent. Called by core after the teardown and when the alarm fired. */
	void (*disarm)(struct bm_alarm *a);
};

/* One region of the physical memory map, for arches that build translation or protection
 * tables from it (AArch64 MMU identity map). */
enum bm_mem_type {
	BM_MEM_NORMAL = 1, /* RAM: cacheable */
	BM_MEM_DEVICE = 2, /* MMIO: device memory, never executable */
};
struct bm_mem_region {
	uint64_t base;          /** physical = virtual address */
	uint64_t size;          /** bytes */
	enum bm_mem_type type;  /** how it is mapped */
};

struct bm_board {
	/** Board name, as its folder under boards/ (e.g. "qemu-virt-riscv64"). Required. */
	const char *name;
	/** Required: the console. */
	struct bm_console *console;
	/** Optional: the timer (NULL: none; no ns or ops/s figures). */
	struct bm_timer *timer;
	/** Optional: the watchdog's alarm (NULL: none; a hang then waits for the host's timeout). An
	 *  arch may supply one (arch/devices.h) for its boards to use. */
	struct bm_alarm *alarm;
	/** Required: how the run ends. */
	const struct bm_exit *exit;
	/** Optional: clocks and pins, called once by core before any device's init. */
	void (*init)(void);
	/** Optional: called before a benchmark's setup (e.g. to snapshot OS accounting). */
	void (*bench_begin)(const char *name);
	/** Optional: called while a benchmark's result record is open, to add board keys; `r` is
	 *  NULL when the benchmark did not pass (such a record carries no numbers). */
	void (*bench_end)(const char *name, struct bm_record *r);
	/** Optional: facts for the meta record's board_facts; {0,0}-ended. */
	const struct bm_kv *facts;
	/** The memory map; required by arches that map memory (AArch64), else optional. */
	const struct bm_mem_region *mem_map;
	unsigned mem_map_len;
};

/** Defined by exactly one board: the only symbol a board's C code exports. */
extern const struct bm_board board_desc;

/* ==== Supplied by the C runtime ===============================================================
 * core/crt/bm_crt.c on bare metal; on a hosted arch, arch/hosted (stack.c: bm_rt_stack,
 * bm_rt_user_stack) and core/libc/hosted.c (bm_libc_name). */

/** The C library's name and version for the meta record (core/libc/<libc>.c). */
extern const char bm_libc_name[];
/** The C library's own start-up (core/libc/<libc>.c), called by the bare-metal start-up once
 *  memory is initialised: e.g. picolibc's thread pointer, for its thread-local errno. */
void bm_libc_init(void);

/* A stack, for its high-water mark and to tell an overflow apart. */
struct bm_stack {
	uintptr_t lo, hi; /* [lo, hi); lo == hi: not known */
	uintptr_t guard;  /* bytes below lo where a fault is the stack's overflow (a hardware guard); 0: none */
	uintptr_t above;  /* bytes above hi out of the reach of the code that runs on it (the kit's
	                   * memory above the benchmarks' stack: a fault there is a write past its top) */
	uint8_t painted;  /* 1: core may paint the free stack for high-water marks (bare metal) */
	uint8_t paint;    /* the byte the unused stack holds (painted by the start-up) */
};
/** The kit's stack (the main stack: the start-up's, the kit's frames, privileged benchmarks'). */
void bm_rt_stack(struct bm_stack *s);
/** The benchmarks' own stack, where the arch runs their code unprivileged (ARCH_USER_ISOLATED):
 *  bare metal, [__user_stack_bottom, __user_stack_top), the kit's memory on both sides; lo == hi
 *  where there is none (a hosted runtime, a board that sets no __user_stack_size). */
void bm_rt_user_stack(struct bm_stack *s);

#ifdef __cplusplus
}
#endif

/* What core offers the ports in return: their half of the contract's other side. */
#include "bm/services.h"

#endif /* BM_PORT_H */
