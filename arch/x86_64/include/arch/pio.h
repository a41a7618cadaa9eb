/* SPDX-License-Identifier: Apache-2.0 */
/* x86 port I/O (in/out), shared by the arch (PIT, debug exit) and the port-I/O drivers
 * (the 16550 through arch_pio8, isa-debug-exit), and the PC's legacy ports the arch uses. Cold
 * path only: every port access is slow. */
#ifndef ARCH_X86_64_PIO_H
#define ARCH_X86_64_PIO_H

#include <stdint.h>

/* The 8259 PICs' interrupt masks (a bit set: that line masked). */
#define PIC1_DATA 0x21u
#define PIC2_DATA 0xa1u
#define PIC_MASK_ALL 0xffu

/* The 8254 PIT, channel 2 (its gate and output are on port 0x61, not on an interrupt). */
#define PIT_CH2_DATA 0x42u
#define PIT_COMMAND 0x43u
#define PIT_CMD_CH2_MODE0 0xb0u /* channel 2, low then high byte, mode 0, binary */
#define PORT_61 0x61u           /* system control port B */
#define PORT_61_GATE2 0x01u     /* PIT channel 2 gate */
#define PORT_61_SPEAKER 0x02u   /* speaker data */
#define PORT_61_OUT2 0x20u      /* PIT channel 2 output */

static inline void arch_outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static inline uint8_t arch_inb(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port));
	return v;
}

static inline void arch_outl(uint16_t port, uint32_t v)
{
	__asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port));
}

#endif /* ARCH_X86_64_PIO_H */
