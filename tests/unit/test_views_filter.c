// SPDX-License-Identifier: GPL-2.0
/*
 * test_views_filter.c - the placements view's filter (views/placements.c): what the
 * user types, what it selects, what it refuses, and that it prints back as typed.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "analysis.h"
#include "teach.h"
#include "tui.h"

static int path_id(const char *id)
{
	for (int i = 0; i < RQ_PATH__COUNT; i++)
		if (!strcmp(rq_paths[i].id, id))
			return i;
	fail_msg("no path %s", id);
	return -1;
}

static struct rq_placement placement(int pid, const char *comm, int from, int to,
				     const char *path, unsigned int findings)
{
	struct rq_placement p;

	memset(&p, 0, sizeof(p));
	p.pid = pid;
	snprintf(p.comm, sizeof(p.comm), "%s", comm);
	p.from_cpu = from;
	p.to_cpu = to;
	p.path = path_id(path);
	p.findings = findings;
	return p;
}

static void parses_every_key(void **state)
{
	struct pl_filter f;
	char err[256], back[256];

	assert_int_equal(pl_filter_parse(&f, "pid=12 comm=bash cpu=1 kind=fork path=fork-moved "
					 "finding=offcpu-fork", err, sizeof(err)), 0);
	assert_int_equal(f.pid, 12);
	assert_string_equal(f.comm, "bash");
	assert_int_equal(f.cpu, 1);
	assert_string_equal(rq_kind_names[f.kind], "fork");
	assert_int_equal(f.path, path_id("fork-moved"));
	assert_int_equal(f.finding, RQ_FIND_OFFCPU_FORK);
	assert_int_equal(f.node, -1);
	/* printed back in a form that parses to the same filter */
	pl_filter_format(&f, back, sizeof(back));
	assert_string_equal(back, "pid=12 comm=bash cpu=1 kind=fork path=fork-moved "
			    "finding=offcpu-fork");
	/* a bare word is a comm; tabs and repeated blanks separate */
	assert_int_equal(pl_filter_parse(&f, "  kworker\t pid=0 ", err, sizeof(err)), 0);
	assert_string_equal(f.comm, "kworker");
	assert_int_equal(f.pid, 0);
	/* empty: everything */
	assert_int_equal(pl_filter_parse(&f, "", err, sizeof(err)), 0);
	pl_filter_format(&f, back, sizeof(back));
	assert_string_equal(back, "");
}

static void teach_steps_by_number_id_and_maybe(void **state)
{
	struct pl_filter f;
	char err[256], text[96], back[128];

	assert_int_equal(pl_filter_parse(&f, "node=1", err, sizeof(err)), 0);
	assert_int_equal(f.node, 0);
	assert_false(f.node_maybe);
	snprintf(text, sizeof(text), "node=%s?", rq_teach_nodes[rq_teach_nr_nodes - 1].id);
	assert_int_equal(pl_filter_parse(&f, text, err, sizeof(err)), 0);
	assert_int_equal(f.node, rq_teach_nr_nodes - 1);
	assert_true(f.node_maybe);
	pl_filter_format(&f, back, sizeof(back));
	assert_string_equal(back, text);
}

static void bad_input_is_refused_and_changes_nothing(void **state)
{
	static const struct {
		const char *text, *err;
	} bad[] = {
		{ "pid=x", "pid wants a number, not 'x'" },
		{ "pid=-1", "pid wants a number" },
		{ "pid=", "pid wants a number" },
		{ "cpu=1x", "cpu wants a number, not '1x'" },
		{ "cpu=99999999999", "cpu wants a number" },
		{ "kind=forks", "no kind 'forks'" },
		{ "path=fork", "no path 'fork'" },
		{ "finding=idle", "no finding 'idle'" },
		{ "node=0", "no teach step '0'" },
		{ "node=100000", "no teach step '100000'" },
		{ "node=nope?", "no teach step 'nope?'" },
		{ "colour=red", "unknown filter key 'colour'" },
		{ "pid=1 bogus=2", "unknown filter key 'bogus'" },
	};
	struct pl_filter f;
	char err[256];

	assert_int_equal(pl_filter_parse(&f, "pid=7", err, sizeof(err)), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (pl_filter_parse(&f, bad[i].text, err, sizeof(err)) != -1)
			fail_msg("'%s' was accepted", bad[i].text);
		if (!strstr(err, bad[i].err))
			fail_msg("'%s': got \"%s\", want \"%s\"", bad[i].text, err, bad[i].err);
		assert_int_equal(f.pid, 7);	/* the filter in force stays */
	}
}

static void selects_the_right_placements(void **state)
{
	struct rq_placement fork_moved = placement(10, "make", 0, 1, "fork-moved",
						   1u << RQ_FIND_OFFCPU_FORK);
	struct rq_placement hostile = placement(11, "\033]0;x", 1, 1, "fork-local", 0);
	struct pl_filter f;
	char err[256];

	pl_filter_clear(&f);
	assert_true(pl_filter_match(&f, &fork_moved));
	assert_true(pl_filter_match(&f, &hostile));
	pl_filter_parse(&f, "cpu=0", err, sizeof(err));	/* from or to */
	assert_true(pl_filter_match(&f, &fork_moved));
	assert_false(pl_filter_match(&f, &hostile));
	pl_filter_parse(&f, "cpu=1 kind=fork", err, sizeof(err));
	assert_true(pl_filter_match(&f, &fork_moved));
	assert_true(pl_filter_match(&f, &hostile));
	pl_filter_parse(&f, "finding=offcpu-fork", err, sizeof(err));
	assert_true(pl_filter_match(&f, &fork_moved));
	assert_false(pl_filter_match(&f, &hostile));
	pl_filter_parse(&f, "kind=wakeup", err, sizeof(err));
	assert_false(pl_filter_match(&f, &fork_moved));
	pl_filter_parse(&f, "ak pid=10", err, sizeof(err));	/* comm: a substring */
	assert_true(pl_filter_match(&f, &fork_moved));
	pl_filter_parse(&f, "ak pid=11", err, sizeof(err));
	assert_false(pl_filter_match(&f, &fork_moved));
	/* a hostile comm is matched in its escaped form, as the view shows it */
	pl_filter_parse(&f, "comm=\\x1b]0", err, sizeof(err));
	assert_true(pl_filter_match(&f, &hostile));
	assert_false(pl_filter_match(&f, &fork_moved));
}

static void a_step_selects_what_took_it_or_may_have(void **state)
{
	struct rq_placement pt, pm;
	struct pl_filter f;
	char err[256], text[96];
	int node = -1, taken = -1, maybe = -1;

	/* a step some path surely takes and another path may take */
	for (int i = 0; i < rq_teach_nr_nodes && maybe < 0; i++) {
		taken = maybe = -1;
		for (int p = 0; p < RQ_PATH__COUNT; p++) {
			if (rq_teach_node_mark(i, p) == RQ_TEACH_TAKEN && taken < 0)
				taken = p;
			if (rq_teach_node_mark(i, p) == RQ_TEACH_MAYBE && maybe < 0)
				maybe = p;
		}
		node = i;
		if (taken < 0)
			maybe = -1;
	}
	assert_true(node >= 0 && taken >= 0 && maybe >= 0);
	pt = placement(1, "a", 0, 0, rq_paths[taken].id, 0);
	pm = placement(2, "b", 0, 0, rq_paths[maybe].id, 0);

	snprintf(text, sizeof(text), "node=%d", node + 1);
	assert_int_equal(pl_filter_parse(&f, text, err, sizeof(err)), 0);
	assert_true(pl_filter_match(&f, &pt));
	assert_false(pl_filter_match(&f, &pm));
	snprintf(text, sizeof(text), "node=%d?", node + 1);
	assert_int_equal(pl_filter_parse(&f, text, err, sizeof(err)), 0);
	assert_false(pl_filter_match(&f, &pt));
	assert_true(pl_filter_match(&f, &pm));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_every_key),
		cmocka_unit_test(teach_steps_by_number_id_and_maybe),
		cmocka_unit_test(bad_input_is_refused_and_changes_nothing),
		cmocka_unit_test(selects_the_right_placements),
		cmocka_unit_test(a_step_selects_what_took_it_or_may_have),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
