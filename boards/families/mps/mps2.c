/* SPDX-License-Identifier: Apache-2.0 */
/* The MPS2 images' devices (AN385, AN386, AN500: one memory map and one clock, see mps.h): the
 * console, the board timer and the watchdog of the boards mps2-an385, mps2-an386, mps2-an500. */
#include "mps.h"

struct cmsdk_uart mps2_uart0 = MPS_UART0("cmsdk-uart0@0x40004000", 0x40004000, MPS2_SYSCLK_HZ);
struct cmsdk_timer mps2_timer0 = {.timer = CMSDK_TIMER("cmsdk-timer0@0x40000000", MPS2_SYSCLK_HZ), .base = 0x40000000};
struct armv7m_systick_alarm mps2_watchdog = ARMV7M_SYSTICK_ALARM(MPS2_SYSCLK_HZ);
