/* SPDX-License-Identifier: Apache-2.0 */
/* Self-test image for host-linux's perf events (tests/qemu/host-events): a body that touches
 * FRESH_PAGES pages of memory the kernel has just taken back (madvise MADV_DONTNEED), so every
 * iteration takes exactly that many page faults, next to the kit's calibration benchmarks (empty:
 * no fault). Hosted only: it asks the OS for its memory. */
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
BM_BENCHMARK(fresh_pages, pages_fresh, .setup = map_region, .teardown = unmap_region)
{
	for (unsigned i = 0; i < FRESH_PAGES; i++)
		region[i * page_bytes] = 1;
	madvise_failed |= madvise((void *)region, FRESH_PAGES * page_bytes, MADV_DONTNEED) != 0;
}
