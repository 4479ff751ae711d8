// SPDX-License-Identifier: GPL-2.0
/*
 * test_analysis.c - every classifier branch and every finding on synthetic event
 * sequences, each with a control that must give 0.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "synth.h"

/* Both CPUs seen idle (so their runqueues are known), then a task on CPU 0. */
static struct rq_analysis *two_cpus_known(void)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");

	assert_non_null(an);
	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	return an;
}

static void fork_local_and_moved(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	ev_switch(an, 2 * MS, 0, 0, 0, 100, "parent");
	ev_fork(an, 3 * MS, 0, 100, 101);
	ev_wakeup_new(an, 3 * MS, 0, 100, 101, 0);	/* kept local */
	ev_fork(an, 4 * MS, 0, 100, 102);
	ev_wakeup_new(an, 4 * MS, 0, 100, 102, 1);	/* moved */
	assert_int_equal(path_count(an, "fork-local"), 1);
	assert_int_equal(path_count(an, "fork-moved"), 1);
	assert_int_equal(finding(an, RQ_FIND_OFFCPU_FORK), 1);
	assert_int_equal(an->findings[RQ_FIND_OFFCPU_FORK].of, 2);
	assert_int_equal(an->findings[RQ_FIND_OFFCPU_FORK].examples[0].pid, 102);
	/* an example carries the number of its placement */
	assert_int_equal(an->findings[RQ_FIND_OFFCPU_FORK].examples[0].seq, 2);
	assert_int_equal(rq_recent(an, 0)->seq, 2);
	rq_analysis_free(an);
}

/* RQ_RECENT_NONE (rqpath audit's choice): no ring, the same counts and examples */
static void no_recent_ring_same_counts(void **state)
{
	struct rq_analysis *an = rq_analysis_new(&(struct rq_analysis_opts){
		.recent_capacity = RQ_RECENT_NONE });

	assert_non_null(an);
	assert_int_equal(rq_analysis_begin(an, "synthetic", 2, "6.18.44", NULL), 0);
	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	ev_switch(an, 2 * MS, 0, 0, 0, 100, "parent");
	ev_fork(an, 3 * MS, 0, 100, 101);
	ev_wakeup_new(an, 3 * MS, 0, 100, 101, 0);
	ev_fork(an, 4 * MS, 0, 100, 102);
	ev_wakeup_new(an, 4 * MS, 0, 100, 102, 1);
	assert_int_equal(path_count(an, "fork-local"), 1);
	assert_int_equal(path_count(an, "fork-moved"), 1);
	assert_int_equal(finding(an, RQ_FIND_OFFCPU_FORK), 1);
	assert_int_equal(an->findings[RQ_FIND_OFFCPU_FORK].examples[0].seq, 2);
	assert_null(rq_recent(an, 0));
	assert_int_equal(rq_analysis_summary(an)->recent_len, 0);
	assert_int_equal(rq_analysis_summary(an)->recent_cap, 0);
	rq_analysis_free(an);
}

static void offcpu_fork_names_the_autogroup_regression(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.10.3");
	char buf[512];

	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	ev_fork(an, 3 * MS, 0, 100, 101);
	ev_wakeup_new(an, 3 * MS, 0, 100, 101, 1);
	rq_placement_describe(&an->findings[RQ_FIND_OFFCPU_FORK].examples[0], buf, sizeof(buf));
	assert_non_null(strstr(buf, "76f970ce51c8"));
	rq_analysis_free(an);
}

static void offcpu_fork_parent_idle_and_lifetime(void **state)
{
	struct rq_analysis *an = two_cpus_known();
	const struct rq_placement *x;

	ev_switch(an, 2 * MS, 0, 0, 0, 100, "parent");
	ev_fork(an, 3 * MS, 0, 100, 101);
	ev_wakeup_new(an, 3 * MS, 0, 100, 101, 1);
	ev_switch(an, 4 * MS, 0, 100, 1, 0, NULL);	/* parent sleeps: CPU 0 idle */
	ev_switch(an, 5 * MS, 1, 0, 0, 101, "child");	/* child first runs on CPU 1 */
	ev_simple(an, 7 * MS, 1, RQ_EV_EXIT, 101, 101, 0);
	x = &an->findings[RQ_FIND_OFFCPU_FORK].examples[0];
	assert_int_equal(x->parent_cpu_idled, 1);
	assert_int_equal(x->child_lifetime_ns, 4 * MS);

	/* control: the parent keeps CPU 0 busy until the child runs */
	ev_switch(an, 8 * MS, 0, 0, 0, 100, "parent");
	ev_fork(an, 9 * MS, 0, 100, 102);
	ev_wakeup_new(an, 9 * MS, 0, 100, 102, 1);
	ev_switch(an, 10 * MS, 1, 0, 0, 102, "child");
	x = &an->findings[RQ_FIND_OFFCPU_FORK].examples[1];
	assert_int_equal(x->parent_cpu_idled, 0);
	assert_int_equal(x->child_lifetime_ns, -1);
	rq_analysis_free(an);
}

static void needless_callback_pinned_exec(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	mark_task(an, 2 * MS, 200, 0, "1");
	mark_task(an, 2 * MS, 201, 0, "0-1");
	ev_exec(an, 3 * MS, 1, 200, "/usr/bin/true");
	ev_exec(an, 4 * MS, 0, 201, "/usr/bin/true");	/* control: two CPUs allowed */
	ev_exec(an, 5 * MS, 0, 202, "/usr/bin/true");	/* affinity never seen: unknown */
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 1);
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 1);
	assert_int_equal(path_count(an, "exec-affine"), 1);
	assert_int_equal(path_count(an, "exec-local"), 2);
	assert_string_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].examples[0].comm, "true");
	rq_analysis_free(an);
}

static void needless_callback_profile_fixed(void **state)
{
	/* the syscall events are there: the marked mask holds at the exec */
	static const bool events[RQ_EV__COUNT] = { [RQ_EV_EXEC] = true,
						   [RQ_EV_SETAFFINITY_ENTER] = true };
	struct rq_analysis_opts o = { .profile_override = "exec-callback=fixed" };
	struct rq_analysis *an = rq_analysis_new(&o);

	assert_int_equal(rq_analysis_begin(an, "x", 2, "6.18", events), 0);
	mark_task(an, 2 * MS, 200, 0, "1");
	ev_exec(an, 3 * MS, 1, 200, "/bin/true");
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 0);
	assert_int_equal(path_count(an, "exec-affine"), 1);
	rq_analysis_free(an);
}

static void affinity_inherited_at_fork_and_changed_by_syscall(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	mark_task(an, 2 * MS, 100, 0, "1");
	ev_fork(an, 3 * MS, 1, 100, 101);
	ev_wakeup_new(an, 3 * MS, 1, 100, 101, 1);
	assert_int_equal(path_count(an, "fork-affine"), 1);
	ev_exec(an, 4 * MS, 1, 101, "/bin/a");
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 1);
	/* sched_setaffinity succeeded: the new mask is not in the trace -> unknown */
	ev_simple(an, 5 * MS, 1, RQ_EV_SETAFFINITY_ENTER, 101, 0, 0);
	ev_simple(an, 5 * MS, 1, RQ_EV_SETAFFINITY_EXIT, 101, 0, 0);
	ev_exec(an, 6 * MS, 1, 101, "/bin/b");
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 1);
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 1);
	/* ... until a marker carries the value (which also settles /bin/b) */
	mark_task(an, 7 * MS, 101, 0, "0");
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 0);
	ev_exec(an, 8 * MS, 1, 101, "/bin/c");
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 3);
	rq_analysis_free(an);
}

/* The recorder's marker arrives after the execs it describes: they are settled then. */
static void late_marker_settles_unknown_execs(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	mark_task(an, 2 * MS, 100, 0, "0-1");
	ev_simple(an, 3 * MS, 1, RQ_EV_SETAFFINITY_ENTER, 100, 0, 0);
	ev_simple(an, 3 * MS, 1, RQ_EV_SETAFFINITY_EXIT, 100, 0, 0);
	ev_exec(an, 4 * MS, 1, 100, "/bin/a");
	ev_exec(an, 5 * MS, 1, 100, "/bin/a");
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 2);
	mark_task(an, 6 * MS, 100, 0, "1");
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 0);
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 2);
	assert_int_equal(path_count(an, "exec-affine"), 2);
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].nexamples, 1);

	/* control: a second affinity change before the marker keeps them unknown */
	ev_simple(an, 7 * MS, 1, RQ_EV_SETAFFINITY_ENTER, 100, 0, 0);
	ev_simple(an, 7 * MS, 1, RQ_EV_SETAFFINITY_EXIT, 100, 0, 0);
	ev_exec(an, 8 * MS, 1, 100, "/bin/a");
	ev_simple(an, 9 * MS, 1, RQ_EV_SETAFFINITY_ENTER, 100, 0, 0);
	ev_simple(an, 9 * MS, 1, RQ_EV_SETAFFINITY_EXIT, 100, 0, 0);
	mark_task(an, 10 * MS, 100, 0, "1");
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 1);
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 2);

	/* a late marker with two CPUs settles the exec as fine: no longer unknown */
	ev_simple(an, 11 * MS, 1, RQ_EV_SETAFFINITY_ENTER, 100, 0, 0);
	ev_simple(an, 11 * MS, 1, RQ_EV_SETAFFINITY_EXIT, 100, 0, 0);
	ev_exec(an, 12 * MS, 1, 100, "/bin/a");
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 2);
	mark_task(an, 13 * MS, 100, 0, "0-1");
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 1);
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 2);
	rq_analysis_free(an);
}

/* A cgroup move may change the cpuset: the mask is unknown until the next marker. */
static void cgroup_move_makes_mask_unknown(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	mark_task(an, 2 * MS, 100, 0, "1");
	ev_simple(an, 3 * MS, 1, RQ_EV_CGROUP_ATTACH, 100, 100, 0);
	ev_exec(an, 4 * MS, 1, 100, "/bin/a");
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 1);
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 0);
	mark_task(an, 5 * MS, 100, 0, "0-1");
	assert_int_equal(an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown, 0);
	assert_int_equal(finding(an, RQ_FIND_NEEDLESS_CALLBACK), 0);
	rq_analysis_free(an);
}

/* The stopper: migration/0 moves a task; what follows decides the kind. */
static void stopper_exec_active_and_affinity(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	ev_switch(an, 2 * MS, 0, 0, 0, 300, "worker");
	ev_switch(an, 3 * MS, 0, 300, 0x100, 10, "migration/0");
	ev_migrate(an, 3 * MS, 0, 10, 1, 300, 120, 0, 1);
	ev_exec(an, 4 * MS, 1, 300, "/bin/sh");
	assert_int_equal(path_count(an, "exec-moved"), 1);

	ev_switch(an, 5 * MS, 0, 10, 1, 301, "other");
	ev_switch(an, 6 * MS, 0, 301, 0x100, 10, "migration/0");
	ev_migrate(an, 6 * MS, 0, 10, 1, 301, 120, 0, 1);
	ev_simple(an, 7 * MS, 0, RQ_EV_SETAFFINITY_ENTER, 400, 302, 0);
	ev_switch(an, 7 * MS, 0, 10, 1, 302, "pinned");
	ev_switch(an, 8 * MS, 0, 302, 0x100, 10, "migration/0");
	ev_migrate(an, 8 * MS, 0, 10, 1, 302, 120, 0, 1);
	ev_simple(an, 8 * MS, 0, RQ_EV_SETAFFINITY_EXIT, 400, 0, 0);
	rq_analysis_finish(an);
	assert_int_equal(path_count(an, "lb-active"), 1);
	assert_int_equal(path_count(an, "affinity-stopper"), 1);
	assert_int_equal(path_count(an, "exec-local"), -1 + 1);
	rq_analysis_free(an);
}

static void stopper_exec_window_expires(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	ev_switch(an, 2 * MS, 0, 0, 0, 300, "worker");
	ev_switch(an, 3 * MS, 0, 300, 0x100, 10, "migration/0");
	ev_migrate(an, 3 * MS, 0, 10, 1, 300, 120, 0, 1);
	ev_exec(an, 500 * MS, 1, 300, "/bin/sh");	/* far too late to be sched_exec's */
	assert_int_equal(path_count(an, "exec-moved"), 0);
	assert_int_equal(path_count(an, "lb-active"), 1);
	assert_int_equal(path_count(an, "exec-local"), 1);
	rq_analysis_free(an);
}

static void wakeup_paths(void **state)
{
	struct rq_analysis *an = synth_new(4, "6.18");

	mark_cpu(an, 0, 0);
	mark_cpu(an, 1, 0);
	mark_cpu(an, 2, 2);
	mark_cpu(an, 3, 2);
	for (int c = 0; c < 4; c++)
		ev_switch(an, 1 * MS, c, 50 + c, 1, 0, NULL);
	for (int pid = 500; pid < 505; pid++) {
		mark_task(an, 2 * MS, pid, 0, "0-3");
		ev_switch(an, 3 * MS, 0, 0, 0, pid, "sleeper");
		ev_switch(an, 3 * MS, 0, pid, 1, 0, NULL);	/* blocks on CPU 0 */
	}
	/* waker 600 runs on CPU 3 */
	ev_switch(an, 50 * MS, 3, 0, 0, 600, "waker");
	ev_waking(an, 51 * MS, 3, 600, 500, 0);
	ev_wakeup(an, 51 * MS, 3, 600, 500, 0);			/* prev kept */
	ev_waking(an, 52 * MS, 3, 600, 501, 0);
	ev_migrate(an, 52 * MS, 3, 600, 0, 501, 120, 0, 3);
	ev_wakeup(an, 52 * MS, 3, 600, 501, 3);			/* pulled to waker */
	ev_waking(an, 53 * MS, 3, 600, 502, 0);
	ev_migrate(an, 53 * MS, 3, 600, 0, 502, 120, 0, 1);
	ev_wakeup(an, 53 * MS, 3, 600, 502, 1);			/* same LLC */
	ev_waking(an, 54 * MS, 3, 600, 503, 0);
	ev_migrate(an, 54 * MS, 3, 600, 0, 503, 120, 0, 2);
	ev_wakeup(an, 54 * MS, 3, 600, 503, 2);			/* other LLC */
	ev_waking(an, 55 * MS, 3, 600, 503, 2);
	ev_wakeup(an, 55 * MS, 3, 600, 503, 2);			/* still queued: runnable */
	assert_int_equal(path_count(an, "wake-prev"), 1);
	assert_int_equal(path_count(an, "wake-pulled"), 1);
	assert_int_equal(path_count(an, "wake-llc"), 1);
	assert_int_equal(path_count(an, "wake-cross-llc"), 1);
	assert_int_equal(path_count(an, "wake-runnable"), 1);
	assert_int_equal(an->stats.counts[RQ_EV_MIGRATE], 3);
	rq_analysis_free(an);
}

static void balance_kinds(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	ev_switch(an, 2 * MS, 0, 0, 0, 700, "a");
	ev_switch(an, 2 * MS, 0, 700, 0x100, 701, "b");	/* 700 queued on CPU 0 */
	ev_migrate(an, 3 * MS, 1, 0, RQ_FLAG_SOFTIRQ, 700, 120, 0, 1);	/* periodic */
	ev_switch(an, 4 * MS, 1, 0, 0, 700, "a");
	ev_switch(an, 4 * MS, 1, 700, 0x100, 702, "c");	/* 700 queued on CPU 1 */
	ev_migrate(an, 5 * MS, 0, 0, RQ_FLAG_SOFTIRQ | 1, 700, 120, 1, 1 /* unchanged */);
	ev_migrate(an, 6 * MS, 0, 701, 1, 700, 120, 1, 0);	/* newidle: 701 blocks next */
	ev_migrate(an, 7 * MS, 1, 0, RQ_FLAG_SOFTIRQ, 703, 120, 0, 0);	/* nohz: dest != cpu */
	ev_migrate(an, 8 * MS, 1, 702, 1, 704, 50, 0, 1);	/* RT push/pull */
	assert_int_equal(path_count(an, "lb-periodic"), 1);
	assert_int_equal(path_count(an, "lb-newidle"), 1);
	assert_int_equal(path_count(an, "lb-nohz"), 2);
	assert_int_equal(path_count(an, "lb-rt"), 1);
	rq_analysis_free(an);
}

static int count_task(const struct rq_task_info *ti, void *data)
{
	(*(int *)data) += ti->pid > 0;
	return 0;
}

/* A task preempted while exiting is still queued: a newidle pull of it is classified. */
static void exiting_task_preempted_then_pulled(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	ev_fork(an, 2 * MS, 0, 100, 101);
	ev_wakeup_new(an, 2 * MS, 0, 100, 101, 1);
	ev_switch(an, 3 * MS, 1, 0, 0, 101, "child");
	ev_simple(an, 4 * MS, 1, RQ_EV_EXIT, 101, 101, 0);
	ev_switch(an, 5 * MS, 1, 101, 0 /* R: preempted */, 102, "other");
	ev_migrate(an, 6 * MS, 0, 100, 1, 101, 120, 1, 0);	/* CPU 0 going idle pulls it */
	ev_switch(an, 6 * MS, 0, 100, 0x10, 101, "child");
	assert_int_equal(path_count(an, "lb-newidle"), 1);
	assert_int_equal(path_count(an, "unknown"), 0);
	ev_switch(an, 7 * MS, 0, 101, 0x10 /* X */, 0, NULL);
	assert_int_equal(rqe_task_find(an, 101)->state, RQ_TS_DEAD);
	rq_analysis_free(an);
}

/* The public view of a task (struct rq_task_info) copies what the model knows. */
static void task_info_copies_the_model(void **state)
{
	struct rq_analysis *an = two_cpus_known();
	struct rq_task_info ti;
	int seen = 0;

	ev_fork(an, 2 * MS, 0, 100, 101);
	ev_wakeup_new(an, 2 * MS, 0, 100, 101, 1);
	ev_switch(an, 3 * MS, 1, 0, 0, 101, "child");
	ev_simple(an, 4 * MS, 1, RQ_EV_EXIT, 101, 101, 0);
	ev_switch(an, 5 * MS, 1, 101, 0x10 /* X */, 0, NULL);
	assert_false(rq_task_info_get(an, 4242, &ti));
	assert_true(rq_task_info_get(an, 100, &ti));
	assert_int_equal(ti.pid, 100);
	assert_int_equal(ti.nr_forks, rqe_task_find(an, 100)->nr_forks);
	assert_true(ti.nr_forks >= 1);
	assert_true(rq_task_info_get(an, 101, &ti));
	assert_string_equal(ti.comm, "child");
	assert_int_equal(ti.ppid, 100);
	assert_int_equal(ti.state, RQ_TS_DEAD);
	assert_true(ti.exited);
	assert_true(ti.mask_known == (ti.mask != NULL));
	assert_int_equal(rq_task_info_foreach(an, count_task, &seen), 0);
	assert_int_equal(seen, (int)rq_analysis_summary(an)->nr_tasks);
	rq_analysis_free(an);
}

static void idle_stacking_and_control(void **state)
{
	for (int policy = 5; policy >= 0; policy -= 5) {
		struct rq_analysis *an = two_cpus_known();

		mark_task(an, 2 * MS, 800, policy, "0");	/* the hog, on CPU 0 */
		mark_task(an, 2 * MS, 801, policy, "0-1");	/* a sleeper */
		ev_switch(an, 3 * MS, 0, 0, 0, 800, "hog");
		ev_waking(an, 10 * MS, 0, 800, 801, 0);
		ev_wakeup(an, 10 * MS, 0, 800, 801, 0);	/* CPU 1 idle, put on the hog's CPU */
		assert_int_equal(finding(an, RQ_FIND_IDLE_STACKING), policy == 5 ? 1 : 0);
		/* a SCHED_IDLE-only CPU is not "busy" for missed-idle */
		assert_int_equal(finding(an, RQ_FIND_MISSED_IDLE), policy == 5 ? 0 : 1);
		rq_analysis_free(an);
	}
}

static void idle_stacking_needs_known_policy_and_cpu(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18");

	/* CPU 1 never seen idle: its state is unknown, nothing may be judged */
	mark_task(an, 2 * MS, 800, 5, "0");
	mark_task(an, 2 * MS, 801, 5, "0-1");
	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 3 * MS, 0, 0, 0, 800, "hog");
	ev_waking(an, 10 * MS, 0, 800, 801, 0);
	ev_wakeup(an, 10 * MS, 0, 800, 801, 0);
	assert_int_equal(finding(an, RQ_FIND_IDLE_STACKING), 0);
	/* policy unknown: not judged either */
	ev_switch(an, 11 * MS, 1, 51, 1, 0, NULL);
	ev_waking(an, 12 * MS, 0, 800, 802, 0);
	ev_wakeup(an, 12 * MS, 0, 800, 802, 0);
	assert_int_equal(finding(an, RQ_FIND_IDLE_STACKING), 0);
	assert_true(an->findings[RQ_FIND_IDLE_STACKING].not_judged >= 1);
	rq_analysis_free(an);
}

/*
 * A CPU never seen idle is known after 20 ms of watching it.  The sleeper blocked on
 * that CPU, which never went idle since: it may still have been delay-dequeued, so its
 * wakeup proves no selection and the stacking is only possible.
 */
static void idle_stacking_on_a_cpu_never_idle(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18");

	mark_task(an, 1 * MS, 800, 5, "0");
	mark_task(an, 1 * MS, 801, 5, "0-1");
	mark_task(an, 1 * MS, 802, 0, "0-1");
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);		/* CPU 1 idle */
	ev_switch(an, 2 * MS, 0, 60, 1, 800, "hog");	/* CPU 0: never idle */
	ev_switch(an, 3 * MS, 0, 800, 0x100, 802, "normal");
	ev_switch(an, 4 * MS, 0, 802, 1, 800, "hog");		/* 802 blocks: maybe delayed */
	ev_waking(an, 10 * MS, 0, 800, 801, 0);
	ev_wakeup(an, 10 * MS, 0, 800, 801, 0);
	assert_int_equal(finding(an, RQ_FIND_IDLE_STACKING), 0);	/* CPU 0 not known yet */
	ev_switch(an, 20 * MS, 0, 800, 0x100, 801, "sleeper");	/* 801 runs, then sleeps */
	ev_switch(an, 21 * MS, 0, 801, 1, 800, "hog");
	ev_switch(an, 30 * MS, 0, 800, 0x100, 800, "hog");
	ev_waking(an, 31 * MS, 0, 800, 801, 0);
	ev_wakeup(an, 31 * MS, 0, 800, 801, 0);
	assert_int_equal(finding(an, RQ_FIND_IDLE_STACKING), 0);
	assert_int_equal(an->findings[RQ_FIND_IDLE_STACKING].possible, 1);
	rq_analysis_free(an);
}

static void missed_idle_and_controls(void **state)
{
	struct rq_analysis *an = synth_new(4, "6.18");

	mark_cpu(an, 0, 0);
	mark_cpu(an, 1, 0);
	mark_cpu(an, 2, 2);
	mark_cpu(an, 3, 2);
	for (int c = 0; c < 4; c++)
		ev_switch(an, 1 * MS, c, 50 + c, 1, 0, NULL);
	mark_task(an, 2 * MS, 900, 0, "0-3");
	mark_task(an, 2 * MS, 901, 0, "0-3");
	mark_task(an, 2 * MS, 902, 0, "0,2");
	ev_switch(an, 3 * MS, 0, 0, 0, 910, "busy");
	ev_switch(an, 3 * MS, 2, 0, 0, 912, "busy");
	ev_switch(an, 3 * MS, 3, 0, 0, 913, "busy");
	/* CPU 1 idle and in CPU 0's LLC: waking 900 onto busy CPU 0 misses it */
	ev_waking(an, 10 * MS, 0, 910, 900, 0);
	ev_wakeup(an, 10 * MS, 0, 910, 900, 0);
	assert_int_equal(finding(an, RQ_FIND_MISSED_IDLE), 1);
	/* control: CPU 3's LLC has no idle CPU (CPU 1 idle is in another LLC) */
	ev_waking(an, 11 * MS, 2, 912, 901, 2);
	ev_wakeup(an, 11 * MS, 2, 912, 901, 2);
	/* control: CPU 1 idle but not allowed to 902 */
	ev_waking(an, 12 * MS, 0, 910, 902, 0);
	ev_wakeup(an, 12 * MS, 0, 910, 902, 0);
	assert_int_equal(finding(an, RQ_FIND_MISSED_IDLE), 1);
	rq_analysis_free(an);
}

static void policy_from_setscheduler_syscall(void **state)
{
	struct rq_analysis *an = two_cpus_known();
	struct rq_task *t;

	mark_task(an, 2 * MS, 100, 0, "0-1");
	ev_simple(an, 3 * MS, 0, RQ_EV_SETSCHED_ENTER, 100, 0, 5 | 0x40000000);
	ev_simple(an, 3 * MS, 0, RQ_EV_SETSCHED_EXIT, 100, 0, 0);
	t = rqe_task_find(an, 100);
	assert_non_null(t);
	assert_int_equal(t->policy, RQ_SCHED_IDLE);
	/* a failed call changes nothing */
	ev_simple(an, 4 * MS, 0, RQ_EV_SETSCHED_ENTER, 100, 0, 0);
	ev_simple(an, 4 * MS, 0, RQ_EV_SETSCHED_EXIT, 100, 0, -1);
	assert_int_equal(t->policy, RQ_SCHED_IDLE);
	/* sched_setattr: the value is not in the trace */
	ev_simple(an, 5 * MS, 0, RQ_EV_SETATTR_ENTER, 100, 0, 0);
	ev_simple(an, 5 * MS, 0, RQ_EV_SETATTR_EXIT, 100, 0, 0);
	assert_int_equal(t->policy, RQ_POLICY_UNKNOWN);
	rq_analysis_free(an);
}

static void lost_events_reset_cpu(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	ev_simple(an, 2 * MS, 1, RQ_EV_LOST, 0, 0, 7);
	assert_int_equal(an->stats.lost_events, 7);
	assert_false(an->cpus[1].known);
	assert_true(an->cpus[0].known);
	/* a placement onto the CPU in the gap says so */
	ev_fork(an, 3 * MS, 0, 100, 101);
	ev_wakeup_new(an, 3 * MS, 0, 100, 101, 1);
	assert_true(rq_recent(an, 0)->notes & RQ_NOTE_AFTER_LOSS);
	ev_fork(an, 4 * MS, 0, 100, 102);
	ev_wakeup_new(an, 4 * MS, 0, 100, 102, 0);
	assert_false(rq_recent(an, 0)->notes & RQ_NOTE_AFTER_LOSS);
	rq_analysis_free(an);
}

static void memory_flat_with_many_pids(void **state)
{
	struct rq_analysis *an = two_cpus_known();

	ev_switch(an, 2 * MS, 0, 0, 0, 1, "init");
	for (int pid = 1000; pid < 101000; pid++) {
		uint64_t ts = 3 * MS + (uint64_t)pid * 1000;

		ev_fork(an, ts, 0, 1, pid);
		ev_wakeup_new(an, ts + 1, 0, 1, pid, 1);
		ev_simple(an, ts + 2, 1, RQ_EV_EXIT, pid, pid, 0);
		ev_simple(an, ts + 3, 1, RQ_EV_FREE, pid, pid, 0);
	}
	assert_true(an->tasks.nr_tasks < 5000);
	assert_int_equal(finding(an, RQ_FIND_OFFCPU_FORK), 100000);
	assert_int_equal(an->recent.len, RQ_RECENT_DEFAULT);
	rq_analysis_free(an);
}

static void profile_from_release(void **state)
{
	struct rq_profile p;
	char err[256];

	rq_profile_from_release(&p, "6.10.3-arch1");
	assert_true(p.fork_util_regression);
	assert_true(p.idle_stack_allowed);
	/* the stable series that took the revert of eff6c8ce8d4d, and those that did not */
	rq_profile_from_release(&p, "6.12.20");
	assert_true(p.fork_util_regression);
	rq_profile_from_release(&p, "6.12.21");
	assert_false(p.fork_util_regression);
	rq_profile_from_release(&p, "6.12.117+deb13-amd64");
	assert_false(p.fork_util_regression);
	assert_true(p.delayed_dequeue);
	rq_profile_from_release(&p, "6.13.8");
	assert_true(p.fork_util_regression);
	rq_profile_from_release(&p, "6.13.9");
	assert_false(p.fork_util_regression);
	rq_profile_from_release(&p, "6.1.0-40-amd64");
	assert_false(p.fork_util_regression);
	assert_false(p.delayed_dequeue);
	rq_profile_from_release(&p, "6.6.100");
	assert_true(p.fork_util_regression);
	rq_profile_from_release(&p, "7.1.0");
	assert_false(p.idle_stack_allowed);
	assert_false(p.fork_util_regression);
	assert_int_equal(rq_profile_override(&p, "idle-stack=affected,exec-callback=fixed", err,
					     sizeof(err)), 0);
	assert_true(p.idle_stack_allowed);
	assert_false(p.exec_callback_unconditional);
	assert_int_equal(rq_profile_override(&p, "bogus=1", err, sizeof(err)), -1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fork_local_and_moved),
		cmocka_unit_test(no_recent_ring_same_counts),
		cmocka_unit_test(offcpu_fork_parent_idle_and_lifetime),
		cmocka_unit_test(offcpu_fork_names_the_autogroup_regression),
		cmocka_unit_test(needless_callback_pinned_exec),
		cmocka_unit_test(needless_callback_profile_fixed),
		cmocka_unit_test(affinity_inherited_at_fork_and_changed_by_syscall),
		cmocka_unit_test(late_marker_settles_unknown_execs),
		cmocka_unit_test(cgroup_move_makes_mask_unknown),
		cmocka_unit_test(stopper_exec_active_and_affinity),
		cmocka_unit_test(stopper_exec_window_expires),
		cmocka_unit_test(wakeup_paths),
		cmocka_unit_test(balance_kinds),
		cmocka_unit_test(exiting_task_preempted_then_pulled),
		cmocka_unit_test(task_info_copies_the_model),
		cmocka_unit_test(idle_stacking_and_control),
		cmocka_unit_test(idle_stacking_needs_known_policy_and_cpu),
		cmocka_unit_test(idle_stacking_on_a_cpu_never_idle),
		cmocka_unit_test(missed_idle_and_controls),
		cmocka_unit_test(policy_from_setscheduler_syscall),
		cmocka_unit_test(lost_events_reset_cpu),
		cmocka_unit_test(memory_flat_with_many_pids),
		cmocka_unit_test(profile_from_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
