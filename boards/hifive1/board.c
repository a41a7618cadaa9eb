/* HiFive1 Rev B (SiFive FE310-G002, RV32IMAC) and QEMU `-machine sifive_e,revb=true`.
 * Memory map (FE310-G002 manual; QEMU hw/riscv/sifive_e.c):
 *   0x02000000  CLINT        mtime at +0xbff8: 32.768 kHz RTC on the board, 10 MHz in QEMU
 *   0x10008000  PRCI         clock control (hfxosccfg +0x04, pllcfg +0x08)
 *   0x10013000  UART0        console (FTDI channel on the board's USB)
 *   0x20010000  SPI flash    code runs in place here after the Rev B bootloader
 *   0x80000000  DTIM         16 KiB RAM
 * Exit: semihosting (QEMU -semihosting). Without a debugger the board halts instead. */
#include "bm/board.h"
#include "riscv_clint.h"
#include "uart_sifive.h"

#define FE310_CLINT_BASE 0x02000000u
#define FE310_PRCI_BASE 0x10008000u
#define FE310_UART0_BASE 0x10013000u
#define HFXOSC_HZ 16000000u

void arch_semihost_exit(long code);

static const struct sifive_uart uart0 = {
	.base = FE310_UART0_BASE, .clock_hz = HFXOSC_HZ, .baud = 115200,
};

/* Run the core from the 16 MHz crystal with the PLL bypassed: a known clock for the UART
 * divisor, and the same clock on every board (the Rev B bootloader leaves it unspecified). */
static void hifive1_clocks(void)
{
	volatile uint32_t *hfxosccfg = (volatile uint32_t *)(FE310_PRCI_BASE + 0x04);
	volatile uint32_t *pllcfg = (volatile uint32_t *)(FE310_PRCI_BASE + 0x08);
	*hfxosccfg |= 1u << 30; /* hfxoscen */
	for (unsigned i = 0; i < 1000000u && !(*hfxosccfg & (1u << 31)); i++)
		;               /* hfxoscrdy; bounded so a model without it cannot hang us */
	*pllcfg |= (1u << 17) | (1u << 18); /* pllrefsel = HFXOSC, pllbypass */
	*pllcfg |= 1u << 16;                /* pllsel: hfclk from the PLL path (bypassed) */
}

static void hifive1_init(void)
{
	hifive1_clocks();
	sifive_uart_init(&uart0);
}

static void hifive1_putc(char c)
{
	sifive_uart_putc(&uart0, c);
}

static uint64_t hifive1_timer(void)
{
	return clint_mtime_read(FE310_CLINT_BASE);
}

static void hifive1_exit(int status)
{
	arch_semihost_exit(status);
}

const struct bm_board board_desc = {
	.name = "hifive1",
	.console = "sifive-uart0@0x10013000",
	.init = hifive1_init,
	.putc = hifive1_putc,
	.timer_ticks = hifive1_timer,
	.timer_hz = BM_HIFIVE1_MTIME_HZ,
	.timer_name = "clint-mtime@0x0200bff8",
	.exit = hifive1_exit,
};
