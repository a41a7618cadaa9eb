/* SPDX-License-Identifier: Apache-2.0 */
/* Raspberry Pi 3 Model B (BCM2837, 4x Cortex-A53) and QEMU `-machine raspi3b`: PL011 UART0
 * console on GPIO 14/15, the BCM2835 system timer as the board timer, exit through semihosting
 * under QEMU (on the board, without a debugger, the kit halts after the end record).
 * Memory map (ARM physical addresses; BCM2835 ARM Peripherals, BCM2836 QA7 for 0x40000000):
 *   0x00000000  SDRAM (ARM part; the GPU's part sits at the top, below 0x3f000000)
 *   0x00080000  kernel8.img load address (memory.ld)
 *   0x3f003000  system timer: CLO/CHI, free-running 1 MHz
 *   0x3f200000  GPIO (GPFSEL1 +0x04, GPPUD +0x94, GPPUDCLK0 +0x98)
 *   0x3f201000  PL011 UART0 (QEMU's serial0)
 *   0x40000000  ARM local peripherals (core timers, mailboxes)
 * Only what the kit uses is mapped: 32 MiB of RAM as Normal memory, the two MMIO windows as
 * Device. On the board, config.txt must give the PL011 to GPIO 14/15 (README.md). */
#include "arch/devices.h"
#include "arm_vtimer_alarm.h"
#include "bcm2835_systimer.h"
#include "mmio.h"
#include "uart_pl011.h"

#define BCM_PERIPH_BASE 0x3f000000u
#define BCM_GPIO_BASE (BCM_PERIPH_BASE + 0x200000u)
#define BCM_LOCAL_BASE 0x40000000u
#define GPFSEL1 0x04u   /* function of GPIO 10-19, 3 bits each */
#define GPFSEL_ALT0 4u
#define GPPUD 0x94u     /* pull-up/down: 0 = off */
#define GPPUDCLK0 0x98u /* latches GPPUD into the GPIOs whose bit is set */
#define FSEL_SHIFT(gpio) (3u * ((gpio) % 10u))
#define UART_TXD_GPIO 14u
#define UART_RXD_GPIO 15u

/* UARTCLK: config.txt sets init_uart_clock=48000000 (also the firmware's default on current
 * firmware); QEMU ignores the divisor. */
static struct pl011 uart0 = {
	.con = PL011_CONSOLE("pl011@0x3f201000 (GPIO 14/15)"),
	.base = BCM_PERIPH_BASE + 0x201000u, .clock_hz = 48000000, .baud = 115200,
};
static struct bcm2835_systimer systimer = {
	.timer = BCM2835_SYSTIMER("bcm2835-systimer@0x3f003000"), .base = BCM_PERIPH_BASE + 0x3000u,
};

/* The watchdog: the virtual timer's interrupt, routed to core 0 by the BCM2836 local controller. */
static struct arm_vtimer_alarm alarm = {
	.alarm = ARM_VTIMER_ALARM("cntv + bcm2836 local irq"), .intc = ARM_VTIMER_BCM2836, .base = BCM_LOCAL_BASE,
};

static const struct bm_mem_region mem_map[] = {
	{.base = 0x00000000, .size = 32u << 20, .type = BM_MEM_NORMAL},
	{.base = BCM_PERIPH_BASE, .size = 16u << 20, .type = BM_MEM_DEVICE},
	{.base = BCM_LOCAL_BASE, .size = 2u << 20, .type = BM_MEM_DEVICE},
};

/* The GPPUD sequence wants 150 cycles between steps; a bounded spin is enough. */
static void raspi_delay(void)
{
	for (volatile unsigned i = 0; i < 300u; i++)
		;
}

/* GPIO 14/15 to ALT0 (PL011 TXD0/RXD0) with pulls off. The firmware may have done this for
 * dtoverlay=disable-bt already; doing it here does not depend on it. */
static void raspi_uart_pins(void)
{
	uint32_t sel = *mmio32(BCM_GPIO_BASE + GPFSEL1);
	sel &= ~((7u << FSEL_SHIFT(UART_TXD_GPIO)) | (7u << FSEL_SHIFT(UART_RXD_GPIO)));
	sel |= (GPFSEL_ALT0 << FSEL_SHIFT(UART_TXD_GPIO)) | (GPFSEL_ALT0 << FSEL_SHIFT(UART_RXD_GPIO));
	*mmio32(BCM_GPIO_BASE + GPFSEL1) = sel;
	*mmio32(BCM_GPIO_BASE + GPPUD) = 0;
	raspi_delay();
	*mmio32(BCM_GPIO_BASE + GPPUDCLK0) = (1u << UART_TXD_GPIO) | (1u << UART_RXD_GPIO);
	raspi_delay();
	*mmio32(BCM_GPIO_BASE + GPPUDCLK0) = 0;
}

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &uart0.con,
	.timer = &systimer.timer,
	.alarm = &alarm.alarm,
	.exit = &arch_semihosting,
	.init = raspi_uart_pins,
	.mem_map = mem_map,
	.mem_map_len = sizeof mem_map / sizeof mem_map[0],
};
