/* SPDX-License-Identifier: Apache-2.0 */
/* The scheduler of sched.h, as FreeRTOS's Cortex-M4F port does it: PendSV (the lowest priority,
 * with SysTick) saves r4-r11, EXC_RETURN and, when the task used the FPU, s16-s31 on the current
 * task's stack, stores its PSP, picks the next task and restores it; the hardware stacks and
 * unstacks the rest. SysTick counts ticks and pends PendSV every SCHED_SLICE_TICKS. */
#include "sched.h"

#include <stddef.h>

#define REG(a) (*(volatile uint32_t *)(a))
#define SCB_ICSR 0xE000ED04u
#define ICSR_PENDSVSET (1u << 28)
#define SCB_SHPR3 0xE000ED20u /* PendSV priority [23:16], SysTick [31:24] */
#define SYST_CSR 0xE000E010u  /* bit 0 ENABLE, 1 TICKINT, 2 CLKSOURCE (the core clock) */
#define SYST_RVR 0xE000E014u
#define SYST_CVR 0xE000E018u
#define EXC_RETURN_THREAD_PSP 0xFFFFFFFDu /* Thread mode, PSP, no FP state */
#define XPSR_T (1u << 24)

volatile uint32_t sched_ticks, sched_switches;
static struct sched_task *tasks[SCHED_TASKS];
static uint32_t n_tasks;
/* The running task (NULL until the first switch), read and written by the PendSV handler. */
struct sched_task *volatile sched_current;

static void task_returned(void)
{
	for (;;) /* (a task never returns; if one does, it spins here with the tick running) */
		;
}

void sched_task_create(struct sched_task *t, const char *name, void (*entry)(void), uint32_t *stack,
                       uint32_t words)
{
	/* The first switch to it pops what an exception from it would have left: r4-r11 and
	 * EXC_RETURN (the PendSV handler's), then r0-r3, r12, lr, pc, xPSR (the hardware's), the
	 * hardware's part on an 8-byte boundary. */
	uint32_t *sp = (uint32_t *)((uintptr_t)(stack + words) & ~(uintptr_t)7) - 8;
	for (int i = 0; i < 5; i++)
		sp[i] = 0; /* r0-r3, r12 */
	sp[5] = (uint32_t)(uintptr_t)task_returned;
	sp[6] = (uint32_t)(uintptr_t)entry & ~1u;
	sp[7] = XPSR_T;
	sp -= 9;
	for (int i = 0; i < 8; i++)
		sp[i] = 0; /* r4-r11 */
	sp[8] = EXC_RETURN_THREAD_PSP;
	t->sp = sp;
	t->name = name;
	if (n_tasks < SCHED_TASKS)
		tasks[n_tasks++] = t;
}

/* Called by the PendSV handler between the save and the restore: round robin. */
void sched_next(void)
{
	uint32_t i = 0;
	while (i < n_tasks && tasks[i] != sched_current)
		i++;
	sched_current = tasks[i < n_tasks ? (i + 1) % n_tasks : 0];
	sched_switches++;
}

__attribute__((naked)) void sched_pendsv_handler(void)
{
	__asm__ volatile(
	        "	mrs r0, psp\n"
	        "	ldr r3, =sched_current\n"
	        "	ldr r2, [r3]\n"
	        "	cbz r2, 1f\n" /* the first switch: nothing to save */
	        "	tst lr, #0x10\n" /* EXC_RETURN bit 4 clear: the task has FP state */
	        "	it eq\n"
	        "	vstmdbeq r0!, {s16-s31}\n"
	        "	stmdb r0!, {r4-r11, lr}\n"
	        "	str r0, [r2]\n"
	        "1:	push {r3, lr}\n"
	        "	bl sched_next\n"
	        "	pop {r3, lr}\n"
	        "	ldr r2, [r3]\n"
	        "	ldr r0, [r2]\n"
	        "	ldmia r0!, {r4-r11, lr}\n"
	        "	tst lr, #0x10\n"
	        "	it eq\n"
	        "	vldmiaeq r0!, {s16-s31}\n"
	        "	msr psp, r0\n"
	        "	isb\n"
	        "	bx lr\n"
	        ".ltorg\n");
}

void sched_systick_handler(void)
{
	uint32_t t = sched_ticks + 1;
	sched_ticks = t;
	if (t % SCHED_SLICE_TICKS == 0)
		REG(SCB_ICSR) = ICSR_PENDSVSET;
}

void sched_start(uint32_t core_hz)
{
	REG(SCB_SHPR3) |= 0xFFFF0000u; /* PendSV and SysTick: the lowest priority, below any fault */
	REG(SYST_RVR) = core_hz / SCHED_TICK_HZ - 1;
	REG(SYST_CVR) = 0;
	/* CONTROL.FPCA cleared: the first PendSV must not stack this code's FP state, which no task
	 * owns (FreeRTOS's port does the same). */
	__asm__ volatile("msr control, %0\n\tisb" : : "r"(0u) : "memory");
	REG(SYST_CSR) = 7u;
	REG(SCB_ICSR) = ICSR_PENDSVSET; /* the first switch: to the first task */
	__asm__ volatile("dsb\n\tisb" ::: "memory");
	for (;;) /* (not reached: the first task runs on its own stack from now on) */
		;
}
