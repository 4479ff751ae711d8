// SPDX-License-Identifier: GPL-2.0
/*
 * test_session.c - the session (src/session/session.c) over a bundled recording: nothing
 * is open before the start, a file fed in small budgets counts what one call to the end
 * counts, a restart counts from 0 and again to the same numbers, a file that cannot be
 * opened is one error line with its name escaped (and the cause alone without it), and a
 * live session never started neither restarts nor records.  No root, no kernel: the
 * recording is fixtures/spawn.dat, found from the tree's top ($RQPATH_TOP or the cwd).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "session.h"

static char fixture[4096];

static int find_fixture(void **state)
{
	const char *top = getenv("RQPATH_TOP");

	(void)state;
	snprintf(fixture, sizeof(fixture), "%s/fixtures/spawn.dat", top && *top ? top : ".");
	return 0;
}

static void need_fixture(void)
{
	if (access(fixture, R_OK)) {
		/* tests/run.sh sets RQPATH_TOP: there, a missing recording is a failure */
		fprintf(stderr, "no %s: run from the tree's top or set RQPATH_TOP\n", fixture);
		if (getenv("RQPATH_TOP"))
			fail();
		skip();
	}
}

/* events and placements of the session's analysis */
static void counts(struct rq_session *s, uint64_t *events, uint64_t *placements)
{
	const struct rq_summary *sum = rq_analysis_summary(rq_session_analysis(s));

	*events = sum->nr_events;
	*placements = sum->nr_placements;
}

static void budgets_count_what_one_run_counts(void **state)
{
	const struct rq_analysis_opts o = { 0 };
	const struct rq_budget b = { .max_events = 500 };
	uint64_t ev, pl, ev2, pl2;
	enum rq_pump_status st;
	struct rq_session *s;
	int steps = 0;

	(void)state;
	need_fixture();
	s = rq_session_open_file(fixture, &o, 0);
	assert_non_null(s);
	/* opening creates the analysis only */
	assert_null(rq_session_pump(s));
	assert_null(rq_session_recorder(s));
	assert_int_equal(rq_session_start(s), 0);
	assert_non_null(rq_session_pump(s));
	assert_true(rq_session_next_ts(s) != UINT64_MAX);
	while ((st = rq_session_run(s, &b)) == RQ_PUMP_BUDGET)
		steps++;
	assert_int_equal(st, RQ_PUMP_END);
	assert_true(steps > 2);
	assert_true(rq_session_progress(s) == 1.0);
	counts(s, &ev, &pl);
	assert_true(ev > (uint64_t)steps * 400);
	assert_true(pl > 0);
	/* the end stays the end */
	assert_int_equal(rq_session_run(s, &b), RQ_PUMP_END);

	/* a restart counts from 0, not started, and to the end in one call as many */
	assert_int_equal(rq_session_restart(s), 0);
	assert_null(rq_session_pump(s));
	counts(s, &ev2, &pl2);
	assert_int_equal(ev2, 0);
	assert_int_equal(pl2, 0);
	assert_int_equal(rq_session_run(s, NULL), RQ_PUMP_END);
	counts(s, &ev2, &pl2);
	assert_int_equal(ev2, ev);
	assert_int_equal(pl2, pl);
	rq_session_close(s);
}

static void a_file_not_there_is_one_line(void **state)
{
	const struct rq_analysis_opts o = { 0 };
	struct rq_session *s = rq_session_open_file("no-such-dir/a\033[2Jb.dat", &o, 0);

	(void)state;
	assert_non_null(s);
	assert_int_equal(rq_session_start(s), -1);
	assert_null(rq_session_pump(s));
	assert_int_equal(rq_session_run(s, NULL), RQ_PUMP_ERROR);
	/* the name escaped, then why; the cause alone does not repeat the name */
	assert_int_equal(strncmp(rq_session_error(s), "no-such-dir/a\\x1b[2Jb.dat: ", 27), 0);
	assert_null(strchr(rq_session_error(s), '\033'));
	assert_true(strlen(rq_session_cause(s)) > 0);
	assert_null(strstr(rq_session_cause(s), "no-such-dir"));
	assert_string_equal(rq_session_error(s) + 27, rq_session_cause(s));
	rq_session_close(s);
}

static void live_not_started_records_nothing(void **state)
{
	const struct rq_analysis_opts o = { 0 };
	struct rq_record_stats st = { 0 };
	struct rq_session *s = rq_session_open_live(NULL, &st, &o);

	(void)state;
	assert_non_null(s);
	assert_null(rq_session_recorder(s));
	assert_null(rq_session_pump(s));
	/* nothing recorded yet: no reset, and no next record */
	assert_int_equal(rq_session_restart(s), -1);
	assert_true(rq_session_next_ts(s) == UINT64_MAX);
	assert_true(rq_session_progress(s) == 0.0);
	rq_session_close(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(budgets_count_what_one_run_counts),
		cmocka_unit_test(a_file_not_there_is_one_line),
		cmocka_unit_test(live_not_started_records_nothing),
	};

	return cmocka_run_group_tests(tests, find_fixture, NULL);
}
