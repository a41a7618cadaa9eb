/* SPDX-License-Identifier: Apache-2.0 */
/* What the kit sets up of a RISC-V hart that benchmark code (M-mode) can change, kept and put
 * back after every benchmark (bm/port.h, arch_state_restore): the trap vector, the mstatus bits
 * that change how M-mode itself runs (MPRV: its loads and stores as another mode; MXR, SUM, TW),
 * the counters' inhibit and enable bits and the hpm counters' event selectors, and U-mode's PMP
 * entries 4-7 (the lower ones are locked) (each where the hart has it: its read traps otherwise).
 * Only code in M-mode (a .privileged benchmark) can change any of them. Interrupt enables are the
 * watchdog's (its disarm). */
#include "arch/riscv.h"
#include "bm/port.h"

#define MSTATUS_KIT_BITS (MSTATUS_MPRV | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TW)
#define ALL (~(uintptr_t)0)

/* Which CSR an entry is (its arg): a CSR's number can only be an immediate. */
enum { R_MTVEC, R_MSTATUS, R_MCOUNTINHIBIT, R_MCOUNTEREN, R_PMPADDR4, R_PMPADDR5, R_PMPADDR6, R_PMPADDR7,
       R_PMPCFG, R_HPMEVENT3, R_HPMEVENT4, R_HPMEVENT5, R_HPMEVENT6 };

/* U-mode's PMP entries' configuration bytes: pmpcfg1 on RV32; on RV64 pmpcfg0's upper half. */
#if __riscv_xlen == 32
#define PMPCFG_USER_READ() arch_pmpcfg1_read()
#define PMPCFG_USER_WRITE(v) arch_pmpcfg1_write(v)
#define PMPCFG_USER_MASK ALL
#else
#define PMPCFG_USER_READ() arch_pmpcfg0_read()
#define PMPCFG_USER_WRITE(v) arch_pmpcfg0_write(v) /* (the locked entries' bytes ignore the write) */
#define PMPCFG_USER_MASK (ALL << 32)
#endif

static uintptr_t read_csr(const struct bm_state_reg *r)
{
	switch (r->arg) {
	case R_MTVEC: return arch_mtvec_read();
	case R_MSTATUS: return arch_mstatus_read();
	case R_MCOUNTINHIBIT: return arch_mcountinhibit_read();
	case R_PMPADDR4: return arch_pmpaddr4_read();
	case R_PMPADDR5: return arch_pmpaddr5_read();
	case R_PMPADDR6: return arch_pmpaddr6_read();
	case R_PMPADDR7: return arch_pmpaddr7_read();
	case R_PMPCFG: return PMPCFG_USER_READ();
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
	case R_PMPADDR4: arch_pmpaddr4_write((unsigned long)kit); break;
	case R_PMPADDR5: arch_pmpaddr5_write((unsigned long)kit); break;
	case R_PMPADDR6: arch_pmpaddr6_write((unsigned long)kit); break;
	case R_PMPADDR7: arch_pmpaddr7_write((unsigned long)kit); break;
	case R_PMPCFG: PMPCFG_USER_WRITE((unsigned long)kit); break;
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
	CSR("U-mode's memory (PMP entries 4-7: pmpaddr4)", R_PMPADDR4, ALL),
	CSR("U-mode's memory (PMP entries 4-7: pmpaddr5)", R_PMPADDR5, ALL),
	CSR("U-mode's memory (PMP entries 4-7: pmpaddr6)", R_PMPADDR6, ALL),
	CSR("U-mode's memory (PMP entries 4-7: pmpaddr7)", R_PMPADDR7, ALL),
	CSR("U-mode's memory (PMP entries 4-7: their pmpcfg bytes)", R_PMPCFG, PMPCFG_USER_MASK),
	CSR("the hpm counters' events (mhpmevent3)", R_HPMEVENT3, ALL),
	CSR("the hpm counters' events (mhpmevent4)", R_HPMEVENT4, ALL),
	CSR("the hpm counters' events (mhpmevent5)", R_HPMEVENT5, ALL),
	CSR("the hpm counters' events (mhpmevent6)", R_HPMEVENT6, ALL),
};

BM_STATE_ARCH(regs)
