/* SPDX-License-Identifier: Apache-2.0 */
/* The served image (BM_SERVE, core/serve/): after its header and meta record it reads commands
 * from the console and answers with records (docs/records.md, "Served images"). Its command
 * parser (bm_serve_parse.c), its loop (bm_serve.c), and the steps of the run it takes from
 * bm_run.c, so a served benchmark goes through the very path of a normal run. Core-private. */
#ifndef BM_SERVE_H
#define BM_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include "bm/harness.h"
#include "bm/shared.h" /* BM_WARMUP_MAX */

/* ---- the run's steps (bm_run.c): bm_run takes them, and a served image's loop ---- */

struct bm_run_info;
struct bm_tally;
/* One benchmark through the measuring sequence with run->cfg: its start record and row, its
 * result and hist records, its outcome added to the tally (index: its place among run->n). */
void bm_run_bench(struct bm_run_info *run, const struct bm_bench *b, unsigned index, struct bm_tally *tally);
/* A tally's time since start_cycles and the main stack's mark, for its end (or done) record. */
void bm_tally_close(struct bm_tally *tally, uint64_t start_cycles);
/* The end: the tally closed, the legend, the end record, the closing line; the exit status (pass
 * when all run->n results were ok). */
int bm_run_end(struct bm_run_info *run, struct bm_tally *tally, uint64_t start_cycles);

/* A served image's run from where bm_run has begun it (header and meta record out, run's facts
 * measured, the counter at start_cycles then): commands until `end`; the run's exit status. */
int bm_serve(const struct bm_config *cfg, struct bm_run_info *run, uint64_t start_cycles);

/* ---- commands (bm_serve_parse.c) ---- */

/* A command line holds at most this many bytes (its end, LF, CR or CR LF, not counted). */
#define BM_SERVE_LINE_MAX 120u
/* The bounds of a command's samples and warm-up (bm/shared.h: the warm-up's own cap). */
#define BM_SERVE_SAMPLES_MAX 10000000u
#define BM_SERVE_WARMUP_MAX BM_WARMUP_MAX

enum bm_serve_op { BM_SERVE_BAD, BM_SERVE_LIST, BM_SERVE_ID, BM_SERVE_RUN, BM_SERVE_END };

struct bm_serve_cmd {
	enum bm_serve_op op;
	const char *reason;   /* BM_SERVE_BAD: why, in words */
	const char *word;     /* the word it is about, in the line (not NUL-terminated), or NULL */
	size_t word_len;
	const char *names;    /* BM_SERVE_RUN: the benchmarks, comma-separated, or "*" (all) */
	size_t names_len;
	uint32_t samples;     /* BM_SERVE_RUN: its samples (0: the image's) */
	uint32_t warmup;      /* BM_SERVE_RUN: its least warm-up batches (0: the image's) */
};

/* The command in line[0..len) (printable ASCII, its end removed), syntax only: every name in a
 * run command is a C identifier, but whether the image has it is the loop's to say. */
void bm_serve_parse(const char *line, size_t len, struct bm_serve_cmd *cmd);
/* The next name of a run command's list from *at (cmd->names .. +names_len), its length in *len;
 * NULL after the last. */
const char *bm_serve_next_name(const struct bm_serve_cmd *cmd, size_t *at, size_t *len);

#endif /* BM_SERVE_H */
