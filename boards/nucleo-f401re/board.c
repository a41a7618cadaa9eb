/* The STM32F4 boards: ST's Nucleo-F401RE (STM32F401RE), hardware only, and the Netduino Plus 2
 * (STM32F405RG) as QEMU models it (netduinoplus2, STM32F4_NETDUINOPLUS2 from its board.cmake).
 * One file, because the two differ only in data (clocks, the model's clocks, the clock tree's
 * description; memory.ld the memory): the same USART2, TIM2 and clock set-up run on both, so
 * the Nucleo's drivers are the ones netduinoplus2 runs in CI. The Nucleo image is NOT RUN ON
 * HARDWARE by the kit's authors. Memory map (RM0368 / RM0090 section 2.3; QEMU
 * hw/arm/stm32f405_soc.c):
 *   0x08000000  flash           code, read-only data, the .data image (aliased at 0 at boot)
 *   0x1fff0000  system memory   ST's bootloader (in the stack guard's MPU region: never touched)
 *   0x20000000  SRAM            stacks, data, bss, scratch
 *   0x40000000  TIM2            the board timer: 32 bits, 1 MHz
 *   0x40004400  USART2          the console: PA2 (TX) / PA3 (RX), alternate function 7 (the
 *                               Nucleo wires them to the ST-LINK's USB serial port)
 *   0x40007000  PWR             the regulator scale the clock needs
 *   0x40020000  GPIOA           PA2/PA3
 *   0x40023800  RCC             clocks (below)
 *   0x40023c00  FLASH           wait states, prefetch and caches on
 * Clocks: HSI 16 MHz through the PLL (boards/drivers/stm32f4_rcc.c), not a crystal: it exists on
 * every board revision (the Nucleo's 8 MHz MCO from the ST-LINK needs solder bridges on some).
 *   Nucleo-F401RE: PLLM /8, PLLN x168 (336 MHz VCO), PLLP /4 = 84 MHz SYSCLK = HCLK = the core
 *     clock; APB1 /2 = 42 MHz (USART2; TIM2 gets x2 = 84 MHz), APB2 /1, PLLQ /7 = 48 MHz; flash 2
 *     wait states, regulator scale 2.
 *   Netduino Plus 2: PLLP /2 = 168 MHz; APB1 /4 = 42 MHz (TIM2: 84 MHz), APB2 /2 = 84 MHz; flash 5
 *     wait states, scale 1. Under QEMU the RCC is a placeholder reading 0: the set-up is skipped
 *     and QEMU's clocks hold (SYSCLK 168 MHz, hw/arm/netduinoplus2.c; timers 1 GHz / (PSC + 1)).
 * If the PLL does not lock, the core stays on HSI, the devices get HSI's clocks, and core_clock
 * says so. Exit: semihosting (QEMU -semihosting; openocd's `arm semihosting enable` on the
 * Nucleo); without a debugger the kit halts after the end record. */
#include "arch/devices.h"
#include "stm32f4_rcc.h"

#if defined(STM32F4_NETDUINOPLUS2)
#define CORE_HZ 168000000u
#define PLLCFGR STM32F4_PLLCFGR_HSI(8, 168, 2, 7)
#define PPRE STM32F4_PPRE(4, 2)
#define FLASH_WAIT_STATES 5
#define VOS STM32F405_VOS_SCALE1
#define MODEL_CORE_HZ 168000000u    /* QEMU's STM32F405 model */
#define MODEL_APB1_TIM_HZ 1000000000u
#define CLOCK_TREE "HSI 16 MHz, PLL /8 x168 /2; AHB 168, APB1 42, APB2 84 MHz; flash 5 wait states"
#else /* the Nucleo-F401RE */
#define CORE_HZ 84000000u
#define PLLCFGR STM32F4_PLLCFGR_HSI(8, 168, 4, 7)
#define PPRE STM32F4_PPRE(2, 1)
#define FLASH_WAIT_STATES 2
#define VOS STM32F401_VOS_SCALE2
#define MODEL_CORE_HZ 0u            /* no emulator models it: under one, no timer and no watchdog */
#define MODEL_APB1_TIM_HZ 0u
#define CLOCK_TREE "HSI 16 MHz, PLL /8 x168 /4; AHB 84, APB1 42, APB2 84 MHz; flash 2 wait states"
#endif

static struct stm32_usart usart2 = {
	.con = STM32_USART_CONSOLE("stm32-usart2@0x40004400"),
	.base = 0x40004400, .clock_hz = 42000000, .baud = 115200,
};
static struct stm32_tim tim2 = {.timer = STM32_TIM("stm32-tim2@0x40000000", 1000000), .base = 0x40000000};
static struct armv7m_systick_alarm watchdog = ARMV7M_SYSTICK_ALARM(CORE_HZ);

static const struct stm32f4_pin usart2_pins[] = {
	{.port = STM32F4_GPIOA, .pin = 2, .af = 7},              /* PA2: USART2_TX */
	{.port = STM32F4_GPIOA, .pin = 3, .af = 7, .pull_up = 1}, /* PA3: USART2_RX */
};
static struct stm32f4_rcc rcc = {
	.pllcfgr = PLLCFGR,
	.ppre = PPRE,
	.flash_acr = STM32F4_FLASH_ACR(FLASH_WAIT_STATES),
	.vos = VOS,
	.ahb1enr = STM32F4_AHB1ENR_GPIOA,
	.apb1enr = STM32F4_APB1ENR_USART2 | STM32F4_APB1ENR_TIM2,
	.pins = usart2_pins, .n_pins = 2,
	.model_core_hz = MODEL_CORE_HZ, .model_apb1_tim_hz = MODEL_APB1_TIM_HZ,
	.usart = &usart2, .tim = &tim2,
};

static const struct bm_kv facts[] = {
	{"core_clock", rcc.state}, /* written by the clock set-up */
	{"clock_tree", CLOCK_TREE},
	{0, 0},
};

static void stm32f4_board_init(void)
{
	stm32f4_rcc_init(&rcc);
	watchdog.hz = rcc.core_hz;
}

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &usart2.con,
	.timer = &tim2.timer,
	.alarm = &watchdog.alarm,
	.exit = &arch_semihosting,
	.init = stm32f4_board_init,
	.facts = facts,
};
