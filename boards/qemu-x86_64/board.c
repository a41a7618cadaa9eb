/* QEMU x86_64 PC (`-machine pc`, the default): COM1 console, HPET as the board timer (the
 * core's clock estimate against it gives the TSC frequency), exit through isa-debug-exit.
 * Memory map (from QEMU hw/i386/pc.c, hw/timer/hpet.c, hw/misc/debugexit.c):
 *   0x00100000   -kernel ELF loaded here (PVH entry, see arch/x86_64/start.S)
 *   0xfed00000   HPET: capabilities at +0x000 (period in fs in bits 63:32), config at +0x010
 *                (bit 0 ENABLE), main counter at +0x0f0; QEMU's period is 10 ns (100 MHz)
 *   port 0x3f8   COM1 (8250/16550)
 *   port 0xf4    isa-debug-exit (-device isa-debug-exit,iobase=0xf4,iosize=0x04):
 *                `outl v` ends QEMU with status (v << 1) | 1 */
#include <stdint.h>

#include "arch/pio.h"
#include "bm/board.h"
#include "bm/out.h"
#include "uart_8250_pio.h"

#define HPET_BASE 0xfed00000u
#define HPET_CAP 0x000u
#define HPET_CONFIG 0x010u
#define HPET_COUNTER 0x0f0u
#define DEBUG_EXIT_PORT 0xf4u
/* The board's timer rate: QEMU's HPET period (10,000,000 fs). Another period is scaled to it. */
#define BOARD_TIMER_HZ 100000000u
#define BOARD_TIMER_PERIOD_FS 10000000u

static const struct uart_8250_pio com1 = {.port = 0x3f8, .clock_hz = 1843200, .baud = 115200};
static uint32_t hpet_period_fs;

static volatile uint64_t *hpet_reg(uint32_t off)
{
	return (volatile uint64_t *)(uintptr_t)(HPET_BASE + off);
}

static void pc_exit(int status);

static void pc_init(void)
{
	uart_8250_pio_init(&com1);
	/* A valid HPET has a non-zero period of at most 100 ns (the spec's limit, 10^8 fs). */
	uint64_t cap = *hpet_reg(HPET_CAP);
	uint32_t period = (uint32_t)(cap >> 32);
	if (period == 0 || period > 100000000u) {
		bm_out_str("qemu-x86_64: error: no HPET at 0xfed00000 (capabilities 0x");
		bm_out_hex(cap, 16);
		bm_out_str("); run QEMU's pc machine with its HPET (the default)\n");
		pc_exit(BM_EXIT_CONFIG);
	}
	hpet_period_fs = period;
	*hpet_reg(HPET_CONFIG) |= 1u; /* ENABLE_CNF: the main counter runs */
}

static void pc_putc(char c)
{
	uart_8250_pio_putc(&com1, c);
}

static uint64_t pc_timer(void)
{
	uint64_t count = *hpet_reg(HPET_COUNTER);
	if (hpet_period_fs == BOARD_TIMER_PERIOD_FS)
		return count;
	/* Split so nothing overflows and no 128-bit division (a libgcc call) is needed. */
	return count / BOARD_TIMER_PERIOD_FS * hpet_period_fs +
	       count % BOARD_TIMER_PERIOD_FS * hpet_period_fs / BOARD_TIMER_PERIOD_FS;
}

static void pc_exit(int status)
{
	arch_outl(DEBUG_EXIT_PORT, (uint32_t)status);
	/* Without the device (a real PC, or QEMU without -device isa-debug-exit): stop here. */
	for (;;)
		__asm__ volatile("cli; hlt");
}

const struct bm_board board_desc = {
	.name = "qemu-x86_64",
	.console = "com1 8250@io0x3f8",
	.init = pc_init,
	.putc = pc_putc,
	.timer_ticks = pc_timer,
	.timer_hz = BOARD_TIMER_HZ,
	.timer_name = "hpet@0xfed00000",
	.exit = pc_exit,
};
