/* SPDX-License-Identifier: Apache-2.0 */
/* A served image's run (BM_SERVE; docs/records.md, "Served images"): after the run's beginning
 * (bm_run's: header, meta record), commands read from the console one line at a time (the
 * console's getc, bm/port.h), each answered with records: the benchmarks' list, the image's
 * identity, a run of benchmarks through bm_run.c's own path with the command's samples and
 * warm-up, or an error; `end` ends the run as bm_run does. All of it is the kit's own code: the
 * benchmarks' code runs only inside bm_run_bench, as in any run. */
#include "bm/build_info.h"
#include "bm/out.h"
#include "bm/record.h"
#include "bm_board.h"
#include "report/report.h"
#include "serve/serve.h"

/* The command line being read: its bytes (any outside ' '..'~' kept as '?', so the line can be
 * quoted in a record as it came), and what was wrong with it. */
static struct {
	char buf[BM_SERVE_LINE_MAX + 1];
	size_t len;       /* bytes kept: at most BM_SERVE_LINE_MAX */
	int too_long;     /* more bytes came before the line's end */
	int unprintable;  /* a byte outside ' '..'~' came */
	int after_cr;     /* the last line ended with CR: an LF right after it is the same end */
} line;

/* One line, LF, CR or CR LF ended: waits for it (a served image has nothing else to do). */
static void read_line(void)
{
	line.len = 0;
	line.too_long = line.unprintable = 0;
	for (;;) {
		int c = bm_port_getc();
		if (c < 0)
			continue;
		if (c == '\n' && line.after_cr) {
			line.after_cr = 0;
			continue;
		}
		line.after_cr = c == '\r';
		if (c == '\n' || c == '\r')
			break;
		if (c < ' ' || c > '~') {
			line.unprintable = 1;
			c = '?';
		}
		if (line.len < BM_SERVE_LINE_MAX)
			line.buf[line.len++] = (char)c;
		else
			line.too_long = 1;
	}
	line.buf[line.len] = '\0';
}

static void record_ready(unsigned commands)
{
	struct bm_record r;
	bm_rec_begin(&r, "ready");
	bm_rec_u64(&r, "commands", commands);
	bm_rec_u64(&r, "line_max", BM_SERVE_LINE_MAX);
	bm_rec_end(&r);
}

/* A command refused: why, the line as it came (its first BM_SERVE_LINE_MAX bytes), and the word
 * of it that was wrong (a part of the line: terminated in place while it is written). */
static void record_error(const char *reason, const char *word, size_t word_len)
{
	struct bm_record r;
	bm_rec_begin(&r, "error");
	bm_rec_str(&r, "reason", reason);
	bm_rec_str(&r, "command", line.buf);
	if (word) {
		char *end = line.buf + (word - line.buf) + word_len, kept = *end;
		*end = '\0';
		bm_rec_str(&r, "word", word);
		*end = kept;
	}
	bm_rec_end(&r);
}

static void record_list(const struct bm_config *cfg, unsigned n)
{
	struct bm_record r;
	bm_rec_begin(&r, "list");
	bm_rec_u64(&r, "benchmarks", n);
	bm_rec_array_begin(&r, "names");
	for (const struct bm_bench *b = bm_bench_next(0, cfg); b; b = bm_bench_next(b, cfg))
		bm_rec_elem_str(&r, b->name);
	bm_rec_array_end(&r);
	bm_rec_end(&r);
}

/* The image's identity, as its meta record gives it: what a host asks a board it finds. */
static void record_id(unsigned n)
{
	const struct bm_kv id[] = {{"kit", "baremark"}, {"kit_version", BM_KIT_VERSION},
	                           {"kit_vcs", bm_build_info.kit_vcs}, {"label", bm_build_info.label},
	                           {"built_for", bm_build_info.built_for}, {"opt", bm_build_info.opt},
	                           {"board", board_desc.name}};
	struct bm_record r;
	bm_rec_begin(&r, "id");
	for (unsigned i = 0; i < sizeof id / sizeof id[0]; i++)
		bm_rec_str(&r, id[i].key, id[i].value);
	bm_rec_u64(&r, "benchmarks", n);
	bm_rec_end(&r);
}

/* A run command's end: what it asked for and its own tally, as the end record gives a run's. */
static void record_done(const struct bm_config *c, const struct bm_tally *t, unsigned results, int status)
{
	struct bm_record r;
	bm_rec_begin(&r, "done");
	bm_rec_str(&r, "command", line.buf);
	bm_rec_u64(&r, "samples", c->samples);
	bm_rec_u64(&r, "warmup_min", c->warmup_min);
	bm_record_tally(&r, t, results, status);
	if (t->stack_bytes) {
		bm_rec_u64(&r, "stack_used_bytes", t->stack_used_bytes);
		bm_rec_u64(&r, "stack_bytes", t->stack_bytes);
	}
	bm_rec_end(&r);
}

/* The image's benchmark of that name (not NUL-terminated), or NULL. */
static const struct bm_bench *find(const struct bm_config *cfg, const char *name, size_t len)
{
	for (const struct bm_bench *b = bm_bench_next(0, cfg); b; b = bm_bench_next(b, cfg)) {
		size_t i = 0;
		while (i < len && b->name[i] == name[i])
			i++;
		if (i == len && !b->name[i])
			return b;
	}
	return 0;
}

/* The command's benchmark after prev (the first: prev NULL), in its order, or in name order for
 * "*"; NULL after the last. *at: where its list has been read to. */
static const struct bm_bench *next_of(const struct bm_config *cfg, const struct bm_serve_cmd *cmd,
                                      const struct bm_bench *prev, size_t *at)
{
	size_t len;
	if (cmd->names_len == 1 && cmd->names[0] == '*')
		return bm_bench_next(prev, cfg);
	const char *name = bm_serve_next_name(cmd, at, &len);
	return name ? find(cfg, name, len) : 0;
}

/* run NAMES [samples N] [warmup N]: every name known, or nothing runs; then each benchmark as
 * bm_run runs it, with the command's configuration, its outcomes in a tally of the command's own
 * (its done record) that is added to the run's (the end record). */
static void run_command(struct bm_run_info *run, const struct bm_config *cfg, const struct bm_serve_cmd *cmd,
                        struct bm_tally *total)
{
	size_t at = 0, len;
	const char *name;
	while ((name = bm_serve_next_name(cmd, &at, &len)) != 0)
		if (!(len == 1 && name[0] == '*') && !find(cfg, name, len)) {
			record_error("unknown benchmark", name, len);
			return;
		}
	unsigned n = 0;
	at = 0;
	for (const struct bm_bench *b = next_of(cfg, cmd, 0, &at); b; b = next_of(cfg, cmd, b, &at))
		n++;
	const struct bm_config *image = run->cfg;
	unsigned image_n = run->n;
	struct bm_config c = *image; /* (the calibration target of this machine kept) */
	if (cmd->samples)
		c.samples = cmd->samples;
	if (cmd->warmup)
		c.warmup_min = cmd->warmup;
	run->cfg = &c;
	run->n = n;
	struct bm_tally t = {0};
	uint64_t start_cycles = bm_cycles_now();
	unsigned index = 0;
	at = 0;
	for (const struct bm_bench *b = next_of(cfg, cmd, 0, &at); b; b = next_of(cfg, cmd, b, &at))
		bm_run_bench(run, b, ++index, &t);
	bm_tally_close(&t, start_cycles);
	record_done(&c, &t, n, t.by_status[BM_ST_OK] == n && !t.state_dependent ? BM_EXIT_PASS : BM_EXIT_FAIL);
	for (unsigned i = 0; i < BM_ST_COUNT; i++)
		total->by_status[i] += t.by_status[i];
	total->body_cycles += t.body_cycles;
	total->user_cycles += t.user_cycles;
	run->cfg = image;
	run->n = image_n;
}

int bm_serve(const struct bm_config *cfg, struct bm_run_info *run, uint64_t start_cycles)
{
	if (!bm_port_console_reads())
		bm_config_error("this board's console cannot read (its driver has no getc): a served image "
		                "(BM_SERVE) reads its commands there");
	bm_out_str("baremark: served: one command a line: list | id | run NAME[,NAME...]|* [samples N] "
	           "[warmup N] | end\n");
	struct bm_tally total = {0};
	for (unsigned commands = 0;; commands++) {
		record_ready(commands);
		read_line();
		struct bm_serve_cmd cmd;
		if (line.too_long) {
			record_error("line too long", 0, 0);
			continue;
		}
		if (line.unprintable) {
			record_error("not printable", 0, 0);
			continue;
		}
		bm_serve_parse(line.buf, line.len, &cmd);
		switch (cmd.op) {
		case BM_SERVE_BAD:
			record_error(cmd.reason, cmd.word, cmd.word_len);
			break;
		case BM_SERVE_LIST:
			record_list(cfg, run->n);
			break;
		case BM_SERVE_ID:
			record_id(run->n);
			break;
		case BM_SERVE_RUN:
			run_command(run, cfg, &cmd, &total);
			break;
		case BM_SERVE_END:
			run->n = 0;
			for (unsigned i = 0; i < BM_ST_COUNT; i++)
				run->n += total.by_status[i];
			return bm_run_end(run, &total, start_cycles);
		}
	}
}
