/* SPDX-License-Identifier: Apache-2.0 */
/* Arm MPS2 with the AN505 FPGA image (Cortex-M33 in an SSE-200, run in Secure state), as QEMU
 * models it (`qemu-system-arm -machine mps2-an505`; boards/families/mps/mps.h). SYSCLK 20 MHz
 * clocks the core, SysTick, and the Secure aliases (address bit 28 set) of CMSDK UART0
 * (0x50200000) and TIMER0 (0x50000000). Memory: memory.ld. */
#include "mps/mps.h"

#define AN505_SYSCLK_HZ 20000000u

static struct cmsdk_uart uart0 = MPS_UART0("cmsdk-uart0@0x50200000", 0x50200000, AN505_SYSCLK_HZ);
static struct cmsdk_timer timer0 = {.timer = CMSDK_TIMER("cmsdk-timer0@0x50000000", AN505_SYSCLK_HZ), .base = 0x50000000};
static struct armv7m_systick_alarm watchdog = ARMV7M_SYSTICK_ALARM(AN505_SYSCLK_HZ);
static const struct bm_kv facts[] = MPS_FACTS("20 MHz (MPS2 SYSCLK)", "AN505 (Cortex-M33 in an SSE-200)");

const struct bm_board board_desc = MPS_BOARD_DESC(uart0, timer0, watchdog, facts);
