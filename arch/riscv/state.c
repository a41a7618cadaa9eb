/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit sets up of a RISC-V hart that benchmark code (M-mode) can change, kept and put
 * back after every benchmark (bm/port.h, arch_state_restore): the trap vector, the mstatus bits
 * that change how M-mode itself runs (MPRV: its loads and stores as another mode; MXR, SUM, TW),
 * the counters' inhibit and enable bits, the event slots' selectors (mhpmevent, where the kit counts
 * events), and U-mode's PMP entries 4-7 (the lower ones are locked) (each where the hart has it:
 * its read traps otherwise).
 * Only code in M-mode (a .privileged benchmark) can change any of them. Interrupt enables are the
 * watchdog's (its disarm). */
#include "arch/riscv.h"
#include "bm/event_slots.h"
#include "bm/port.h"

#define MSTATUS_KIT_BITS (MSTATUS_MPRV | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TW)
#define ALL (~(uintptr_t)0)

/* Which CSR an entry is (its arg): a CSR's number can only be an immediate. */
enum { R_MTVEC, R_MSTATUS, R_MCOUNTINHIBIT, R_MCOUNTEREN, R_PMP, R_HPMEVENT3, R_HPMEVENT4, R_HPMEVENT5, R_HPMEVENT6 };

/* U-mode's PMP entries 4-7 as one word (their addresses and configuration bytes folded, each
 * rotated apart: any one changed changes it), so that on hifive1 the copies cost two words, not
 * ten; the kit's values need no copy: arch_pmp_user() programs them again. */
static uintptr_t rotl(uintptr_t v, unsigned n)
{
	return (v << n) | (v >> (8 * sizeof v - n));
}

static uintptr_t pmp_user_word(void)
{
#if __riscv_xlen == 32
	uintptr_t cfg = arch_pmpcfg1_read();
#else
	uintptr_t cfg = arch_pmpcfg0_read() >> 32;
#endif
	return arch_pmpaddr4_read() ^ rotl(arch_pmpaddr5_read(), 7) ^ rotl(arch_pmpaddr6_read(), 14) ^
	       rotl(arch_pmpaddr7_read(), 21) ^ rotl(cfg, 28);
}

static uintptr_t read_csr(const struct bm_state_reg *r)
{
	switch (r->arg) {
	case R_MTVEC: return arch_mtvec_read();
	case R_MSTATUS: return arch_mstatus_read();
	case R_MCOUNTINHIBIT: return arch_mcountinhibit_read();
	case R_PMP: return pmp_user_word();
	case R_HPMEVENT3: return arch_mhpmevent3_read();
	case R_HPMEVENT4: return arch_mhpmevent4_read();
	case R_HPMEVENT5: return arch_mhpmevent5_read();
	case R_HPMEVENT6: return arch_mhpmevent6_read();
	default: return arch_mcounteren_read();
	}
}

static void write_csr(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	switch (r->arg) {
	case R_MTVEC: arch_mtvec_write((unsigned long)kit); break;
	case R_MSTATUS: /* (the kit's bits only: the others are the running state's) */
		arch_mstatus_clear((unsigned long)(now & ~kit));
		arch_mstatus_set((unsigned long)(kit & ~now));
		break;
	case R_MCOUNTINHIBIT: arch_mcountinhibit_write((unsigned long)kit); break;
	case R_PMP: arch_pmp_user(); break;
	case R_HPMEVENT3: arch_mhpmevent3_write((unsigned long)kit); break;
	case R_HPMEVENT4: arch_mhpmevent4_write((unsigned long)kit); break;
	case R_HPMEVENT5: arch_mhpmevent5_write((unsigned long)kit); break;
	case R_HPMEVENT6: arch_mhpmevent6_write((unsigned long)kit); break;
	default: arch_mcounteren_write((unsigned long)kit); break;
	}
}

#define CSR(what, id, mask) BM_STATE_REG(what, read_csr, write_csr, id, mask)
static const struct bm_state_reg regs[] = {
	CSR("the trap vector (mtvec)", R_MTVEC, ALL),
	CSR("how M-mode runs (mstatus MPRV/SUM/MXR/TW)", R_MSTATUS, MSTATUS_KIT_BITS),
	CSR("the counters' inhibit bits (mcountinhibit)", R_MCOUNTINHIBIT, ALL),
	CSR("the counters' enables for lower modes (mcounteren)", R_MCOUNTEREN, ALL),
	CSR("U-mode's memory (PMP entries 4-7)", R_PMP, ALL),
/* (the event slots' selectors: only where the kit counts events, BM_EVENTS) */
#define HPM(n) CSR("the hpm counters' events (mhpmevent" #n ")", R_HPMEVENT##n, ALL),
#if BM_EVENT_SLOTS > 0
	HPM(3)
#endif
#if BM_EVENT_SLOTS > 1
	HPM(4)
#endif
#if BM_EVENT_SLOTS > 2
	HPM(5)
#endif
#if BM_EVENT_SLOTS > 3
	HPM(6)
#endif
};

BM_STATE_ARCH(regs)
