/* SPDX-License-Identifier: Apache-2.0 */
/* HiFive1 Rev B (SiFive FE310-G002, RV32IMAC) and QEMU `-machine sifive_e,revb=true`.
 * Memory map (FE310-G002 manual; QEMU hw/riscv/sifive_e.c):
 *   0x02000000  CLINT        mtime at +0xbff8: 32.768 kHz RTC on the board, 10 MHz in QEMU
 *   0x10008000  PRCI         clock control (hfxosccfg +0x04, pllcfg +0x08)
 *   0x10013000  UART0        console (FTDI channel on the board's USB)
 *   0x20010000  SPI flash    code runs in place here after the Rev B bootloader
 *   0x80000000  DTIM         16 KiB RAM
 * Exit: semihosting (QEMU -semihosting). Without a debugger the board halts instead. */
#include "arch/devices.h"
#include "arch/riscv.h"
#include "mmio.h"
#include "riscv_clint.h"
#include "uart_sifive.h"

#define FE310_PRCI_BASE 0x10008000u
#define PRCI_HFXOSCCFG 0x04u
#define HFXOSCCFG_EN (1u << 30)
#define HFXOSCCFG_RDY (1u << 31)
#define PRCI_PLLCFG 0x08u
#define PLLCFG_SEL (1u << 16)    /* hfclk from the PLL path */
#define PLLCFG_REFSEL (1u << 17) /* the PLL's reference: HFXOSC */
#define PLLCFG_BYPASS (1u << 18)
#define HFXOSC_HZ 16000000u
#define SIFIVE_MVENDORID 0x489u /* JEDEC id of SiFive; QEMU's sifive_e model reports 0 */

static struct sifive_uart uart0 = {
	.con = SIFIVE_UART_CONSOLE("sifive-uart0@0x10013000"),
	.base = 0x10013000, .clock_hz = HFXOSC_HZ, .baud = 115200,
};

/* mtime runs from the 32.768 kHz RTC on the board but at 10 MHz in QEMU's model: the same image
 * serves both, telling them apart by mvendorid (SiFive's on silicon, 0 in QEMU 7.2). */
static void mtime_init(struct bm_timer *t)
{
	t->hz = arch_mvendorid_read() == SIFIVE_MVENDORID ? 32768 : 10000000;
}

static struct clint clint = {
	.timer = {.name = "clint-mtime@0x0200bff8", .init = mtime_init, .read = clint_mtime_read},
	.alarm = CLINT_ALARM,
	.base = 0x02000000,
};

/* Run the core from the 16 MHz crystal with the PLL bypassed: a known clock for the UART
 * divisor, and the same clock on every board (the Rev B bootloader leaves it unspecified). */
static void hifive1_clocks(void)
{
	volatile uint32_t *hfxosccfg = mmio32(FE310_PRCI_BASE + PRCI_HFXOSCCFG);
	volatile uint32_t *pllcfg = mmio32(FE310_PRCI_BASE + PRCI_PLLCFG);
	*hfxosccfg |= HFXOSCCFG_EN;
	for (unsigned i = 0; i < 1000000u && !(*hfxosccfg & HFXOSCCFG_RDY); i++)
		; /* bounded so a model without it cannot hang us */
	*pllcfg |= PLLCFG_REFSEL | PLLCFG_BYPASS;
	*pllcfg |= PLLCFG_SEL;
}

static const struct bm_kv facts[] = {
	{"core_clock", "16 MHz HFXOSC, PLL bypassed"},
	{"mtime", "32.768 kHz RTC on silicon (mvendorid 0x489), 10 MHz in QEMU"},
	{0, 0},
};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &uart0.con,
	.timer = &clint.timer,
	.alarm = &clint.alarm,
	.exit = &arch_semihosting,
	.init = hifive1_clocks,
	.facts = facts,
};
