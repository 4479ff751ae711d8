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

/* a pid's directory name in /proc, a search for a pid: digits only, at least one */
static void decimal_is_digits_only(void **state)
{
	(void)state;
	assert_true(rq_is_decimal("0"));
	assert_true(rq_is_decimal("4194304"));
	assert_false(rq_is_decimal(""));
	assert_false(rq_is_decimal("12a"));
	assert_false(rq_is_decimal("-1"));
	assert_false(rq_is_decimal(" 1"));
	assert_false(rq_is_decimal("\xd9\xa3"));	/* a digit of another script */
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

/*
 * A task's name is the only free text of a marker: whatever it holds (every keyword and
 * key of the format, blanks, "=", a newline) it must come back as the name, and the line
 * must stay a task line with its own fields (issue 19 item 2: "./x gone" turned its own
 * line into "task gone" and erased its affinity).  Red on c0243a9.
 */
static void marker_names_holding_keywords_stay_names(void **state)
{
	static const char *const names[] = {
		"./x gone", "gone", " gone", "x gone ", "a comm=b", "comm=", "pid=1",
		"x pid=99 gone", "x tgid=3", "x policy=1", "x cpus=0", "x idle_cg=1",
		"kernel release=1 cpus=1", "cpu cpu=0 llc=0", "task pid=2 gone",
		"snapshot done", "x tasks=9", "x llc_src=x", "x capacity=9", "x node=1",
		"x core=1", "x release=1", "two  blanks", "tab\there", "nl\n", "back\\x20",
		"\\x20", " ", "=", "a=b=c",
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		struct rq_marker m = { .kind = RQ_MARK_TASK, .pid = 4242, .tgid = 4241,
				       .policy = 3, .idle_cg = 1 };
		struct rq_marker back;
		char line[1024];

		strcpy(m.cpulist, "0,2-3");
		strcpy(m.comm, names[i]);
		assert_true(rq_marker_format(&m, line, sizeof(line)) > 0);
		assert_ptr_equal(strchr(line, '\n'), line + strlen(line) - 1);
		assert_int_equal(rq_marker_parse(line + strlen(RQ_MARKER_PREFIX),
						 strlen(line) - strlen(RQ_MARKER_PREFIX), &back), 0);
		assert_int_equal(back.kind, RQ_MARK_TASK);
		assert_int_equal(back.pid, 4242);
		assert_int_equal(back.tgid, 4241);
		assert_int_equal(back.policy, 3);
		assert_int_equal(back.idle_cg, 1);
		assert_string_equal(back.cpulist, "0,2-3");
		assert_string_equal(back.comm, names[i]);
	}
	/* as files recorded before blanks were escaped have them: raw, the name all the same */
	struct rq_marker m;

	assert_int_equal(parse_str("task pid=5 tgid=5 policy=0 cpus=0 idle_cg=0 comm=./x gone", &m),
			 0);
	assert_int_equal(m.kind, RQ_MARK_TASK);
	assert_string_equal(m.comm, "./x gone");
	assert_string_equal(m.cpulist, "0");
	assert_int_equal(parse_str("task pid=5 tgid=5 policy=0 cpus=0 idle_cg=0 comm=x cpus=1", &m),
			 0);
	assert_string_equal(m.cpulist, "0");
	assert_string_equal(m.comm, "x cpus=1");
	/* a kernel release with blanks or escapes round-trips too */
	struct rq_marker k = { .kind = RQ_MARK_KERNEL, .cpus = 2 };
	char line[512];

	strcpy(k.release, "6.1 cpus=9 \\evil");
	assert_true(rq_marker_format(&k, line, sizeof(line)) > 0);
	assert_int_equal(parse_str(line + strlen(RQ_MARKER_PREFIX), &m), 0);
	assert_int_equal(m.cpus, 2);
	assert_string_equal(m.release, "6.1 cpus=9 \\evil");
}

/* What fuzz_markers found: every marker the parser takes is written back to the same. */
static void marker_longest_fields_round_trip(void **state)
{
	struct rq_marker m = { .kind = RQ_MARK_TASK, .pid = 1 }, back;
	char line[2048];

	memset(m.comm, 0xff, sizeof(m.comm) - 1);	/* every byte escaped: 4 times longer */
	memset(m.comm, ' ', 8);
	assert_true(rq_marker_format(&m, line, sizeof(line)) > 0);
	assert_int_equal(parse_str(line + strlen(RQ_MARKER_PREFIX), &back), 0);
	assert_memory_equal(back.comm, m.comm, sizeof(m.comm));
	m = (struct rq_marker){ .kind = RQ_MARK_KERNEL, .cpus = 4 };
	memset(m.release, 0xfb, sizeof(m.release) - 1);
	assert_true(rq_marker_format(&m, line, sizeof(line)) > 0);
	assert_int_equal(parse_str(line + strlen(RQ_MARKER_PREFIX), &back), 0);
	assert_string_equal(back.release, m.release);
	m = (struct rq_marker){ .kind = RQ_MARK_SNAPSHOT_DONE, .ntasks = -1 };
	assert_true(rq_marker_format(&m, line, sizeof(line)) > 0);
	assert_int_equal(parse_str(line + strlen(RQ_MARKER_PREFIX), &back), 0);
	assert_int_equal(back.ntasks, -1);
	assert_int_equal(parse_str("snapshot done ", &back), -1);
}

/* The grammar is positional: no unknown, repeated or misplaced field, no trailing text. */
static void marker_grammar_is_strict(void **state)
{
	struct rq_marker m;

	assert_int_equal(parse_str("task pid=3 gone", &m), 0);
	assert_int_equal(m.kind, RQ_MARK_TASK_GONE);
	assert_int_equal(parse_str("task pid=3 gone ", &m), -1);
	assert_int_equal(parse_str("task pid=3 gone x", &m), -1);
	assert_int_equal(parse_str("task pid=3 tgid=3 gone", &m), -1);
	assert_int_equal(parse_str("task pid=3 pid=4 tgid=3", &m), -1);
	assert_int_equal(parse_str("task tgid=3 pid=3", &m), -1);
	assert_int_equal(parse_str("task pid=3 tgid=3 bogus=1", &m), -1);
	assert_int_equal(parse_str("task pid=3 cpus=0 policy=1", &m), -1);
	assert_int_equal(parse_str("task pid=3 tgid=3 policy=1 cpus=0 idle_cg=0 ", &m), -1);
	assert_int_equal(parse_str("task pid=3  tgid=3", &m), -1);
	assert_int_equal(parse_str("task pid=3 tgid=", &m), -1);
	assert_int_equal(parse_str("task pid=3 tgid=3 policy=1 cpus=0 idle_cg=0 comm=", &m), 0);
	assert_string_equal(m.comm, "");
	assert_int_equal(parse_str("kernel release=6.1 cpus=2 extra", &m), -1);
	assert_int_equal(parse_str("kernel cpus=2 release=6.1", &m), -1);
	assert_int_equal(parse_str("cpu cpu=0 core=0 llc=0 node=0 llc_src=cache capacity=1 x=1",
				   &m), -1);
	assert_int_equal(parse_str("cpu cpu=0 core=0 llc=0 node=0 llc_src=cache capacity=512",
				   &m), 0);
	assert_int_equal(m.capacity, 512);
	assert_int_equal(parse_str("snapshot done tasks=3", &m), 0);
	assert_int_equal(parse_str("snapshot done", &m), 0);
	assert_int_equal(parse_str("snapshot done tasks=3 tasks=4", &m), -1);
	assert_int_equal(parse_str("snapshot donetasks=3", &m), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escape_c_makes_control_bytes_inert),
		cmocka_unit_test(escape_controls_keeps_text_and_utf8),
		cmocka_unit_test(json_strings_are_valid),
		cmocka_unit_test(json_keeps_utf8_escapes_invisible),
		cmocka_unit_test(csv_fields_follow_rfc4180),
		cmocka_unit_test(decimal_is_digits_only),
		cmocka_unit_test(cpumask_list_syntax),
		cmocka_unit_test(marker_roundtrip_with_hostile_comm),
		cmocka_unit_test(marker_fields_are_range_checked),
		cmocka_unit_test(marker_names_holding_keywords_stay_names),
		cmocka_unit_test(marker_grammar_is_strict),
		cmocka_unit_test(marker_longest_fields_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
