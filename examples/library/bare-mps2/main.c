/* SPDX-License-Identifier: Apache-2.0 */
/* A bare Cortex-M4 application on QEMU mps2-an386 with its own vector table, start-up, UART and
 * timer, running the kit as a library: QEMU models no DWT_CYCCNT, so the kit reads the free CMSDK
 * TIMER0 the application gives it (timer_read); SysTick stays the application's. It exits through
 * semihosting with the kit's status. */
#include <stdint.h>

#include "bm/lib.h"

#define REG(a) (*(volatile uint32_t *)(a))
#define UART0 0x40004000u  /* CMSDK UART: DATA +0, STATE +4 (bit 0: TX full), CTRL +8 (bit 0: TX on) */
#define TIMER0 0x40000000u /* CMSDK timer: CTRL +0 (bit 0: on), VALUE +4 (down), RELOAD +8 */
#define SYSCLK_HZ 25000000u

extern uint32_t __stack_top[];
void reset(void);
static void hang(void)
{
	for (;;)
		;
}
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
	(void (*)(void))__stack_top, reset, hang, hang, hang, hang, hang, 0, 0, 0, 0, hang, hang, 0, hang, hang,
};

static void uart_write(const char *buf, size_t len)
{
	while (len--) {
		while (REG(UART0 + 4) & 1u)
			;
		REG(UART0) = (uint8_t)*buf++;
	}
}

/* TIMER0 counts down from 2^32 - 1 at the system clock: 64 bits from its wraps (read far more
 * often than every 171 s). */
static uint64_t timer_read(void)
{
	static uint32_t last, high;
	uint32_t up = ~REG(TIMER0 + 4);
	if (up < last)
		high++;
	last = up;
	return (uint64_t)high << 32 | up;
}

/* Semihosting SYS_EXIT_EXTENDED: ADP_Stopped_ApplicationExit with the status. */
__attribute__((noreturn)) static void app_exit(int status)
{
	uint32_t block[2] = {0x20026u, (uint32_t)status};
	register uint32_t r0 __asm__("r0") = 0x20;
	register uint32_t *r1 __asm__("r1") = block;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	hang();
	__builtin_unreachable();
}

int main(void)
{
	REG(UART0 + 8) = 1u;
	REG(TIMER0 + 8) = 0xffffffffu;
	REG(TIMER0 + 4) = 0xffffffffu;
	REG(TIMER0) = 1u;
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
	REG(0xE000ED88u) |= 0xFu << 20; /* CPACR: CP10, CP11 full access */
	__asm__ volatile("dsb\n\tisb");
	for (uint32_t *p = __bss_start; p < __bss_end; p++)
		*p = 0;
	main();
	hang();
}
