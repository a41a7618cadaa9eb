/* Probing optional hardware from arch code: run one instruction that may not exist (a CSR, a
 * system register) and learn whether it trapped, instead of ending the run. The arch's trap
 * handler, seeing bm_probe_active and an undefined-instruction cause, sets bm_probe_faulted and
 * resumes after the 4-byte instruction. Cold path only. */
#ifndef BM_PROBE_H
#define BM_PROBE_H

/* Defined once per arch (in its arch.c), used by its trap handler. */
extern volatile int bm_probe_active;
extern volatile int bm_probe_faulted;

/* Evaluates to 1 when `stmt` ran without trapping. The barriers keep the statement between the
 * flag writes. */
#define BM_PROBE(stmt)                                                    \
	({                                                                \
		bm_probe_faulted = 0;                                     \
		bm_probe_active = 1;                                      \
		__asm__ volatile("" : : : "memory");                      \
		stmt;                                                     \
		__asm__ volatile("" : : : "memory");                      \
		bm_probe_active = 0;                                      \
		!bm_probe_faulted;                                        \
	})

#endif /* BM_PROBE_H */
