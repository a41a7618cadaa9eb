/* SPDX-License-Identifier: Apache-2.0 */
/* A bare application on QEMU virt (RV64) with its own UART driver, timer and exit, running the
 * kit's benchmarks as a library: bm_lib_run with its write function, then its own exit with the
 * kit's status. */
#include <stdint.h>

#include "bm/lib.h"

#define UART0 ((volatile uint8_t *)0x10000000u)  /* NS16550A: THR +0, LSR +5 (bit 5: THR empty) */
#define MTIME ((volatile uint64_t *)0x0200bff8u) /* CLINT mtime, 10 MHz */
#define FINISHER ((volatile uint32_t *)0x00100000u) /* SiFive test device */

static void uart_write(const char *buf, size_t len)
{
	while (len--) {
		while (!(UART0[5] & 0x20))
			;
		UART0[0] = (uint8_t)*buf++;
	}
}

static uint64_t mtime_read(void)
{
	return *MTIME;
}

/* 0x5555: pass; (status << 16) | 0x3333: fail with that status. */
__attribute__((noreturn)) void app_exit(int status);
void app_exit(int status)
{
	*FINISHER = status ? ((uint32_t)status << 16) | 0x3333u : 0x5555u;
	for (;;)
		;
}

int main(void)
{
	static const char hello[] = "app: started, running the kit\r\n";
	uart_write(hello, sizeof hello - 1);
	const struct bm_lib_config cfg = {
		.write = uart_write,
		.timer_read = mtime_read,
		.timer_hz = 10000000,
		.board = "bare-riscv-app",
	};
	int status = bm_lib_run(&cfg);
	static const char bye[] = "app: the kit returned\r\n";
	uart_write(bye, sizeof bye - 1);
	app_exit(status);
}
