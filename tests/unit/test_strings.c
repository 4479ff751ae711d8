// SPDX-License-Identifier: GPL-2.0
/* test_strings.c - escaping of hostile names, CPU lists and marker lines. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cpumask.h"
#include "escape.h"
#include "markers.h"

static char *capture(void (*fn)(FILE *, const char *, size_t), const char *s, size_t len)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	fn(f, s, len);
	fclose(f);
	return buf;
}

static void escape_c_makes_control_bytes_inert(void **state)
{
	const char hostile[] = "\033]0;pwn\007a\\b\nc\xff";
	char buf[128], back[64];

	rq_escape_c(hostile, sizeof(hostile) - 1, buf, sizeof(buf));
	assert_string_equal(buf, "\\x1b]0;pwn\\x07a\\\\b\\nc\\xff");
	for (char *p = buf; *p; p++)
		assert_true(*p >= 0x20 && *p < 0x7f);
	rq_unescape_c(buf, back, sizeof(back));
	assert_string_equal(back, hostile);
	/* truncation never cuts an escape in half */
	rq_escape_c("\033\033\033", 3, buf, 7);
	assert_string_equal(buf, "\\x1b");
}

static void escape_controls_keeps_text_and_utf8(void **state)
{
	char buf[128];

	/* control bytes and an invalid byte escaped; UTF-8 and backslashes kept */
	assert_string_equal(rq_escape_controls("a\033[2J\x07 \xc3\xa9 \\x1b \xff", buf, sizeof(buf)),
			    "a\\x1b[2J\\x07 \xc3\xa9 \\x1b \\xff");
	assert_string_equal(rq_escape_controls("plain", buf, 4), "pla");
	/* C1 CSI, RLO, line separator, LRI: valid UTF-8 but never raw on a terminal */
	assert_string_equal(rq_escape_controls("a\xc2\x9b" "2Jb\xe2\x80\xae" "c\xe2\x80\xa8" "d\xe2\x81\xa6",
					       buf, sizeof(buf)),
			    "a\\u009b2Jb\\u202ec\\u2028d\\u2066");
	assert_string_equal(rq_escape_controls("\xc2\xa0\xe2\x82\xac", buf, sizeof(buf)),
			    "\xc2\xa0\xe2\x82\xac");	/* NBSP, euro: ordinary text */
	/* a tag character (invisible, past U+FFFF) */
	assert_string_equal(rq_escape_controls("a\xf3\xa0\x81\x81z", buf, sizeof(buf)),
			    "a\\U000e0041z");
}

static void json_strings_are_valid(void **state)
{
	char *out = capture(rq_json_string, "a\"b\\c\n\001\xc3\xa9\xff", 10);

	/* backslash doubled, invalid byte as \\xHH: decodes to a\"b\\\\c\\n\\x01é\\xff */
	assert_string_equal(out, "\"a\\\"b\\\\\\\\c\\u000a\\u0001\xc3\xa9\\\\xff\"");
	free(out);
	/* C1 controls and bidi/line separators leave as \u escapes, nothing raw */
	out = capture(rq_json_string, "\xc2\x9b\xc2\x85\xe2\x80\xae\xe2\x80\xa8\xe2\x80\xa9\xef\xbb\xbf", 17);
	assert_string_equal(out, "\"\\u009b\\u0085\\u202e\\u2028\\u2029\\ufeff\"");
	free(out);
}

/*
 * JSON carries valid UTF-8 as is (issue 22: a parser gets the characters): CJK, emoji,
 * combining marks; the invisible ones leave as \u escapes, past U+FFFF as a UTF-16
 * surrogate pair (a tag character), so that the JSON stays valid and decodes the same.
 */
static void json_keeps_utf8_escapes_invisible(void **state)
{
	static const char name[] = "\xe6\x97\xa5\xf0\x9f\x98\x80" "e\xcc\x81"
				   "\xf3\xa0\x81\x81\xe3\x85\xa4\xc2\xad";
	char *out = capture(rq_json_string, name, sizeof(name) - 1);

	assert_string_equal(out, "\"\xe6\x97\xa5\xf0\x9f\x98\x80" "e\xcc\x81"
				 "\\udb40\\udc41\\u3164\\u00ad\"");
	free(out);
}

static void csv_fields_follow_rfc4180(void **state)
{
	char *out = capture(rq_csv_field, "a,b\"c", 5);

	assert_string_equal(out, "\"a,b\"\"c\"");
	free(out);
	out = capture(rq_csv_field, "x\ny", 3);
	assert_string_equal(out, "x\\ny");
	free(out);
	out = capture(rq_csv_field, "=cmd()", 6);	/* no formula injection */
	assert_string_equal(out, "\"'=cmd()\"");
	free(out);
}

static void cpumask_list_syntax(void **state)
{
	struct rq_cpumask m = { 0 };
	char buf[64];

	assert_int_equal(rq_cpumask_init(&m, 16), 0);
	assert_int_equal(rq_cpumask_parse(&m, "0-3,8,10-11\n"), 0);
	assert_int_equal(rq_cpumask_weight(&m), 7);
	assert_string_equal(rq_cpumask_format(&m, buf, sizeof(buf)), "0-3,8,10-11");
	assert_int_equal(rq_cpumask_parse(&m, "3-1"), -1);
	assert_int_equal(rq_cpumask_parse(&m, "x"), -1);
	assert_int_equal(rq_cpumask_parse(&m, "40-50"), 0);	/* beyond the trace's CPUs */
	assert_int_equal(rq_cpumask_weight(&m), 0);
	rq_cpumask_free(&m);
	assert_int_equal(rq_cpumask_init(&m, 0), -1);
}

static void marker_roundtrip_with_hostile_comm(void **state)
{
	struct rq_marker m = { .kind = RQ_MARK_TASK, .pid = 7, .tgid = 7, .policy = 5 };
	struct rq_marker back;
	char line[512];

	strcpy(m.cpulist, "0-1");
	strcpy(m.comm, "x comm=y\n\033");
	assert_true(rq_marker_format(&m, line, sizeof(line)) > 0);
	assert_non_null(strchr(line, '\n'));
	assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1);	/* one line */
	assert_int_equal(strncmp(line, RQ_MARKER_PREFIX, strlen(RQ_MARKER_PREFIX)), 0);
	assert_int_equal(rq_marker_parse(line + strlen(RQ_MARKER_PREFIX),
					 strlen(line) - strlen(RQ_MARKER_PREFIX), &back), 0);
	assert_int_equal(back.kind, RQ_MARK_TASK);
	assert_int_equal(back.pid, 7);
	assert_int_equal(back.policy, 5);
	assert_string_equal(back.cpulist, "0-1");
	assert_string_equal(back.comm, "x comm=y\n\033");
	assert_int_equal(rq_marker_parse("garbage", 7, &back), -1);
	assert_int_equal(rq_marker_parse("task gone", 9, &back), -1);
	assert_int_equal(rq_marker_parse("task pid=3 gone", 15, &back), 0);
	assert_int_equal(back.kind, RQ_MARK_TASK_GONE);
}

static int parse_str(const char *s, struct rq_marker *m)
{
	return rq_marker_parse(s, strlen(s), m);
}

/* Numbers out of range are errors, never wrapped into range (cpu=2^32+1 is not CPU 1). */
static void marker_fields_are_range_checked(void **state)
{
	struct rq_marker m;

	assert_int_equal(parse_str("cpu cpu=1 core=1 llc=0 node=0", &m), 0);
	assert_int_equal(m.cpu, 1);
	assert_int_equal(parse_str("cpu cpu=4294967297 core=1 llc=0", &m), -1);
	assert_int_equal(parse_str("cpu cpu=-1 llc=0", &m), -1);
	assert_int_equal(parse_str("cpu cpu=0 llc=4096", &m), -1);
	assert_int_equal(parse_str("cpu cpu=0 llc=0 core=99999999999", &m), -1);
	assert_int_equal(parse_str("cpu cpu=0 llc=0 node=-3", &m), -1);
	assert_int_equal(parse_str("kernel release=6.1 cpus=4294967298", &m), -1);
	assert_int_equal(parse_str("kernel release=6.1 cpus=0", &m), -1);
	assert_int_equal(parse_str("task pid=4294967303 tgid=7 policy=0 cpus=0", &m), -1);
	assert_int_equal(parse_str("task pid=7 tgid=7 policy=4294967296 cpus=0", &m), -1);
	assert_int_equal(parse_str("task pid=7 tgid=7 policy=9 cpus=0", &m), -1);
	assert_int_equal(parse_str("task pid=7 tgid=7 policy=1 idle_cg=2 cpus=0", &m), -1);
	assert_int_equal(parse_str("task pid=7 tgid=7 policy=1 cpus=4294967297", &m), -1);
	assert_int_equal(parse_str("task pid=7 tgid=7 policy=1 cpus=0-1,x", &m), -1);
	assert_int_equal(parse_str("task pid=7 tgid=7 policy=1 cpus=1-0", &m), -1);
	assert_int_equal(parse_str("task pid=7 tgid=7 policy=1 cpus=0-1,3 comm=a", &m), 0);
	assert_string_equal(m.cpulist, "0-1,3");
	assert_int_equal(parse_str("task pid=7 tgid=7 policy=-1 cpus=? comm=a", &m), 0);
	assert_int_equal(parse_str("task pid=0 gone", &m), -1);
	assert_int_equal(parse_str("snapshot done tasks=-5", &m), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escape_c_makes_control_bytes_inert),
		cmocka_unit_test(escape_controls_keeps_text_and_utf8),
		cmocka_unit_test(json_strings_are_valid),
		cmocka_unit_test(json_keeps_utf8_escapes_invisible),
		cmocka_unit_test(csv_fields_follow_rfc4180),
		cmocka_unit_test(cpumask_list_syntax),
		cmocka_unit_test(marker_roundtrip_with_hostile_comm),
		cmocka_unit_test(marker_fields_are_range_checked),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
