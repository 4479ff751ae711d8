// SPDX-License-Identifier: GPL-2.0
/* test_msg.c - the library's warnings and progress lines reach the program's sink only. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "msg.h"

struct seen {
	int n;
	enum rq_msg_kind kind;
	char text[4096];
	int null_text;
};

static void sink(enum rq_msg_kind kind, const char *text, void *data)
{
	struct seen *s = data;

	s->n++;
	s->kind = kind;
	s->null_text = !text;
	snprintf(s->text, sizeof(s->text), "%s", text ? text : "");
}

static void messages_reach_the_sink_formatted(void **state)
{
	struct seen s = { 0 };

	rq_msg_set_sink(sink, &s);
	rq_warn("lacks %d event%s", 2, "s");
	assert_int_equal(s.n, 1);
	assert_int_equal(s.kind, RQ_MSG_WARNING);
	assert_string_equal(s.text, "lacks 2 events");
	rq_progress("reading %3d%%", 7);
	assert_int_equal(s.kind, RQ_MSG_PROGRESS);
	assert_string_equal(s.text, "reading   7%");
	rq_progress(NULL);
	assert_int_equal(s.n, 3);
	assert_true(s.null_text);
	rq_msg_set_sink(NULL, NULL);
}

static void without_a_sink_nothing_is_said(void **state)
{
	struct seen s = { 0 };

	rq_msg_set_sink(sink, &s);
	rq_msg_set_sink(NULL, NULL);
	rq_warn("dropped");
	rq_progress(NULL);
	assert_int_equal(s.n, 0);
}

static void long_messages_are_cut_not_overrun(void **state)
{
	struct seen s = { 0 };
	char big[6000];

	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	rq_msg_set_sink(sink, &s);
	rq_warn("%s", big);
	assert_int_equal(s.n, 1);
	assert_true(strlen(s.text) > 1000 && strlen(s.text) < sizeof(big) - 1);
	rq_msg_set_sink(NULL, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(messages_reach_the_sink_formatted),
		cmocka_unit_test(without_a_sink_nothing_is_said),
		cmocka_unit_test(long_messages_are_cut_not_overrun),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
