/* SPDX-License-Identifier: Apache-2.0 */
/* baremark's deterministic cache model: a QEMU TCG plugin (API version 1, QEMU 7.2) simulating
 * L1I, L1D and an optional unified L2 (set-associative, LRU, write-allocate) and counting, per
 * timed window the kit marks (stores to its marker area by its marking function,
 * core/run/bm_model.c), accesses and misses. What it shares with the kit and bm run (the marker offsets, the counts and their file,
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
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
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
static uint64_t reg_end[NCOUNT];   /* the batch's last cycle read so far: where its region ends */
static bool open, region, have_end;
static uint32_t window_samples;
static int64_t bench = -1;         /* the benchmark index the kit marked, -1 none yet */
static uint32_t bench_bits;        /* the index being marked, one bit per store */
static uint64_t marker, marker_end;
/* The image's code that matters (bm run's code= file, from the ELF): the kit's marking function,
 * the only one whose stores to the area are marks, and the batch functions (bm_batch_*). */
struct range {
	uint64_t start, end;
};
static struct range mark_fn;
static struct range *batch_fn;
static size_t n_batch_fn;
static const char *out_path;
static FILE *out;
/* The cycle-counter read that starts and ends each timed batch (arch_snap_begin/end), by target:
 * inside a window only what lies between a batch function's first and last such read is counted
 * (a read by its body in between, or by code outside the batch functions, marks nothing), so the
 * batch's own calls and stack traffic around the body are not (what remains, the snapshot's
 * stores, is the probe's). Without one for the target, the whole window counts. */
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

/* The whole window's region (no cycle reads known) ends. */
static void region_off(uint64_t after)
{
	for (int k = 0; k < NCOUNT; k++)
		win[k] += now[k] - reg_start[k];
	win[L1I_ACCESS] -= after;
	region = false;
}

/* With the cycle reads known each batch is a sample of its own (several come in one window when
 * the benchmark runs unprivileged and the kit takes them in chunks): its region, from its first
 * cycle read to its last, ends when the next batch starts or the window closes. A batch that
 * read the counter once (it trapped before its end) counts nothing. */
static void batch_done(void)
{
	if (region && have_end) {
		for (int k = 0; k < NCOUNT; k++)
			win[k] += reg_end[k] - reg_start[k];
		emit(1);
	}
	region = have_end = false;
}

/* Nothing of a window the kit did not close (its benchmark trapped or hung inside it, and the kit
 * went on) carries into the next. */
static void window_reset(void)
{
	memset(win, 0, sizeof win);
	open = region = have_end = false;
	window_samples = 0;
}

/* The marker area (core/run/bm_model.c, BM_MODEL_MARK_*): a window opens, closes, gets a sample;
 * a benchmark's index starts (0), gets bit k (one offset per bit), ends. */
static void mark(uint64_t off, uint64_t after)
{
	if (off == BM_MODEL_MARK_OPEN) {
		window_reset();
		open = true;
		if (!cyc_mask)
			region_on(after);
	} else if (off == BM_MODEL_MARK_CLOSE) {
		if (open) {
			if (cyc_mask) {
				batch_done();
			} else {
				if (region)
					region_off(after);
				emit(window_samples);
			}
		}
		window_reset();
	} else if (off == BM_MODEL_MARK_SAMPLE) {
		if (open && !cyc_mask && region)
			region_off(after); /* (the close's marks are the kit's, not the window's) */
		window_samples++;
	} else if (off == BM_MODEL_MARK_INDEX_BEGIN) {
		window_reset();
		bench_bits = 0;
	} else if (off >= BM_MODEL_MARK_INDEX_BIT && off < BM_MODEL_MARK_INDEX_BIT + BM_MODEL_INDEX_BITS) {
		bench_bits |= 1u << (off - BM_MODEL_MARK_INDEX_BIT);
	} else if (off == BM_MODEL_MARK_INDEX_END) {
		bench = bench_bits;
	}
}

/* A cycle-counter read in a batch function (before it executes): the first of a batch starts its
 * region after it, each later one may be the last, which ends it before it. */
static void on_cycle_read(unsigned int vcpu, void *u)
{
	(void)vcpu;
	if (!open)
		return;
	uint64_t after = (uint64_t)(uintptr_t)u;
	if (!region) {
		region_on(after);
		return;
	}
	memcpy(reg_end, now, sizeof now);
	reg_end[L1I_ACCESS] -= after + 1;
	have_end = true;
}

/* A batch function's first instruction: the batch before it in the window is complete. */
static void on_batch_entry(unsigned int vcpu, void *u)
{
	(void)vcpu;
	(void)u;
	if (open)
		batch_done();
}

/* An L1 miss is an L2 access (instruction and data misses alike: the L2 is unified). */
static inline void l2_fill(uint64_t addr)
{
	if (have_l2) {
		now[L2_ACCESS]++;
		now[L2_MISS] += (uint64_t)cache_touch(&l2, addr >> l2.line_shift);
	}
}

/* Any access but the kit's marks (a benchmark's own loads and stores of the marker area too). */
static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *u)
{
	(void)vcpu;
	(void)u;
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

/* An access by the kit's marking function: its stores to the area are marks; like its instructions
 * (on_tb), nothing it does is counted (a window holds what lies between the marks). */
static void on_mem_mark(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *u)
{
	(void)vcpu;
	(void)u;
	if (vaddr - marker < marker_end - marker && qemu_plugin_mem_is_store(info))
		mark(vaddr - marker, 0);
}

static bool in(const struct range *r, uint64_t va)
{
	return va - r->start < r->end - r->start;
}

/* The batch function holding va (sorted, disjoint), or NULL. */
static const struct range *batch_of(uint64_t va)
{
	size_t lo = 0, hi = n_batch_fn;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (va < batch_fn[mid].start)
			hi = mid;
		else if (va >= batch_fn[mid].end)
			lo = mid + 1;
		else
			return &batch_fn[mid];
	}
	return NULL;
}

/* A translated block: its instruction fetches in order, a line touched once per run of
 * instructions in it (touching the line just used again is a hit and changes no LRU order). */
struct tbinfo {
	uint32_t n_insns, n_lines;
	bool kit_marks; /* the kit's marking function's: not counted */
	uint64_t lines[];
};

static void on_tb(unsigned int vcpu, void *u)
{
	(void)vcpu;
	const struct tbinfo *t = u;
	if (t->kit_marks)
		return;
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
	t->kit_marks = n && in(&mark_fn, qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, 0)));
	uint64_t prev = UINT64_MAX;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		const struct range *bf = batch_of(va);
		uint64_t a = va >> l1i.line_shift, b = (va + qemu_plugin_insn_size(insn) - 1) >> l1i.line_shift;
		for (uint64_t ln = a; ln <= b; ln++)
			if (ln != prev)
				t->lines[t->n_lines++] = prev = ln;
		if (cyc_mask && bf && va == bf->start)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_batch_entry, QEMU_PLUGIN_CB_NO_REGS, NULL);
		if (cyc_mask && bf && qemu_plugin_insn_size(insn) == 4) {
			uint32_t op;
			memcpy(&op, qemu_plugin_insn_data(insn), 4);
			if ((op & cyc_mask) == cyc_match)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_cycle_read, QEMU_PLUGIN_CB_NO_REGS,
				                                       (void *)(uintptr_t)(n - 1 - i));
		}
		/* (its userdata: how many instructions of the block follow it) */
		qemu_plugin_register_vcpu_mem_cb(insn, in(&mark_fn, va) ? on_mem_mark : on_mem, QEMU_PLUGIN_CB_NO_REGS,
		                                 QEMU_PLUGIN_MEM_RW, (void *)(uintptr_t)(n - 1 - i));
	}
	/* (a block is translated once and its info kept for as long as QEMU may run it) */
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_tb, QEMU_PLUGIN_CB_NO_REGS, t);
}

static int by_start(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* bm run's file of the image's code: "mark ADDRESS SIZE" once, "batch ADDRESS SIZE" per batch
 * function (hexadecimal or decimal). */
static int read_code(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "bmcache: cannot read %s\n", path);
		return -1;
	}
	char kind[8];
	unsigned long long at, size;
	int marks = 0, got;
	while ((got = fscanf(f, "%7s %lli %lli", kind, &at, &size)) == 3) {
		struct range r = {at, at + size};
		if (!strcmp(kind, "mark")) {
			mark_fn = r;
			marks++;
		} else if (!strcmp(kind, "batch")) {
			struct range *more = realloc(batch_fn, (n_batch_fn + 1) * sizeof *batch_fn);
			if (!more)
				break;
			batch_fn = more;
			batch_fn[n_batch_fn++] = r;
		} else {
			break;
		}
	}
	bool whole = got == EOF && feof(f);
	fclose(f);
	qsort(batch_fn, n_batch_fn, sizeof *batch_fn, by_start);
	if (!whole || marks != 1 || (cyc_mask && !n_batch_fn)) {
		fprintf(stderr, "bmcache: %s: give the marking function once and the batch functions "
		                "(\"mark|batch ADDRESS SIZE\" lines)\n", path);
		return -1;
	}
	return 0;
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
	const char *d = BM_MODEL_GENERIC_CACHE, *i = BM_MODEL_GENERIC_CACHE, *l2spec = NULL, *code = NULL;
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
		} else if (!strncmp(a, "code=", 5)) {
			code = a + 5;
		} else if (!strncmp(a, "out=", 4)) {
			out_path = a + 4;
		} else if (!strncmp(a, "l1d=", 4)) {
			d = a + 4;
		} else if (!strncmp(a, "l1i=", 4)) {
			i = a + 4;
		} else if (!strncmp(a, "l2=", 3)) {
			l2spec = strcmp(a + 3, "none") ? a + 3 : NULL;
		} else {
			fprintf(stderr, "bmcache: unknown argument %s (marker=, code=, out=, l1d=, l1i=, l2=)\n", a);
			return -1;
		}
	}
	if (!marker || !out_path || !code) {
		fprintf(stderr, "bmcache: marker=ADDRESS, code=FILE and out=FILE are required\n");
		return -1;
	}
	if (read_code(code))
		return -1;
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
