/* SPDX-License-Identifier: Apache-2.0 */
/* Calls into a benchmark's own code with a painted band above its frames, read when the call
 * returns: setup, verify, teardown and, outside the timed samples, its batches (where the arch
 * isolates benchmark code, the samples' chunks too). A write past the top of the benchmark's
 * frames (a local array overrun) meets the band before anything of the kit's, and ends the
 * benchmark as a trap; unbanded, it changed the harness's locals (figures reported as good) or,
 * on AArch64, where a frame's saved x29/x30 sit at its bottom, a return address (a lost run).
 *
 * Where the arch runs benchmark code unprivileged (ARCH_USER_ISOLATED) and the benchmark is not
 * .privileged, the call runs on the benchmark's own stack, the band and the call's job at its top
 * and the kit's memory, out of its reach, on both sides (bm_user.c). Otherwise on the kit's stack
 * (here), the band an alloca: GCC puts a dynamic allocation below the whole fixed frame on every
 * target, so nothing of the kit's lies between the band and the callee. __builtin_unwind_init
 * makes the calling frame save every callee-saved register (above the band) and restore them on
 * return: a callee that restores the registers it borrowed from its own overwritten frame leaves
 * the kit's as they were. There the later batches (calibration, warm-up, the timed samples) call the body
 * directly: a band around each would cost every sample. Not instrumented by AddressSanitizer
 * (the host tests): its alloca redzones would sit where the band must. */
#include "bm/out.h"
#include "run/band.h"

#define FRAME_OVERRUN "wrote past the top of its stack frame, into the band the kit keeps above it (pc: the " \
                      "function's entry; address: the band's lowest word written)"

__attribute__((noreturn, noinline)) void bm_band_written(uintptr_t addr, uintptr_t entry)
{
	struct bm_fault f = {0};
	f.kind = BM_FAULT_TRAP;
	f.cause = FRAME_OVERRUN;
	f.pc = entry;
	f.has_addr = 1;
	f.addr = addr;
	if (bm_fault_take(&f))
		bm_recover();
	bm_out_str("\n*** baremark: a benchmark wrote past the top of its stack frame, and the kit's state "
	           "is gone too: the run cannot go on\n");
	bm_board_exit(BM_EXIT_TRAP);
}

/* Calls `which` of b on the kit's stack, banded; adds the call's own cycles (not the band's) to
 * *user_cycles when that is given. What is used after the call is read from this frame's memory
 * (above the band), not from registers the callee may have restored wrong. A contiguous overrun
 * meets band[0] first whatever its length; the band's length is for a sparse write (an index
 * past the end), and 32 bytes keep its cost out of the kit's share. */
static __attribute__((noinline, no_sanitize_address)) int kit_stack_call(const struct bm_bench *b,
                                                                         enum bm_user_fn which, uint32_t iters,
                                                                         struct bm_delta *d, uint64_t *user_cycles)
{
	volatile uintptr_t *band = __builtin_alloca(CALL_BAND_BYTES);
	for (unsigned i = 0; i < CALL_BAND_WORDS; i++) /* (bm_guard_fill's const end: GCC 12 then takes
	                                                 * the fresh alloca for read uninitialised) */
		band[i] = BM_KIT_GUARD_WORD;
	struct {
		volatile uintptr_t *band;
		uintptr_t entry;
		uint64_t *user_cycles;
		uint64_t t0;
	} volatile kept = {band, bm_band_entry(b, which), user_cycles, 0};
	__builtin_unwind_init();
	int r = 0;
	switch (which) {
	case BM_USER_BATCH:
		r = bm_each_batch(b, bm_bench_each(b), bm_events_live(), iters, d) ? BM_V_SETUP_EACH : 0;
		break;
	case BM_USER_SETUP:
		kept.t0 = bm_cycles_now();
		r = b->setup();
		break;
	case BM_USER_VERIFY:
		kept.t0 = bm_cycles_now();
		r = b->verify();
		break;
	default:
		kept.t0 = bm_cycles_now();
		b->teardown();
		break;
	}
	if (kept.user_cycles)
		*kept.user_cycles += bm_cycles_now() - kept.t0;
	band = kept.band;
	const volatile uintptr_t *hit = bm_guard_first_unlike(band, band + CALL_BAND_WORDS, BM_KIT_GUARD_WORD);
	if (hit != band + CALL_BAND_WORDS)
		bm_band_written((uintptr_t)hit, kept.entry);
	return r;
}

int bm_band_call(const struct bm_bench *b, enum bm_user_fn which, uint32_t iters, struct bm_delta *d,
                 uint64_t *user_cycles, const struct bm_overhead *oh)
{
	if (bm_bench_isolated(b))
		return bm_user_call(b, which, iters, d, user_cycles, oh);
	return kit_stack_call(b, which, iters, d, user_cycles);
}
