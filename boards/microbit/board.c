/* SPDX-License-Identifier: Apache-2.0 */
/* BBC micro:bit v1 (Nordic nRF51822: Cortex-M0 at 16 MHz, 256 KiB flash, 16 KiB RAM) and QEMU's
 * model of it (`qemu-system-arm -machine microbit`). Memory map (nRF51 Series Reference Manual
 * v3.0; QEMU hw/arm/nrf51_soc.c):
 *   0x00000000  flash, 256 KiB  code and read-only data (the vector table at 0)
 *   0x10000000  FICR, UICR      factory and user configuration (unused)
 *   0x20000000  RAM, 16 KiB     stacks, data, bss, scratch (below it: nothing, a bus error)
 *   0x40000000  CLOCK           HFCLK: the 16 MHz crystal is started (the UART needs it)
 *   0x40002000  UART0           the console, TXD on P0.24 (to the interface chip's USB serial)
 *   0x40008000  TIMER0          the board timer, 8 MHz (HFCLK / 2: a whole number of ns per tick)
 *   0x50000000  GPIO            P0.24 made an output for TXD
 * The nRF51 has no DWT cycle counter and no SysTick (QEMU models a SysTick anyway, at the 16 MHz
 * core clock): under QEMU the cycles come from SysTick, on the chip from TIMER0 (arch/armv7m).
 * Exit: semihosting (QEMU -semihosting); the chip halts after the end record. */
#include "arch/devices.h"
#include "mmio.h"
#include "nrf51_timer.h"
#include "uart_nrf51.h"

#define NRF51_HFCLK_HZ 16000000u
#define CLOCK_BASE 0x40000000u
#define CLOCK_TASKS_HFCLKSTART 0x000u
#define CLOCK_EVENTS_HFCLKSTARTED 0x100u
#define GPIO_BASE 0x50000000u
#define GPIO_OUTSET 0x508u
#define GPIO_DIRSET 0x518u
#define MICROBIT_TXD_PIN 24u /* UART TX to the KL26 interface chip (micro:bit v1 schematic) */
#define MICROBIT_RXD_PIN 25u

static struct nrf51_uart uart0 = {
	.con = NRF51_UART_CONSOLE("nrf51-uart0@0x40002000"),
	.base = 0x40002000, .txd_pin = MICROBIT_TXD_PIN, .rxd_pin = MICROBIT_RXD_PIN,
	.baudrate = NRF51_UART_BAUD_115200,
};
static struct nrf51_timer timer0 = {.timer = NRF51_TIMER("nrf51-timer0@0x40008000", 1), .base = 0x40008000, .prescaler = 1};
static struct armv7m_systick_alarm watchdog = ARMV7M_SYSTICK_ALARM(NRF51_HFCLK_HZ);

/* The 16 MHz crystal as HFCLK (the RC oscillator's 2% is too coarse for 115200 baud), and TXD
 * driven high as an output before the UART takes the pin. */
static void microbit_init(void)
{
	*mmio32(CLOCK_BASE + CLOCK_EVENTS_HFCLKSTARTED) = 0;
	*mmio32(CLOCK_BASE + CLOCK_TASKS_HFCLKSTART) = 1;
	for (unsigned i = 0; i < 1000000u && !*mmio32(CLOCK_BASE + CLOCK_EVENTS_HFCLKSTARTED); i++)
		; /* bounded: QEMU's CLOCK is a stub */
	*mmio32(GPIO_BASE + GPIO_OUTSET) = 1u << MICROBIT_TXD_PIN;
	*mmio32(GPIO_BASE + GPIO_DIRSET) = 1u << MICROBIT_TXD_PIN;
}

static const struct bm_kv facts[] = {
	{"core_clock", "16 MHz (HFCLK from the crystal)"},
	{"soc", "nRF51822 (Cortex-M0, 256 KiB flash, 16 KiB RAM)"},
	{0, 0},
};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &uart0.con,
	.timer = &timer0.timer,
	.alarm = &watchdog.alarm,
	.exit = &arch_semihosting,
	.init = microbit_init,
	.facts = facts,
};
