/* SPDX-License-Identifier: Apache-2.0 */
/* An application that owns the machine as an RTOS does, on QEMU mps2-an386: its own vector table
 * and start-up, a SysTick tick, two tasks switched by PendSV (sched.c). One task runs the kit as a
 * library; the other counts, and takes the core every other time slice, inside the kit's samples
 * too: those samples show it. The kit reads the free CMSDK TIMER0 (QEMU models no DWT_CYCCNT);
 * SysTick is the tick's. The fault handlers forward a benchmark's fault to the kit
 * (bm_lib_fault). It exits through semihosting with the kit's status. */
#include <stdint.h>

#include "bm/lib.h"
#include "mps2.h"
#include "sched.h"

#define SCB_CFSR 0xE000ED28u
#define SCB_MMFAR 0xE000ED34u
#define SCB_BFAR 0xE000ED38u
#define SCB_SHCSR 0xE000ED24u
#define CFSR_MMARVALID (1u << 7)
#define CFSR_BFARVALID (1u << 15)

extern uint32_t __stack_top[];
void reset(void);
static void fault_entry(void);
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
	(void (*)(void))__stack_top, reset, hang, fault_entry, fault_entry, fault_entry, fault_entry, 0, 0, 0, 0,
	hang, hang, 0, sched_pendsv_handler, sched_systick_handler,
};

static struct sched_task bench_task, count_task;
/* 8 KiB for the kit's task: the kit's own image of crc32 uses 2.3 KiB of its stack */
static uint32_t bench_stack[2048] __attribute__((aligned(8)));
static uint32_t count_stack[256] __attribute__((aligned(8)));
static volatile uint32_t count_loops;

static void put_u32(const char *label, uint32_t v)
{
	char buf[10];
	int i = sizeof buf;
	do
		buf[--i] = (char)('0' + v % 10);
	while ((v /= 10) && i);
	uart_write(label, __builtin_strlen(label));
	uart_write(buf + i, sizeof buf - (size_t)i);
}

static void bench_main(void)
{
	const struct bm_lib_config cfg = {
		.write = uart_write, .timer_read = timer_read, .timer_hz = SYSCLK_HZ, .board = "sched-mps2-app",
		.faults_forwarded = 1,
	};
	int status = bm_lib_run(&cfg);
	/* What the scheduler did meanwhile: the counting task ran (tests/library/run-example). */
	put_u32("sched-mps2: ticks ", sched_ticks);
	put_u32(", switches ", sched_switches);
	put_u32(", count task loops ", count_loops);
	uart_write("\r\n", 2);
	app_exit(status);
}

static void count_main(void)
{
	for (;;)
		count_loops++;
}

/* A fault: where the handler returns to, in the faulting task, with what the core reported. */
static struct {
	uint32_t cfsr, pc, addr;
	int has_addr;
} flt;

static const char *fault_cause(uint32_t cfsr)
{
	static const struct {
		uint32_t bit;
		const char *cause;
	} causes[] = {
		{1u << 16, "undefined instruction"}, {1u << 17, "invalid state"}, {1u << 19, "coprocessor"},
		{1u << 24, "unaligned access"}, {1u << 25, "divide by zero"}, {1u << 0, "instruction access"},
		{1u << 1, "data access"}, {1u << 8, "instruction bus error"}, {1u << 9, "precise bus error"},
		{1u << 10, "imprecise bus error"},
	};
	for (unsigned i = 0; i < sizeof causes / sizeof causes[0]; i++)
		if (cfsr & causes[i].bit)
			return causes[i].cause;
	return "hard fault";
}

/* In the faulting task, in Thread mode (bm_lib_fault's condition on Cortex-M): a benchmark's
 * fault does not come back (the kit goes on with the next benchmark on this task's stack). */
static void fault_in_task(void)
{
	/* (1, a probe of the kit's, does not happen on Cortex-M: arch/armv7m/lib.c probes nothing) */
	bm_lib_fault(fault_cause(flt.cfsr), flt.cfsr, flt.pc, flt.addr, flt.has_addr);
	uart_write("sched-mps2: a fault outside the kit's benchmarks\r\n", 50);
	app_exit(3);
}

/* The fault exception, frame = the stacked r0-r3, r12, lr, pc, xPSR: returns into fault_in_task
 * in the faulting task, unless the fault was in a handler (the application's: it stops). */
void fault_redirect(uint32_t *frame, uint32_t exc_return)
{
	uint32_t cfsr = REG(SCB_CFSR);
	REG(SCB_CFSR) = cfsr; /* (write one to clear) */
	flt.cfsr = cfsr;
	flt.pc = frame[6];
	flt.has_addr = (cfsr & (CFSR_MMARVALID | CFSR_BFARVALID)) != 0;
	flt.addr = cfsr & CFSR_MMARVALID ? REG(SCB_MMFAR) : cfsr & CFSR_BFARVALID ? REG(SCB_BFAR) : 0;
	if (!(exc_return & 8u)) {
		uart_write("sched-mps2: a fault in a handler\r\n", 34);
		app_exit(3);
	}
	frame[6] = (uint32_t)(uintptr_t)fault_in_task & ~1u;
	frame[7] = (frame[7] & (1u << 9)) | (1u << 24); /* the stack's alignment pad kept, Thumb, no IT */
}

__attribute__((naked)) static void fault_entry(void)
{
	__asm__ volatile("tst lr, #4\n\t"
	                 "ite eq\n\t"
	                 "mrseq r0, msp\n\t"
	                 "mrsne r0, psp\n\t"
	                 "mov r1, lr\n\t"
	                 "b fault_redirect\n");
}

/* The application's own start-up: the FPU on (the code is hard-float), .bss zeroed (QEMU loads
 * .data where it runs), the faults told apart (MemManage, BusFault, UsageFault on), the tasks. */
extern uint32_t __bss_start[], __bss_end[];
void reset(void)
{
	fpu_on();
	for (uint32_t *p = __bss_start; p < __bss_end; p++)
		*p = 0;
	REG(SCB_SHCSR) |= 7u << 16;
	mps2_start();
	sched_task_create(&bench_task, "bench", bench_main, bench_stack, sizeof bench_stack / 4);
	sched_task_create(&count_task, "count", count_main, count_stack, sizeof count_stack / 4);
	sched_start(SYSCLK_HZ);
}
