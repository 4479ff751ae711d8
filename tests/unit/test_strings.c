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
}

static void json_strings_are_valid(void **state)
{
	char *out = capture(rq_json_string, "a\"b\\c\n\001\xc3\xa9\xff", 10);

	/* backslash doubled, invalid byte as \\xHH: decodes to a\"b\\\\c\\n\\x01é\\xff */
	assert_string_equal(out, "\"a\\\"b\\\\\\\\c\\u000a\\u0001\xc3\xa9\\\\xff\"");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escape_c_makes_control_bytes_inert),
		cmocka_unit_test(escape_controls_keeps_text_and_utf8),
		cmocka_unit_test(json_strings_are_valid),
		cmocka_unit_test(csv_fields_follow_rfc4180),
		cmocka_unit_test(cpumask_list_syntax),
		cmocka_unit_test(marker_roundtrip_with_hostile_comm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
