/* SPDX-License-Identifier: Apache-2.0 */
/* The ARMv6-M instruction decoder: which address a faulting load or store used, and its size
 * (v6m_access_fault below). Included by trap.c only, for the reason fault_decode.h gives. */
#ifndef ARCH_ARMV7M_V6M_DECODE_H
#define ARCH_ARMV7M_V6M_DECODE_H

#include <stdint.h>

#include "bm/out.h"
#include "bm/port.h"
#include "fault_decode.h"
#include "internal.h"

#if !MAINLINE
static uint32_t reg_value(unsigned n, const struct frame *fr, const struct saved_regs *regs, uint32_t sp);

/* ARMv6-M names no cause, but the faulting instruction does: for a 16-bit load or store (the only
 * kind ARMv6-M has), the address it used and its size tell an unaligned access (which this
 * profile never allows) from a bus error (nothing answers there). Called for HardFaults with a
 * readable frame whose PC is in the code; sp is the SP before the exception. */
static void v6m_access_fault(struct bm_fault *f, const struct frame *fr, const struct saved_regs *regs, uint32_t sp)
{
	if (!pc_in_code(fr->pc))
		return;
	uint16_t hw = *(const volatile uint16_t *)(uintptr_t)fr->pc;
	uint32_t addr, size;
	int load;
	unsigned rn = (hw >> 3) & 7u, imm5 = (hw >> 6) & 31u;
	if ((hw & 0xf800u) == 0x4800u) { /* LDR (literal) */
		addr = ((fr->pc + 4u) & ~3u) + (hw & 0xffu) * 4u, size = 4, load = 1;
	} else if ((hw & 0xf000u) == 0x5000u) { /* register offset: STR STRH STRB LDRSB LDR LDRH LDRB LDRSH */
		static const uint8_t sizes[8] = {4, 2, 1, 1, 4, 2, 1, 2};
		unsigned op = (hw >> 9) & 7u;
		addr = reg_value(rn, fr, regs, sp) + reg_value((hw >> 6) & 7u, fr, regs, sp);
		size = sizes[op], load = op >= 3;
	} else if ((hw & 0xe000u) == 0x6000u) { /* STR/LDR, STRB/LDRB (immediate) */
		size = (hw & 0x1000u) ? 1 : 4;
		addr = reg_value(rn, fr, regs, sp) + imm5 * size, load = (hw >> 11) & 1u;
	} else if ((hw & 0xf000u) == 0x8000u) { /* STRH/LDRH (immediate) */
		addr = reg_value(rn, fr, regs, sp) + imm5 * 2u, size = 2, load = (hw >> 11) & 1u;
	} else if ((hw & 0xf000u) == 0x9000u) { /* STR/LDR (SP-relative) */
		addr = sp + (hw & 0xffu) * 4u, size = 4, load = (hw >> 11) & 1u;
	} else if ((hw & 0xf000u) == 0xc000u) { /* STM/LDM */
		addr = reg_value((hw >> 8) & 7u, fr, regs, sp), size = 4, load = (hw >> 11) & 1u;
	} else if ((hw & 0xfe00u) == 0xb400u) { /* PUSH */
		unsigned n = 0;
		for (unsigned bit = 0; bit < 9; bit++)
			n += (hw >> bit) & 1u;
		addr = sp - 4u * n, size = 4, load = 0;
	} else if ((hw & 0xfe00u) == 0xbc00u) { /* POP */
		addr = sp, size = 4, load = 1;
	} else {
		return;
	}
	char *p = append(cause_buf, addr % size ? "HardFault: unaligned " : "HardFault: bus error on a ");
	char num[BM_FMT_U64_MAX];
	bm_fmt_u64(num, size);
	p = append(p, num);
	p = append(p, load ? "-byte load" : "-byte store");
	append(p, addr % size ? " (ARMv6-M allows none)" : " (nothing answers at its address)");
	f->cause = cause_buf;
	f->has_addr = 1;
	f->addr = addr;
}

static uint32_t reg_value(unsigned n, const struct frame *fr, const struct saved_regs *regs, uint32_t sp)
{
	switch (n) {
	case 0: return fr->r0;
	case 1: return fr->r1;
	case 2: return fr->r2;
	case 3: return fr->r3;
	case 4: return regs->r4;
	case 5: return regs->r5;
	case 6: return regs->r6;
	case 7: return regs->r7;
	case 8: return regs->r8;
	case 9: return regs->r9;
	case 10: return regs->r10;
	case 11: return regs->r11;
	case 12: return fr->r12;
	case 13: return sp;
	case 14: return fr->lr;
	default: return fr->pc + 4u;
	}
}
#endif

#endif /* ARCH_ARMV7M_V6M_DECODE_H */
