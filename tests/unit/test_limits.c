// SPDX-License-Identifier: GPL-2.0
/*
 * test_limits.c - bounded memory on hostile volumes: a million short-lived tasks
 * (distinct pids), each fork -> sched_wakeup_new -> first run -> exit -> free, must
 * leave the task table at about the number of exited tasks the engine keeps
 * (EXITED_KEEP = 4096 in engine.h), the pid index at the pages those tasks' pids span,
 * and every counter exact.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model.h"
#include "synth.h"

#define NR_TASKS 1000000
#define KEEP_BOUND (4096 + 64)	/* exited tasks kept + the live ones + slack */

static struct rq_analysis *start(void)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");

	assert_non_null(an);
	ev_switch(an, 1, 0, 50, 1, 0, NULL);
	ev_switch(an, 1, 1, 51, 1, 0, NULL);
	ev_switch(an, 2, 0, 0, 0, 100, "parent");	/* the forking parent runs on CPU 0 */
	return an;
}

/* One short-lived child: pid, forked by 100 on CPU 0, placed on target, exits. */
static void one_child(struct rq_analysis *an, uint64_t ts, int pid, int target, bool free_it)
{
	ev_fork(an, ts, 0, 100, pid);
	ev_wakeup_new(an, ts + 1, 0, 100, pid, target);
	if (target == 1) {
		ev_switch(an, ts + 2, 1, 0, 0, pid, "child");
		ev_simple(an, ts + 3, 1, RQ_EV_EXIT, pid, pid, 0);
		ev_switch(an, ts + 4, 1, pid, 64 /* TASK_DEAD */, 0, NULL);
	} else {
		ev_switch(an, ts + 2, 0, 100, 0, pid, "child");
		ev_simple(an, ts + 3, 0, RQ_EV_EXIT, pid, pid, 0);
		ev_switch(an, ts + 4, 0, pid, 64, 100, "parent");
	}
	if (free_it)
		ev_simple(an, ts + 5, target, RQ_EV_FREE, 0, pid, 0);
}

/*
 * The pages of the pid index in use: one per RQ_PID_PAGE pids that hold a task.  Pids
 * handed out ever higher (a busy kernel until pid_max wraps) must not leave a page behind
 * each: the index stays the size of the task table, not of every pid ever seen.
 */
static unsigned int pid_pages_used(const struct rq_analysis *an)
{
	unsigned int n = 0;

	for (size_t i = 0; i < sizeof(an->tasks.pid_pages) / sizeof(an->tasks.pid_pages[0]); i++)
		n += an->tasks.pid_pages[i] != rqe_no_pid_page;
	return n;
}
/* the pages a table of KEEP_BOUND tasks in consecutive pids spans, and one more */
#define PAGES_BOUND (KEEP_BOUND / RQ_PID_PAGE + 2)

static void million_pids_bounded(void **state)
{
	struct rq_analysis *an = start();
	unsigned int max_tasks = 0, max_pages = 0;

	for (int i = 0; i < NR_TASKS; i++) {
		one_child(an, 10 + (uint64_t)i * 10, 1000 + i, i & 1, true);
		if (an->tasks.nr_tasks > max_tasks)
			max_tasks = an->tasks.nr_tasks;
		if (i % 4096 == 0 && pid_pages_used(an) > max_pages)
			max_pages = pid_pages_used(an);
	}
	rq_analysis_finish(an);
	print_message("max tasks in the table: %u, evicted %llu, pid index pages %u\n",
		      max_tasks, (unsigned long long)an->tasks.nr_tasks_evicted, max_pages);
	assert_true(max_tasks <= KEEP_BOUND);
	assert_true(max_pages <= PAGES_BOUND);
	assert_true(pid_pages_used(an) <= PAGES_BOUND);
	assert_true(an->tasks.nr_tasks <= KEEP_BOUND);
	assert_int_equal(an->stats.counts[RQ_EV_FORK], NR_TASKS);
	assert_int_equal(an->stats.counts[RQ_EV_WAKEUP_NEW], NR_TASKS);
	assert_int_equal(an->stats.counts[RQ_EV_EXIT], NR_TASKS);
	assert_int_equal(an->stats.counts[RQ_EV_FREE], NR_TASKS);
	assert_int_equal(an->stats.counts[RQ_EV_SWITCH], 3 + 2 * (uint64_t)NR_TASKS);
	assert_int_equal(an->stats.nr_events, 3 + 6 * (uint64_t)NR_TASKS);
	/* every odd child went to CPU 1 while the parent wrote on CPU 0 */
	assert_int_equal(an->findings[RQ_FIND_OFFCPU_FORK].of, NR_TASKS);
	assert_int_equal(an->findings[RQ_FIND_OFFCPU_FORK].count, NR_TASKS / 2);
	assert_true(an->findings[RQ_FIND_OFFCPU_FORK].nexamples <= RQ_MAX_EXAMPLES);
	assert_int_equal(path_count(an, "fork-moved") + path_count(an, "fork-local"), NR_TASKS);
	assert_true(an->recent.len <= an->recent.cap);
	/* the oldest children were evicted: the pid index forgot them too */
	assert_null(rqe_task_find(an, 1000));
	assert_non_null(rqe_task_find(an, 1000 + NR_TASKS - 1));
	rq_analysis_free(an);
}

/*
 * sched_process_free comes from RCU, late: in a real trace most exits have no free
 * inside it (fixtures/spawn.dat: 216 exits, 95 frees), and a recording may not enable
 * it at all.  A task that exited and was switched out for the last time is dead too:
 * memory must stay bounded without the free events.
 */
static void million_pids_bounded_without_free(void **state)
{
	struct rq_analysis *an = start();
	unsigned int max_tasks = 0;

	for (int i = 0; i < NR_TASKS; i++) {
		one_child(an, 10 + (uint64_t)i * 10, 1000 + i, i & 1, false);
		if (an->tasks.nr_tasks > max_tasks)
			max_tasks = an->tasks.nr_tasks;
	}
	rq_analysis_finish(an);
	print_message("without free: max tasks in the table: %u\n", max_tasks);
	assert_int_equal(an->stats.counts[RQ_EV_EXIT], NR_TASKS);
	assert_int_equal(an->stats.counts[RQ_EV_FREE], 0);
	assert_true(max_tasks <= KEEP_BOUND);
	assert_true(pid_pages_used(an) <= PAGES_BOUND);
	rq_analysis_free(an);
}

/*
 * Pids from a trace are hostile: the task table indexes pids 1 .. RQ_PID_LIMIT - 1
 * directly and hashes the others.  Each pid must find its own task, on both sides of
 * every border, and a pid that is no task (0, negative) must get none.
 */
static void pid_table_borders(void **state)
{
	static const int pids[] = {
		1, 2, RQ_PID_PAGE - 1, RQ_PID_PAGE, RQ_PID_PAGE + 1, RQ_PID_LIMIT - 1,
		RQ_PID_LIMIT, RQ_PID_LIMIT + 1, 0x7fffffff, 0x7ffffffe,
	};
	struct rq_analysis *an = synth_new(2, "6.18.44");
	const int n = (int)(sizeof(pids) / sizeof(pids[0]));
	struct rq_task *t[sizeof(pids) / sizeof(pids[0])];

	assert_non_null(an);
	assert_null(rqe_task_get(an, 0, 1));
	assert_null(rqe_task_get(an, -5, 1));
	assert_null(rqe_task_get(an, -0x7fffffff - 1, 1));
	for (int i = 0; i < n; i++) {
		assert_null(rqe_task_find(an, pids[i]));
		t[i] = rqe_task_get(an, pids[i], 1);
		assert_non_null(t[i]);
		assert_int_equal(t[i]->pid, pids[i]);
	}
	for (int i = 0; i < n; i++) {
		assert_ptr_equal(rqe_task_find(an, pids[i]), t[i]);
		assert_ptr_equal(rqe_task_get(an, pids[i], 2), t[i]);
	}
	assert_null(rqe_task_find(an, 0));
	assert_null(rqe_task_find(an, -5));
	assert_null(rqe_task_find(an, 3));
	assert_null(rqe_task_find(an, RQ_PID_LIMIT + 2));
	assert_int_equal(an->tasks.nr_tasks, n);
	rq_analysis_free(an);
}

/* Many distinct pids, spread over the index and far beyond it: each finds its own task. */
static void pid_table_many(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	const int n = 20000;

	assert_non_null(an);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < n; i++) {
			/* odd i: one pid every 200 up to RQ_PID_LIMIT; even: up to 2e9 */
			int pid = i % 2 ? i * 200 + 1 : RQ_PID_LIMIT + i * 100000;
			struct rq_task *t = pass ? rqe_task_find(an, pid) : rqe_task_get(an, pid, 1);

			assert_non_null(t);
			assert_int_equal(t->pid, pid);
		}
	}
	assert_int_equal(an->tasks.nr_tasks, n);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(million_pids_bounded),
		cmocka_unit_test(million_pids_bounded_without_free),
		cmocka_unit_test(pid_table_borders),
		cmocka_unit_test(pid_table_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
