/* SPDX-License-Identifier: Apache-2.0 */
/* A bare application on QEMU virt (AArch64, EL1) with its own PL011 driver, timer, fault handler
 * and exit, running the kit's benchmarks as a library: bm_lib_run with its write function and its
 * faults forwarded (so the kit probes its EL and enables the PMU), then its own exit with the
 * kit's status. */
#include <stdint.h>

#include "bm/lib.h"

#define UART0 ((volatile uint32_t *)0x09000000u) /* PL011: DR +0x00, FR +0x18 (bit 5: TX FIFO full) */

static void uart_write(const char *buf, size_t len)
{
	while (len--) {
		while (UART0[0x18 / 4] & (1u << 5))
			;
		UART0[0] = (uint8_t)*buf++;
	}
}

static uint64_t cntvct_read(void)
{
	uint64_t v;
	__asm__ volatile("isb\n\tmrs %0, cntvct_el0" : "=r"(v));
	return v;
}

/* Semihosting SYS_EXIT (0x18) with ADP_Stopped_ApplicationExit and the status (QEMU -semihosting). */
__attribute__((noreturn)) void app_exit(int status);
void app_exit(int status)
{
	static volatile uint64_t block[2];
	block[0] = 0x20026;
	block[1] = (uint64_t)(int64_t)status;
	register uint64_t w0 __asm__("x0") = 0x18;
	register uint64_t x1 __asm__("x1") = (uint64_t)(uintptr_t)block;
	__asm__ volatile("hlt #0xf000" : : "r"(w0), "r"(x1) : "memory");
	for (;;)
		__asm__ volatile("wfe");
}

/* From the vectors (start.S), which save the general registers only: no FP/SIMD here. The kit's
 * probe resumes after its instruction; a benchmark's fault does not return here; anything else is
 * the application's, which ends the run. */
__attribute__((target("general-regs-only"))) uint64_t app_trap(uint64_t esr, uint64_t elr, uint64_t far);
__attribute__((target("general-regs-only"))) uint64_t app_trap(uint64_t esr, uint64_t elr, uint64_t far)
{
	unsigned ec = (unsigned)(esr >> 26) & 0x3fu;
	int abort = ec == 0x20 || ec == 0x21 || ec == 0x24 || ec == 0x25;
	const char *cause = ec == 0x00 ? "undefined instruction"
	                  : ec == 0x18 ? "trapped MSR/MRS"
	                  : abort      ? "abort"
	                               : "synchronous exception";
	if (bm_lib_fault(cause, esr, elr, far, abort))
		return elr + 4;
	static const char msg[] = "app: an exception of its own, stopping\r\n";
	uart_write(msg, sizeof msg - 1);
	app_exit(3);
}

int main(void)
{
	static const char hello[] = "app: started at EL1, running the kit\r\n";
	uart_write(hello, sizeof hello - 1);
	uint64_t hz;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(hz));
	const struct bm_lib_config cfg = {
		.write = uart_write,
		.timer_read = cntvct_read,
		.timer_hz = hz & 0xffffffffu,
		.board = "bare-aarch64-app",
		.faults_forwarded = 1,
	};
	int status = bm_lib_run(&cfg);
	static const char bye[] = "app: the kit returned\r\n";
	uart_write(bye, sizeof bye - 1);
	app_exit(status);
}
