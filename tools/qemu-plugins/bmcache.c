/* SPDX-License-Identifier: Apache-2.0 */
/* baremark's deterministic cache model: a QEMU TCG plugin (API version 1, QEMU 7.2) simulating
 * L1I, L1D and an optional unified L2 (set-associative, LRU, write-allocate) and counting, per
 * timed window the kit marks (stores to its marker area, core/run/bm_model.c), accesses and
 * misses. What it shares with the kit and bm run (the marker offsets, the counts and their file,
 * the generic cache) is bm/shared.h's, generated from tools/bmlib/shared.py. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bm/shared.h"

/* The few API v1 declarations used (Debian ships no qemu-plugin.h; these match QEMU 7.2's). */
typedef uint64_t qemu_plugin_id_t;
typedef uint32_t qemu_plugin_meminfo_t;
typedef struct qemu_info_t {
	const char *target_name;
	struct { int min; int cur; } version;
	bool system_emulation;
	union { struct { int smp_vcpus; int max_vcpus; } system; };
} qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info, uint64_t vaddr,
                                          void *userdata);
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb, qemu_plugin_vcpu_udata_cb_t cb,
                                          enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw, void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* ---- the caches ---- */
struct cache {
	uint32_t size, ways, line, sets, line_shift;
	uint64_t *tag; /* sets x ways, most recently used first; UINT64_MAX = empty */
};

static int cache_init(struct cache *c, const char *name, const char *spec)
{
	unsigned long s, w, l;
	char extra;
	if (sscanf(spec, "%lu:%lu:%lu%c", &s, &w, &l, &extra) != 3 || !s || !w || !l || (l & (l - 1)) ||
	    s % (w * l) || ((s / (w * l)) & (s / (w * l) - 1)) || s > BM_MODEL_MAX_BYTES || w > BM_MODEL_MAX_WAYS) {
		fprintf(stderr, "bmcache: %s=%s: give SIZE:WAYS:LINE in bytes, line and set count powers of two\n", name,
		        spec);
		return -1;
	}
	c->size = (uint32_t)s;
	c->ways = (uint32_t)w;
	c->line = (uint32_t)l;
	c->sets = (uint32_t)(s / (w * l));
	c->line_shift = (uint32_t)__builtin_ctzl(l);
	c->tag = malloc(sizeof *c->tag * c->sets * c->ways);
	if (!c->tag)
		return -1;
	memset(c->tag, 0xff, sizeof *c->tag * c->sets * c->ways);
	return 0;
}

/* One line's access: 1 on a miss (the line is then filled, evicting the least recently used). */
static inline int cache_touch(struct cache *c, uint64_t lineno)
{
	uint64_t *set = c->tag + (lineno & (c->sets - 1)) * c->ways;
	if (set[0] == lineno)
		return 0;
	uint32_t i = 1;
	while (i < c->ways && set[i] != lineno)
		i++;
	int miss = i == c->ways;
	if (miss)
		i = c->ways - 1;
	memmove(set + 1, set, i * sizeof *set);
	set[0] = lineno;
	return miss;
}

/* ---- the counts ---- */
#define COUNT_ENUM(e, name) e,
#define COUNT_NAME(e, name) name,
enum { BM_MODEL_COUNT_LIST(COUNT_ENUM) NCOUNT };
static const char *const count_name[NCOUNT] = {BM_MODEL_COUNT_LIST(COUNT_NAME)};
static struct cache l1d, l1i, l2;
static bool have_l2;
static uint64_t now[NCOUNT];       /* since boot: what a region counted is a difference */
static uint64_t win[NCOUNT];       /* the open window's counts */
static uint64_t reg_start[NCOUNT];
static bool open, region;
static uint32_t window_samples;
static int64_t bench = -1;         /* the benchmark index the kit marked, -1 none yet */
static uint32_t bench_bits;        /* the index being marked, one bit per store */
static uint64_t marker, marker_end;
static const char *out_path;
static FILE *out;
/* The cycle-counter read that starts and ends each timed batch (arch_snap_begin/end), by target:
 * inside a window only what lies between such reads is counted, so the batch's own calls and
 * stack traffic around the body are not (what remains, the snapshot's stores, is the probe's).
 * Without one for the target, the whole window counts. */
static uint32_t cyc_mask, cyc_match;
/* equal consecutive windows are printed once with a repeat count, so a deterministic run's
 * thousand samples take one line */
static int64_t pend_bench = -1;
static uint64_t pend[NCOUNT], pend_samples, pend_repeat;

static void flush_pending(void)
{
	if (!pend_repeat)
		return;
	fprintf(out, "w %" PRId64 " %" PRIu64 " %" PRIu64, pend_bench, pend_repeat, pend_samples);
	for (int k = 0; k < NCOUNT; k++)
		fprintf(out, " %" PRIu64, pend[k]);
	fputc('\n', out);
	pend_repeat = 0;
}

/* A block's instructions are counted as it starts: at an edge inside a block, `after` (those
 * that follow the edge's instruction in it) move to the right side of the edge. */
static void region_on(uint64_t after)
{
	memcpy(reg_start, now, sizeof now);
	reg_start[L1I_ACCESS] -= after;
	region = true;
}

/* The counts so far as one window of `samples` samples. */
static void emit(uint32_t samples)
{
	if (pend_repeat && pend_bench == bench && pend_samples == samples && !memcmp(win, pend, sizeof win)) {
		pend_repeat++;
	} else {
		flush_pending();
		pend_bench = bench;
		pend_samples = samples;
		memcpy(pend, win, sizeof win);
		pend_repeat = 1;
	}
	memset(win, 0, sizeof win);
}

/* With the cycle reads known each region is one timed batch, a sample of its own (several come
 * in one window when the benchmark runs unprivileged and the kit takes them in chunks). */
static void region_off(uint64_t after)
{
	for (int k = 0; k < NCOUNT; k++)
		win[k] += now[k] - reg_start[k];
	win[L1I_ACCESS] -= after;
	region = false;
	if (cyc_mask)
		emit(1);
}

/* The marker area (core/run/bm_model.c, BM_MODEL_MARK_*): a window opens, closes, gets a sample;
 * a benchmark's index starts (0), gets bit k (one offset per bit), ends. */
static void mark(uint64_t off, uint64_t after)
{
	if (off == BM_MODEL_MARK_OPEN) {
		memset(win, 0, sizeof win);
		open = true;
		window_samples = 0;
		if (!cyc_mask)
			region_on(after);
	} else if (off == BM_MODEL_MARK_CLOSE) {
		if (open) {
			if (region)
				region_off(after);
			if (!cyc_mask)
				emit(window_samples);
			open = false;
		}
	} else if (off == BM_MODEL_MARK_SAMPLE) {
		window_samples++;
	} else if (off == BM_MODEL_MARK_INDEX_BEGIN) {
		bench_bits = 0;
	} else if (off >= BM_MODEL_MARK_INDEX_BIT && off < BM_MODEL_MARK_INDEX_BIT + BM_MODEL_INDEX_BITS) {
		bench_bits |= 1u << (off - BM_MODEL_MARK_INDEX_BIT);
	} else if (off == BM_MODEL_MARK_INDEX_END) {
		bench = bench_bits;
	}
}

/* A cycle-counter read (before it executes): the first of a batch starts its region after it,
 * the second ends it before it. */
static void on_cycle_read(unsigned int vcpu, void *u)
{
	(void)vcpu;
	if (!open)
		return;
	uint64_t after = (uint64_t)(uintptr_t)u;
	if (region)
		region_off(after + 1);
	else
		region_on(after);
}

/* An L1 miss is an L2 access (instruction and data misses alike: the L2 is unified). */
static inline void l2_fill(uint64_t addr)
{
	if (have_l2) {
		now[L2_ACCESS]++;
		now[L2_MISS] += (uint64_t)cache_touch(&l2, addr >> l2.line_shift);
	}
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *u)
{
	(void)vcpu;
	if (vaddr - marker < marker_end - marker) {
		mark(vaddr - marker, (uint64_t)(uintptr_t)u);
		return; /* the kit's markers are not the benchmark's accesses */
	}
	uint64_t last = vaddr + (1u << qemu_plugin_mem_size_shift(info)) - 1;
	uint64_t a = vaddr >> l1d.line_shift, b = last >> l1d.line_shift;
	int miss = 0;
	for (uint64_t ln = a; ln <= b; ln++) {
		if (cache_touch(&l1d, ln)) {
			miss = 1;
			l2_fill(ln << l1d.line_shift);
		}
	}
	/* an access across two lines is one access, missed if either line was (as callgrind counts) */
	now[L1D_ACCESS]++;
	now[L1D_MISS] += (uint64_t)miss;
}

/* A translated block: its instruction fetches in order, a line touched once per run of
 * instructions in it (touching the line just used again is a hit and changes no LRU order). */
struct tbinfo {
	uint32_t n_insns, n_lines;
	uint64_t lines[];
};

static void on_tb(unsigned int vcpu, void *u)
{
	(void)vcpu;
	const struct tbinfo *t = u;
	now[L1I_ACCESS] += t->n_insns;
	for (uint32_t i = 0; i < t->n_lines; i++) {
		if (cache_touch(&l1i, t->lines[i])) {
			now[L1I_MISS]++;
			l2_fill(t->lines[i] << l1i.line_shift);
		}
	}
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	/* lines: at most two per instruction (one may straddle) */
	struct tbinfo *t = malloc(sizeof *t + 2 * n * sizeof t->lines[0]);
	if (!t)
		abort();
	t->n_insns = (uint32_t)n;
	t->n_lines = 0;
	uint64_t prev = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		uint64_t a = va >> l1i.line_shift, b = (va + qemu_plugin_insn_size(insn) - 1) >> l1i.line_shift;
		for (uint64_t ln = a; ln <= b; ln++)
			if (ln != prev)
				t->lines[t->n_lines++] = prev = ln;
		if (cyc_mask && qemu_plugin_insn_size(insn) == 4) {
			uint32_t op;
			memcpy(&op, qemu_plugin_insn_data(insn), 4);
			if ((op & cyc_mask) == cyc_match)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_cycle_read, QEMU_PLUGIN_CB_NO_REGS,
				                                       (void *)(uintptr_t)(n - 1 - i));
		}
		/* (its userdata: how many instructions of the block follow it) */
		qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
		                                 (void *)(uintptr_t)(n - 1 - i));
	}
	/* (a block is translated once and its info kept for as long as QEMU may run it) */
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS, t);
}

static void at_exit(qemu_plugin_id_t id, void *u)
{
	(void)id;
	(void)u;
	flush_pending();
	fprintf(out, "end");
	for (int k = 0; k < NCOUNT; k++)
		fprintf(out, " %s=%" PRIu64, count_name[k], now[k]);
	fputc('\n', out);
	if (fclose(out) != 0)
		fprintf(stderr, "bmcache: cannot write %s\n", out_path);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
                                                               int argc, char **argv)
{
	/* aarch64: mrs Xt, pmccntr_el0; RISC-V: csrrs rd, cycle, x0 (rdcycle, the low half on RV32) */
	if (info && info->target_name && !strcmp(info->target_name, "aarch64")) {
		cyc_mask = 0xffffffe0u;
		cyc_match = 0xd53b9d00u;
	} else if (info && info->target_name && !strncmp(info->target_name, "riscv", 5)) {
		cyc_mask = 0xfffff07fu;
		cyc_match = 0xc0002073u;
	}
	const char *d = BM_MODEL_GENERIC_CACHE, *i = BM_MODEL_GENERIC_CACHE, *l2spec = NULL;
	for (int k = 0; k < argc; k++) {
		const char *a = argv[k];
		if (!strncmp(a, "marker=", 7)) {
			char *end;
			marker = strtoull(a + 7, &end, 0);
			if (*end || end == a + 7) {
				fprintf(stderr, "bmcache: %s: give the marker area's address\n", a);
				return -1;
			}
			marker_end = marker + BM_MODEL_AREA_BYTES;
		} else if (!strncmp(a, "out=", 4)) {
			out_path = a + 4;
		} else if (!strncmp(a, "l1d=", 4)) {
			d = a + 4;
		} else if (!strncmp(a, "l1i=", 4)) {
			i = a + 4;
		} else if (!strncmp(a, "l2=", 3)) {
			l2spec = strcmp(a + 3, "none") ? a + 3 : NULL;
		} else {
			fprintf(stderr, "bmcache: unknown argument %s (marker=, out=, l1d=, l1i=, l2=)\n", a);
			return -1;
		}
	}
	if (!marker || !out_path) {
		fprintf(stderr, "bmcache: marker=ADDRESS and out=FILE are required\n");
		return -1;
	}
	if (cache_init(&l1d, "l1d", d) || cache_init(&l1i, "l1i", i) || (l2spec && cache_init(&l2, "l2", l2spec)))
		return -1;
	have_l2 = l2spec != NULL;
	out = fopen(out_path, "w");
	if (!out) {
		fprintf(stderr, "bmcache: cannot open %s\n", out_path);
		return -1;
	}
	fprintf(out, "bmcache %d l1d=%s l1i=%s l2=%s\n", BM_MODEL_FILE_FORMAT, d, i, l2spec ? l2spec : "none");
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, at_exit, NULL);
	return 0;
}
