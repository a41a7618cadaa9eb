/* What an architecture tells the meta record about itself after probing its counters.
 * Filled by arch_get_info(); read only by the report code (cold path). */
#ifndef BM_ARCH_INFO_H
#define BM_ARCH_INFO_H

#include <stdint.h>

struct bm_kv {
	const char *key;   /** meta-record key (lowercase, [a-z0-9_]) */
	const char *value; /** its value, printed as a JSON string */
};

struct arch_info {
	/** ISA as built, e.g. "rv64imac". */
	const char *isa;
	/** Source of the cycles figures, e.g. "cycle (rdcycle)"; says so when it is a fallback. */
	const char *cycle_counter;
	/** Unit of the cycles figures when they are not core cycles (e.g. "tsc_ticks": the x86
	 *  TSC counts nominal cycles); NULL means "cycles". */
	const char *cycle_unit;
	/** Source of instructions retired, or NULL when the core cannot count them. */
	const char *instret_counter;
	/** Further facts for the meta record (counter enabling, privilege level, caches...). */
	const struct bm_kv *facts;
	unsigned n_facts;
};

void arch_init(void);
const struct arch_info *arch_get_info(void);
/* Optional (weak in core): core cycles per counter tick, in ppm, measured now; an arch whose
 * counter is not the core clock (x86 TSC) provides it, and results then carry core cycles too. */
uint32_t arch_core_per_tick_ppm(void) __attribute__((weak));

static inline const char *arch_cycle_unit(const struct arch_info *ai)
{
	return ai->cycle_unit ? ai->cycle_unit : "cycles";
}

#endif /* BM_ARCH_INFO_H */
