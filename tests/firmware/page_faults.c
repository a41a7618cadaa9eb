/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image for host-linux's perf events (tests/qemu/host-events): a body that touches
 * FRESH_PAGES pages of memory the kernel has just taken back (madvise MADV_DONTNEED), so every
 * iteration takes exactly that many page faults, next to the kit's calibration benchmarks (empty:
 * no fault); and benchmarks that disable or reset the kit's perf group, each followed by one that
 * faults in fresh pages again. Hosted only: it asks the OS for its memory. */
#include <dirent.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bm/bench.h"

/* (tests/qemu/host-events expects this many faults per iteration of fresh_pages) */
#define FRESH_PAGES 16u

static volatile unsigned char *region;
static size_t page_bytes;
static int madvise_failed;

static int map_region(void)
{
	page_bytes = (size_t)sysconf(_SC_PAGESIZE);
	void *p = mmap(0, FRESH_PAGES * page_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	region = p;
	madvise_failed = 0;
	return 0;
}

static void unmap_region(void)
{
	munmap((void *)region, FRESH_PAGES * page_bytes);
}

/* Right when every madvise worked and the pages read as the kernel's zero pages again. */
static int pages_fresh(void)
{
	unsigned sum = 0;
	for (unsigned i = 0; i < FRESH_PAGES; i++)
		sum += region[i * page_bytes];
	return madvise_failed || sum != 0;
}

/* One write per page (a fault each: the pages are not there), then the pages given back, so the
 * next iteration faults them in again. */
static inline void fault_in_pages(void)
{
	for (unsigned i = 0; i < FRESH_PAGES; i++)
		region[i * page_bytes] = 1;
	madvise_failed |= madvise((void *)region, FRESH_PAGES * page_bytes, MADV_DONTNEED) != 0;
}

BM_BENCHMARK(fresh_pages, pages_fresh, .setup = map_region, .teardown = unmap_region)
{
	fault_in_pages();
}

/* The process's perf_event descriptors (the kit's group's: the only ones it has), as a
 * benchmark that profiles itself with perf may find them. */
static int perf_fd[8];
static unsigned n_perf_fd;

static int perf_fds_find(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	char path[300], target[64];
	n_perf_fd = 0;
	while (d && (e = readdir(d)) && n_perf_fd < sizeof perf_fd / sizeof *perf_fd) {
		snprintf(path, sizeof path, "/proc/self/fd/%s", e->d_name);
		ssize_t n = readlink(path, target, sizeof target - 1);
		if (n > 0 && (target[n] = 0, strcmp(target, "anon_inode:[perf_event]") == 0))
			perf_fd[n_perf_fd++] = atoi(e->d_name);
	}
	if (d)
		closedir(d);
	return n_perf_fd ? 0 : -1;
}

static void perf_fds_ioctl(unsigned long request)
{
	for (unsigned i = 0; i < n_perf_fd; i++)
		ioctl(perf_fd[i], request, 0);
}

static void perf_disable_teardown(void)
{
	perf_fds_ioctl(PERF_EVENT_IOC_DISABLE);
}

static int always_right(void)
{
	return 0;
}

/* A teardown that disables the group and passes: it fails, named by the group, and the kit
 * enables it again, so the benchmark after it counts its faults (with the group left off: 0). */
BM_BENCHMARK(perf_disabled, always_right, .setup = perf_fds_find, .teardown = perf_disable_teardown,
             .max_iters = 1)
{
	bm_clobber_memory();
}

BM_BENCHMARK(perf_disabled_victim, pages_fresh, .setup = map_region, .teardown = unmap_region)
{
	fault_in_pages();
}

/* A body that resets the group's counts in every batch: each batch reads less at its end than at
 * its start (a wrap, near 2^64, was printed ok). It fails, named by the group; the
 * benchmark after it counts its faults. */
BM_BENCHMARK(perf_reset, always_right, .setup = perf_fds_find, .max_iters = 1)
{
	perf_fds_ioctl(PERF_EVENT_IOC_RESET);
}

BM_BENCHMARK(perf_reset_victim, pages_fresh, .setup = map_region, .teardown = unmap_region)
{
	fault_in_pages();
}
