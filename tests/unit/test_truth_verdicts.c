// SPDX-License-Identifier: GPL-2.0
/*
 * test_truth_verdicts.c - the kernel's own state (rqpath:truth records, src/base/truth.h)
 * in the engine, on synthetic streams: a delayed-dequeue requeue (on_rq at sched_waking) is
 * "no selection", never possible or counted; an idle CPU the model thought busy, and a
 * busy one it thought idle; SCHED_IDLE-only from h_nr_idle; the exec's one-CPU test
 * from nr_cpus_allowed and migration-disabled; a fork's record; --no-truth gives the
 * tracepoint-only verdicts of the same stream; model_vs_truth counts the model's errors;
 * records of another point, too old, or of another task are not used, and a record
 * changes nothing in the model (it names no writer).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "synth.h"

#define US 1000ULL

static struct rq_analysis *an_opts(int nr, const char *release, bool no_truth)
{
	static const bool all[RQ_EV__COUNT] = {
		[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true, [RQ_EV_WAKEUP] = true,
		[RQ_EV_WAKEUP_NEW] = true, [RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true,
		[RQ_EV_EXIT] = true, [RQ_EV_EXEC] = true,
		[RQ_EV_SETAFFINITY_ENTER] = true, [RQ_EV_SETAFFINITY_EXIT] = true,
		[RQ_EV_SETSCHED_ENTER] = true, [RQ_EV_SETSCHED_EXIT] = true,
		[RQ_EV_CGROUP_ATTACH] = true, [RQ_EV_TRUTH] = true,
	};
	struct rq_analysis_opts opts = { .no_truth = no_truth };
	struct rq_analysis *an = rq_analysis_new(&opts);

	assert_non_null(an);
	assert_int_equal(rq_analysis_begin(an, "synthetic", nr, release, all), 0);
	/* one LLC from cpu markers, every CPU seen idle at 1 ms */
	for (int c = 0; c < nr; c++)
		mark_cpu(an, c, 0);
	for (int c = 0; c < nr; c++)
		ev_switch(an, 1 * MS, c, 50 + c, 1, 0, NULL);
	return an;
}

static const struct rq_finding_store *fs(const struct rq_analysis *an, enum rq_finding f)
{
	return &an->findings[f];
}

/*
 * 900 and 910 (allowed 0-1) take turns on CPU 0; 900 blocks at 4 ms while 910 keeps
 * CPU 0 busy, and 910 wakes 900 onto CPU 0 at 5 ms, CPU 1 idle.  CPU 0 never went idle:
 * for the model the selection is not proven (900 may still be delay-dequeued).
 */
static void woken_on_busy_cpu0_at(struct rq_analysis *an, const struct rq_truth_rec *r,
				  uint64_t wake)
{
	mark_task(an, 1 * MS, 900, 0, "0-1");
	mark_task(an, 1 * MS, 910, 0, "0-1");
	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
	ev_switch(an, 3 * MS, 0, 910, 0, 900, "t");
	ev_switch(an, 4 * MS, 0, 900, 1, 910, "busy");
	ev_waking(an, wake, 0, 910, 900, 0);
	if (r)
		ev_truth(an, r);
	ev_wakeup(an, wake + 2 * US, 0, 910, 900, 0);
}

static void woken_on_busy_cpu0(struct rq_analysis *an, const struct rq_truth_rec *r)
{
	woken_on_busy_cpu0_at(an, r, 5 * MS);
}

/* The record of that waking: 900 still enqueued (delayed) on CPU 0, or not (on_rq). */
static void waking_record(struct rq_truth_rec *r, bool on_rq)
{
	truth_init(r, 5 * MS + 1 * US, RQ_TRUTH_WAKING, 900, 0, 0x3, 2);
	r->task_cpu = 0;
	if (on_rq)
		r->flags = RQ_TRUTH_ON_RQ | RQ_TRUTH_DELAYED;
	truth_cpu(r, 0, 910, on_rq ? 2 : 1, 0);	/* 910 runs; 900 counted while enqueued */
	truth_cpu(r, 1, 0, 0, 0);			/* CPU 1 truly idle */
}

/* The model's "possible" becomes "no selection" when the record shows on_rq. */
static void delayed_requeue_is_no_selection(void **state)
{
	struct rq_analysis *an = an_opts(2, "6.18", false);
	struct rq_truth_rec r;
	const struct rq_placement *p;

	waking_record(&r, true);
	woken_on_busy_cpu0(an, &r);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->no_selection, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->judged, 1);
	p = rq_recent(an, 0);
	assert_int_equal(p->path, RQ_PATH_WAKE_RUNNABLE);
	assert_int_equal(p->conf, RQ_CONF_EXACT);
	assert_true(p->no_selection & (1u << RQ_FIND_MISSED_IDLE));
	assert_false(p->possible);
	assert_false(p->notes & (RQ_NOTE_POSSIBLE | RQ_NOTE_MAYBE_DELAYED));
	assert_true(p->truth & RQ_PT_ON_RQ);
	assert_true(p->truth & RQ_PT_DELAYED);
	assert_int_equal(an->truth.summary.records, 1);
	assert_int_equal(an->truth.summary.used, 1);
	/* the model's "not proven" is no answer: nothing to compare */
	assert_int_equal(an->truth.summary.compared[RQ_MVT_SELECTION], 0);
	rq_analysis_free(an);
}

/* Not on a runqueue: the selection is proven by the record, the miss exact. */
static void not_on_rq_proves_the_selection(void **state)
{
	struct rq_analysis *an = an_opts(2, "6.18", false);
	struct rq_truth_rec r;
	const struct rq_placement *p;
	char why[512];

	waking_record(&r, false);
	woken_on_busy_cpu0(an, &r);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->exact, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->no_selection, 0);
	p = rq_recent(an, 0);
	assert_int_equal(p->path, RQ_PATH_WAKE_PREV);
	assert_int_equal(p->conf, RQ_CONF_EXACT);
	assert_int_equal(p->why_cpu, 1);
	assert_true((p->truth & (RQ_PT_SELECTION | RQ_PT_CPUS)) ==
		    (RQ_PT_SELECTION | RQ_PT_CPUS));
	assert_int_equal(p->truth_x, RQ_TCPU_BUSY);
	rq_placement_describe(p, why, sizeof(why));
	assert_non_null(strstr(why, "kernel state (BPF): not on a runqueue"));
	assert_non_null(strstr(why, "CPU 0 busy, CPU 1 idle"));
	rq_analysis_free(an);
}

/*
 * Any task may take the name migration/N (prctl PR_SET_NAME).  700, so named, is woken
 * onto busy CPU 0 while CPU 1 is idle; its record says SCHED_NORMAL on CPUs 0-1: not
 * the stopper (SCHED_FIFO, one CPU), so the wakeup is judged (missed-idle), never
 * wake-stop.  Without the record (--no-truth) the name is all the trace says of it:
 * wake-stop, unjudged, as before.  Red on main 461bcf6: wake-stop with the record too.
 */
static void renamed_migration_task_is_judged(void **state)
{
	for (int no_truth = 0; no_truth <= 1; no_truth++) {
		struct rq_analysis *an = an_opts(2, "6.18", no_truth);
		struct rq_event ev = { .ts = 5 * MS, .type = RQ_EV_WAKING, .cpu = 0,
				       .common_pid = 910, .pid = 700, .prio = 120, .cpu_a = 0 };
		struct rq_truth_rec r;

		ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
		snprintf(ev.comm, sizeof(ev.comm), "migration/0");
		feed(an, ev);
		truth_init(&r, 5 * MS + 1 * US, RQ_TRUTH_WAKING, 700, 0, 0x3, 2);
		truth_cpu(&r, 0, 910, 1, 0);
		truth_cpu(&r, 1, 0, 0, 0);
		ev_truth(an, &r);
		ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 700, 0);
		rq_analysis_finish(an);
		if (no_truth) {
			assert_int_equal(path_count(an, "wake-stop"), 1);
		} else {
			assert_int_equal(path_count(an, "wake-stop"), 0);
			assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 1);
		}
		rq_analysis_free(an);
	}
}

/*
 * The real stopper's record (SCHED_FIFO, its one CPU) does not contradict the name: its
 * wakeup stays wake-stop.
 */
static void real_stopper_stays_stop_class(void **state)
{
	struct rq_analysis *an = an_opts(2, "6.18", false);
	struct rq_event ev = { .ts = 5 * MS, .type = RQ_EV_WAKING, .cpu = 0,
			       .common_pid = 910, .pid = 15, .prio = 0, .cpu_a = 0 };
	struct rq_truth_rec r;

	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
	snprintf(ev.comm, sizeof(ev.comm), "migration/0");
	feed(an, ev);
	truth_init(&r, 5 * MS + 1 * US, RQ_TRUTH_WAKING, 15, 1, 0x1, 2);
	truth_cpu(&r, 0, 910, 1, 0);
	ev_truth(an, &r);
	ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 15, 0);
	rq_analysis_finish(an);
	assert_int_equal(path_count(an, "wake-stop"), 1);
	rq_analysis_free(an);
}

/* --no-truth: the same stream, records and all, gives the tracepoint model's verdicts. */
static void no_truth_gives_the_model_verdicts(void **state)
{
	for (int on_rq = 0; on_rq < 2; on_rq++) {
		struct rq_analysis *an = an_opts(2, "6.18", true);
		struct rq_analysis *plain = an_opts(2, "6.18", false);
		struct rq_truth_rec r;

		waking_record(&r, on_rq);
		woken_on_busy_cpu0(an, &r);
		woken_on_busy_cpu0(plain, NULL);
		for (int f = 0; f < RQ_FIND__COUNT; f++) {
			assert_int_equal(fs(an, f)->count, fs(plain, f)->count);
			assert_int_equal(fs(an, f)->possible, fs(plain, f)->possible);
			assert_int_equal(fs(an, f)->no_selection, 0);
			assert_int_equal(fs(an, f)->judged, fs(plain, f)->judged);
		}
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 1);
		assert_int_equal(rq_recent(an, 0)->path, rq_recent(plain, 0)->path);
		assert_int_equal(rq_recent(an, 0)->truth, 0);
		assert_int_equal(an->truth.summary.records, 0);
		/* the record is counted as an event all the same */
		assert_int_equal(an->stats.counts[RQ_EV_TRUTH], 1);
		rq_analysis_free(an);
		rq_analysis_free(plain);
	}
}

/*
 * A 6.6 kernel (no delayed dequeue: every selection proven for the model).  CPU 1 ran
 * 920 since 2 ms for the model (its switch back to idle is not in the trace) while the
 * record shows it idle; or the model has CPU 1 idle while the record shows it busy.
 */
static void cpu_state_from_the_record(void **state)
{
	for (int model_busy = 0; model_busy < 2; model_busy++) {
		struct rq_analysis *an = an_opts(2, "6.6.30", false);
		struct rq_truth_rec r;

		mark_task(an, 1 * MS, 900, 0, "0-1");
		mark_task(an, 1 * MS, 910, 0, "0-1");
		mark_task(an, 1 * MS, 920, 0, "0-1");
		if (model_busy)
			ev_switch(an, 2 * MS, 1, 0, 0, 920, "other");
		ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
		ev_switch(an, 3 * MS, 0, 910, 0, 900, "t");
		ev_switch(an, 4 * MS, 0, 900, 1, 910, "busy");
		ev_waking(an, 5 * MS, 0, 910, 900, 0);
		truth_init(&r, 5 * MS + 1 * US, RQ_TRUTH_WAKING, 900, 0, 0x3, 2);
		truth_cpu(&r, 0, 910, 1, 0);
		if (model_busy)
			truth_cpu(&r, 1, 0, 0, 0);	/* idle: 920 left unseen */
		else
			truth_cpu(&r, 1, 920, 1, 0);	/* busy: a switch the model lacks */
		ev_truth(an, &r);
		ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 900, 0);
		/* the verdict is the record's: a miss exactly when it shows CPU 1 idle */
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, model_busy);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->exact, model_busy);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->judged, 1);
		/* both CPUs compared, CPU 1 wrong; the model proved the selection, right */
		assert_int_equal(an->truth.summary.compared[RQ_MVT_CPU], 2);
		assert_int_equal(an->truth.summary.disagree[RQ_MVT_CPU], 1);
		assert_int_equal(an->truth.summary.compared[RQ_MVT_SELECTION], 1);
		assert_int_equal(an->truth.summary.disagree[RQ_MVT_SELECTION], 0);
		assert_int_equal(an->truth.summary.compared[RQ_MVT_POLICY], 1);
		assert_int_equal(an->truth.summary.disagree[RQ_MVT_POLICY], 0);
		assert_int_equal(an->truth.summary.compared[RQ_MVT_MASK], 1);
		assert_int_equal(an->truth.summary.disagree[RQ_MVT_MASK], 0);
		rq_analysis_free(an);
	}
}

/*
 * A 128-CPU machine of 8-CPU LLCs: 900 (allowed 96-103) blocks on CPU 100 and is woken
 * there, 910 running; the model saw every other CPU go idle.  The record holds the LLC's
 * eight CPUs by their ids (96..103, past the first mask word): where it shows them all
 * busy the wakeup missed nothing, where it shows CPU 101 idle it did.  Without the record
 * the model counts the miss either way.
 */
static void truth_of_cpus_above_64(void **state)
{
	static const bool all[RQ_EV__COUNT] = {
		[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true, [RQ_EV_WAKEUP] = true,
		[RQ_EV_WAKEUP_NEW] = true, [RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true,
		[RQ_EV_EXIT] = true, [RQ_EV_EXEC] = true, [RQ_EV_TRUTH] = true,
	};

	for (int k = 0; k < 3; k++) {
		struct rq_analysis_opts opts = { .no_truth = k == 2 };
		struct rq_analysis *an = rq_analysis_new(&opts);
		bool idle101 = k == 1;
		struct rq_truth_rec r;

		assert_int_equal(rq_analysis_begin(an, "synthetic", 128, "6.6.30", all), 0);
		for (int c = 0; c < 128; c++)
			mark_cpu(an, c, c / 8 * 8);
		for (int c = 0; c < 128; c++)
			ev_switch(an, 1 * MS, c, 50 + c, 1, 0, NULL);
		mark_task(an, 1 * MS, 900, 0, "96-103");
		mark_task(an, 1 * MS, 910, 0, "96-103");
		ev_switch(an, 2 * MS, 100, 0, 0, 910, "busy");
		ev_switch(an, 3 * MS, 100, 910, 0, 900, "t");
		ev_switch(an, 4 * MS, 100, 900, 1, 910, "busy");
		ev_waking(an, 5 * MS, 100, 910, 900, 100);
		truth_init(&r, 5 * MS + 1 * US, RQ_TRUTH_WAKING, 900, 0, 0, 8);
		r.cpu = 100;
		r.task_cpu = 100;
		r.mask[1] = 0xffULL << 32;
		r.mask_words = 2;
		r.nr_cpus_allowed = 8;
		for (int i = 0; i < 8; i++) {
			r.cpus[i].cpu = (uint16_t)(96 + i);
			truth_cpu(&r, i, 2000 + i, 1, 0);	/* busy */
		}
		truth_cpu(&r, 4, 910, 1, 0);			/* CPU 100 runs 910 */
		if (idle101)
			truth_cpu(&r, 5, 0, 0, 0);
		ev_truth(an, &r);
		ev_wakeup(an, 5 * MS + 2 * US, 100, 910, 900, 100);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->judged, 1);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, k == 0 ? 0 : 1);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->exact, k == 1 ? 1 : 0);
		if (k < 2)
			assert_true(rq_recent(an, 0)->truth & RQ_PT_RECORD);
		rq_analysis_free(an);
	}
}

/*
 * SCHED_IDLE-only from h_nr_idle: 801 (SCHED_IDLE by the record; the model knows no
 * policy, so it judges nothing) is woken onto CPU 0, where the hog 800 runs, while CPU
 * 1 idles.  h_nr_idle == nr_running: stacking, exact; h_nr_idle 0: busy, no stacking.
 */
static void sched_idle_only_from_h_nr_idle(void **state)
{
	for (int idle_only = 0; idle_only < 2; idle_only++) {
		struct rq_analysis *an = an_opts(2, "6.18", false);
		struct rq_analysis *plain = an_opts(2, "6.18", true);
		struct rq_analysis *both[2] = { an, plain };
		struct rq_truth_rec r;

		truth_init(&r, 5 * MS + 1 * US, RQ_TRUTH_WAKING, 801, RQ_SCHED_IDLE, 0x3, 2);
		r.task_cpu = 1;
		truth_cpu(&r, 0, 800, 1, idle_only);
		for (int i = 0; i < 2; i++) {
			ev_switch(both[i], 2 * MS, 1, 0, 0, 801, "sleeper");
			ev_switch(both[i], 3 * MS, 1, 801, 1, 0, NULL);
			ev_switch(both[i], 3 * MS, 0, 0, 0, 800, "hog");
			ev_waking(both[i], 5 * MS, 0, 800, 801, 1);
			ev_truth(both[i], &r);
			ev_migrate(both[i], 5 * MS + 1 * US, 0, 800, 0, 801, 120, 1, 0);
			ev_wakeup(both[i], 5 * MS + 2 * US, 0, 800, 801, 0);
		}
		assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->count, idle_only);
		assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->exact, idle_only);
		assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->judged, 1);
		assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->not_judged, 0);
		assert_int_equal(rq_recent(an, 0)->truth_x,
				 idle_only ? RQ_TCPU_IDLE_ONLY : RQ_TCPU_BUSY);
		/* a SCHED_IDLE wakee is no missed-idle candidate */
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->judged, 0);
		/* the tracepoint model alone: the policy is unknown, nothing judged */
		assert_int_equal(fs(plain, RQ_FIND_IDLE_STACKING)->count, 0);
		assert_int_equal(fs(plain, RQ_FIND_IDLE_STACKING)->judged, 0);
		rq_analysis_free(an);
		rq_analysis_free(plain);
	}
}

/*
 * model_vs_truth: on 6.6 the model proves every selection, the record says on_rq
 * (selection wrong); the marker says SCHED_NORMAL on 0-1, the record SCHED_BATCH on
 * CPU 0 only (policy and mask wrong).
 */
static void model_vs_truth_counts(void **state)
{
	struct rq_analysis *an = an_opts(2, "6.6.30", false);
	struct rq_truth_rec r;

	waking_record(&r, true);
	r.policy = RQ_SCHED_BATCH;
	r.mask[0] = 0x1;
	r.nr_cpus_allowed = 1;
	woken_on_busy_cpu0(an, &r);
	assert_int_equal(an->truth.summary.compared[RQ_MVT_SELECTION], 1);
	assert_int_equal(an->truth.summary.disagree[RQ_MVT_SELECTION], 1);
	assert_int_equal(an->truth.summary.disagree[RQ_MVT_POLICY], 1);
	assert_int_equal(an->truth.summary.disagree[RQ_MVT_MASK], 1);
	/* the model alone counted this wakeup; the record says no selection */
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 0);
	rq_analysis_free(an);
	an = an_opts(2, "6.6.30", true);
	woken_on_busy_cpu0(an, NULL);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 1);
	rq_analysis_free(an);
}

/*
 * The exec's one-CPU test: nr_cpus_allowed 1; else not needless.  Not migration disabled
 * in the exec's record: the task is current there and on 7.2 the tracepoint's programs
 * run migrate-disabled themselves (all 101 unpinned execs of a 7.2.13 guest had the flag,
 * counted needless before).
 */
static void exec_one_cpu_from_the_record(void **state)
{
	static const struct { unsigned allowed_mask; int flags; int needless; } cases[] = {
		{ 0x2, 0, 1 }, { 0x3, RQ_TRUTH_MIGRATE_OFF, 0 }, { 0x3, 0, 0 },
		{ 0x2, RQ_TRUTH_MIGRATE_OFF, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct rq_analysis *an = an_opts(2, "6.18", false);
		struct rq_truth_rec r;

		mark_task(an, 1 * MS, 700, 0, "0-1");	/* the marker: two CPUs */
		ev_switch(an, 2 * MS, 1, 0, 0, 700, "x");
		truth_init(&r, 3 * MS, RQ_TRUTH_EXEC, 700, 0, cases[i].allowed_mask, 2);
		r.flags = (uint8_t)cases[i].flags;
		ev_truth(an, &r);
		ev_exec(an, 3 * MS + 1 * US, 1, 700, "/bin/x");
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, cases[i].needless);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->exact, cases[i].needless);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->judged, 1);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->unknown, 0);
		assert_int_equal(path_count(an, "exec-affine"), cases[i].needless);
		if (cases[i].needless)
			assert_int_equal(rq_recent(an, 0)->why_cpu, 1);
		rq_analysis_free(an);
	}
}

/*
 * The record of an exec follows its event (the BPF program runs after the tracepoint's
 * ftrace probe): the exec waits for it, then is judged from it; the next exec's verdict
 * is its own record's, not the previous one's.  Pinned first (needless), then not.
 */
static void exec_record_after_its_event(void **state)
{
	struct rq_analysis *an = an_opts(2, "6.18", false);
	struct rq_truth_rec r, other;
	uint64_t ts[2] = { 3 * MS, 5 * MS };
	uint64_t mask[2] = { 0x2, 0x3 };

	truth_init(&other, 2 * MS, RQ_TRUTH_WAKING, 1, 0, 0x3, 2);
	ev_truth(an, &other);		/* the trace has records */
	mark_task(an, 1 * MS, 700, 0, "0-1");
	ev_switch(an, 2 * MS, 1, 0, 0, 700, "x");
	for (int i = 0; i < 2; i++) {
		ev_exec(an, ts[i], 1, 700, "/bin/x");
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->not_judged, 1);
		/* the recorder's marker (of the exec before) may come in between */
		mark_task(an, ts[i] + 1 * US / 2, 700, 0, i ? "1" : "0-1");
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->not_judged, 1);
		truth_init(&r, ts[i] + 1 * US, RQ_TRUTH_EXEC, 700, 0, mask[i], 2);
		ev_truth(an, &r);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->not_judged, 0);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->unknown, 0);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->judged, i + 1);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, 1);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->exact, 1);
		assert_int_equal(path_count(an, "exec-affine"), 1);
		assert_int_equal(path_count(an, "exec-local"), i);
		assert_true(rq_recent(an, 0)->truth & RQ_PT_RECORD);
		assert_int_equal(rq_recent(an, 0)->path,
				 i ? RQ_PATH_EXEC_LOCAL : RQ_PATH_EXEC_AFFINE);
	}
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->examples[0].why_cpu, 1);
	/* the marker that follows settles nothing more */
	mark_task(an, 6 * MS, 700, 0, "1");
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->judged, 2);
	rq_analysis_free(an);
}

/*
 * The first exec of a trace comes before any record (the model judges it); its record,
 * a microsecond later, is that exec's and no later one's: the next exec, 2 ms on, waits
 * for its own.
 */
static void an_exec_record_is_never_the_next_execs(void **state)
{
	struct rq_analysis *an = an_opts(2, "6.18", false);
	struct rq_truth_rec r;

	mark_task(an, 1 * MS, 700, 0, "0-1");
	ev_switch(an, 2 * MS, 1, 0, 0, 700, "x");
	ev_exec(an, 3 * MS, 1, 700, "/bin/x");		/* no record yet: the model's */
	truth_init(&r, 3 * MS + 1 * US, RQ_TRUTH_EXEC, 700, 0, 0x2, 2);
	ev_truth(an, &r);				/* pinned, says this exec's record */
	assert_int_equal(an->truth.summary.used, 0);
	ev_exec(an, 5 * MS, 1, 700, "/bin/x");
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, 0);
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->not_judged, 1);	/* waits */
	truth_init(&r, 5 * MS + 1 * US, RQ_TRUTH_EXEC, 700, 0, 0x3, 2);
	ev_truth(an, &r);
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, 0);
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->not_judged, 0);
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->judged, 2);
	assert_int_equal(an->truth.summary.used, 1);
	rq_analysis_free(an);
}

/*
 * In a virtual machine the exec's record can follow its event by milliseconds (4.4 ms in
 * a 16-vCPU guest of a loaded host), after the recorder's marker: the record still
 * judges the exec.  Where the record never comes, the marker that came while the exec
 * waited settles it, at the task's next exec or at the end of the trace.
 */
static void exec_record_milliseconds_late(void **state)
{
	for (int late = 0; late < 3; late++) {
		struct rq_analysis *an = an_opts(2, "6.18", false);
		struct rq_truth_rec r, other;

		truth_init(&other, 2 * MS, RQ_TRUTH_WAKING, 1, 0, 0x3, 2);
		ev_truth(an, &other);		/* the trace has records */
		mark_task(an, 1 * MS, 700, 0, "0-1");
		ev_switch(an, 2 * MS, 1, 0, 0, 700, "x");
		ev_exec(an, 10 * MS, 1, 700, "/bin/x");
		mark_task(an, 12 * MS, 700, 0, "1");	/* pinned, 2 ms on */
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->not_judged, 1);
		if (late == 0) {
			truth_init(&r, 14 * MS + 400 * US, RQ_TRUTH_EXEC, 700, 0, 0x2, 2);
			ev_truth(an, &r);
			assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->exact, 1);
			assert_true(rq_recent(an, 0)->truth & RQ_PT_RECORD);
		} else if (late == 1) {
			ev_exec(an, 50 * MS, 1, 700, "/bin/x");	/* no record came */
			assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->judged, 1);
		} else {
			rq_analysis_finish(an);
			assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->judged, 1);
		}
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, 1);
		assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->unknown, late == 1 ? 1 : 0);
		rq_analysis_free(an);
	}
}

/* A fork's record (sched_process_fork, the child) judges its sched_wakeup_new. */
static void fork_record_judges_idle_stacking(void **state)
{
	struct rq_analysis *an = an_opts(2, "6.18", false);
	struct rq_truth_rec r;

	ev_switch(an, 2 * MS, 0, 0, 0, 800, "hog");
	ev_fork(an, 3 * MS, 0, 800, 801);
	truth_init(&r, 3 * MS + 1 * US, RQ_TRUTH_FORK, 801, RQ_SCHED_IDLE, 0x3, 2);
	truth_cpu(&r, 0, 800, 1, 1);	/* the SCHED_IDLE parent alone on CPU 0 */
	ev_truth(an, &r);
	ev_wakeup_new(an, 3 * MS + 5 * US, 0, 800, 801, 0);
	assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->exact, 1);
	assert_int_equal(rq_recent(an, 0)->path, RQ_PATH_FORK_LOCAL);
	assert_int_equal(rq_recent(an, 0)->conf, RQ_CONF_EXACT);
	rq_analysis_free(an);
}

/*
 * Records not for this placement: another point's (sched_wakeup: after the selection),
 * one 30 ms older than the wakeup, another task's.  None is used: the model decides.
 */
static void records_of_other_points_or_too_old_are_not_used(void **state)
{
	for (int k = 0; k < 3; k++) {
		struct rq_analysis *an = an_opts(2, "6.18", false);
		struct rq_truth_rec r;

		waking_record(&r, true);
		if (k == 0)
			r.point = RQ_TRUTH_WAKEUP;
		else if (k == 1)
			r.ts = 35 * MS;	/* the wakeup below then comes at 65 ms */
		else
			r.pid = 901;
		woken_on_busy_cpu0_at(an, &r, k == 1 ? 65 * MS : 5 * MS);
		assert_int_equal(an->truth.summary.used, 0);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 1);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->no_selection, 0);
		rq_analysis_free(an);
	}
}

/* A record names no writer: CPU 0 keeps running 910 for the model (no repair to idle). */
static void a_record_changes_nothing_in_the_model(void **state)
{
	struct rq_analysis *an = an_opts(2, "6.18", false);
	struct rq_truth_rec r;

	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
	truth_init(&r, 3 * MS, RQ_TRUTH_WAKING, 900, 0, 0x3, 2);
	r.cpu = 0;
	ev_truth(an, &r);
	assert_int_equal(rq_analysis_curr(an, 0), 910);
	assert_int_equal(an->cpus[0].repairs, 0);
	/* a record for a CPU the trace does not have is read all the same */
	r.cpu = 4000;
	ev_truth(an, &r);
	assert_int_equal(an->truth.summary.records, 2);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(delayed_requeue_is_no_selection),
		cmocka_unit_test(not_on_rq_proves_the_selection),
		cmocka_unit_test(no_truth_gives_the_model_verdicts),
		cmocka_unit_test(renamed_migration_task_is_judged),
		cmocka_unit_test(real_stopper_stays_stop_class),
		cmocka_unit_test(cpu_state_from_the_record),
		cmocka_unit_test(sched_idle_only_from_h_nr_idle),
		cmocka_unit_test(model_vs_truth_counts),
		cmocka_unit_test(exec_one_cpu_from_the_record),
		cmocka_unit_test(exec_record_after_its_event),
		cmocka_unit_test(an_exec_record_is_never_the_next_execs),
		cmocka_unit_test(exec_record_milliseconds_late),
		cmocka_unit_test(truth_of_cpus_above_64),
		cmocka_unit_test(fork_record_judges_idle_stacking),
		cmocka_unit_test(records_of_other_points_or_too_old_are_not_used),
		cmocka_unit_test(a_record_changes_nothing_in_the_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
