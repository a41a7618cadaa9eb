/* SPDX-License-Identifier: Apache-2.0 */
/* The STM32F4 family (see stm32f4.h): the clock set-up from the board's plan, and the devices
 * on those clocks. Registers from RM0368 (STM32F401) section 6.3 and RM0090 (STM32F405) section
 * 7.3, which agree on everything used here; the order is the manuals': regulator scale and flash
 * wait states before the clock goes up, the bus prescalers before the switch to the PLL. */
#include "stm32f4.h"

#include "bm/out.h"
#include "mmio.h"

#define HSI_HZ 16000000u
#define RCC 0x40023800u
#define RCC_CR 0x00u
#define RCC_PLLCFGR 0x04u
#define RCC_CFGR 0x08u
#define RCC_AHB1ENR 0x30u
#define RCC_APB1ENR 0x40u
#define RCC_CR_HSIRDY (1u << 1)
#define RCC_CR_PLLON (1u << 24)
#define RCC_CR_PLLRDY (1u << 25)
#define RCC_CFGR_SW_PLL 2u
#define RCC_CFGR_SWS_MASK (3u << 2)
#define RCC_CFGR_SWS_HSI (0u << 2)
#define RCC_CFGR_SWS_PLL (2u << 2)
#define RCC_APB1ENR_PWREN (1u << 28)
#define PLLCFGR_M(v) ((v) & 0x3fu)
#define PLLCFGR_N(v) (((v) >> 6) & 0x1ffu)
#define PLLCFGR_P(v) (((((v) >> 16) & 3u) + 1u) * 2u)
#define CFGR_PPRE1(v) (((v) >> 10) & 7u)
#define PWR_CR 0x40007000u
#define PWR_CR_VOS_MASK (3u << 14)
#define FLASH_ACR 0x40023c00u
#define FLASH_ACR_LATENCY_MASK 0xfu
#define RCC_AHB1ENR_GPIOA (1u << 0)
#define RCC_APB1ENR_TIM2 (1u << 0)
#define RCC_APB1ENR_USART2 (1u << 17)
#define GPIOA 0x40020000u
#define GPIO_MODER 0x00u
#define GPIO_OSPEEDR 0x08u
#define GPIO_PUPDR 0x0cu
#define GPIO_AFR 0x20u /* AFRL, then AFRH for pins 8..15 */
#define GPIO_MODE_AF 2u
#define GPIO_SPEED_MEDIUM 1u
#define GPIO_PULL_UP 1u
#define SPINS 1000000u

struct stm32_usart stm32f4_usart2 = {
	.con = STM32_USART_CONSOLE("stm32-usart2@0x40004400"),
	.base = 0x40004400, .clock_hz = 42000000, .baud = 115200,
};
struct stm32_tim stm32f4_tim2 = {.timer = STM32_TIM("stm32-tim2@0x40000000", 1000000), .base = 0x40000000};
struct armv7m_systick_alarm stm32f4_watchdog = ARMV7M_SYSTICK_ALARM(0); /* hz: stm32f4_init's */
char stm32f4_clock_state[128];

/* USART2's pins, routed to it (alternate function 7). */
static const struct pin {
	uintptr_t port;  /* GPIOx base */
	uint8_t pin;     /* 0..15 */
	uint8_t af;      /* the alternate function number */
	uint8_t pull_up; /* 1: pull-up (an RX line) */
} usart2_pins[] = {
	{.port = GPIOA, .pin = 2, .af = 7},              /* PA2: USART2_TX */
	{.port = GPIOA, .pin = 3, .af = 7, .pull_up = 1}, /* PA3: USART2_RX */
};

/* 1 when (reg & mask) == value within SPINS reads: a ready bit that never comes ends the wait. */
static int wait_for(uintptr_t addr, uint32_t mask, uint32_t value)
{
	for (unsigned i = 0; i < SPINS; i++)
		if ((*mmio32(addr) & mask) == value)
			return 1;
	return 0;
}

static void set_field(uintptr_t addr, unsigned shift, unsigned bits, uint32_t value)
{
	uint32_t mask = ((1u << bits) - 1u) << shift;
	*mmio32(addr) = (*mmio32(addr) & ~mask) | (value << shift);
}

/* The devices' clocks on, their pins routed. */
static void devices_on(void)
{
	*mmio32(RCC + RCC_AHB1ENR) |= RCC_AHB1ENR_GPIOA;
	*mmio32(RCC + RCC_APB1ENR) |= RCC_APB1ENR_USART2 | RCC_APB1ENR_TIM2;
	(void)*mmio32(RCC + RCC_APB1ENR); /* the enable takes two cycles: read it back */
	for (unsigned i = 0; i < sizeof usart2_pins / sizeof usart2_pins[0]; i++) {
		const struct pin *p = &usart2_pins[i];
		set_field(p->port + GPIO_MODER, 2 * p->pin, 2, GPIO_MODE_AF);
		set_field(p->port + GPIO_OSPEEDR, 2 * p->pin, 2, GPIO_SPEED_MEDIUM);
		set_field(p->port + GPIO_PUPDR, 2 * p->pin, 2, p->pull_up ? GPIO_PULL_UP : 0u);
		set_field(p->port + GPIO_AFR + 4u * (p->pin / 8u), 4 * (p->pin % 8u), 4, p->af);
	}
}

/* HSI -> PLL; returns SYSCLK in Hz as the switch left it, with the state in words. */
static uint32_t pll_on(const struct stm32f4_plan *plan, const char **why)
{
	*mmio32(RCC + RCC_APB1ENR) |= RCC_APB1ENR_PWREN;
	*mmio32(PWR_CR) = (*mmio32(PWR_CR) & ~PWR_CR_VOS_MASK) | plan->vos;
	*mmio32(FLASH_ACR) = plan->flash_acr;
	/* the new latency must read back before the clock goes up */
	if (!wait_for(FLASH_ACR, FLASH_ACR_LATENCY_MASK, plan->flash_acr & FLASH_ACR_LATENCY_MASK)) {
		*why = "the flash wait states did not take: kept HSI 16 MHz";
		return HSI_HZ;
	}
	(void)wait_for(RCC + RCC_CR, RCC_CR_HSIRDY, RCC_CR_HSIRDY); /* it runs the core: ready */
	*mmio32(RCC + RCC_CFGR) = plan->ppre; /* SYSCLK still HSI */
	*mmio32(RCC + RCC_CR) &= ~RCC_CR_PLLON;
	(void)wait_for(RCC + RCC_CR, RCC_CR_PLLRDY, 0);
	*mmio32(RCC + RCC_PLLCFGR) = plan->pllcfgr;
	*mmio32(RCC + RCC_CR) |= RCC_CR_PLLON;
	if (!wait_for(RCC + RCC_CR, RCC_CR_PLLRDY, RCC_CR_PLLRDY)) {
		*why = "the PLL did not lock: kept HSI 16 MHz";
		return HSI_HZ;
	}
	*mmio32(RCC + RCC_CFGR) = plan->ppre | RCC_CFGR_SW_PLL;
	(void)wait_for(RCC + RCC_CFGR, RCC_CFGR_SWS_MASK, RCC_CFGR_SWS_PLL);
	switch (*mmio32(RCC + RCC_CFGR) & RCC_CFGR_SWS_MASK) { /* what the core runs on now */
	case RCC_CFGR_SWS_PLL:
		*why = "HSI 16 MHz through the PLL";
		return HSI_HZ / PLLCFGR_M(plan->pllcfgr) * PLLCFGR_N(plan->pllcfgr) / PLLCFGR_P(plan->pllcfgr);
	case RCC_CFGR_SWS_HSI:
		*why = "the switch to the PLL did not take: HSI 16 MHz";
		return HSI_HZ;
	default:
		*why = "unknown: the clock switch reports neither HSI nor the PLL";
		return 0;
	}
}

void stm32f4_init(void)
{
	const struct stm32f4_plan *plan = &stm32f4_plan;
	uint32_t ppre1 = CFGR_PPRE1(plan->ppre), apb1_shift = ppre1 < 4 ? 0 : ppre1 - 3;
	uint32_t sysclk, tim_hz;
	const char *why;
	if (*mmio32(RCC + RCC_CR) == 0) {
		sysclk = plan->model_core_hz;
		tim_hz = plan->model_apb1_tim_hz;
		why = sysclk ? "the model's fixed clock (its RCC reads 0, a placeholder: set-up skipped)"
		             : "unknown: the RCC reads 0 (an emulator's placeholder): set-up skipped";
	} else {
		sysclk = pll_on(plan, &why);
		tim_hz = (sysclk >> apb1_shift) << (apb1_shift ? 1 : 0); /* x2 behind a divided APB1 */
	}
	devices_on();
	stm32f4_watchdog.hz = sysclk;
	if (sysclk)
		stm32f4_usart2.clock_hz = sysclk >> apb1_shift;
	char *p = stm32f4_clock_state;
	if (sysclk) {
		p = bm_append_u64(p, sysclk / 1000000u);
		p = bm_append_str(p, " MHz: ");
	}
	p = bm_append_str(p, why);
	/* The timer counts at its declared rate, or is not used: no prescaler gives it exactly. */
	uint32_t hz = (uint32_t)stm32f4_tim2.timer.hz;
	if (hz && tim_hz && tim_hz % hz == 0 && tim_hz / hz <= 65536u) {
		stm32f4_tim2.psc = (uint16_t)(tim_hz / hz - 1u);
	} else {
		stm32f4_tim2.timer.hz = 0;
		bm_append_str(p, tim_hz ? "; no prescaler gives the timer's rate exactly: no timer"
		                        : "; the timer's clock is unknown: no timer");
	}
}
