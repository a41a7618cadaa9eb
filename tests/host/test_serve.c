/* SPDX-License-Identifier: Apache-2.0 */
/* A served image (core/serve, BM_SERVE) on the fake board: the command syntax, line by line (what
 * each refusal says and about which word), and whole served runs whose console input is a script:
 * each command's reply, the loop going on after every malformed one, nothing written outside the
 * line (AddressSanitizer watches), and every record's CRC. */
#include <stdlib.h>
#include <string.h>

#include "bm/crc32.h"
#include "bm/out.h"
#include "bm/port.h"
#include "bm_test.h"
#include "fake_platform.h"
#include "report/report.h"
#include "serve/serve.h"

static int ok_verify(void)
{
	return 0;
}
static int bad_verify(void)
{
	return -1;
}

BM_BENCHMARK(alpha, ok_verify)
{
	fake_work(100, 50);
}
BM_BENCHMARK(beta, ok_verify)
{
	fake_work(30, 20);
}
BM_BENCHMARK(gamma_fails, bad_verify)
{
	fake_work(10, 10);
}

static struct bm_serve_cmd parse(const char *line)
{
	struct bm_serve_cmd c;
	bm_serve_parse(line, strlen(line), &c);
	return c;
}

/* The refusal of `line`: its reason, and the word it names ("" for none). */
static void refused(const char *line, const char *reason, const char *word)
{
	struct bm_serve_cmd c = parse(line);
	BM_CHECK_EQ_U64(c.op, BM_SERVE_BAD);
	if (c.op != BM_SERVE_BAD) {
		printf("    (the line was \"%s\")\n", line);
		return;
	}
	BM_CHECK_STR(c.reason, reason);
	char got[BM_SERVE_LINE_MAX + 1] = "";
	if (c.word)
		memcpy(got, c.word, c.word_len);
	BM_CHECK_STR(got, word);
}

static void syntax(void)
{
	BM_CHECK_EQ_U64(parse("list").op, BM_SERVE_LIST);
	BM_CHECK_EQ_U64(parse("  id  ").op, BM_SERVE_ID);
	BM_CHECK_EQ_U64(parse("end").op, BM_SERVE_END);
	struct bm_serve_cmd c = parse("run alpha,beta samples 50 warmup 20");
	BM_CHECK_EQ_U64(c.op, BM_SERVE_RUN);
	BM_CHECK_EQ_U64(c.samples, 50);
	BM_CHECK_EQ_U64(c.warmup, 20);
	BM_CHECK_EQ_U64(c.names_len, 10);
	size_t at = 0, len;
	const char *n = bm_serve_next_name(&c, &at, &len);
	BM_CHECK(n && len == 5 && !strncmp(n, "alpha", 5));
	n = bm_serve_next_name(&c, &at, &len);
	BM_CHECK(n && len == 4 && !strncmp(n, "beta", 4));
	BM_CHECK(bm_serve_next_name(&c, &at, &len) == NULL);
	c = parse("run * warmup 256 samples 10000000");
	BM_CHECK_EQ_U64(c.op, BM_SERVE_RUN);
	BM_CHECK(c.names_len == 1 && c.names[0] == '*');
	BM_CHECK_EQ_U64(c.samples, 10000000);
	BM_CHECK_EQ_U64(c.warmup, 256);
	c = parse("run _x9");
	BM_CHECK_EQ_U64(c.op, BM_SERVE_RUN);
	BM_CHECK_EQ_U64(c.samples, 0);

	refused("", "empty command", "");
	refused("    ", "empty command", "");
	refused("lists", "unknown command", "lists");
	refused("RUN alpha", "unknown command", "RUN");
	refused("list alpha", "unexpected word", "alpha");
	refused("end now", "unexpected word", "now");
	refused("run", "no benchmarks named", "");
	refused("run alpha,", "not a benchmark name (an empty one)", "alpha,");
	refused("run ,alpha", "not a benchmark name (an empty one)", ",alpha");
	refused("run alpha,,beta", "not a benchmark name (an empty one)", "alpha,,beta");
	refused("run 9lives", "not a benchmark name", "9lives");
	refused("run alpha,be-ta", "not a benchmark name", "be-ta");
	refused("run *,alpha", "not a benchmark name", "*");
	refused("run alpha samples", "option without its number", "samples");
	refused("run alpha samples 0", "number out of range", "0");
	refused("run alpha samples 10000001", "number out of range", "10000001");
	refused("run alpha samples 99999999999999999999999999", "number out of range", "99999999999999999999999999");
	refused("run alpha samples -1", "not a number", "-1");
	refused("run alpha samples 1e3", "not a number", "1e3");
	refused("run alpha warmup 0", "number out of range", "0");
	refused("run alpha warmup 257", "number out of range", "257");
	refused("run alpha samples 5 samples 6", "option given twice", "samples");
	refused("run alpha bogus 3", "unexpected word", "bogus");
	refused("run alpha samples 5 7", "unexpected word", "7");
}

/* The records of the fake console, in order, as their types ("ready error ready ..."); every
 * record's CRC checked. */
static void record_types(char *out, size_t cap)
{
	char *copy = strdup(fake_console), *save = NULL;
	out[0] = '\0';
	for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '{')
			continue;
		char *crc = strstr(line, "\"crc\":\""), want[9];
		BM_CHECK(crc != NULL);
		if (!crc)
			continue;
		bm_fmt_hex(want, bm_crc32_update(0, line, (size_t)(crc - line)), 8);
		BM_CHECK(strncmp(crc + 7, want, 8) == 0);
		const char *t = strstr(line, "\"type\":\"") + 8;
		size_t n = (size_t)(strchr(t, '"') - t);
		if (strlen(out) + n + 2 < cap) {
			strncat(out, t, n);
			strcat(out, " ");
		}
	}
	free(copy);
}

static int served(const char *script, size_t len)
{
	fake_reset();
	fake_console_in = script;
	fake_console_in_len = len;
	struct bm_config cfg;
	bm_config_defaults(&cfg);
	cfg.samples = 20;
	return bm_run(&cfg);
}

static void a_served_run(void)
{
	static const char script[] = "list\nid\r\nrun beta,alpha samples 7 warmup 12\rrun gamma_fails\nend\n";
	BM_CHECK_EQ_U64(served(script, sizeof script - 1), BM_EXIT_FAIL);
	char types[512];
	record_types(types, sizeof types);
	BM_CHECK_STR(types, "meta ready list ready id ready start result hist start result hist done ready start result "
	                    "done ready end ");
	BM_CHECK(strstr(fake_console, "\"benchmarks\":3,\"serve\":true,") != NULL);
	BM_CHECK(strstr(fake_console, "\"type\":\"list\",\"format\":2,\"seq\":2,\"benchmarks\":3,"
	                              "\"names\":[\"alpha\",\"beta\",\"gamma_fails\"],") != NULL);
	BM_CHECK(strstr(fake_console, "\"type\":\"id\",\"format\":2,\"seq\":4,\"kit\":\"baremark\",") != NULL);
	/* in the command's order, with its samples; its own tally */
	BM_CHECK(strstr(fake_console, "\"type\":\"start\",\"format\":2,\"seq\":6,\"name\":\"beta\",\"index\":1,\"of\":2,") != NULL);
	BM_CHECK(strstr(fake_console, "\"name\":\"alpha\",\"status\":\"ok\",") != NULL);
	BM_CHECK(strstr(fake_console, "\"n\":7,") != NULL);
	BM_CHECK(strstr(fake_console, "\"type\":\"done\",\"format\":2,\"seq\":12,\"command\":\"run beta,alpha samples 7 "
	                              "warmup 12\",\"samples\":7,\"warmup_min\":12,\"results\":2,\"ok\":2,\"fail\":0,") != NULL);
	BM_CHECK(strstr(fake_console, "\"type\":\"done\",\"format\":2,\"seq\":16,\"command\":\"run gamma_fails\","
	                              "\"samples\":20,\"warmup_min\":8,\"results\":1,\"ok\":0,\"fail\":1,") != NULL);
	/* the end: the whole run's results */
	BM_CHECK(strstr(fake_console, "\"type\":\"end\",\"format\":2,\"seq\":18,\"results\":3,\"ok\":2,\"fail\":1,") != NULL);
	BM_CHECK(strstr(fake_console, "baremark: FAIL (2/3 benchmarks verified, 1 fail)") != NULL);
	BM_CHECK_EQ_U64(fake_console_in_len, 0);
	/* No command: an end with no results passes. */
	BM_CHECK_EQ_U64(served("end\n", 4), BM_EXIT_PASS);
	record_types(types, sizeof types);
	BM_CHECK_STR(types, "meta ready end ");
}

/* Each malformed line gets one error record naming why, and the loop goes on to the next. */
static void malformed_lines(void)
{
	char script[8192];
	size_t n = 0;
	static const char *const lines[] = {"", "frobnicate", "run", "run nope", "run alpha,nope", "run alpha samples 0",
	                                    "run alpha samples x", "run alpha warmup 999", "list list", "run beta,"};
	for (unsigned i = 0; i < sizeof lines / sizeof lines[0]; i++)
		n += (size_t)sprintf(script + n, "%s\n", lines[i]);
	memset(script + n, 'x', 3000); /* a line far over BM_SERVE_LINE_MAX */
	n += 3000;
	script[n++] = '\n';
	static const char binary[] = {'r', 'u', 'n', ' ', 0, 1, 2, 27, '[', 'A', (char)0x80, (char)0xff, 127, '\n'};
	memcpy(script + n, binary, sizeof binary);
	n += sizeof binary;
	memset(script + n, (char)0xfe, 200);
	n += 200;
	n += (size_t)sprintf(script + n, "\r\nrun alpha samples 3\nend\n");
	BM_CHECK_EQ_U64(served(script, n), BM_EXIT_PASS);
	char types[1024];
	record_types(types, sizeof types);
	BM_CHECK_STR(types, "meta ready error ready error ready error ready error ready error ready error ready error "
	                    "ready error ready error ready error ready error ready error ready error ready start result "
	                    "hist done ready end ");
	static const char *const said[] = {
		"\"reason\":\"empty command\",\"command\":\"\",",
		"\"reason\":\"unknown command\",\"command\":\"frobnicate\",\"word\":\"frobnicate\",",
		"\"reason\":\"no benchmarks named\",\"command\":\"run\",",
		"\"reason\":\"unknown benchmark\",\"command\":\"run nope\",\"word\":\"nope\",",
		"\"reason\":\"unknown benchmark\",\"command\":\"run alpha,nope\",\"word\":\"nope\",",
		"\"reason\":\"number out of range\",\"command\":\"run alpha samples 0\",\"word\":\"0\",",
		"\"reason\":\"not a number\",\"command\":\"run alpha samples x\",\"word\":\"x\",",
		"\"reason\":\"number out of range\",\"command\":\"run alpha warmup 999\",\"word\":\"999\",",
		"\"reason\":\"unexpected word\",\"command\":\"list list\",\"word\":\"list\",",
		"\"reason\":\"not a benchmark name (an empty one)\",\"command\":\"run beta,\",\"word\":\"beta,\",",
		"\"reason\":\"line too long\",\"command\":\"xxxxxxxxxx",
		"\"reason\":\"not printable\",\"command\":\"run ????[A???\",",
		"\"reason\":\"line too long\",\"command\":\"??????????", /* (too long is said first) */
	};
	for (unsigned i = 0; i < sizeof said / sizeof said[0]; i++) {
		BM_CHECK(strstr(fake_console, said[i]) != NULL);
		if (!strstr(fake_console, said[i]))
			printf("    (no error record with %s)\n", said[i]);
	}
	/* a refused command runs nothing: alpha ran once, for the last command */
	int starts = 0;
	for (const char *p = fake_console; (p = strstr(p, "\"type\":\"start\"")) != NULL; p++)
		starts++;
	BM_CHECK_EQ_U64(starts, 1);
}

int main(void)
{
	static const struct bm_test_case cases[] = {
		BM_TEST_CASE(syntax),
		BM_TEST_CASE(a_served_run),
		BM_TEST_CASE(malformed_lines),
	};
	return bm_test_main(cases, sizeof cases / sizeof cases[0]);
}
