/* SPDX-License-Identifier: Apache-2.0 */
/* The drivers of the QEMU mps2-an386 applications of examples/library (bare-mps2, sched-mps2):
 * the CMSDK UART0 the kit writes to, the free CMSDK TIMER0 it reads (QEMU models no DWT_CYCCNT),
 * and the exit through semihosting. The application's own, not the kit's. */
#ifndef MPS2_H
#define MPS2_H

#include <stddef.h>
#include <stdint.h>

#define REG(a) (*(volatile uint32_t *)(a))
#define UART0 0x40004000u  /* CMSDK UART: DATA +0, STATE +4 (bit 0: TX full), CTRL +8 (bit 0: TX on) */
#define TIMER0 0x40000000u /* CMSDK timer: CTRL +0 (bit 0: on), VALUE +4 (down), RELOAD +8 */
#define SYSCLK_HZ 25000000u

static inline void hang(void)
{
	for (;;)
		;
}

/* UART0's transmitter and TIMER0 counting down from 2^32 - 1 at the system clock. */
static inline void mps2_start(void)
{
	REG(UART0 + 8) = 1u;
	REG(TIMER0 + 8) = 0xffffffffu;
	REG(TIMER0 + 4) = 0xffffffffu;
	REG(TIMER0) = 1u;
}

static inline void uart_write(const char *buf, size_t len)
{
	while (len--) {
		while (REG(UART0 + 4) & 1u)
			;
		REG(UART0) = (uint8_t)*buf++;
	}
}

/* TIMER0 as a 64-bit count from its wraps (read far more often than every 171 s, by one task). */
static inline uint64_t timer_read(void)
{
	static uint32_t last, high;
	uint32_t up = ~REG(TIMER0 + 4);
	if (up < last)
		high++;
	last = up;
	return (uint64_t)high << 32 | up;
}

/* Semihosting SYS_EXIT_EXTENDED: ADP_Stopped_ApplicationExit with the status. */
__attribute__((noreturn)) static inline void app_exit(int status)
{
	uint32_t block[2] = {0x20026u, (uint32_t)status};
	register uint32_t r0 __asm__("r0") = 0x20;
	register uint32_t *r1 __asm__("r1") = block;
	__asm__ volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
	hang();
	__builtin_unreachable();
}

/* The FPU on (the code is hard-float), before any code that may use it. */
static inline void fpu_on(void)
{
	REG(0xE000ED88u) |= 0xFu << 20; /* CPACR: CP10, CP11 full access */
	__asm__ volatile("dsb\n\tisb");
}

#endif /* MPS2_H */
