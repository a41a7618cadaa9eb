/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit sets up of a RISC-V hart that benchmark code (M-mode) can change, kept and put
 * back after every benchmark (bm/port.h, arch_state_restore): the trap vector, the mstatus bits
 * that change how M-mode itself runs (MPRV: its loads and stores as another mode; MXR, SUM, TW),
 * and the counters' inhibit and enable bits (each where the hart has it: its read traps
 * otherwise). Interrupt enables are the watchdog's (its disarm). */
#include "arch/riscv.h"
#include "bm/port.h"

#define MSTATUS_KIT_BITS (MSTATUS_MPRV | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TW)
#define ALL (~(uintptr_t)0)

/* Which CSR an entry is (its arg): a CSR's number can only be an immediate. */
enum { R_MTVEC, R_MSTATUS, R_MCOUNTINHIBIT, R_MCOUNTEREN };

static uintptr_t read_csr(const struct bm_state_reg *r)
{
	switch (r->arg) {
	case R_MTVEC: return arch_mtvec_read();
	case R_MSTATUS: return arch_mstatus_read();
	case R_MCOUNTINHIBIT: return arch_mcountinhibit_read();
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
	default: arch_mcounteren_write((unsigned long)kit); break;
	}
}

#define CSR(what, id, mask) BM_STATE_REG(what, read_csr, write_csr, id, mask)
static const struct bm_state_reg regs[] = {
	CSR("the trap vector (mtvec)", R_MTVEC, ALL),
	CSR("how M-mode runs (mstatus MPRV/SUM/MXR/TW)", R_MSTATUS, MSTATUS_KIT_BITS),
	CSR("the counters' inhibit bits (mcountinhibit)", R_MCOUNTINHIBIT, ALL),
	CSR("the counters' enables for lower modes (mcounteren)", R_MCOUNTEREN, ALL),
};

BM_STATE_ARCH(regs)
