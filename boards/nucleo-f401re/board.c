/* ST Nucleo-F401RE (STM32F401RE: Cortex-M4F, 512 KiB flash, 96 KiB SRAM), hardware only (QEMU has
 * no model of it). NOT RUN ON HARDWARE by the kit's authors: built in CI only. Memory map
 * (RM0368 section 2.3, the STM32F401xE datasheet):
 *   0x08000000  flash, 512 KiB  code, read-only data, the .data image (the vector table first)
 *   0x1fff0000  system memory   ST's bootloader (in the stack guard's MPU region: never touched)
 *   0x20000000  SRAM, 96 KiB    stacks, data, bss, scratch
 *   0x40000000  TIM2            the board timer: 32 bits, 1 MHz (84 MHz / 84)
 *   0x40004400  USART2          the console: PA2 (TX) / PA3 (RX), wired to the ST-LINK's USB serial
 *   0x40007000  PWR             regulator scale 2 (up to 84 MHz)
 *   0x40020000  GPIOA           PA2/PA3 in alternate function 7 (USART2)
 *   0x40023800  RCC             clocks (below)
 *   0x40023c00  FLASH           2 wait states, prefetch and caches on
 * Clock tree: HSI 16 MHz -> PLLM /8 = 2 MHz -> PLLN x168 = 336 MHz (VCO) -> PLLP /4 = 84 MHz
 * SYSCLK = HCLK (AHB /1) = the core clock, DWT_CYCCNT and SysTick; APB1 /2 = 42 MHz (USART2;
 * TIM2 gets x2 = 84 MHz); APB2 /1 = 84 MHz; PLLQ /7 = 48 MHz. HSI, not the ST-LINK's 8 MHz MCO:
 * it exists on every board revision (MCO needs solder bridges SB16/SB50 on some).
 * Exit: semihosting (with openocd's `arm semihosting enable`); without it the kit halts after
 * the end record. */
#include "arch/devices.h"
#include "stm32_tim.h"
#include "uart_stm32.h"

#define CORE_HZ 84000000u
#define APB1_HZ (CORE_HZ / 2)
#define TIM2_HZ 1000000u

#define RCC 0x40023800u
#define RCC_CR 0x00u
#define RCC_PLLCFGR 0x04u
#define RCC_CFGR 0x08u
#define RCC_AHB1ENR 0x30u
#define RCC_APB1ENR 0x40u
#define RCC_CR_PLLON (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
#define RCC_CR_HSIRDY (1u << 1)
#define RCC_CFGR_SW_PLL 2u
#define RCC_CFGR_SWS_PLL (2u << 2)
#define RCC_CFGR_PPRE1_DIV2 (4u << 10)
#define RCC_AHB1ENR_GPIOAEN (1u << 0)
#define RCC_APB1ENR_TIM2EN (1u << 0)
#define RCC_APB1ENR_USART2EN (1u << 17)
#define RCC_APB1ENR_PWREN (1u << 28)
#define RCC_CFGR_SWS_MASK (3u << 2)
#define PWR_CR 0x40007000u
#define PWR_CR_VOS_MASK (3u << 14)
#define PWR_CR_VOS_SCALE2 (2u << 14)
#define FLASH_ACR 0x40023c00u
#define FLASH_ACR_LATENCY_MASK 0xfu
#define FLASH_ACR_LATENCY_2WS 2u
#define FLASH_ACR_2WS_PF_IC_DC (FLASH_ACR_LATENCY_2WS | (1u << 8) | (1u << 9) | (1u << 10))
#define GPIOA 0x40020000u
#define GPIO_MODER 0x00u
#define GPIO_OSPEEDR 0x08u
#define GPIO_PUPDR 0x0cu
#define GPIO_AFRL 0x20u
#define GPIO_2BITS(pin, v) ((uint32_t)(v) << (2 * (pin))) /* MODER, OSPEEDR, PUPDR */
#define GPIO_4BITS(pin, v) ((uint32_t)(v) << (4 * (pin))) /* AFRL */
#define GPIO_MODE_AF 2u
#define GPIO_SPEED_MEDIUM 1u
#define GPIO_PULL_UP 1u
#define USART2_TX_PA 2u
#define USART2_RX_PA 3u
#define USART2_AF 7u
/* PLL: M = 8, N = 168, P = 4 (field 01), source HSI (bit 22 clear), Q = 7. */
#define PLLCFGR_84MHZ_FROM_HSI (8u | (168u << 6) | (1u << 16) | (7u << 24))
#define SPINS 1000000u

static inline volatile uint32_t *reg(uintptr_t addr)
{
	return (volatile uint32_t *)addr;
}

static int wait_set(uintptr_t addr, uint32_t mask, uint32_t value)
{
	for (unsigned i = 0; i < SPINS; i++)
		if ((*reg(addr) & mask) == value)
			return 1;
	return 0;
}

static const char *clock_state = "84 MHz from HSI through the PLL";

/* HSI 16 MHz -> PLL -> 84 MHz, in the order RM0368 6.3 asks: regulator scale and flash wait
 * states before the clock goes up, bus prescalers before the switch. If the PLL does not lock,
 * the core stays on HSI (16 MHz) and the meta record says so. */
static void nucleo_clocks(void)
{
	*reg(RCC + RCC_APB1ENR) |= RCC_APB1ENR_PWREN;
	*reg(PWR_CR) = (*reg(PWR_CR) & ~PWR_CR_VOS_MASK) | PWR_CR_VOS_SCALE2;
	*reg(FLASH_ACR) = FLASH_ACR_2WS_PF_IC_DC;
	/* the new latency must be read back before the switch */
	(void)wait_set(FLASH_ACR, FLASH_ACR_LATENCY_MASK, FLASH_ACR_LATENCY_2WS);
	(void)wait_set(RCC + RCC_CR, RCC_CR_HSIRDY, RCC_CR_HSIRDY);
	*reg(RCC + RCC_CFGR) = RCC_CFGR_PPRE1_DIV2; /* SYSCLK still HSI; AHB /1, APB1 /2, APB2 /1 */
	*reg(RCC + RCC_CR) &= ~RCC_CR_PLLON;
	(void)wait_set(RCC + RCC_CR, RCC_CR_PLLRDY, 0);
	*reg(RCC + RCC_PLLCFGR) = PLLCFGR_84MHZ_FROM_HSI;
	*reg(RCC + RCC_CR) |= RCC_CR_PLLON;
	if (!wait_set(RCC + RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY)) {
		clock_state = "16 MHz HSI: the PLL did not lock (figures in ns are wrong)";
		return;
	}
	*reg(RCC + RCC_CFGR) = RCC_CFGR_PPRE1_DIV2 | RCC_CFGR_SW_PLL;
	if (!wait_set(RCC + RCC_CFGR, RCC_CFGR_SWS_MASK, RCC_CFGR_SWS_PLL))
		clock_state = "unknown: the switch to the PLL did not complete";

	/* USART2 on PA2 (TX) and PA3 (RX): alternate function 7; TIM2. */
	*reg(RCC + RCC_AHB1ENR) |= RCC_AHB1ENR_GPIOAEN;
	*reg(RCC + RCC_APB1ENR) |= RCC_APB1ENR_USART2EN | RCC_APB1ENR_TIM2EN;
	(void)*reg(RCC + RCC_APB1ENR); /* the enable takes two cycles: read it back */
	const uint32_t two = GPIO_2BITS(USART2_TX_PA, 3u) | GPIO_2BITS(USART2_RX_PA, 3u);
	const uint32_t four = GPIO_4BITS(USART2_TX_PA, 0xfu) | GPIO_4BITS(USART2_RX_PA, 0xfu);
	*reg(GPIOA + GPIO_MODER) = (*reg(GPIOA + GPIO_MODER) & ~two) |
	                           GPIO_2BITS(USART2_TX_PA, GPIO_MODE_AF) | GPIO_2BITS(USART2_RX_PA, GPIO_MODE_AF);
	*reg(GPIOA + GPIO_OSPEEDR) = (*reg(GPIOA + GPIO_OSPEEDR) & ~two) | GPIO_2BITS(USART2_TX_PA, GPIO_SPEED_MEDIUM) |
	                             GPIO_2BITS(USART2_RX_PA, GPIO_SPEED_MEDIUM);
	*reg(GPIOA + GPIO_PUPDR) = (*reg(GPIOA + GPIO_PUPDR) & ~two) | GPIO_2BITS(USART2_RX_PA, GPIO_PULL_UP);
	*reg(GPIOA + GPIO_AFRL) = (*reg(GPIOA + GPIO_AFRL) & ~four) | GPIO_4BITS(USART2_TX_PA, USART2_AF) |
	                          GPIO_4BITS(USART2_RX_PA, USART2_AF);
}

static struct stm32_usart usart2 = {
	.con = STM32_USART_CONSOLE("stm32-usart2@0x40004400"),
	.base = 0x40004400, .clock_hz = APB1_HZ, .baud = 115200,
};
static struct stm32_tim tim2 = {.timer = STM32_TIM("stm32-tim2@0x40000000", TIM2_HZ), .base = 0x40000000,
                                .psc = (uint16_t)(2 * APB1_HZ / TIM2_HZ - 1)};
static struct armv7m_systick_alarm watchdog = ARMV7M_SYSTICK_ALARM(CORE_HZ);

static struct bm_kv facts[] = {
	{"core_clock", "84 MHz"},
	{"clock_tree", "HSI 16 MHz, PLL /8 x168 /4; AHB 84, APB1 42, APB2 84 MHz; flash 2 wait states"},
	{0, 0},
};

static void nucleo_init(void)
{
	nucleo_clocks();
	facts[0].value = clock_state;
}

const struct bm_board board_desc = {
	.name = BM_BOARD_NAME,
	.console = &usart2.con,
	.timer = &tim2.timer,
	.alarm = &watchdog.alarm,
	.exit = &arch_semihosting,
	.init = nucleo_init,
	.facts = facts,
};
