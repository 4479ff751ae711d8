// SPDX-License-Identifier: GPL-2.0
/*
 * test_teach.c - the decision tree's counts add up: a step never counts a path its
 * parent step does not (so a child never exceeds its parent), and "maybe" steps the
 * trace's machine cannot take (EAS and select_idle_capacity() on equal capacities,
 * select_idle_smt() without SMT siblings) count nothing.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "synth.h"
#include "teach.h"

static bool in_list(const int *l, int path)
{
	for (int k = 0; k < RQ_TEACH_MAX_PATHS && l[k] != -1; k++)
		if (l[k] == path)
			return true;
	return false;
}

static int parent_of(int i)
{
	int p = i - 1;

	while (p >= 0 && rq_teach_nodes[p].depth != rq_teach_nodes[i].depth - 1)
		p--;
	return p;
}

static void children_within_their_parent(void **state)
{
	for (int i = 0; i < rq_teach_nr_nodes; i++) {
		const struct rq_teach_node *n = &rq_teach_nodes[i], *pa;

		if (!n->depth)
			continue;
		assert_true(parent_of(i) >= 0);
		pa = &rq_teach_nodes[parent_of(i)];
		for (int k = 0; k < RQ_TEACH_MAX_PATHS && n->taken[k] != -1; k++) {
			if (!in_list(pa->taken, n->taken[k]))
				fail_msg("step %s takes %s, its parent %s does not", n->id,
					 rq_paths[n->taken[k]].id, pa->id);
		}
		for (int k = 0; k < RQ_TEACH_MAX_PATHS && n->maybe[k] != -1; k++) {
			if (!in_list(pa->taken, n->maybe[k]) && !in_list(pa->maybe, n->maybe[k]))
				fail_msg("step %s may take %s, its parent %s cannot", n->id,
					 rq_paths[n->maybe[k]].id, pa->id);
		}
	}
}

static int node(const char *id)
{
	for (int i = 0; i < rq_teach_nr_nodes; i++)
		if (!strcmp(rq_teach_nodes[i].id, id))
			return i;
	fail_msg("no step %s", id);
	return -1;
}

/* a wakeup kept on prev: EAS "may" have decided it, unless the capacities are equal */
static uint64_t eas_maybe(const char *cpu_line_extra)
{
	struct rq_analysis *an = synth_new(2, "6.18");
	struct rq_teach_count c;
	char line[160];

	for (int cpu = 0; cpu < 2; cpu++) {
		snprintf(line, sizeof(line), "cpu cpu=%d core=%d llc=0 node=0 llc_src=cache%s",
			 cpu, cpu, cpu_line_extra);
		ev_marker(an, 1, line);
	}
	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 2 * MS, 0, 0, 0, 900, "t");
	ev_switch(an, 3 * MS, 0, 900, 1, 0, NULL);
	ev_waking(an, 4 * MS, 1, 0, 900, 0);
	ev_wakeup(an, 4 * MS + 1000, 0, 0, 900, 0);
	assert_int_equal(path_count(an, "wake-prev"), 1);
	assert_true(rq_teach_count(an, node("eas"), &c));
	rq_analysis_free(an);
	return c.maybe;
}

/* a wakeup moved inside the LLC: select_idle_smt() "may" have found the CPU */
static uint64_t smt_maybe(bool cpu_markers)
{
	static const bool all[RQ_EV__COUNT] = {
		[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true, [RQ_EV_WAKEUP] = true,
		[RQ_EV_MIGRATE] = true,
	};
	/* without the markers, --topology gives the LLC but says nothing of SMT */
	struct rq_analysis_opts o = { .topology = cpu_markers ? NULL : "llc 0-2" };
	struct rq_analysis *an = rq_analysis_new(&o);
	struct rq_teach_count c;

	assert_int_equal(rq_analysis_begin(an, "x", 3, "6.18", all), 0);
	for (int cpu = 0; cpu < 3 && cpu_markers; cpu++)
		mark_cpu(an, cpu, 0);
	for (int cpu = 0; cpu < 3; cpu++)
		ev_switch(an, 1 * MS, cpu, 50 + cpu, 1, 0, NULL);
	ev_switch(an, 2 * MS, 0, 0, 0, 900, "t");
	ev_switch(an, 3 * MS, 0, 900, 1, 0, NULL);
	ev_waking(an, 4 * MS, 2, 0, 900, 0);
	ev_migrate(an, 4 * MS + 500, 2, 0, 0, 900, 120, 0, 1);
	ev_wakeup(an, 4 * MS + 1000, 1, 0, 900, 1);
	assert_int_equal(path_count(an, "wake-llc"), 1);
	assert_true(rq_teach_count(an, node("sis-smt"), &c));
	rq_analysis_free(an);
	return c.maybe;
}

static void maybe_only_where_the_machine_allows(void **state)
{
	assert_int_equal(eas_maybe(""), 1);			/* capacities unknown */
	assert_int_equal(eas_maybe(" capacity=1024"), 0);	/* equal: no EAS */
	assert_int_equal(smt_maybe(false), 1);			/* SMT unknown */
	assert_int_equal(smt_maybe(true), 0);		/* one core per CPU in the trace */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(children_within_their_parent),
		cmocka_unit_test(maybe_only_where_the_machine_allows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
