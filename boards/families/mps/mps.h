/* SPDX-License-Identifier: Apache-2.0 */
/* The Arm MPS2 and MPS3 FPGA images as QEMU models them (boards mps2-an385, mps2-an386,
 * mps2-an500, mps2-an505, mps3-an547): what their boards share. Each runs the kit the same way:
 * CMSDK UART0 at 115200 8N1 as the console, SysTick at SYSCLK as the watchdog, semihosting (QEMU
 * -semihosting) as the exit, and two facts (the core clock, the FPGA image). They differ in where
 * UART0 and the board timer sit and in their clocks:
 *   MPS2 images, AN385 (Cortex-M3), AN386 (Cortex-M4F), AN500 (Cortex-M7) (QEMU hw/arm/mps2.c):
 *     SYSCLK = PCLK = 25 MHz, one set of devices for the three (mps2.c):
 *       0x00000000  ZBT SSRAM1, 4 MiB   code and read-only data ("flash"; the vector table at 0)
 *       0x20000000  ZBT SSRAM2/3, 4 MiB RAM: stacks, data, bss, scratch (below it: the stack guard)
 *       0x21000000  PSRAM, 16 MiB       unused
 *       0x40000000  CMSDK TIMER0        the board timer
 *       0x40004000  CMSDK UART0         the console (QEMU's serial0)
 *       0xE000E000  SCS                 SysTick, NVIC, SCB, MPU (the arch's)
 *   AN505 (Cortex-M33 in an SSE-200, started in Secure state; QEMU hw/arm/mps2-tz.c): SYSCLK
 *     20 MHz; the Secure aliases (address bit 28 set) of CMSDK UART0 0x50200000 and TIMER0
 *     0x50000000, both at 20 MHz.
 *   AN547 (Cortex-M55 in an SSE-300, started in Secure state; QEMU hw/arm/mps2-tz.c): SYSCLK
 *     32 MHz; CMSDK UART0 at 0x59303000 (Secure alias) on a 25 MHz APB; no CMSDK timer: SYSTIMER0
 *     at 0x58000000 reads the SSE-300 system counter (control frame 0x58100000), 32 MHz.
 * Memory: each board's memory.ld. */
#ifndef FAMILIES_MPS_H
#define FAMILIES_MPS_H

#include "arch/devices.h"
#include "cmsdk_timer.h"
#include "uart_cmsdk.h"

/* UART0 as the console, with its PCLK for the baud divisor. */
#define MPS_UART0(name_, base_, pclk_hz_) \
	{.con = CMSDK_UART_CONSOLE(name_), .base = (base_), .clock_hz = (pclk_hz_), .baud = 115200}

/* The board's facts: its core clock and FPGA image, in words. */
#define MPS_FACTS(core_clock_, fpga_image_) {{"core_clock", (core_clock_)}, {"fpga_image", (fpga_image_)}, {0, 0}}

/* An MPS board's board_desc, from its UART0, its board timer and its SysTick watchdog. */
#define MPS_BOARD_DESC(uart0_, timer_, watchdog_, facts_)                                          \
	{.name = BM_BOARD_NAME, .console = &(uart0_).con, .timer = &(timer_).timer,                    \
	 .alarm = &(watchdog_).alarm, .exit = &arch_semihosting, .facts = (facts_)}

/* The MPS2 images' devices (mps2.c). */
#define MPS2_SYSCLK_HZ 25000000u
#define MPS2_CORE_CLOCK "25 MHz (MPS2 SYSCLK)"
extern struct cmsdk_uart mps2_uart0;
extern struct cmsdk_timer mps2_timer0;
extern struct armv7m_systick_alarm mps2_watchdog;

#endif
