/* SPDX-License-Identifier: Apache-2.0 */
/* The kit as a library inside an application's own firmware or program (docs/library.md): the
 * application keeps its start-up, vectors, linker script, drivers and scheduler, and calls
 * bm_lib_run() where it likes (its main, an RTOS task). Built by baremark_add_library
 * (cmake/BaremarkLibrary.cmake). Nothing here allocates; one run at a time. */
#ifndef BM_LIB_H
#define BM_LIB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct bm_lib_config {
	/** Required: where the kit's lines and records go (the application's UART, RTT, printf).
	 *  Called from the task that called bm_lib_run, never from an interrupt, between timed
	 *  regions only; it may block. */
	void (*write)(const char *buf, size_t len);
	/** 1: '\n' goes out alone (a file, a pipe, printf); 0: as "\r\n" (a serial line). */
	uint8_t lf_only;
	/** Optional: a free-running 64-bit count at timer_hz, for ns figures and the cycle clock's
	 *  estimate (an RTOS tick is too coarse: a hardware timer the application leaves running). */
	uint64_t (*timer_read)(void);
	uint64_t timer_hz;
	/** Optional: called before and after every benchmark and with every write of the kit's
	 *  output, never inside a timed region. One benchmark takes samples x min_batch_cycles at
	 *  least: the watchdog's period must be longer (or .samples lower). */
	void (*watchdog_kick)(void);
	/** Optional: the benchmarks to run, their names separated by commas ("crc32,matmul"); NULL or
	 *  "": every benchmark the library holds (its SELECT). A name it does not hold selects
	 *  nothing for it; none at all is a configuration error (status 2). */
	const char *select;
	/** Optional: timed batches per benchmark (0: the build's BM_SAMPLES). */
	uint32_t samples;
	/** Optional: the name the records give the machine (NULL: "library"). */
	const char *board;
	/** 1: the application's fault handler calls bm_lib_fault() (below): the kit then probes the
	 *  counters' enables it may not have (a probe's fault is skipped) and a benchmark's fault
	 *  ends that benchmark, not the application. 0: the kit probes nothing. */
	uint8_t faults_forwarded;
};

/* Runs the selected benchmarks with the kit's header, table and records on cfg->write; returns
 * the status the kit's images exit with: 0 every benchmark passed, 1 at least one did not, 2 a
 * configuration error (no write function, nothing selected, a counter that does not count, a
 * run already going on), 3 the run was aborted (a fault outside a benchmark, the kit's state
 * written over). Where the kit would end an image, it returns from here. */
int bm_lib_run(const struct bm_lib_config *cfg);

/* From the application's fault handler (when cfg->faults_forwarded), with what the core
 * reported: cause in words, the raw cause register, the faulting pc and, when known, the
 * address (has_addr). Returns 0: not the kit's (no run, or no benchmark under way): the
 * application handles it. Returns 1: a probe of the kit's: resume after the faulting 4-byte
 * instruction. Does not return when a benchmark faulted: the run goes on with the next one
 * (the fault is that benchmark's result) on the stack of the task that runs the kit. Call it
 * where the handler can continue in the code that was running (a RISC-V M-mode trap, a hosted
 * signal handler); on Cortex-M, return from the exception to thread mode first. */
int bm_lib_fault(const char *cause, uint64_t code, uint64_t pc, uint64_t addr, int has_addr);

#ifdef __cplusplus
}
#endif

#endif /* BM_LIB_H */
