/* The Arm MPS2/MPS3 FPGA images added with the Cortex-M7, M33 and M55 boards, as QEMU models them:
 * one file for the three (MPS_AN = 500, 505 or 547, from board.cmake), because they differ only
 * in data: where the console UART and the timer sit, their clocks, the FPGA image's name.
 *   AN500 (mps2-an500): Cortex-M7, SYSCLK 25 MHz; CMSDK UART0 0x40004000 and TIMER0 0x40000000
 *     at 25 MHz; the same map as AN385/AN386 (boards/mps2-an386).
 *   AN505 (mps2-an505): Cortex-M33 in an SSE-200 (IoT Kit), started in Secure state, SYSCLK
 *     20 MHz; the Secure aliases (address bit 28 set) of CMSDK UART0 0x50200000 and TIMER0
 *     0x50000000, both at 20 MHz.
 *   AN547 (mps3-an547): Cortex-M55 in an SSE-300, started in Secure state, SYSCLK 32 MHz;
 *     CMSDK UART0 at 0x59303000 (Secure alias) on a 25 MHz APB; no CMSDK timer: SYSTIMER0 at
 *     0x58000000 reads the SSE-300 system counter (control frame 0x58100000), 32 MHz.
 * SysTick counts SYSCLK (the watchdog's rate). Memory: each board's memory.ld. Exit: semihosting
 * (QEMU -semihosting). */
#include "arch/devices.h"
#include "uart_cmsdk.h"

#if MPS_AN == 500
#include "cmsdk_timer.h"
#define SYSCLK_HZ 25000000u
#define UART0_BASE 0x40004000u
#define UART0_NAME "cmsdk-uart0@0x40004000"
#define UART0_CLK_HZ SYSCLK_HZ
#define TIMER0_BASE 0x40000000u
#define TIMER0_NAME "cmsdk-timer0@0x40000000"
#define FPGA_IMAGE "AN500 (Cortex-M7)"
#define CORE_CLOCK "25 MHz (MPS2 SYSCLK)"
#elif MPS_AN == 505
#include "cmsdk_timer.h"
#define SYSCLK_HZ 20000000u
#define UART0_BASE 0x50200000u
#define UART0_NAME "cmsdk-uart0@0x50200000"
#define UART0_CLK_HZ SYSCLK_HZ
#define TIMER0_BASE 0x50000000u
#define TIMER0_NAME "cmsdk-timer0@0x50000000"
#define FPGA_IMAGE "AN505 (Cortex-M33 in an SSE-200)"
#define CORE_CLOCK "20 MHz (MPS2 SYSCLK)"
#elif MPS_AN == 547
#include "sse_systimer.h"
#define SYSCLK_HZ 32000000u
#define UART0_BASE 0x59303000u
#define UART0_NAME "cmsdk-uart0@0x59303000"
#define UART0_CLK_HZ 25000000u
#define SYSTIMER0_BASE 0x58000000u
#define SYSCOUNTER_CTRL 0x58100000u
#define TIMER0_NAME "sse300-systimer0@0x58000000"
#define FPGA_IMAGE "AN547 (Cortex-M55 in an SSE-300)"
#define CORE_CLOCK "32 MHz (MPS3 SYSCLK; APB 25 MHz)"
#else
#error "MPS_AN must be 500, 505 or 547 (board.cmake: BM_BOARD_DEFINES)"
#endif

static struct cmsdk_uart uart0 = {
	.con = CMSDK_UART_CONSOLE(UART0_NAME),
	.base = UART0_BASE, .clock_hz = UART0_CLK_HZ, .baud = 115200,
};
#if MPS_AN == 547
static struct sse_systimer timer0 = {.timer = SSE_SYSTIMER(TIMER0_NAME, SYSCLK_HZ), .base = SYSTIMER0_BASE,
                                     .counter = SYSCOUNTER_CTRL};
#else
static struct cmsdk_timer timer0 = {.timer = CMSDK_TIMER(TIMER0_NAME, SYSCLK_HZ), .base = TIMER0_BASE};
#endif
static struct armv7m_systick_alarm watchdog = ARMV7M_SYSTICK_ALARM(SYSCLK_HZ);

static const struct bm_kv facts[] = {
	{"core_clock", CORE_CLOCK},
	{"fpga_image", FPGA_IMAGE},
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
