/* SPDX-License-Identifier: Apache-2.0 */
/* Events beside cycles and instructions (bm/events.h, docs/events.md): the names BM_EVENTS asked
 * for, what the arch counts of them, each slot's statistics (net of its read overhead, as cycles)
 * and their figures and facts in the records. Nothing here runs when BM_EVENTS is empty. */
#include "bm/build_info.h"
#include "bm/events.h"
#include "bm/out.h"
#include "bm/record.h"
#include "run/run.h"

#ifndef BM_EVENTS_LIST
#define BM_EVENTS_LIST ""
#endif
#ifndef BM_EVENTS_N
#define BM_EVENTS_N 0 /* how many names BM_EVENTS_LIST holds (cmake/BaremarkEvents.cmake) */
#endif

/* For a board's memory.ld: the event slots' readings make the kit's frames deeper. */
BM_LINKER_VALUE(__bm_event_slots, BM_EVENT_SLOTS)

/* The run's events: what BM_EVENTS asked for, in its order; slot i of the snapshot is event i
 * (i < BM_EVENT_SLOTS). live: 1 when at least one slot counts, so the batches with event reads
 * (bm_bench.batch_ev) are the ones run. */
struct bm_events {
	unsigned n;
	int live;
	struct bm_event ev[BM_EVENTS_MAX];
};

/* 1 in arch/arch.h: the arch counts the operating system's events (a hosted one); bare metal has
 * none to count. */
#ifndef ARCH_COUNTS_OS_EVENTS
#define ARCH_COUNTS_OS_EVENTS 0
#endif

#if BM_EVENTS_N
static struct bm_events events;
static char names[sizeof BM_EVENTS_LIST];

#define EV_STR_(x) #x
#define EV_STR(x) EV_STR_(x)
/* What core says of an event before it asks the arch, which leaves such an event as it is: an
 * operating system's event where there is no operating system, and one past the snapshot's slots
 * (on an arch with slots: one without says itself why it counts nothing). */
static const char *settled(const char *name, unsigned i)
{
	const char *os = ARCH_COUNTS_OS_EVENTS ? 0 : bm_event_os_reason(name);
	if (os)
		return os;
	if (BM_EVENT_SLOTS && (int)i >= BM_EVENT_SLOTS)
		return "more events than the snapshot's slots (BM_EVENT_SLOTS " EV_STR(BM_EVENT_SLOTS) ")";
	return 0;
}

void bm_events_init(void)
{
	const char *list = BM_EVENTS_LIST;
	unsigned n = 0;
	events = (struct bm_events){0}; /* (a hosted runtime runs the kit more than once) */
	for (size_t i = 0, start = 0; i < sizeof names; i++) {
		names[i] = list[i] == ',' ? '\0' : list[i];
		if (names[i] == '\0') {
			if (i > start && n < BM_EVENTS_MAX)
				events.ev[n++].name = names + start;
			start = i + 1;
		}
	}
	events.n = n;
	for (unsigned i = 0; i < n; i++)
		events.ev[i].reason = settled(events.ev[i].name, i);
	arch_events_setup(events.ev, n);
	for (unsigned i = 0; i < n; i++) {
		struct bm_event *e = &events.ev[i];
		if (e->source && (int)i >= BM_EVENT_SLOTS) /* (an arch's mistake: never a figure from no slot) */
			e->source = 0;
		if (!e->source && !e->reason)
			e->reason = "the arch gave no reason";
		events.live |= e->source != 0;
	}
}

char *bm_event_reason_buf(unsigned i)
{
	static char buf[BM_EVENTS_MAX][BM_EVENT_REASON_BYTES];
	return buf[i < BM_EVENTS_MAX ? i : 0];
}
#else
/* None asked for: nothing in RAM (a 16 KiB board keeps every byte), no arch code linked. */
static const struct bm_events events;

void bm_events_init(void)
{
}

char *bm_event_reason_buf(unsigned i)
{
	(void)i;
	return 0; /* (only arch_events_setup asks, and nothing calls it) */
}
#endif

int bm_event_name_is(const char *name, const char *want)
{
	while (*name && *name == *want) {
		name++;
		want++;
	}
	return *name == *want;
}

const char *bm_event_os_reason(const char *name)
{
#define EV_OS(name_, os_) os_ ? name_ : 0,
	static const char *const os[] = {BM_EVENT_LIST(EV_OS)}; /* (bm/shared.h: NULL but the OS's) */
#undef EV_OS
	for (unsigned i = 0; i < sizeof os / sizeof *os; i++)
		if (os[i] && bm_event_name_is(name, os[i]))
			return "an operating system's event (perf_event_open on host-linux): bare metal has none";
	return 0;
}


#if BM_EVENT_SLOTS
int bm_events_live(void)
{
	return events.live;
}

void bm_events_begin(struct bm_kit_state *kit, const struct bm_overhead *oh)
{
	kit->ev_live = (uint32_t)events.live;
	for (int i = 0; i < BM_EVENT_SLOTS; i++) {
		bm_stats_init(&kit->ev[i]);
		kit->ev_oh[i] = oh->ev[i];
		kit->ev_below[i] = 0;
	}
}

void bm_events_add(struct bm_kit_state *kit, const struct bm_delta *d, uint32_t r)
{
	if (!kit->ev_live)
		return;
	for (int i = 0; i < BM_EVENT_SLOTS; i++) {
		uint64_t v = d->ev[i] - kit->ev_oh[i];
		if (d->ev[i] < kit->ev_oh[i]) {
			v = 0;
			kit->ev_below[i] += r;
		}
		bm_stats_add_n(&kit->ev[i], v, r);
	}
}

/* Under deterministic QEMU the PMU's instructions and cycles count what the kit's own counters do,
 * exactly: a slot's sum over the samples other than the kit's figure is a counter the benchmark
 * wrote (EL0 may, PMUSERENR.EN; M-mode code may) or reprogrammed. */
static const char *slot_wrong(const struct bm_event *e, const struct bm_stats_report *rep,
                              const struct bm_bench_result *res)
{
	const struct arch_info *ai = arch_get_info();
	if (!bm_build_info.icount || !ai->icount_cycles_are_insns || !e->counter)
		return 0;
	if (bm_event_name_is(e->name, "instructions") && bm_u128_cmp(rep->sum, res->instret_sum) != 0)
		return "its instructions event counter disagreed with the kit's instruction counter over the samples "
		       "(under -icount both count every instruction once): written by the benchmark?";
	if (bm_event_name_is(e->name, "cycles") && bm_u128_cmp(rep->sum, res->rep.sum) != 0)
		return "its cycles event counter disagreed with the kit's cycle counter over the samples (under -icount "
		       "both count every instruction once): written by the benchmark?";
	return 0;
}

void bm_events_summarize(const struct bm_kit_state *kit, struct bm_bench_result *res)
{
	res->ev_wrong = 0;
	for (int i = 0; i < BM_EVENT_SLOTS; i++) {
		if (!kit->ev_live)
			break;
		struct bm_stats_report rep;
		bm_stats_report(&kit->ev[i], res->iters, &rep);
		res->ev[i] = (struct bm_event_fig){rep.mean_milli, rep.p50.value_milli, rep.p50.bound_ppm, kit->ev_below[i]};
		if (!res->ev_wrong && i < (int)events.n)
			res->ev_wrong = slot_wrong(&events.ev[i], &rep, res);
	}
}
#endif

/* The meta record's "events": what is counted, from where, and why the others are not. */
void bm_events_record_meta(struct bm_record *r)
{
	if (!events.n)
		return;
	bm_rec_obj_begin(r, "events");
	bm_rec_obj_begin(r, "counted");
	for (unsigned i = 0; i < events.n; i++) {
		const struct bm_event *e = &events.ev[i];
		if (!e->source)
			continue;
		bm_rec_obj_begin(r, e->name);
		bm_rec_str(r, "source", e->source);
		if (e->counter) {
			bm_rec_u64(r, "raw", e->raw);
			bm_rec_str(r, "counter", e->counter);
		} else {
			bm_rec_u64(r, "type", e->perf_type);
			bm_rec_u64(r, "config", e->raw);
		}
		bm_rec_obj_end(r);
	}
	bm_rec_obj_end(r);
	bm_rec_obj_begin(r, "not_counted");
	for (unsigned i = 0; i < events.n; i++)
		if (!events.ev[i].source)
			bm_rec_str(r, events.ev[i].name, events.ev[i].reason);
	bm_rec_obj_end(r);
	bm_rec_obj_end(r);
}

/* An ok result's "events": per counted event, its per-iteration mean and median. */
void bm_events_record_result(struct bm_record *r, const struct bm_bench_result *res)
{
#if BM_EVENT_SLOTS
	if (!events.live || res->status != BM_ST_OK)
		return;
	bm_rec_obj_begin(r, "events");
	for (int i = 0; i < BM_EVENT_SLOTS && i < (int)events.n; i++) {
		const struct bm_event *e = &events.ev[i];
		if (!e->source)
			continue;
		bm_rec_obj_begin(r, e->name);
		bm_rec_milli128(r, "mean", res->ev[i].mean_milli);
		bm_rec_milli128(r, "p50", res->ev[i].p50_milli);
		if (res->ev[i].p50_bound_ppm)
			bm_rec_u64(r, "p50_bound_ppm", res->ev[i].p50_bound_ppm);
		if (res->ev[i].below)
			bm_rec_u64(r, "below", res->ev[i].below);
		bm_rec_str(r, "source", e->source);
		bm_rec_obj_end(r);
	}
	bm_rec_obj_end(r);
#else
	(void)r;
	(void)res;
#endif
}
