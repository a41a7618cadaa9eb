/* SPDX-License-Identifier: Apache-2.0 */
/* Events on a hosted arch (bm/events.h, docs/events.md): the portable names perf_event_open has,
 * as one group for the run (this thread, pinned), read with one read() in the event snapshots
 * (arch/hosted_events.h). Software events open everywhere; hardware and cache events where the
 * machine shows a PMU, else not counted with the errno perf_event_open gave. Benchmark code can
 * disable or reset the group (ioctl on its descriptors): checked after every benchmark. */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "arch/arch.h" /* (arch/hosted_events.h) */
#include "bm/events.h"
#include "bm/port.h"
#include "runtime.h"

#define CACHE(c, r) (PERF_COUNT_HW_CACHE_##c | PERF_COUNT_HW_CACHE_OP_READ << 8 | PERF_COUNT_HW_CACHE_RESULT_##r << 16)
static const struct {
	const char *name;
	uint32_t type;
	uint32_t config;
	const char *what;    /* the config's name, for the reason when it does not open */
	uint8_t kernel_only; /* the kernel counts it in kernel mode: 0 under exclude_kernel */
} table[] = {
	{"page_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS, "PERF_COUNT_SW_PAGE_FAULTS", 0},
	{"minor_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN, "PERF_COUNT_SW_PAGE_FAULTS_MIN", 0},
	{"major_faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ, "PERF_COUNT_SW_PAGE_FAULTS_MAJ", 0},
	{"context_switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES, "PERF_COUNT_SW_CONTEXT_SWITCHES", 1},
	{"cpu_migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS, "PERF_COUNT_SW_CPU_MIGRATIONS", 1},
	{"task_clock_ns", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, "PERF_COUNT_SW_TASK_CLOCK", 0},
	{"instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, "PERF_COUNT_HW_INSTRUCTIONS", 0},
	{"cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, "PERF_COUNT_HW_CPU_CYCLES", 0},
	{"branch", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_INSTRUCTIONS, "PERF_COUNT_HW_BRANCH_INSTRUCTIONS", 0},
	{"branch_miss", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES, "PERF_COUNT_HW_BRANCH_MISSES", 0},
	{"stall_frontend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_FRONTEND,
	 "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND", 0},
	{"stall_backend", PERF_TYPE_HARDWARE, PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "PERF_COUNT_HW_STALLED_CYCLES_BACKEND",
	 0},
	{"l1d_access", PERF_TYPE_HW_CACHE, CACHE(L1D, ACCESS), "L1D read access", 0},
	{"l1d_miss", PERF_TYPE_HW_CACHE, CACHE(L1D, MISS), "L1D read miss", 0},
	{"l1i_access", PERF_TYPE_HW_CACHE, CACHE(L1I, ACCESS), "L1I read access", 0},
	{"l1i_miss", PERF_TYPE_HW_CACHE, CACHE(L1I, MISS), "L1I read miss", 0},
	{"dtlb_miss", PERF_TYPE_HW_CACHE, CACHE(DTLB, MISS), "DTLB read miss", 0},
	{"itlb_miss", PERF_TYPE_HW_CACHE, CACHE(ITLB, MISS), "ITLB read miss", 0},
};
#define N_TABLE (sizeof table / sizeof *table)

/* The group: fd[0] its leader; value j of a group read (the order of opening) is slot slot_of[j]. */
static int fd[BM_EVENTS_MAX];
static unsigned n_fd, slot_of[BM_EVENTS_MAX];
char arch_host_events_fact[200];
/* Each value at the last read, and whether one read lower than that since the group was checked
 * (perf counts only go up: the group was reset, PERF_EVENT_IOC_RESET). */
static uint64_t last_read[BM_EVENTS_MAX];
static uint8_t went_back;

/* kernel.perf_event_paranoid (-99: unreadable). */
static int perf_paranoid(void)
{
	int f = open("/proc/sys/kernel/perf_event_paranoid", O_RDONLY);
	char b[16] = {0};
	if (f < 0)
		return -99;
	ssize_t n = read(f, b, sizeof b - 1);
	close(f);
	return n > 0 ? atoi(b) : -99;
}

/* An attribute for this thread's counter of (type, config): the hypervisor excluded, the kernel
 * where exclude_kernel. */
static void perf_attr(struct perf_event_attr *a, uint32_t type, uint64_t config, int exclude_kernel)
{
	memset(a, 0, sizeof *a);
	a->size = sizeof *a;
	a->type = type;
	a->config = config;
	a->exclude_kernel = exclude_kernel != 0;
	a->exclude_hv = 1;
}

/* perf_event_open(2) for this thread on any CPU, in group_fd's group (-1: none), close-on-exec. */
static int perf_open(struct perf_event_attr *a, int group_fd)
{
	return (int)syscall(SYS_perf_event_open, a, 0, -1, group_fd, PERF_FLAG_FD_CLOEXEC);
}

static const char *type_name(uint32_t type)
{
	return type == PERF_TYPE_SOFTWARE ? "PERF_TYPE_SOFTWARE"
	       : type == PERF_TYPE_HARDWARE ? "PERF_TYPE_HARDWARE"
	                                    : "PERF_TYPE_HW_CACHE";
}

/* What an errno of perf_event_open means for an event. */
static const char *errno_meaning(int err, uint32_t type)
{
	switch (err) {
	case ENOENT:
		return type == PERF_TYPE_SOFTWARE ? "this kernel has no such event" : "no hardware PMU visible here";
	case EOPNOTSUPP:
		return "the PMU cannot count it";
	case ENODEV:
		return "no such PMU on this machine";
	case EACCES:
	case EPERM:
		return "kernel.perf_event_paranoid forbids it";
	case ENOSPC:
		return "no counter left on the PMU";
	case EINVAL:
		return "the kernel rejects this event";
	default:
		return "perf_event_open(2) lists the causes";
	}
}

static void close_group(void)
{
	for (unsigned j = 0; j < n_fd; j++) {
		close(fd[j]);
		last_read[j] = 0;
	}
	n_fd = 0;
	went_back = 0;
}

/* Opens event k of the table as a member of the group (or its leader, the first). */
static int open_one(unsigned k, int exclude_kernel)
{
	struct perf_event_attr a;
	perf_attr(&a, table[k].type, table[k].config, exclude_kernel);
	a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_TOTAL_TIME_ENABLED; /* (the leader's: see arch_host_events_state) */
	/* The leader starts disabled and pinned: the whole group counts from one enable, and a group
	 * the PMU cannot hold is put in error state (reads return 0 bytes) rather than multiplexed
	 * (counts scaled from part of the time: not the batch's counts). */
	a.disabled = n_fd == 0;
	a.pinned = n_fd == 0;
	return perf_open(&a, n_fd ? fd[0] : -1);
}

/* One read of the group (its values, and the ns it has been enabled); 1 when it gave every value. */
static int read_group(uint64_t *v, uint64_t *enabled_ns)
{
	uint64_t buf[2 + BM_EVENTS_MAX];
	ssize_t want = (ssize_t)((2 + n_fd) * sizeof *buf);
	if (read(fd[0], buf, (size_t)want) != want || buf[0] != n_fd)
		return 0;
	*enabled_ns = buf[1];
	for (unsigned j = 0; j < n_fd; j++) {
		v[j] = buf[2 + j];
		went_back |= v[j] < last_read[j];
		last_read[j] = v[j];
	}
	return 1;
}

/* Opens the group for events 0..n-1 (hardware ones only when hw), each a counted event or a reason;
 * those core settled (bit i of `settled`) stay as they are. */
static void open_group(struct bm_event *ev, unsigned n, unsigned settled, int exclude_kernel, int paranoid, int hw)
{
	close_group();
	for (unsigned i = 0; i < n; i++) {
		struct bm_event *e = &ev[i];
		if (settled >> i & 1)
			continue;
		char *why = bm_event_reason_buf(i);
		unsigned k = 0;
		while (k < N_TABLE && !bm_event_name_is(e->name, table[k].name))
			k++;
		int was_counted = e->source != 0;
		e->source = 0;
		e->counter = 0;
		if (k == N_TABLE) {
			e->reason = bm_event_name_is(e->name, "sw_incr") ? "an Arm PMU event (software increment): Linux has no such event"
			            : (e->name[0] == 'l' && e->name[1] == '2')
			                    ? "perf has no generic L2 event (PERF_COUNT_HW_CACHE_LL is the last level, not L2)"
			                    : "perf has no generic event for it";
			continue;
		}
		if (table[k].type != PERF_TYPE_SOFTWARE && !hw) { /* (one that did not open keeps its reason) */
			if (was_counted)
				e->reason = "opened, but the PMU could not count the group (the pinned group was in error state)";
			continue;
		}
		if (exclude_kernel && table[k].kernel_only) {
			snprintf(why, BM_EVENT_REASON_BYTES,
			         "counted in kernel mode, and kernel.perf_event_paranoid=%d allows user mode only", paranoid);
			e->reason = why;
			continue;
		}
		int f = open_one(k, exclude_kernel);
		if (f < 0) {
			int err = errno;
			const char *en = strerrorname_np(err);
			snprintf(why, BM_EVENT_REASON_BYTES, "perf_event_open(%s, %s) failed: %s (%s)", type_name(table[k].type),
			         table[k].what, en ? en : "?", errno_meaning(err, table[k].type));
			e->reason = why;
			continue;
		}
		slot_of[n_fd] = i;
		fd[n_fd++] = f;
		e->source = "perf";
		e->perf_type = table[k].type;
		e->raw = table[k].config;
		e->reason = 0;
	}
}

/* Called at every run's bring-up (bm_run; --repetitions runs it again): the group is opened anew. */
void arch_events_setup(struct bm_event *ev, unsigned n)
{
	int paranoid = perf_paranoid();
	/* Kernel mode too where allowed (context switches and migrations are counted there); else
	 * user mode only, as kernel.perf_event_paranoid >= 2 requires of an unprivileged process. */
	struct perf_event_attr probe;
	perf_attr(&probe, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK, 0);
	int f = perf_open(&probe, -1);
	int exclude_kernel = f < 0 && (errno == EACCES || errno == EPERM);
	if (f >= 0)
		close(f);
	unsigned settled = 0; /* (by core: past the snapshot's slots) */
	for (unsigned i = 0; i < n; i++)
		settled |= (unsigned)(ev[i].reason != 0) << i;
	open_group(ev, n, settled, exclude_kernel, paranoid, 1);
	uint64_t v[BM_EVENTS_MAX], enabled_ns;
	int held = 1;
	if (n_fd) {
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		held = read_group(v, &enabled_ns);
	}
	if (!held) { /* the PMU could not hold the hardware events with the others: software ones only */
		open_group(ev, n, settled, exclude_kernel, paranoid, 0);
		if (n_fd)
			ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	}
	snprintf(arch_host_events_fact, sizeof arch_host_events_fact,
	         "%u event(s) in one perf_event_open group for the run (this thread, pinned), counting %s", n_fd,
	         exclude_kernel ? "user mode only (exclude_kernel and exclude_hv: kernel.perf_event_paranoid forbids more)"
	                        : "user and kernel mode (exclude_hv only)");
}

/* The event snapshot's read: one read() of the group, each value into its event's slot; a slot
 * whose event did not open reads 0. A read that fails (the pinned group fell into error state, a
 * benchmark closed the descriptor) would leave figures that are not the batch's: the run ends. */
void arch_host_events_read(uint64_t *slots)
{
	uint64_t v[BM_EVENTS_MAX], enabled_ns;
	for (int i = 0; i < BM_EVENT_SLOTS; i++)
		slots[i] = 0;
	if (!read_group(v, &enabled_ns)) {
		bm_fatal_abort((const char *const[]){"the perf_event_open group could not be read (the PMU dropped it, or its "
		                                      "descriptor was closed): no event figure can be trusted",
		                                      0});
	}
	for (unsigned j = 0; j < n_fd; j++)
		slots[slot_of[j]] = v[j];
}

/* The group as the kit set it up (arch/hosted/state.c, after every benchmark): 0, or bit 0 when it
 * no longer counts (disabled: the time it has been enabled stands still between two reads), bit 1
 * when a count went back since the last check (reset), bit 2 when it cannot be read (its
 * descriptor closed: the next snapshot's read ends the run). No group: 0. */
uintptr_t arch_host_events_state(const struct bm_state_reg *r)
{
	(void)r;
	uint64_t v[BM_EVENTS_MAX], t0 = 0, t1 = 0;
	if (!n_fd)
		return 0;
	if (!read_group(v, &t0) || !read_group(v, &t1))
		return 4;
	return (uintptr_t)(t1 == t0) | (uintptr_t)went_back << 1;
}

/* The group enabled again (every member: PERF_IOC_FLAG_GROUP), and counted on from where it
 * stands: a reset spoils only the batches across it, the benchmark's own. */
void arch_host_events_state_put(const struct bm_state_reg *r, uintptr_t kit, uintptr_t now)
{
	(void)r;
	(void)kit;
	(void)now;
	if (n_fd)
		ioctl(fd[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
	went_back = 0;
}
