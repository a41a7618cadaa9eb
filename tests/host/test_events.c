/* SPDX-License-Identifier: Apache-2.0 */
/* Events against the fake arch's scripted event counters (BM_EVENT_SLOTS 2, BM_EVENTS_LIST
 * "l1d_miss,branch,page_faults": tests/host/CMakeLists.txt): what the meta record says is counted
 * and why not, each ok result's per-iteration figures net of the reads' own counts, a batch under
 * that overhead counted 0 and said (`below`), and the plain batch copy where nothing counts. */
#include <string.h>

#include "bm/harness.h"
#include "bm/out.h"
#include "bm_test.h"
#include "fake_platform.h"

extern int fake_events_on;

static int ok_verify(void)
{
	return 0;
}

/* 3 of event 0 and 1 of event 1 an iteration, beside 100 cycles of work */
BM_BENCHMARK(ev_work, ok_verify)
{
	fake_work(100, 50);
	fake_ev[0] += 3;
	fake_ev[1] += 1;
}
BM_BENCHMARK(ev_empty, ok_verify)
{
}
/* Event 1 counts less than its overhead in a batch: counted 0 and said, never a wrapped huge figure. */
BM_BENCHMARK(ev_under, ok_verify, .max_iters = 1)
{
	fake_work(100, 50);
	fake_ev[1] -= 1; /* (the batch then counts 1, its overhead 2) */
}

static int only(const char *name, void *ctx)
{
	for (const char *const *n = ctx; *n; n++)
		if (strcmp(name, *n) == 0)
			return 1;
	return 0;
}

static const char *run_some(const char *const *names)
{
	fake_reset();
	fake_ev_read_cost = 2;
	fake_ev_snaps = 0;
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 20;
	cfg.select = only;
	cfg.select_ctx = (void *)names;
	BM_CHECK_EQ_U64(bm_run(&cfg), BM_EXIT_PASS);
	return fake_console;
}

/* The result record of `name` (from its start to the end of its line). */
static const char *result_of(const char *console, const char *name)
{
	char key[64] = "{\"type\":\"result\",\"format\":2,\"seq\":";
	const char *p = console;
	while ((p = strstr(p, key)) != NULL) {
		const char *n = strstr(p, "\"name\":\"");
		if (n && strncmp(n + 8, name, strlen(name)) == 0 && n[8 + strlen(name)] == '"')
			return p;
		p++;
	}
	return NULL;
}

static int line_has(const char *line, const char *what)
{
	const char *end = line ? strchr(line, '\n') : NULL;
	const char *at = line ? strstr(line, what) : NULL;
	return at && (!end || at < end);
}

static void counted_exactly(void)
{
	fake_events_on = 1;
	static const char *const names[] = {"ev_work", "ev_empty", NULL};
	const char *c = run_some(names);
	BM_CHECK(strstr(c, "\"events\":{\"counted\":{\"l1d_miss\":{\"source\":\"pmu\",\"raw\":256,\"counter\":\"FAKE0\"},"
	                   "\"branch\":{\"source\":\"pmu\",\"raw\":257,\"counter\":\"FAKE1\"}},"
	                   "\"not_counted\":{\"page_faults\":\"an operating system's event (perf_event_open on host-linux): "
	                   "bare metal has none\"}}") != NULL);
	const char *w = result_of(c, "ev_work"), *e = result_of(c, "ev_empty");
	BM_CHECK(line_has(w, "\"events\":{\"l1d_miss\":{\"mean\":3.000,\"p50\":3.000,\"source\":\"pmu\"},"
	                     "\"branch\":{\"mean\":1.000,\"p50\":1.000,\"source\":\"pmu\"}}"));
	BM_CHECK(line_has(e, "\"events\":{\"l1d_miss\":{\"mean\":0.000,\"p50\":0.000,\"source\":\"pmu\"},"
	                     "\"branch\":{\"mean\":0.000,\"p50\":0.000,\"source\":\"pmu\"}}"));
	BM_CHECK(!line_has(w, "\"below\""));
	BM_CHECK(fake_ev_snaps > 0); /* the batches with event reads ran */
}

static void under_overhead_is_said(void)
{
	fake_events_on = 1;
	static const char *const names[] = {"ev_under", NULL};
	const char *u = result_of(run_some(names), "ev_under");
	BM_CHECK(line_has(u, "\"branch\":{\"mean\":0.000,\"p50\":0.000,\"below\":20,\"source\":\"pmu\"}"));
	BM_CHECK(line_has(u, "\"l1d_miss\":{\"mean\":0.000,\"p50\":0.000,\"source\":\"pmu\"}"));
}

static void nothing_counted(void)
{
	fake_events_on = 0;
	static const char *const names[] = {"ev_work", NULL};
	const char *c = run_some(names);
	BM_CHECK(strstr(c, "\"events\":{\"counted\":{},\"not_counted\":{\"l1d_miss\":\"the fake core counts no events\","
	                   "\"branch\":\"the fake core counts no events\",\"page_faults\":\"an operating system's "
	                   "event (perf_event_open on host-linux): bare metal has none\"}}") != NULL);
	BM_CHECK(!line_has(result_of(c, "ev_work"), "\"events\""));
	BM_CHECK_EQ_U64(fake_ev_snaps, 0); /* the plain batches only: no event read at all */
}

int main(void)
{
	static const struct bm_test_case cases[] = {
		BM_TEST_CASE(counted_exactly), BM_TEST_CASE(under_overhead_is_said), BM_TEST_CASE(nothing_counted),
	};
	return bm_test_main(cases, sizeof cases / sizeof cases[0]);
}
