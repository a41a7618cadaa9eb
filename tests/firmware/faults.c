/* SPDX-License-Identifier: Apache-2.0 */
/* Fault-injection image: one benchmark per way a benchmark can go wrong, next to the kit's own
 * calibration and kernel benchmarks (linked into the same image). Each faulty one must be reported
 * with its kind, and every other one must report ok with the same figures as in the kit's image
 * (tests/qemu checks both). BM_TEST_BAD_ADDRESS comes from the board (an address nothing answers).
 * The ones that change what only privileged code may (CSRs, system registers, devices) say
 * .privileged = 1: where benchmark code runs unprivileged such a change would only trap, and the
 * kit's checks after a privileged benchmark are what they exercise. */
#include "bm/bench.h" /* (first: arch/test.h asks arch/arch.h whether this is a hosted build) */
#include "arch/test.h"
#include "bm/port.h" /* board_desc: fault_console_off reaches the console through it */

static int never_right(void)
{
	return -1;
}

static int always_right(void)
{
	return 0;
}

/* A benchmark whose teardown leaves a piece of the kit's set-up changed (`change`), and that passes
 * otherwise: the kit must fail it, named by what it changed, and put that back before the next
 * benchmark (its _victim, judged on its own). */
#define LEAVES_CHANGED(name, change, priv)                                                                  \
	static void name##_teardown(void)                                                                   \
	{                                                                                                   \
		change;                                                                                     \
	}                                                                                                   \
	BM_BENCHMARK(name, always_right, .teardown = name##_teardown, .max_iters = 1, .privileged = priv) \
	{                                                                                                   \
		bm_clobber_memory();                                                                        \
	}

/* A trap in setup, before anything is timed. */
static int trap_setup(void)
{
	arch_test_undefined();
	return 0;
}

BM_BENCHMARK(fault_in_setup, never_right, .setup = trap_setup)
{
}

/* An instruction the core does not have. */
BM_BENCHMARK(fault_illegal, never_right)
{
	arch_test_undefined();
}

#ifdef BM_HOSTED /* host-linux: a failed assert() is SIGABRT, a trap like any other signal */
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>
BM_BENCHMARK(fault_abort, never_right, .max_iters = 1)
{
	if (bm_seed(0) == 0) /* (always: the compiler cannot know) */
		abort();
}

/* What a Linux process's code can change of the kit's (arch/hosted/state.c), each left so by a
 * teardown that passes: the culprit fails, named, the kit puts it back, and the benchmark after
 * it is judged on its own: a hang ended by the watchdog (SIGALRM ignored, or blocked: it never
 * ended), a fault a trap (SIGSEGV reset: the run was killed), its row and records on the console
 * (standard output closed: the rest of the run was lost). */
static void sigalrm_ignore_teardown(void)
{
	signal(SIGALRM, SIG_IGN);
}

static void sigalrm_block_teardown(void)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGALRM);
	sigprocmask(SIG_BLOCK, &set, 0);
}

static void sigsegv_reset_teardown(void)
{
	signal(SIGSEGV, SIG_DFL);
}

static void stdout_close_teardown(void)
{
	close(STDOUT_FILENO);
}

LEAVES_CHANGED(fault_os_sigalrm_ignored, sigalrm_ignore_teardown(), 0)

BM_BENCHMARK(fault_os_sigalrm_ignored_victim, always_right, .timeout_ms = 200)
{
	while (bm_seed(1))
		bm_clobber_memory();
}

LEAVES_CHANGED(fault_os_sigalrm_blocked, sigalrm_block_teardown(), 0)

BM_BENCHMARK(fault_os_sigalrm_blocked_victim, always_right, .timeout_ms = 200)
{
	while (bm_seed(1))
		bm_clobber_memory();
}

LEAVES_CHANGED(fault_os_sigsegv_reset, sigsegv_reset_teardown(), 0)

BM_BENCHMARK(fault_os_sigsegv_reset_victim, never_right, .max_iters = 1)
{
	*(volatile int *)(uintptr_t)bm_seed(16) = 1;
}

LEAVES_CHANGED(fault_os_stdout_closed, stdout_close_teardown(), 0)

BM_BENCHMARK(fault_os_stdout_closed_victim, always_right, .max_iters = 1)
{
	bm_clobber_memory();
}
#endif

#ifdef BM_TEST_BAD_ADDRESS
/* A load from an address no device answers. */
BM_BENCHMARK(fault_bad_address, never_right)
{
	/* bm_seed(0) is 0, but the compiler cannot know: no warning about a constant address. */
	bm_do_not_optimize(*(volatile uint32_t *)((uintptr_t)BM_TEST_BAD_ADDRESS + bm_seed(0)));
}
#endif

#if ARCH_TEST_HAS_MISALIGNED
static uint32_t misaligned_words[4];
/* An access the core requires aligned, one byte off. */
BM_BENCHMARK(fault_misaligned, never_right)
{
	bm_do_not_optimize(arch_test_misaligned((const char *)misaligned_words + 1));
}
#endif

#if ARCH_TEST_HAS_IRQ_LEFTOVER
/* Passes, and its teardown leaves an interrupt enabled and pending with interrupts masked: the
 * benchmark after it (known_loop, in name order) must still be ok, with its figures. */
static void irq_leftover_teardown(void)
{
	arch_test_irq_leftover();
}

BM_BENCHMARK(fault_x_irq_left_on, always_right, .teardown = irq_leftover_teardown, .privileged = 1)
{
	bm_clobber_memory();
}
#endif

#if ARCH_TEST_HAS_IRQ_OFF
/* Leaves interrupts masked from its setup and passes (runs just before fault_hang, in name order):
 * the hang after it must still be stopped by the watchdog. */
static int irqs_off_setup(void)
{
	arch_test_irq_off();
	return 0;
}

BM_BENCHMARK(fault_before_hang_irqs_off, always_right, .setup = irqs_off_setup, .privileged = 1)
{
	bm_clobber_memory();
}
#endif

/* Never ends: the watchdog must end it (a short budget, so the test does not wait long). */
BM_BENCHMARK(fault_hang, never_right, .timeout_ms = 200)
{
	for (;;)
		bm_clobber_memory();
}

/* Recursion until the stack runs out. */
__attribute__((noinline)) static unsigned recurse(unsigned n)
{
	volatile char pad[64];
	pad[0] = (char)n;
	return n ? recurse(n - 1) + (unsigned)pad[0] : 0;
}

BM_BENCHMARK(fault_recursion, never_right)
{
	bm_do_not_optimize(recurse(1u << 30));
}

/* One frame larger than the whole stack, written only at its far (lowest) end: it jumps over the
 * painted stack and the guard band, which is why a hardware guard and the stack pointer matter. */
__attribute__((noinline)) static void sparse_frame(void)
{
	volatile char big[256 * 1024];
	big[0] = 1;
	bm_do_not_optimize(big[0]);
}

BM_BENCHMARK(fault_sparse_frame, never_right)
{
	sparse_frame();
}

/* A frame three 16 KiB stacks deep, zeroed from its far end upward: whatever lies in the 48 KiB
 * below the stack's bottom is written before the guard is reached (on qemu-x86_64 that was the
 * page tables and the IDT: the next trap reset the machine). What lies there must fault as the
 * guard does. */
__attribute__((noinline)) static void dense_frame(void)
{
	volatile uint64_t big[48 * 1024 / 8];
	for (unsigned i = 0; i < sizeof big / sizeof big[0]; i++)
		big[i] = 0;
	bm_do_not_optimize(big[0]);
}

BM_BENCHMARK(fault_dense_frame, never_right)
{
	dense_frame();
}

/* A write past the top of the benchmark's own frame, into its caller's: one word just above it
 * (the CFA), so no return address or saved register of its own lies in between on any arch. The
 * harness's frames are there (its locals, on AArch64 its saved x29/x30: such a write ended the
 * run); only the band the kit keeps above every call into the benchmark's code can see it. Once
 * in the verify step (its result right), once in the body (seen by the first calibration batch,
 * before anything is timed). */
static int writes_past_frame(void)
{
	((volatile uint32_t *)__builtin_dwarf_cfa())[1] = 0x5a5a5a5au;
	return 0;
}

BM_BENCHMARK(fault_frame_overrun_verify, writes_past_frame, .max_iters = 1)
{
	bm_clobber_memory();
}

BM_BENCHMARK(fault_frame_overrun_body, always_right, .max_iters = 1)
{
	((volatile uint32_t *)__builtin_dwarf_cfa())[1] = 0x5a5a5a5au;
}

#if ARCH_USER_ISOLATED && ARCH_USER_STACK_BOUNDED
/* Where benchmark code runs unprivileged, what lies just above its frame is the kit's trampoline
 * into it (unprivileged too: its word is no harm there; where the compiler makes the verify a tail
 * call, the band above the trampoline is: a trap), then the band and the job at the top of its
 * stack, then the kit's memory, which it may not write: a word 256 bytes above its stack's top
 * (past the job, whatever the kit's BM_USER_CHUNK makes its size) is a trap, named as a write past
 * the top of its frame. */
static int writes_far_past_frame(void)
{
	struct bm_stack s;
	bm_rt_user_stack(&s);
	((volatile uint32_t *)s.hi)[64] = 0x5a5a5a5au;
	return 0;
}

BM_BENCHMARK(fault_frame_overrun_far, writes_far_past_frame, .max_iters = 1)
{
	bm_clobber_memory();
}
#endif

#if ARCH_USER_ISOLATED && ARCH_TEST_HAS_USER_RETURN
/* Where benchmark code runs unprivileged, its batches' readings come back to the kit in the job at
 * the top of its stack (run/run.h), which its own code can write: what it writes there, or hands
 * back as made up, may never be a figure. Each of these fails, named; the others' figures are as
 * in the kit's image. The job of the timed samples' call: the first reading marked by the kit
 * until the benchmark's side writes it (UINT64_MAX), the warm-up's calls asking for fewer. */
#include "run/run.h"

static struct bm_user_job *samples_job(void)
{
	struct bm_user_job *j = bm_user_job();
	return j->which == BM_USER_SAMPLES && j->n > 64 ? j : 0;
}

/* A stray store into a reading already written, in every later batch of the samples: the seal the
 * benchmark's side folded the reading into as it wrote it no longer matches (before, the check
 * word computed after the loop sealed the zero: ok, min 0). */
BM_BENCHMARK(fault_readings_stray, always_right, .max_iters = 1)
{
	struct bm_user_job *j = samples_job();
	if (j && j->s[0].d.cycles != UINT64_MAX)
		j->s[0].d.cycles = 0;
}

/* One reading 40 cycles off, once: as small a change as any, caught the same way. */
static int off40_done;

BM_BENCHMARK(fault_readings_off40, always_right, .max_iters = 1)
{
	struct bm_user_job *j = samples_job();
	if (j && !off40_done && j->s[0].d.cycles != UINT64_MAX) {
		j->s[0].d.cycles -= 40;
		off40_done = 1;
	}
}

/* The forgers below, who read the kit's source: a warm-up reading of theirs kept (their body's
 * work ~2,000 instructions), then at the samples' first batch the work of `run` more batches done
 * and one run of all the batches asked for handed back, each reading the kept one less `cut`,
 * sealed with the call's key, with the count asked for. The seal holds; the kit's own timing of
 * the call does not. */
static void forger_work(void)
{
	for (unsigned i = 0; i < 1000; i++)
		bm_do_not_optimize(i);
}

static void forge(struct bm_delta *kept, int run, int cut_500)
{
	forger_work();
	struct bm_user_job *j = bm_user_job(), *s = samples_job();
	if (!s) {
		if (j->which == BM_USER_SAMPLES && j->s[0].d.cycles != UINT64_MAX)
			*kept = j->s[0].d;
		return;
	}
	uint32_t n = s->n;
	for (uint32_t i = 1; run && i < n; i++)
		forger_work();
	/* (less a quarter where a reading is counter steps of tens of instructions: SysTick) */
	uint64_t cut = !cut_500 ? 0 : kept->cycles > 2000 ? 500 : kept->cycles / 4;
	s->s[0].d = *kept;
	s->s[0].d.cycles -= cut;
	s->s[0].d.instret -= kept->instret > cut ? cut : 0;
	s->s[0].count = n;
	s->n = 1;
	s->each_failed = 0;
	s->seal = bm_user_seal(s->key, s->s, 1, n);
	arch_test_user_return(n);
}

/* Readings less 500, every batch run: short of the kit's timing by far more than its bookkeeping. */
static struct bm_delta forged_kept;

BM_BENCHMARK(fault_readings_forged, always_right, .max_iters = 1)
{
	forge(&forged_kept, 1, 1);
}

/* Honest readings, a count of batches it never ran (it returns at once): more than the call took. */
static struct bm_delta count_kept;

BM_BENCHMARK(fault_readings_count, always_right, .max_iters = 1)
{
	forge(&count_kept, 0, 0);
}

/* A body whose first call returns to the kit at once, from within its batch (the cold run): the
 * reading the kit marked is never written (the table printed cold 11936128518282651040). */
static int unread_done;

BM_BENCHMARK(fault_readings_unread, always_right, .max_iters = 1)
{
	if (!unread_done) {
		unread_done = 1;
		arch_test_user_return(0);
	}
}
#endif

#if ARCH_TEST_HAS_RING3
/* What only the kit may do, where benchmark code runs in ring 3: port I/O, a control register, a
 * device's registers. Each is a trap of the benchmark. */
BM_BENCHMARK(fault_ring3_port_io, never_right)
{
	arch_test_port_read();
}

BM_BENCHMARK(fault_ring3_control_reg, never_right)
{
	arch_test_control_read();
}

BM_BENCHMARK(fault_ring3_device, never_right)
{
	bm_do_not_optimize(arch_test_device_read());
}
#endif

/* A store into the constants: where FLASH (code and read-only data) is writable, the kit's own
 * tables beside this one would be as exposed, and every later figure wrong. Reported as a trap
 * where the board maps FLASH read-only (MMU, PMP, MPU); elsewhere the check sees the change. */
static const uint32_t constants[4] = {1, 2, 3, 4}; /* (not volatile: that would put it in .data) */

static int constants_intact(void)
{
	return *(const volatile uint32_t *)constants == 1 ? 0 : -1;
}

BM_BENCHMARK(fault_rodata_write, constants_intact, .max_iters = 1)
{
	*(volatile uint32_t *)((uintptr_t)constants + bm_seed(0)) = 0;
}

/* Writes 16 bytes past its scratch allocation; its own check passes. */
static uint8_t *overrun_buf;

static int overrun_setup(void)
{
	overrun_buf = bm_scratch_alloc(64, 8);
	return overrun_buf ? 0 : -1;
}

BM_SCRATCH(fault_scratch_overrun, 64 + 8);
BM_BENCHMARK(fault_scratch_overrun, always_right, .setup = overrun_setup, .max_iters = 1)
{
	for (unsigned i = 0; i < 80; i++)
		overrun_buf[i] = (uint8_t)bm_seed(i);
	bm_clobber_memory();
}

/* A wrong result. */
BM_BENCHMARK(fault_wrong_result, never_right)
{
	bm_clobber_memory();
}

#if ARCH_TEST_HAS_INSTRET_WRITE
/* A body that zeroes the instruction counter in every batch (a profiler's init may): its insns
 * figure would be the wrap, ~2^64, or 0. It fails; the others keep their figures. */
BM_BENCHMARK(fault_instret_write, always_right, .max_iters = 1, .privileged = 1)
{
	arch_test_instret_write();
}
#endif

#if ARCH_TEST_HAS_VECTOR
/* A setup that installs a trap handler of its own, which skips the faulting instruction, and
 * leaves it: it fails, named by the vector it changed, and the kit puts its own back, so the
 * benchmark after it (name order), which executes an undefined instruction every iteration, is
 * a trap (with the benchmark's handler left in place it was ok). */
static int vector_setup(void)
{
	arch_test_vector_replace();
	return 0;
}

BM_BENCHMARK(fault_vector_replace, always_right, .setup = vector_setup, .max_iters = 1, .privileged = 1)
{
	bm_clobber_memory();
}

BM_BENCHMARK(fault_vector_victim, always_right)
{
	arch_test_undefined();
}
#endif

#if ARCH_TEST_HAS_FP_OFF
/* A teardown that turns the FPU off: the kit's own code uses its registers (FP callee-saved
 * registers, SSE). It fails or traps, named by that; the kit turns it back on, and the benchmarks
 * after it keep their figures. */
static void fp_off_teardown(void)
{
	arch_test_fp_off();
}

BM_BENCHMARK(fault_fp_off, always_right, .teardown = fp_off_teardown, .max_iters = 1, .privileged = 1)
{
	bm_clobber_memory();
}
#endif

#if ARCH_TEST_HAS_FP_CONTROL
/* A teardown that leaves the rounding mode toward zero: it fails, named by the FP control it
 * changed, and the kit restores it, so the benchmark after it, whose result depends on the mode
 * (1/3 in single precision), is right (it failed, an innocent). */
static void fp_round_teardown(void)
{
	arch_test_fp_round_toward_zero();
}

BM_BENCHMARK(fault_fp_round, always_right, .teardown = fp_round_teardown, .max_iters = 1, .privileged = 1)
{
	bm_clobber_memory();
}

static volatile float fp_one = 1.0f, fp_three = 3.0f;
static float fp_third;

static int third_right(void)
{
	return fp_third == 1.0f / 3.0f ? 0 : -1; /* (the compiler's rounding: to nearest) */
}

BM_BENCHMARK(fault_fp_round_victim, third_right)
{
	fp_third = fp_one / fp_three;
}
#endif

#if ARCH_TEST_HAS_PMU_FILTER
/* A teardown that stops the PMU's counters counting where benchmarks run (EL0) and passes: it
 * fails, named by the filter it changed, and the kit puts it back, so the benchmark after it is
 * measured (with the filter left, its batches counted nothing: a failure of the wrong one). */
LEAVES_CHANGED(fault_pmu_filter, arch_test_pmu_filter(), 0)

BM_BENCHMARK(fault_pmu_filter_victim, always_right)
{
	for (uint32_t i = bm_seed(0); i < 64; i++)
		bm_do_not_optimize(i);
}
#endif

#if ARCH_TEST_HAS_TLS_BASE
#include <errno.h>

/* A teardown that zeroes the thread pointer and passes: it fails, named by that, and the kit puts
 * it back, so the benchmark after it, which sets errno every iteration, is ok (it trapped). */
LEAVES_CHANGED(fault_tls_base, arch_test_tls_base_clear(), 0)

static int errno_right(void)
{
	return errno == EDOM ? 0 : -1;
}

BM_BENCHMARK(fault_tls_base_victim, errno_right)
{
	errno = (int)bm_seed(EDOM);
}
#endif

#if ARCH_TEST_HAS_DIRECTION_FLAG
/* A privileged teardown that leaves the direction flag set and passes: it fails, named by it, and
 * the kit clears it, so the benchmark after it, which copies memory, is right (the kit's own copies
 * ran backwards: the console garbled and the run hung). */
LEAVES_CHANGED(fault_direction_flag, arch_test_direction_down(), 1)

static char copy_src[64] = "the kit clears the direction flag before the next benchmark runs", copy_dst[64];

static int copy_right(void)
{
	for (unsigned i = 0; i < sizeof copy_src; i++)
		if (copy_dst[i] != copy_src[i])
			return -1;
	return 0;
}

BM_BENCHMARK(fault_direction_flag_victim, copy_right)
{
	__builtin_memcpy(copy_dst, copy_src, sizeof copy_dst);
	bm_clobber_memory();
}
#endif

#if ARCH_TEST_HAS_IRQ_PRIORITY
/* A privileged teardown that raises the interrupt priority above the watchdog's and passes: it
 * fails, named by it, and the kit lowers it, so the hang after it is ended by the watchdog (it
 * never ended). */
LEAVES_CHANGED(fault_irq_priority, arch_test_irq_priority_raise(), 1)

BM_BENCHMARK(fault_irq_priority_victim, always_right, .timeout_ms = 200)
{
	while (bm_seed(1))
		bm_clobber_memory();
}
#endif

#if ARCH_TEST_HAS_MPU_REGION_OFF
LEAVES_CHANGED(fault_mpu_region_off, arch_test_mpu_region_off(), 1)

static volatile uint32_t mpu_victim_word;

BM_BENCHMARK(fault_mpu_region_off_victim, always_right, .max_iters = 1)
{
	mpu_victim_word = mpu_victim_word + 1; /* (its own memory: a fault with the region left off) */
}
#endif

#if ARCH_TEST_HAS_FAULTMASK
LEAVES_CHANGED(fault_faultmask, arch_test_faultmask_set(), 1)

BM_BENCHMARK(fault_faultmask_victim, never_right)
{
	arch_test_undefined(); /* (a trap: with FAULTMASK left set, a lock-up) */
}
#endif

#if ARCH_TEST_HAS_TIMER_STOP
/* A privileged teardown that stops the board's timer and passes: it fails, named by the timer, and
 * the kit starts it again, so the hang after it is ended by the watchdog. */
LEAVES_CHANGED(fault_timer_stop, arch_test_timer_stop(), 1)

static volatile uint32_t timer_victim_spins = 1;

BM_BENCHMARK(fault_timer_stop_victim, always_right, .timeout_ms = 200)
{
	while (timer_victim_spins) /* (only the watchdog ends it: with the timer left off, never) */
		;
}
#endif

#if ARCH_TEST_HAS_THREAD_UNPRIV
/* A privileged teardown that drops thread mode's privilege (CONTROL.nPRIV) and passes: it fails,
 * named by it, and the kit takes its privilege back, so the benchmark after it is ok. */
LEAVES_CHANGED(fault_thread_unpriv, arch_test_thread_unpriv(), 1)

BM_BENCHMARK(fault_thread_unpriv_victim, always_right)
{
	bm_do_not_optimize(bm_seed(7) * 3u);
}
#endif

#if ARCH_TEST_HAS_PMP_OPEN
/* A privileged teardown that opens the kit's memory to U-mode and passes: it fails, named by the
 * PMP entry it changed, and the kit puts its entries back, so the benchmark after it, which
 * stores into the kit's variables from U-mode, is a trap (prevented), not a write that went through. */
LEAVES_CHANGED(fault_pmp_open, arch_test_pmp_open(), 1)

BM_BENCHMARK(fault_pmp_open_victim, always_right, .max_iters = 1)
{
	*arch_test_kit_word() = 0x5a5a5a5au;
}
#endif

#if ARCH_TEST_HAS_IDT_PATCH
/* A privileged teardown that patches the kit's own IDT in place (write protection off around it)
 * so that an undefined instruction is skipped, and passes: it fails, named by the IDT, and the kit
 * puts its gate back, so the benchmark after it, an undefined instruction, is a trap (with the
 * patch left: ok). */
LEAVES_CHANGED(fault_idt_patch, arch_test_idt_patch(), 1)

BM_BENCHMARK(fault_idt_patch_victim, always_right)
{
	arch_test_undefined();
}
#endif

#if ARCH_TEST_HAS_PAGE_OPEN
/* A privileged teardown that opens a page of the kit's to ring 3 in the page tables (write
 * protection off around it) and passes: it fails, named by the page tables, and the kit puts the
 * entry back, so the benchmark after it, which stores into that page, is a trap (with the entry
 * left: ok, the store went through). */
LEAVES_CHANGED(fault_page_open, arch_test_page_open(), 1)

BM_BENCHMARK(fault_page_open_victim, always_right, .max_iters = 1)
{
	*arch_test_kit_word() = 0x5a5a5a5au;
}
#endif

#ifdef BM_TEST_CONSOLE_OFF
/* A benchmark that turns the console off and passes: it fails, named by that, and the kit sets the
 * console up again, so the next benchmark's row and records arrive. How: the console driver's hook
 * that board.cmake's BM_TEST_CONSOLE_OFF names (e.g. cmsdk_uart_tx_off, boards/drivers/README.md). */
void BM_TEST_CONSOLE_OFF(struct bm_console *con);

static void console_off_teardown(void)
{
	BM_TEST_CONSOLE_OFF(board_desc.console);
}

BM_BENCHMARK(fault_console_off, always_right, .teardown = console_off_teardown, .max_iters = 1, .privileged = 1)
{
	bm_clobber_memory();
}
#endif

#if ARCH_TEST_HAS_COUNTER_PRESET
/* Firmware that writes the cycle counter, as a profiler's init or an RTOS port may: back to 0 in
 * every batch. It may not print a figure (each would be the wrap, ~2^64), nor move the clock the
 * other benchmarks' ns figures use. */
BM_BENCHMARK(fault_counter_back, always_right, .max_iters = 1, .privileged = 1)
{
	arch_test_counter_preset(0);
}

/* The same, forward: 2^40 more in every batch. Each batch then reads a plausible 2^40 cycles, so
 * only the timer can tell (fails; the others' figures, ns included, unchanged). */
static uint64_t counter_jump_to;

BM_BENCHMARK(fault_counter_jump, always_right, .max_iters = 1, .privileged = 1)
{
	counter_jump_to += 1ull << 40;
	arch_test_counter_preset(counter_jump_to);
}
#endif
