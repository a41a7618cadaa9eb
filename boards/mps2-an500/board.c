/* SPDX-License-Identifier: Apache-2.0 */
/* Arm MPS2 with the AN500 FPGA image (Cortex-M7, double-precision FPU), as QEMU models it
 * (`qemu-system-arm -machine mps2-an500`): the MPS2 images' devices and memory map, those of
 * AN385/AN386 (boards/families/mps/mps.h). The core clock is 25 MHz (SYSCLK). */
#include "mps/mps.h"

static const struct bm_kv facts[] = MPS_FACTS(MPS2_CORE_CLOCK, "AN500 (Cortex-M7)");

const struct bm_board board_desc = MPS_BOARD_DESC(mps2_uart0, mps2_timer0, mps2_watchdog, facts);
