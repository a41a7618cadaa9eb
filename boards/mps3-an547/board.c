/* SPDX-License-Identifier: Apache-2.0 */
/* Arm MPS3 with the AN547 FPGA image (Cortex-M55 in a Corstone SSE-300, run in Secure state), as
 * QEMU models it (`qemu-system-arm -machine mps3-an547`; boards/families/mps/mps.h). SYSCLK
 * 32 MHz clocks the core and SysTick; CMSDK UART0 (Secure alias 0x59303000) sits on a 25 MHz APB.
 * The SSE-300 has no CMSDK timer: SYSTIMER0's frame (0x58000000) reads the subsystem's system
 * counter, started through its control frame (0x58100000), at 32 MHz. Memory: memory.ld. */
#include "mps/mps.h"
#include "sse_systimer.h"

#define AN547_SYSCLK_HZ 32000000u

static struct cmsdk_uart uart0 = MPS_UART0("cmsdk-uart0@0x59303000", 0x59303000, 25000000u);
static struct sse_systimer systimer0 = {.timer = SSE_SYSTIMER("sse300-systimer0@0x58000000", AN547_SYSCLK_HZ),
                                        .base = 0x58000000, .counter = 0x58100000};
static struct armv7m_systick_alarm watchdog = ARMV7M_SYSTICK_ALARM(AN547_SYSCLK_HZ);
static const struct bm_kv facts[] = MPS_FACTS("32 MHz (MPS3 SYSCLK; APB 25 MHz)", "AN547 (Cortex-M55 in an SSE-300)");

const struct bm_board board_desc = MPS_BOARD_DESC(uart0, systimer0, watchdog, facts);
