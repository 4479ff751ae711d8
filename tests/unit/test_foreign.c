// SPDX-License-Identifier: GPL-2.0
/*
 * test_foreign.c - what plain traces of other machines need, on synthetic event streams:
 * a finding the trace cannot support is not judged; the kernel's age from the events it
 * defines; one exec record gives at most one exec placement; idle-stacking judged where
 * the verdict does not depend on the unknown policy, a wakeup from an unknown CPU counted
 * not judged; the cause of a queue delay that cannot be measured.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "delay_store.h"
#include "synth.h"

/* nr CPUs of one LLC from cpu markers, each seen idle at 1 ms */
static struct rq_analysis *cpus_idle(int nr)
{
	struct rq_analysis *an = synth_new(nr, "6.18.44");

	assert_non_null(an);
	for (int c = 0; c < nr; c++)
		mark_cpu(an, c, 0);
	for (int c = 0; c < nr; c++)
		ev_switch(an, 1 * MS, c, 50 + c, 1, 0, NULL);
	return an;
}

/*
 * No sched_wakeup record: the move of a sleeping task is taken for its wakeup's
 * placement (wake-pulled here), but missed-idle is not judged on it, though CPU 1 was
 * busy and CPU 2 idle: the trace cannot support the finding.
 */
static void no_wakeup_records_not_judged(void **state)
{
	struct rq_analysis *an = cpus_idle(3);
	const struct rq_finding_store *s = &an->findings[RQ_FIND_MISSED_IDLE];

	mark_task(an, 1 * MS, 100, 0, "0-2");
	mark_task(an, 1 * MS, 200, 0, "0-2");
	ev_switch(an, 2 * MS, 0, 0, 0, 100, "sleeper");
	ev_switch(an, 3 * MS, 0, 100, 1, 0, NULL);	/* blocks on CPU 0, which idles */
	ev_switch(an, 4 * MS, 1, 0, 0, 200, "busy");
	ev_migrate(an, 5 * MS, 1, 200, 0, 100, 120, 0, 1);
	assert_int_equal(path_count(an, "wake-pulled"), 1);
	assert_int_equal(s->count, 0);
	assert_int_equal(s->possible, 0);
	assert_int_equal(s->judged, 0);
	assert_int_equal(s->not_judged, 1);
	assert_int_not_equal(rq_analysis_summary(an)->lacks[RQ_FIND_MISSED_IDLE], RQ_EV_OTHER);
	assert_true(rq_finding_not_judged(&rq_analysis_summary(an)->findings[RQ_FIND_MISSED_IDLE]));
	rq_analysis_free(an);
}

/* The release unknown: sched_prepare_exec (v6.10) undefined means no delayed dequeue. */
static void profile_from_prepare_exec(void **state)
{
	bool has[RQ_EV__COUNT] = { [RQ_EV_WAKING] = true, [RQ_EV_WAKEUP] = true };
	struct rq_profile p;

	rq_profile_from_release(&p, "");
	rq_profile_from_events(&p, has);
	assert_false(p.delayed_dequeue);
	assert_non_null(strstr(p.note, "sched_prepare_exec"));
	has[RQ_EV_PREPARE_EXEC] = true;
	rq_profile_from_release(&p, "");
	rq_profile_from_events(&p, has);
	assert_true(p.delayed_dequeue);
	has[RQ_EV_WAKING] = has[RQ_EV_PREPARE_EXEC] = false;
	rq_profile_from_release(&p, "");
	rq_profile_from_events(&p, has);
	assert_false(p.delayed_dequeue);
}

static void prepare_exec(struct rq_analysis *an, uint64_t ts, int cpu, int pid, const char *comm)
{
	struct rq_event ev = { .ts = ts, .type = RQ_EV_PREPARE_EXEC, .cpu = cpu,
			       .common_pid = pid, .pid = pid, .str = "/bin/new",
			       .str_len = 8 };

	snprintf(ev.comm, sizeof(ev.comm), "%s", comm);
	feed(an, ev);
}

/* pid, running on cpu, switches out to migration/cpu (pid 10 + cpu) under a new name */
static void renamed_to_stopper(struct rq_analysis *an, uint64_t ts, int cpu, int pid)
{
	struct rq_event ev = { .ts = ts, .type = RQ_EV_SWITCH, .cpu = cpu, .common_pid = pid,
			       .pid = pid, .pid2 = 10 + cpu, .state = 0x100, .prio = 120,
			       .prio2 = 0 };

	snprintf(ev.comm, sizeof(ev.comm), "new");
	snprintf(ev.comm2, sizeof(ev.comm2), "migration/%d", cpu);
	feed(an, ev);
}

/*
 * execve: migration/0 moves the task (sched_exec()), begin_new_exec() renames it, and
 * migration/1 moves it again before sched_process_exec: the exec's record pairs the
 * first move, and the rename was that exec's, not one whose record is missing.  With or
 * without sched_prepare_exec: one exec placement.
 */
static void exec_one_placement(void **state)
{
	for (int prepared = 0; prepared < 2; prepared++) {
		struct rq_analysis *an = cpus_idle(2);

		ev_switch(an, 2 * MS, 0, 0, 0, 300, "worker");
		ev_switch(an, 3 * MS, 0, 300, 0x100, 10, "migration/0");
		ev_migrate(an, 3 * MS, 0, 10, 1, 300, 120, 0, 1);
		ev_switch(an, 3 * MS + 100, 1, 0, 0, 300, "worker");
		if (prepared)
			prepare_exec(an, 4 * MS, 1, 300, "worker");
		renamed_to_stopper(an, 5 * MS, 1, 300);
		ev_migrate(an, 5 * MS, 1, 11, 1, 300, 120, 1, 0);
		ev_switch(an, 5 * MS + 100, 0, 0, 0, 300, "new");
		ev_exec(an, 6 * MS, 0, 300, "/bin/new");
		rq_analysis_finish(an);
		assert_int_equal(path_count(an, "exec-moved"), 1);
		assert_int_equal(an->stats.counts[RQ_EV_EXEC], 1);
		rq_analysis_free(an);
	}
}

/*
 * The same exec, its record 200 ms after the move (the binary loaded slowly): the move's
 * window closes first, and with sched_prepare_exec seen the rename is not an exec whose
 * record is missing: the exec record is the one exec placement.
 */
static void exec_prepared_window_expires(void **state)
{
	struct rq_analysis *an = cpus_idle(2);

	ev_switch(an, 2 * MS, 0, 0, 0, 300, "worker");
	ev_switch(an, 3 * MS, 0, 300, 0x100, 10, "migration/0");
	ev_migrate(an, 3 * MS, 0, 10, 1, 300, 120, 0, 1);
	ev_switch(an, 3 * MS + 100, 1, 0, 0, 300, "worker");
	prepare_exec(an, 4 * MS, 1, 300, "worker");
	renamed_to_stopper(an, 5 * MS, 1, 300);
	ev_switch(an, 5 * MS + 100, 1, 11, 1, 300, "new");
	ev_exec(an, 200 * MS, 1, 300, "/bin/new");
	rq_analysis_finish(an);
	assert_int_equal(path_count(an, "exec-moved"), 0);
	assert_int_equal(path_count(an, "exec-local"), 1);
	rq_analysis_free(an);
}

/*
 * A plain trace: no task's policy known.  A wakeup onto a truly idle CPU stacks nothing
 * whatever the policies: idle-stacking judged.  A wakeup of a task never seen (no
 * previous CPU: path unknown) is not judged, for both findings.
 */
static void stacking_judged_policy_unknown(void **state)
{
	struct rq_analysis *an = cpus_idle(2);
	const struct rq_finding_store *is = &an->findings[RQ_FIND_IDLE_STACKING];
	const struct rq_finding_store *mi = &an->findings[RQ_FIND_MISSED_IDLE];
	uint64_t mi_judged, mi_not_judged;

	ev_switch(an, 2 * MS, 0, 0, 0, 100, "sleeper");
	ev_switch(an, 3 * MS, 0, 100, 1, 0, NULL);	/* blocks on CPU 0, which idles */
	ev_switch(an, 4 * MS, 1, 0, 0, 200, "waker");
	ev_waking(an, 10 * MS, 1, 200, 100, 0);
	ev_wakeup(an, 10 * MS, 1, 200, 100, 0);		/* back to idle CPU 0 */
	assert_int_equal(path_count(an, "wake-prev"), 1);
	assert_int_equal(is->judged, 1);
	assert_int_equal(is->not_judged, 0);
	/* (its mask is unknown, with markers in the trace: missed-idle not judged on it) */
	mi_judged = mi->judged;
	mi_not_judged = mi->not_judged;

	ev_wakeup(an, 11 * MS, 1, 200, 400, 1);		/* pid 400: never seen before */
	assert_int_equal(path_count(an, "unknown"), 1);
	assert_int_equal(mi->judged, mi_judged);
	assert_int_equal(mi->not_judged, mi_not_judged + 1);
	assert_int_equal(is->not_judged, 1);
	assert_int_equal(is->judged + is->not_judged + is->count + is->possible, 2);
	rq_analysis_free(an);
}

/*
 * A migration/N move is classified once its window closed; by then the task ran more
 * often than the ring of recent switch-ins keeps: its delay is not measured, and the
 * cause is that, not lost events (the trace lost none).
 */
static void delay_late_move_cause(void **state)
{
	struct rq_analysis *an = cpus_idle(2);

	ev_switch(an, 2 * MS, 0, 0, 0, 300, "worker");
	ev_switch(an, 3 * MS, 0, 300, 0x100, 10, "migration/0");
	ev_migrate(an, 3 * MS, 0, 10, 1, 300, 120, 0, 1);
	for (int i = 0; i < 6; i++) {
		ev_switch(an, (4 + 2 * i) * MS, 1, 0, 0, 300, "worker");
		ev_switch(an, (5 + 2 * i) * MS, 1, 300, 1, 0, NULL);
	}
	ev_waking(an, 200 * MS, 0, 0, 300, 1);		/* the move's window closed */
	rq_analysis_finish(an);
	assert_int_equal(an->stats.lost_events, 0);
	assert_non_null(an->delay);
	assert_int_equal(an->delay->unmeasured, 1);
	assert_int_equal(an->delay->unmeasured_late, 1);
	assert_int_equal(an->delay->unmeasured_other, 0);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_wakeup_records_not_judged),
		cmocka_unit_test(profile_from_prepare_exec),
		cmocka_unit_test(exec_one_placement),
		cmocka_unit_test(exec_prepared_window_expires),
		cmocka_unit_test(stacking_judged_policy_unknown),
		cmocka_unit_test(delay_late_move_cause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
