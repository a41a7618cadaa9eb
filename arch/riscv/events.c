/* SPDX-License-Identifier: Apache-2.0 */
/* RISC-V Zihpm events (bm/events.h): the board's event encodings (BM_EVENT_CODES in its
 * board.cmake: QEMU virt's event numbers, the SiFive cores' event classes) programmed into
 * mhpmevent3.. for slots 0.., each counter found by reading it (an absent one traps) and each event
 * by writing mhpmevent and reading it back (an unsupported encoding reads back otherwise); the
 * counters opened to U-mode in mcounteren, where benchmark code reads them. */
#include "arch/riscv.h"
#include "bm/events.h"
#include "bm/out.h"
#include "bm/port.h"

#ifndef BM_EVENT_CODES
#define BM_EVENT_CODES ""
#endif

/* The encoding the board gives `name` ("name=0x..,name=0x.."), or 0: none. */
static unsigned long board_code(const char *name)
{
	const char *p = BM_EVENT_CODES;
	while (*p) {
		const char *n = name;
		while (*n && *p == *n) {
			p++;
			n++;
		}
		int match = *n == '\0' && *p == '=';
		while (*p && *p != '=')
			p++;
		unsigned long v = 0;
		if (*p == '=' && p[1] == '0' && p[2] == 'x')
			for (p += 3; (*p >= '0' && *p <= '9') || (*p >= 'a' && *p <= 'f'); p++)
				v = v * 16 + (unsigned long)(*p <= '9' ? *p - '0' : *p - 'a' + 10);
		if (match)
			return v;
		while (*p && *p != ',')
			p++;
		if (*p == ',')
			p++;
	}
	return 0;
}

#define CSR_RW(n)                                                                         \
	case n - 3: {                                                                     \
		unsigned long v = 0;                                                      \
		if (write)                                                                \
			__asm__ volatile("csrw mhpmevent" #n ", %0" : : "r"(code));       \
		__asm__ volatile("csrr %0, mhpmevent" #n : "=r"(v));                      \
		*back = v;                                                                \
		__asm__ volatile("csrw mhpmcounter" #n ", zero");                         \
		return;                                                                   \
	}
/* Writes (or only reads) mhpmevent<3 + i>, reads it back, zeroes its counter. */
static void hpm(unsigned i, int write, unsigned long code, unsigned long *back)
{
	switch (i) {
		CSR_RW(3)
		CSR_RW(4)
		CSR_RW(5)
		CSR_RW(6)
	}
}

static const char *const counters[] = {"mhpmcounter3", "mhpmcounter4", "mhpmcounter5", "mhpmcounter6"};

void arch_events_setup(struct bm_event *ev, unsigned n)
{
	volatile unsigned long sink = 0;
	/* a core without hpm counters traps on the first (QEMU's sifive_u and sifive_e do) */
	int hpm_ok = BM_PROBE(sink = arch_csr_read(mhpmcounter3));
	(void)sink;
	/* The snapshot reads every slot's counter, counted or not: each must exist, and U-mode may
	 * read them all. */
	unsigned long enable = 0, back = 0;
	unsigned have = 0;
	for (unsigned i = 0; hpm_ok && (int)i < BM_EVENT_SLOTS; i++, have++) {
		hpm_ok = BM_PROBE(hpm(i, 0, 0, &back));
		enable |= 1ul << (3 + i);
	}
	char *few = bm_event_reason_buf(0); /* (then no event has a reason of its own to write) */
	if (!hpm_ok && have) {
		char *p = bm_append_str(few, counters[have - 1]);
		p = bm_append_str(p, " is an illegal instruction: this core has fewer hpm counters than the snapshot's slots (");
		bm_append_str(bm_append_u64(p, BM_EVENT_SLOTS), ")");
	}
	for (unsigned i = 0; i < n; i++) {
		struct bm_event *e = &ev[i];
		if (e->reason) /* (settled by core: an OS's event, or past the slots) */
			continue;
		char *why = bm_event_reason_buf(i), *p = why;
		unsigned long code = board_code(e->name);
		if (!hpm_ok) {
			e->reason = have ? few : "mhpmcounter3 is an illegal instruction: this core implements no hpm counters";
			continue;
		}
		if (!code) {
			e->reason = "the board's data gives no mhpmevent encoding for it (BM_EVENT_CODES in its board.cmake)";
			continue;
		}
		if (!BM_PROBE(hpm(i, 1, code, &back)) || back != code) {
			p = bm_append_str(p, counters[i % 4]);
			p = bm_append_str(p, "'s event: writing ");
			p = bm_append_hex(p, code, 8);
			p = bm_append_str(p, " to mhpmevent reads back ");
			bm_append_hex(p, back, 8);
			e->reason = why;
			continue;
		}
		e->source = "pmu";
		e->raw = (uint32_t)code;
		e->counter = counters[i % 4]; /* (i < BM_EVENT_SLOTS <= 4: the modulo only tells the compiler) */
	}
	/* U-mode reads a counter when mcounteren allows it and, where S-mode exists, scounteren too */
	unsigned long en = 0;
	if (hpm_ok && enable && BM_PROBE(en = arch_csr_read(mcounteren)))
		arch_csr_write(mcounteren, en | enable);
	if (hpm_ok && enable && BM_PROBE(en = arch_csr_read(scounteren)))
		arch_csr_write(scounteren, en | enable);
}
