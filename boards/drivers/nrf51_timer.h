/* SPDX-License-Identifier: Apache-2.0 */
/* Nordic nRF51 TIMER (TIMER0..2) as the board timer: 32-bit mode, counting HFCLK (16 MHz) divided
 * by 2^prescaler, read by a CAPTURE task into CC[3], extended to 64 bits in software
 * (timer32_ext.h). The rate is 16 MHz >> prescaler. */
#ifndef DRIVERS_NRF51_TIMER_H
#define DRIVERS_NRF51_TIMER_H

#include "bm/port.h"
#include "timer32_ext.h"

struct nrf51_timer {
	struct bm_timer timer;  /** the device core sees; hz = 16000000 >> prescaler */
	uintptr_t base;         /** MMIO base address (TIMER0: 0x40008000) */
	uint8_t prescaler;      /** 0..9 */
	struct timer32_ext ext; /** the software high word (state: the instance is not const) */
};

void nrf51_timer_init(struct bm_timer *t);
uint64_t nrf51_timer_read(struct bm_timer *t);

#define NRF51_TIMER(name_, prescaler_)                                                     \
	{.name = (name_), .init = nrf51_timer_init, .read = nrf51_timer_read,              \
	 .hz = 16000000u >> (prescaler_)}

#endif
