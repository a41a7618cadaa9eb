/* Arm MPS2 with the AN386 FPGA image (Cortex-M4 with FPU), as QEMU models it
 * (`qemu-system-arm -machine mps2-an386`); also mps2-an385's (Cortex-M3: the same devices and
 * map, MPS2_AN=385). Memory map (AN385/AN386, and QEMU hw/arm/mps2.c):
 *   0x00000000  ZBT SSRAM1, 4 MiB   code and read-only data ("flash"; the vector table at 0)
 *   0x20000000  ZBT SSRAM2/3, 4 MiB RAM: stacks, data, bss, scratch (below it: the stack guard)
 *   0x21000000  PSRAM, 16 MiB       unused
 *   0x40000000  CMSDK TIMER0        the board timer, PCLK = 25 MHz
 *   0x40004000  CMSDK UART0         the console (QEMU's serial0), PCLK = 25 MHz
 *   0xE000E000  SCS                 SysTick, NVIC, SCB, MPU (the arch's)
 * The core clock is 25 MHz (SYSCLK). Exit: semihosting (QEMU -semihosting). */
#include "arch/devices.h"
#include "cmsdk_timer.h"
#include "uart_cmsdk.h"

#define MPS2_SYSCLK_HZ 25000000u

static struct cmsdk_uart uart0 = {
	.con = CMSDK_UART_CONSOLE("cmsdk-uart0@0x40004000"),
	.base = 0x40004000, .clock_hz = MPS2_SYSCLK_HZ, .baud = 115200,
};
static struct cmsdk_timer timer0 = {.timer = CMSDK_TIMER("cmsdk-timer0@0x40000000", MPS2_SYSCLK_HZ), .base = 0x40000000};
static struct armv7m_systick_alarm watchdog = ARMV7M_SYSTICK_ALARM(MPS2_SYSCLK_HZ);

static const struct bm_kv facts[] = {
	{"core_clock", "25 MHz (MPS2 SYSCLK)"},
#if MPS2_AN == 385
	{"fpga_image", "AN385 (Cortex-M3)"},
#else
	{"fpga_image", "AN386 (Cortex-M4F)"},
#endif
	{0, 0},
};

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &uart0.con,
	.timer = &timer0.timer,
	.alarm = &watchdog.alarm,
	.exit = &arch_semihosting,
	.facts = facts,
};
