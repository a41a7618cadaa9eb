/* What the kit sets up of a RISC-V hart that benchmark code (M-mode) can change, kept and put
 * back after every benchmark (bm/port.h, arch_state_restore): the trap vector, the mstatus bits
 * that change how M-mode itself runs (MPRV: its loads and stores as another mode; MXR, SUM, TW),
 * and the counters' inhibit and enable bits. Interrupt enables are the watchdog's (its disarm). */
#include "arch/riscv.h"
#include "bm/out.h"
#include "bm/port.h"

#define MSTATUS_KIT_BITS (MSTATUS_MPRV | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TW)

static struct {
	unsigned long mtvec, mstatus, mcountinhibit, mcounteren;
	uint8_t has_inhibit, has_counteren;
} kit;

void arch_state_save(void)
{
	kit.mtvec = arch_mtvec_read();
	kit.mstatus = arch_mstatus_read() & MSTATUS_KIT_BITS;
	unsigned long v = 0;
	kit.has_inhibit = (uint8_t)BM_PROBE(v = arch_mcountinhibit_read());
	kit.mcountinhibit = v;
	kit.has_counteren = (uint8_t)BM_PROBE(v = arch_mcounteren_read());
	kit.mcounteren = v;
}

const char *arch_state_restore(void)
{
	static char text[192];
	char *p = text, *end = text + sizeof text;
	text[0] = 0;
	unsigned long v = arch_mtvec_read();
	if (v != kit.mtvec) {
		p = bm_state_note(text, p, end, "the trap vector (mtvec)", v, kit.mtvec);
		arch_mtvec_write(kit.mtvec);
	}
	v = arch_mstatus_read() & MSTATUS_KIT_BITS;
	if (v != kit.mstatus) {
		p = bm_state_note(text, p, end, "mstatus's MPRV/SUM/MXR/TW bits", v, kit.mstatus);
		arch_mstatus_clear(v & ~kit.mstatus);
		arch_mstatus_set(kit.mstatus & ~v);
	}
	if (kit.has_inhibit && (v = arch_mcountinhibit_read()) != kit.mcountinhibit) {
		p = bm_state_note(text, p, end, "the counters' inhibit bits (mcountinhibit)", v, kit.mcountinhibit);
		arch_mcountinhibit_write(kit.mcountinhibit);
	}
	if (kit.has_counteren && (v = arch_mcounteren_read()) != kit.mcounteren) {
		p = bm_state_note(text, p, end, "the counters' enables for lower modes (mcounteren)", v, kit.mcounteren);
		arch_mcounteren_write(kit.mcounteren);
	}
	return p == text ? 0 : text;
}
