/* SPDX-License-Identifier: Apache-2.0 */
/* A bare Cortex-M4 application on QEMU mps2-an386 with its own vector table, start-up, UART and
 * timer, running the kit as a library: QEMU models no DWT_CYCCNT, so the kit reads the free CMSDK
 * TIMER0 the application gives it (timer_read); SysTick stays the application's. It exits through
 * semihosting with the kit's status. */
#include <stdint.h>

#include "bm/lib.h"
#include "mps2.h"

extern uint32_t __stack_top[];
void reset(void);
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
	(void (*)(void))__stack_top, reset, hang, hang, hang, hang, hang, 0, 0, 0, 0, hang, hang, 0, hang, hang,
};

int main(void)
{
	mps2_start();
	const struct bm_lib_config cfg = {
		.write = uart_write, .timer_read = timer_read, .timer_hz = SYSCLK_HZ, .board = "bare-mps2-app",
	};
	app_exit(bm_lib_run(&cfg));
}

/* The application's own start-up: the FPU on (the code is hard-float), .bss zeroed (QEMU loads
 * .data where it runs), then main. */
extern uint32_t __bss_start[], __bss_end[];
void reset(void)
{
	fpu_on();
	for (uint32_t *p = __bss_start; p < __bss_end; p++)
		*p = 0;
	main();
	hang();
}
