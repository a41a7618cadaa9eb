/* SPDX-License-Identifier: Apache-2.0 */
/* A minimal preemptive scheduler for Cortex-M4F, shaped like FreeRTOS's ARM_CM4F port (no RTOS is
 * packaged here): tasks on their own stacks in Thread mode on PSP, a SysTick tick, and PendSV
 * switching round robin every SCHED_SLICE_TICKS ticks. The application's, not the kit's. */
#ifndef SCHED_H
#define SCHED_H

#include <stdint.h>

#define SCHED_TICK_HZ 1000u
#define SCHED_SLICE_TICKS 4u /* a task runs 4 ticks, then the next one */
#define SCHED_TASKS 2u

struct sched_task {
	uint32_t *sp; /* (first: the PendSV handler reads and writes it) */
	const char *name;
};

extern volatile uint32_t sched_ticks, sched_switches;

/* A task (at most SCHED_TASKS, in the order they run) on the stack [stack, stack + words). */
void sched_task_create(struct sched_task *t, const char *name, void (*entry)(void), uint32_t *stack,
                       uint32_t words);
/* The tick on (SysTick from the core clock core_hz), then the first task; never returns. */
__attribute__((noreturn)) void sched_start(uint32_t core_hz);
void sched_pendsv_handler(void);
void sched_systick_handler(void);

#endif /* SCHED_H */
