/* SPDX-License-Identifier: Apache-2.0 */
/* A served image's command syntax (docs/records.md, "Served images"): words split by spaces, the
 * command first; a run command's benchmarks and its options. Syntax only, on a line the loop has
 * already bounded and found printable; nothing here reads the registry or writes anything. */
#include "serve/serve.h"

/* The words of a line, one at a time. */
struct words {
	const char *p, *end;
};

static int next_word(struct words *w, const char **word, size_t *len)
{
	while (w->p < w->end && *w->p == ' ')
		w->p++;
	if (w->p == w->end)
		return 0;
	*word = w->p;
	while (w->p < w->end && *w->p != ' ')
		w->p++;
	*len = (size_t)(w->p - *word);
	return 1;
}

static int is(const char *word, size_t len, const char *s)
{
	size_t i = 0;
	for (; i < len && s[i] && word[i] == s[i]; i++)
		;
	return i == len && !s[i];
}

static int bad(struct bm_serve_cmd *cmd, const char *reason, const char *word, size_t len)
{
	cmd->op = BM_SERVE_BAD;
	cmd->reason = reason;
	cmd->word = word;
	cmd->word_len = len;
	return 0;
}

static int ident_start(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

const char *bm_serve_next_name(const struct bm_serve_cmd *cmd, size_t *at, size_t *len)
{
	if (*at >= cmd->names_len)
		return 0;
	const char *name = cmd->names + *at;
	size_t n = 0;
	while (*at + n < cmd->names_len && name[n] != ',')
		n++;
	*len = n;
	*at += n + 1; /* past the comma */
	return name;
}

/* NAME[,NAME...] (each a C identifier, as BM_BENCHMARK's), or "*". */
static int names_ok(struct bm_serve_cmd *cmd, const char *list, size_t len)
{
	cmd->names = list;
	cmd->names_len = len;
	if (len == 1 && list[0] == '*')
		return 1;
	size_t at = 0, n;
	const char *name;
	if (list[len - 1] == ',')
		return bad(cmd, "not a benchmark name (an empty one)", list, len);
	while ((name = bm_serve_next_name(cmd, &at, &n)) != 0) {
		int ok = n > 0 && ident_start(name[0]);
		for (size_t i = 1; ok && i < n; i++)
			ok = ident_start(name[i]) || digit(name[i]);
		if (!ok)
			return bad(cmd, n ? "not a benchmark name" : "not a benchmark name (an empty one)",
			           n ? name : list, n ? n : len);
	}
	return 1;
}

/* A count in 1..max, decimal digits only. */
static int count_ok(struct bm_serve_cmd *cmd, struct words *w, const char *option, size_t option_len,
                    uint32_t max, uint32_t *out)
{
	const char *word;
	size_t len;
	if (*out)
		return bad(cmd, "option given twice", option, option_len);
	if (!next_word(w, &word, &len))
		return bad(cmd, "option without its number", option, option_len);
	uint64_t v = 0;
	for (size_t i = 0; i < len; i++) {
		if (!digit(word[i]))
			return bad(cmd, "not a number", word, len);
		if (v <= max) /* (past max it stays past: no overflow, however many digits) */
			v = v * 10 + (uint64_t)(word[i] - '0');
	}
	if (v < 1 || v > max)
		return bad(cmd, "number out of range", word, len);
	*out = (uint32_t)v;
	return 1;
}

/* run NAMES [samples N] [warmup N] */
static void parse_run(struct bm_serve_cmd *cmd, struct words *w)
{
	const char *word;
	size_t len;
	if (!next_word(w, &word, &len)) {
		bad(cmd, "no benchmarks named", 0, 0);
		return;
	}
	if (!names_ok(cmd, word, len))
		return;
	while (next_word(w, &word, &len)) {
		int ok;
		if (is(word, len, "samples"))
			ok = count_ok(cmd, w, word, len, BM_SERVE_SAMPLES_MAX, &cmd->samples);
		else if (is(word, len, "warmup"))
			ok = count_ok(cmd, w, word, len, BM_SERVE_WARMUP_MAX, &cmd->warmup);
		else
			ok = bad(cmd, "unexpected word", word, len);
		if (!ok)
			return;
	}
}

void bm_serve_parse(const char *line, size_t len, struct bm_serve_cmd *cmd)
{
	static const struct {
		const char *name;
		enum bm_serve_op op;
	} ops[] = {{"list", BM_SERVE_LIST}, {"id", BM_SERVE_ID}, {"run", BM_SERVE_RUN}, {"end", BM_SERVE_END}};
	struct words w = {line, line + len};
	const char *word;
	size_t n;
	*cmd = (struct bm_serve_cmd){0};
	if (!next_word(&w, &word, &n)) {
		bad(cmd, "empty command", 0, 0);
		return;
	}
	cmd->op = BM_SERVE_BAD;
	for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++)
		if (is(word, n, ops[i].name))
			cmd->op = ops[i].op;
	if (cmd->op == BM_SERVE_BAD) {
		bad(cmd, "unknown command", word, n);
		return;
	}
	if (cmd->op == BM_SERVE_RUN) {
		parse_run(cmd, &w);
		return;
	}
	if (next_word(&w, &word, &n))
		bad(cmd, "unexpected word", word, n);
}
