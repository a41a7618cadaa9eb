/* QEMU `-machine virt` (RV64): NS16550A console, CLINT mtime timer, exit through the SiFive
 * test/finisher device. Memory map (from QEMU hw/riscv/virt.c):
 *   0x00100000  sifive_test finisher   0x5555 = pass, (code << 16) | 0x3333 = fail
 *   0x02000000  CLINT                  mtime at +0xbff8, 10 MHz
 *   0x10000000  NS16550A UART0         3.6864 MHz input clock
 *   0x80000000  RAM                    128 MiB by default; -kernel ELF loaded here, M-mode */
#include "bm/board.h"
#include "riscv_clint.h"
#include "uart_ns16550.h"

#define VIRT_TEST_BASE 0x00100000u
#define VIRT_CLINT_BASE 0x02000000u
#define VIRT_UART0_BASE 0x10000000u

static const struct ns16550 uart0 = {
	.base = VIRT_UART0_BASE, .reg_shift = 0, .clock_hz = 3686400, .baud = 115200,
};

static void virt_init(void)
{
	ns16550_init(&uart0);
}

static void virt_putc(char c)
{
	ns16550_putc(&uart0, c);
}

static uint64_t virt_timer(void)
{
	return clint_mtime_read(VIRT_CLINT_BASE);
}

static void virt_exit(int status)
{
	volatile uint32_t *finisher = (volatile uint32_t *)VIRT_TEST_BASE;
	/* Status 0 would look like success through the fail code, so it has its own value. */
	*finisher = status == 0 ? 0x5555u : ((uint32_t)status << 16) | 0x3333u;
	for (;;)
		__asm__ volatile("wfi");
}

const struct bm_board board_desc = {
	.name = "qemu-virt-riscv64",
	.console = "ns16550a@0x10000000",
	.init = virt_init,
	.putc = virt_putc,
	.timer_ticks = virt_timer,
	.timer_hz = 10000000,
	.timer_name = "clint-mtime@0x0200bff8",
	.exit = virt_exit,
};
