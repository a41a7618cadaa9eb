/* What the kit sets up of a RISC-V hart that benchmark code (M-mode) can change, kept and put
 * back after every benchmark (bm/port.h, arch_state_restore): the trap vector, the mstatus bits
 * that change how M-mode itself runs (MPRV: its loads and stores as another mode; MXR, SUM, TW),
 * and the counters' inhibit and enable bits. Interrupt enables are the watchdog's (its disarm). */
#include "arch/riscv.h"
#include "bm/port.h"

#define MSTATUS_KIT_BITS (MSTATUS_MPRV | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TW)
#define CHANGED(what) "changed " what " and did not put it back (restored)"

struct kit_state {
	unsigned long mtvec, mstatus, mcountinhibit, mcounteren;
	uint8_t has_inhibit, has_counteren;
};
static struct kit_state kit, kit_copy; /* (the copy sealed: bm/port.h, bm_state_seal) */

void arch_state_save(void)
{
	kit.mtvec = arch_mtvec_read();
	kit.mstatus = arch_mstatus_read() & MSTATUS_KIT_BITS;
	unsigned long v = 0;
	kit.has_inhibit = (uint8_t)BM_PROBE(v = arch_mcountinhibit_read());
	kit.mcountinhibit = v;
	kit.has_counteren = (uint8_t)BM_PROBE(v = arch_mcounteren_read());
	kit.mcounteren = v;
	bm_state_seal(&kit, &kit_copy, sizeof kit);
}

const char *arch_state_restore(void)
{
	const char *first = 0;
	if (!bm_state_intact(&kit, &kit_copy, sizeof kit))
		return bm_state_lost;
	if (arch_mtvec_read() != kit.mtvec) {
		first = CHANGED("the trap vector (mtvec)");
		arch_mtvec_write(kit.mtvec);
	}
	unsigned long v = arch_mstatus_read() & MSTATUS_KIT_BITS;
	if (v != kit.mstatus) {
		first = first ? first : CHANGED("how M-mode runs (mstatus MPRV/SUM/MXR/TW)");
		arch_mstatus_clear(v & ~kit.mstatus);
		arch_mstatus_set(kit.mstatus & ~v);
	}
	if (kit.has_inhibit && arch_mcountinhibit_read() != kit.mcountinhibit) {
		first = first ? first : CHANGED("the counters' inhibit bits (mcountinhibit)");
		arch_mcountinhibit_write(kit.mcountinhibit);
	}
	if (kit.has_counteren && arch_mcounteren_read() != kit.mcounteren) {
		first = first ? first : CHANGED("the counters' enables for lower modes (mcounteren)");
		arch_mcounteren_write(kit.mcounteren);
	}
	return first;
}
