// SPDX-License-Identifier: GPL-2.0
/*
 * test_verdicts.c - the verdict rules of the findings, each with a positive case and a
 * negative one, on synthetic event streams: proof of selection (delayed dequeue),
 * pending wakeups, a CPU busy for the kernel, SCHED_IDLE-only CPUs, the model repaired
 * from common_pid, assumed attributes of plain traces, LLC scope from --topology,
 * the idle-stack profile, trusted markers and stopper moves.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model.h"
#include "synth.h"

#define US 1000ULL

static struct rq_analysis *an_with(int nr_cpus, const char *release, const char *topology)
{
	static const bool all[RQ_EV__COUNT] = {
		[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true, [RQ_EV_WAKEUP] = true,
		[RQ_EV_WAKEUP_NEW] = true, [RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true,
		[RQ_EV_EXIT] = true, [RQ_EV_EXEC] = true, [RQ_EV_SETSCHED_ENTER] = true,
		[RQ_EV_SETSCHED_EXIT] = true,
	};
	struct rq_analysis_opts opts = { .topology = topology };
	struct rq_analysis *an = rq_analysis_new(&opts);

	assert_non_null(an);
	assert_int_equal(rq_analysis_begin(an, "synthetic", nr_cpus, release, all), 0);
	return an;
}

/* nr CPUs of one LLC (from cpu markers), each seen idle at 1 ms. */
static struct rq_analysis *idle_marked(struct rq_analysis *an, int nr)
{
	assert_non_null(an);
	for (int c = 0; c < nr; c++)
		mark_cpu(an, c, 0);
	for (int c = 0; c < nr; c++)
		ev_switch(an, 1 * MS, c, 50 + c, 1, 0, NULL);
	return an;
}

static struct rq_analysis *marked(int nr, const char *release)
{
	return idle_marked(synth_new(nr, release), nr);
}

/* marked(), on a trace that defines only the events in has[] */
static struct rq_analysis *marked_with(int nr, const char *release, const bool *has)
{
	struct rq_analysis *an = rq_analysis_new(NULL);

	assert_non_null(an);
	assert_int_equal(rq_analysis_begin(an, "synthetic", nr, release, has), 0);
	return idle_marked(an, nr);
}

/* An event whose comm field names the task (plain traces learn names this way). */
static void named_waking(struct rq_analysis *an, uint64_t ts, int cpu, int waker, int pid,
			 int prio, int old_cpu, const char *comm)
{
	struct rq_event ev = { .ts = ts, .type = RQ_EV_WAKING, .cpu = cpu, .common_pid = waker,
			       .pid = pid, .prio = prio, .cpu_a = old_cpu };

	snprintf(ev.comm, sizeof(ev.comm), "%s", comm);
	feed(an, ev);
}

static void forged_marker(struct rq_analysis *an, uint64_t ts, int writer, const char *text)
{
	feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_MARKER, .cpu = 0,
				    .common_pid = writer, .str = text,
				    .str_len = (int)strlen(text) });
}

static const struct rq_finding_store *fs(const struct rq_analysis *an, enum rq_finding f)
{
	return &an->findings[f];
}

/*
 * Tasks 900 and 910 (allowed 0-1) take turns on CPU 0: 900 blocks at 4 ms while 910
 * keeps CPU 0 busy, and 910 wakes 900 onto CPU 0 at 5 ms.
 */
static void blocked_then_woken_on_busy_cpu0(struct rq_analysis *an)
{
	mark_task(an, 1 * MS, 900, 0, "0-1");
	mark_task(an, 1 * MS, 910, 0, "0-1");
	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
	ev_switch(an, 3 * MS, 0, 910, 0, 900, "t");
	ev_switch(an, 4 * MS, 0, 900, 1, 910, "busy");
	ev_waking(an, 5 * MS, 0, 910, 900, 0);
	ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 900, 0);
}

/*
 * Proof of selection: 900 blocks on busy CPU 0 and is woken there again while CPU 1
 * idles.  CPU 0 never went idle in between: 900 may still have been delay-dequeued,
 * so the miss is only possible.  After CPU 0 ran the idle task once, the same wakeup
 * is proven.
 */
static void missed_idle_possible_then_proven_by_idle(void **state)
{
	struct rq_analysis *an = marked(2, "6.18");

	blocked_then_woken_on_busy_cpu0(an);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 1);
	assert_true(rq_recent(an, 0)->notes & RQ_NOTE_POSSIBLE);

	ev_switch(an, 6 * MS, 0, 910, 0, 900, "t");
	ev_switch(an, 7 * MS, 0, 900, 1, 0, NULL);		/* blocks; CPU 0 goes idle */
	ev_switch(an, 8 * MS, 0, 0, 0, 910, "busy");
	ev_waking(an, 9 * MS, 0, 910, 900, 0);
	ev_wakeup(an, 9 * MS + 2 * US, 0, 910, 900, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->exact, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 1);
	rq_analysis_free(an);
}

/* The same wakeup on a kernel without delayed dequeue (6.6) is proven at once. */
static void missed_idle_proven_before_delayed_dequeue(void **state)
{
	struct rq_analysis *an = marked(2, "6.6.30");

	blocked_then_woken_on_busy_cpu0(an);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 0);
	rq_analysis_free(an);
}

/*
 * Proven by migration: 900 blocked on CPU 1, which stayed busy; its wakeup moved it to
 * busy CPU 0 (a migration inside the waking window) while CPU 2 idled.  The control
 * wakeup without the move stays possible.
 */
static void missed_idle_proven_by_migration(void **state)
{
	struct rq_analysis *an = marked(3, "6.18");

	mark_task(an, 1 * MS, 900, 0, "0-2");
	mark_task(an, 1 * MS, 901, 0, "0-2");
	mark_task(an, 1 * MS, 910, 0, "0-2");
	mark_task(an, 1 * MS, 920, 0, "0-2");
	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy0");
	ev_switch(an, 2 * MS, 1, 0, 0, 900, "t");
	ev_switch(an, 3 * MS, 1, 900, 1, 920, "busy1");		/* 900 blocks on CPU 1 */
	ev_waking(an, 4 * MS, 0, 910, 900, 1);
	ev_migrate(an, 4 * MS + 1 * US, 0, 910, 0, 900, 120, 1, 0);
	ev_wakeup(an, 4 * MS + 2 * US, 0, 910, 900, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 0);

	ev_switch(an, 5 * MS, 1, 920, 0, 901, "u");
	ev_switch(an, 6 * MS, 1, 901, 1, 920, "busy1");		/* 901 blocks on CPU 1 */
	ev_waking(an, 7 * MS, 0, 910, 901, 1);
	ev_wakeup(an, 7 * MS + 2 * US, 1, 910, 901, 1);		/* kept: not proven */
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 1);
	rq_analysis_free(an);
}

/* A wakeup pending on CPU 1 (its sched_waking seen, its sched_wakeup not yet) makes it
 * not idle: a wakeup onto busy CPU 0 in that window misses nothing. */
static void pending_wakeup_hides_idle_cpu(void **state)
{
	for (int pending = 1; pending >= 0; pending--) {
		struct rq_analysis *an = marked(2, "6.18");

		mark_task(an, 1 * MS, 900, 0, "0-1");
		mark_task(an, 1 * MS, 930, 0, "0-1");
		mark_task(an, 1 * MS, 910, 0, "0-1");
		ev_switch(an, 2 * MS, 1, 0, 0, 930, "s");
		ev_switch(an, 2 * MS + 10 * US, 1, 930, 1, 0, NULL);	/* 930 sleeps, CPU 1 idle */
		ev_switch(an, 3 * MS, 0, 0, 0, 910, "busy");
		if (pending)
			ev_waking(an, 5 * MS, 0, 910, 930, 1);
		ev_waking(an, 5 * MS + 1 * US, 0, 910, 900, 0);
		ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 900, 0);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, pending ? 0 : 1);
		rq_analysis_free(an);
	}
}

/* A task woken onto CPU 1 and not yet running makes CPU 1 busy, though its idle task
 * still runs: the wakeup onto busy CPU 0 then misses no idle CPU. */
static void woken_not_running_makes_cpu_busy(void **state)
{
	for (int woken = 1; woken >= 0; woken--) {
		struct rq_analysis *an = marked(2, "6.18");

		mark_task(an, 1 * MS, 900, 0, "0-1");
		mark_task(an, 1 * MS, 940, 0, "0-1");
		mark_task(an, 1 * MS, 910, 0, "0-1");
		ev_switch(an, 3 * MS, 0, 0, 0, 910, "busy");
		if (woken) {
			ev_waking(an, 4 * MS, 0, 910, 940, 1);
			ev_wakeup(an, 4 * MS + 1 * US, 1, 0, 940, 1);
		}
		ev_waking(an, 5 * MS, 0, 910, 900, 0);
		ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 900, 0);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, woken ? 0 : 1);
		rq_analysis_free(an);
	}
}

/* sched_idle_cpu(): a CPU running only SCHED_IDLE work is idle enough for a fair wakee. */
static void sched_idle_only_cpu_is_idle_for_fair_wakee(void **state)
{
	for (int hog_policy = 5; hog_policy >= 0; hog_policy -= 5) {
		struct rq_analysis *an = marked(2, "6.18");

		mark_task(an, 1 * MS, 900, 0, "0-1");
		mark_task(an, 1 * MS, 800, hog_policy, "0");
		ev_switch(an, 3 * MS, 0, 0, 0, 800, "hog");
		ev_waking(an, 5 * MS, 0, 800, 900, 0);
		ev_wakeup(an, 5 * MS + 2 * US, 0, 800, 900, 0);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, hog_policy == 5 ? 0 : 1);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 0);
		rq_analysis_free(an);
	}
}

/*
 * CPU 1's switch out of idle is missing; a record written there in task context by pid
 * 700 says who runs.  The model is repaired (counted), and CPU 1 is no idle CPU for a
 * miss.  A record in NMI context repairs nothing (an NMI may land inside a context
 * switch); a switch whose prev is not the running task is counted as a mismatch.
 */
static void model_repaired_from_common_pid(void **state)
{
	for (int repaired = 1; repaired >= 0; repaired--) {
		struct rq_analysis *an = marked(2, "6.18");

		mark_task(an, 1 * MS, 900, 0, "0-1");
		mark_task(an, 1 * MS, 910, 0, "0-1");
		ev_switch(an, 3 * MS, 0, 0, 0, 910, "busy");
		/* NMI context on CPU 1: not trusted */
		ev_migrate(an, 3 * MS + 1 * US, 1, 702, RQ_FLAG_NMI, 15, 120, 0, 1);
		assert_int_equal(an->cpus[1].repairs, 0);
		if (repaired) {
			ev_waking(an, 4 * MS, 1, 700, 701, 1);	/* pid 700 runs on CPU 1 */
			assert_int_equal(an->cpus[1].repairs, 1);
			assert_int_equal(an->cpus[1].idle_repairs, 1);
			assert_int_equal(an->cpus[1].curr, 700);
		}
		ev_waking(an, 5 * MS, 0, 910, 900, 0);
		ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 900, 0);
		assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, repaired ? 0 : 1);
		if (repaired) {
			ev_switch(an, 6 * MS, 1, 705, 1, 0, NULL);	/* prev is not 700 */
			assert_int_equal(an->cpus[1].switch_mismatches, 1);
		} else {
			/* a task switches out of a CPU the model had idle: the exit was lost */
			ev_switch(an, 6 * MS, 1, 705, 1, 0, NULL);
			assert_int_equal(an->cpus[1].idle_repairs, 1);
			assert_int_equal(an->cpus[1].switch_mismatches, 0);
		}
		rq_analysis_free(an);
	}
}

/*
 * A plain trace (no markers): a per-CPU kthread is taken as pinned to its CPU and never
 * judged against another; a task with no affinity change is taken as allowed on every
 * CPU, so its miss is counted as inferred, naming the assumptions.
 */
static void plain_trace_assumptions(void **state)
{
	struct rq_analysis *an = an_with(2, "6.18", NULL);
	/* 601 is first seen at its wakeup: the proof of selection rests on that too */
	unsigned int want = (1u << RQ_ASSUME_MASK_ALL) | (1u << RQ_ASSUME_LLC) |
			    (1u << RQ_ASSUME_POLICY_PRIO) | (1u << RQ_ASSUME_BLOCKED_BEFORE);

	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
	named_waking(an, 3 * MS, 0, 910, 600, 120, 0, "kworker/0:1");
	ev_wakeup(an, 3 * MS + 2 * US, 0, 910, 600, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 0);
	assert_int_equal(path_count(an, "wake-affine"), 1);
	assert_int_equal(rq_recent(an, 0)->conf, RQ_CONF_INFERRED);

	named_waking(an, 4 * MS, 0, 910, 601, 120, 0, "worker");
	ev_wakeup(an, 4 * MS + 2 * US, 0, 910, 601, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->inferred, 1);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->exact, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->assumptions, want);

	/* an assumed mask never makes an exec needless */
	ev_exec(an, 5 * MS, 0, 600, "/bin/true");
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, 0);
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->unknown, 1);
	rq_analysis_free(an);
}

/* SCHED_IDLE from a sched_setscheduler syscall in a plain trace: stacking is counted,
 * inferred (every CPU allowed, one LLC assumed). */
static void plain_trace_idle_stacking_inferred(void **state)
{
	struct rq_analysis *an = an_with(2, "6.18", NULL);

	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	ev_simple(an, 2 * MS, 0, RQ_EV_SETSCHED_ENTER, 800, 0, 5);
	ev_simple(an, 2 * MS, 0, RQ_EV_SETSCHED_EXIT, 800, 0, 0);
	ev_simple(an, 2 * MS, 1, RQ_EV_SETSCHED_ENTER, 801, 0, 5);
	ev_simple(an, 2 * MS, 1, RQ_EV_SETSCHED_EXIT, 801, 0, 0);
	ev_switch(an, 3 * MS, 1, 801, 1, 0, NULL);		/* 801 sleeps, CPU 1 idle */
	ev_switch(an, 3 * MS, 0, 800, 0, 800, "hog");
	ev_waking(an, 5 * MS, 0, 800, 801, 1);
	ev_migrate(an, 5 * MS + 1 * US, 0, 800, 0, 801, 120, 1, 0);
	ev_wakeup(an, 5 * MS + 2 * US, 0, 800, 801, 0);
	assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->count, 1);
	assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->inferred, 1);
	assert_true(fs(an, RQ_FIND_IDLE_STACKING)->assumptions & (1u << RQ_ASSUME_MASK_ALL));
	assert_int_equal(path_count(an, "wake-pulled"), 1);
	rq_analysis_free(an);
}

/* The stacking scenario on 4 CPUs: the idle CPU 2 is allowed, but outside CPU 0's LLC
 * for "llc 0-1 2-3" (select_idle_sibling() never looks there), inside for "llc 0-3". */
static void idle_stacking_only_inside_the_llc(void **state)
{
	const char *topo[] = { "llc 0-1 2-3", "llc 0-3" };

	for (int i = 0; i < 2; i++) {
		struct rq_analysis *an = an_with(4, "6.18", topo[i]);

		for (int c = 0; c < 4; c++)
			ev_switch(an, 1 * MS, c, 50 + c, 1, 0, NULL);
		mark_task(an, 1 * MS, 800, 5, "0");
		mark_task(an, 1 * MS, 801, 5, "0-3");
		mark_task(an, 1 * MS, 910, 0, "1");
		ev_switch(an, 2 * MS, 0, 0, 0, 800, "hog");
		ev_switch(an, 2 * MS, 1, 0, 0, 910, "busy");
		ev_waking(an, 5 * MS, 0, 800, 801, 0);
		ev_wakeup(an, 5 * MS + 2 * US, 0, 800, 801, 0);
		assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->count, i);
		assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->possible, 0);
		assert_int_equal(an->facts.llc_source, RQ_LLC_OPTION);
		rq_analysis_free(an);
	}
}

/* --profile idle-stack=fixed (and a v7.1 kernel): no stacking counted, not even possible. */
static void idle_stacking_profile_fixed(void **state)
{
	const char *rel[] = { "6.18", "7.1.0" };

	for (int i = 0; i < 2; i++) {
		struct rq_analysis_opts opts = {
			.profile_override = i ? NULL : "idle-stack=fixed"
		};
		struct rq_analysis *an = rq_analysis_new(&opts);
		struct rq_analysis *ctl = marked(2, "6.18");
		struct rq_analysis *both[2] = { an, ctl };

		assert_int_equal(rq_analysis_begin(an, "x", 2, rel[i], NULL), 0);
		mark_cpu(an, 0, 0);
		mark_cpu(an, 1, 0);
		ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
		ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
		for (int k = 0; k < 2; k++) {
			mark_task(both[k], 1 * MS, 800, 5, "0");
			mark_task(both[k], 1 * MS, 801, 5, "0-1");
			ev_switch(both[k], 2 * MS, 0, 0, 0, 800, "hog");
			ev_waking(both[k], 5 * MS, 0, 800, 801, 0);
			ev_wakeup(both[k], 5 * MS + 2 * US, 0, 800, 801, 0);
		}
		assert_int_equal(fs(ctl, RQ_FIND_IDLE_STACKING)->count, 1);
		assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->count, 0);
		assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->possible, 0);
		rq_analysis_free(an);
		rq_analysis_free(ctl);
	}
}

/* A move between LLCs is wake-cross-llc with --topology, never wake-llc; with the LLC
 * assumed it is wake-moved. */
static void cross_llc_move_is_never_wake_llc(void **state)
{
	const char *topo[] = { "llc 0-1 2-3", "llc 0-3", NULL };
	const char *want[] = { "wake-cross-llc", "wake-llc", "wake-moved" };

	for (int i = 0; i < 3; i++) {
		struct rq_analysis *an = an_with(4, "6.18", topo[i]);

		for (int c = 0; c < 4; c++)
			ev_switch(an, 1 * MS, c, 50 + c, 1, 0, NULL);
		ev_switch(an, 2 * MS, 0, 0, 0, 900, "t");
		ev_switch(an, 3 * MS, 0, 900, 1, 910, "busy");
		ev_waking(an, 4 * MS, 1, 911, 900, 0);
		ev_migrate(an, 4 * MS + 1 * US, 1, 911, 0, 900, 120, 0, 2);
		ev_wakeup(an, 4 * MS + 2 * US, 2, 0, 900, 2);
		assert_int_equal(path_count(an, want[i]), 1);
		if (i != 1)
			assert_int_equal(path_count(an, "wake-llc"), 0);
		rq_analysis_free(an);
	}
}

/* Only the recorder's markers are facts: a line from another writer is counted and
 * ignored; a task seen running outside its marked mask loses that mask. */
static void markers_trusted_from_the_recorder_only(void **state)
{
	struct rq_analysis *an = marked(2, "6.18");
	struct rq_task *t;

	mark_task(an, 1 * MS, 950, 0, "0-1");
	forged_marker(an, 2 * MS, 4242, "task pid=950 tgid=950 policy=0 cpus=1 idle_cg=0 comm=x");
	t = rqe_task_find(an, 950);
	assert_non_null(t);
	assert_int_equal(an->quality.markers_ignored, 1);
	assert_int_equal(rq_cpumask_weight(t->mask), 2);
	ev_exec(an, 3 * MS, 1, 950, "/bin/true");
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, 0);

	mark_task(an, 4 * MS, 960, 0, "1");
	ev_switch(an, 5 * MS, 0, 0, 0, 960, "pinned");		/* runs on CPU 0 */
	t = rqe_task_find(an, 960);
	assert_int_equal(an->quality.mask_violations, 1);
	assert_false(t->mask_known);
	rq_analysis_free(an);
}

/*
 * migration/0 moves 300; 300 blocks and its wakeup moves it back before its exec comes:
 * still sched_exec's move (exec-moved), not active balance.  A second move followed by a
 * new name (an exec whose record is missing) is exec-moved too.  Without the syscall
 * events a move with nothing after it is stopper-unknown, not lb-active.
 */
static void stopper_moves(void **state)
{
	struct rq_analysis *an = marked(2, "6.18");
	struct rq_analysis *plain = an_with(2, "6.18", NULL);
	struct rq_event ren = { .ts = 12 * MS, .type = RQ_EV_SWITCH, .cpu = 1, .common_pid = 301,
				.pid = 301, .state = 1, .pid2 = 0, .prio = 120 };

	ev_switch(an, 2 * MS, 0, 0, 0, 300, "worker");
	ev_switch(an, 3 * MS, 0, 300, 0, 10, "migration/0");
	ev_migrate(an, 3 * MS, 0, 10, 0, 300, 120, 0, 1);
	ev_switch(an, 4 * MS, 1, 0, 0, 300, "worker");
	ev_switch(an, 5 * MS, 1, 300, 2, 0, NULL);		/* blocks loading the binary */
	ev_waking(an, 6 * MS, 0, 10, 300, 1);
	ev_migrate(an, 6 * MS + 1 * US, 0, 10, 0, 300, 120, 1, 0);
	ev_wakeup(an, 6 * MS + 2 * US, 0, 10, 300, 0);
	ev_exec(an, 7 * MS, 0, 300, "/bin/sh");
	assert_int_equal(path_count(an, "exec-moved"), 1);
	assert_int_equal(path_count(an, "lb-active"), 0);

	ev_switch(an, 10 * MS, 0, 300, 0, 10, "migration/0");
	ev_switch(an, 10 * MS, 0, 10, 1, 301, "old");
	ev_switch(an, 11 * MS, 0, 301, 0, 10, "migration/0");
	ev_migrate(an, 11 * MS, 0, 10, 0, 301, 120, 0, 1);
	snprintf(ren.comm, sizeof(ren.comm), "new");
	feed(an, ren);
	ev_switch(an, 300 * MS, 0, 10, 1, 0, NULL);		/* the window closes */
	rq_analysis_finish(an);
	assert_int_equal(path_count(an, "exec-moved"), 2);

	ev_switch(plain, 2 * MS, 0, 0, 0, 302, "w");
	ev_switch(plain, 3 * MS, 0, 302, 0, 10, "migration/0");
	ev_migrate(plain, 3 * MS, 0, 10, 0, 302, 120, 0, 1);
	rq_analysis_finish(plain);
	assert_int_equal(path_count(plain, "stopper-unknown"), 1);
	assert_int_equal(path_count(plain, "lb-active"), 0);
	rq_analysis_free(an);
	rq_analysis_free(plain);
}

/* The stopper itself is a stop-class task: its own wakeups take the one-CPU shortcut
 * (wake-stop), never an RT class callback. */
static void stop_class_wakeup(void **state)
{
	struct rq_analysis *an = marked(2, "6.18");

	named_waking(an, 2 * MS, 0, 0, 10, 0, 0, "migration/0");
	ev_wakeup(an, 2 * MS + 1 * US, 0, 0, 10, 0);
	assert_int_equal(path_count(an, "wake-stop"), 1);
	assert_int_equal(path_count(an, "wake-rt"), -1 + 1);
	rq_analysis_free(an);
}

/*
 * A task named migration/0 whose marker says SCHED_NORMAL on CPUs 0-1 (or that ran on
 * two CPUs) is no stopper: its wakeup is a selection, never wake-stop.  Red on main
 * 461bcf6 (wake-stop from the name alone).
 */
static void migration_name_contradicted_by_facts(void **state)
{
	struct rq_analysis *an = marked(2, "6.18");

	mark_task(an, 1 * MS, 700, 0, "0-1");
	named_waking(an, 2 * MS, 0, 0, 700, 120, 0, "migration/0");
	ev_wakeup(an, 2 * MS + 1 * US, 0, 0, 700, 0);
	assert_int_equal(path_count(an, "wake-stop"), 0);
	rq_analysis_free(an);

	/* no marker: it ran on CPU 0, then on CPU 1 (the stopper never leaves its CPU) */
	an = marked(2, "6.18");
	named_waking(an, 2 * MS, 0, 0, 701, 120, 0, "migration/0");
	ev_wakeup(an, 2 * MS + 1 * US, 0, 0, 701, 0);
	assert_int_equal(path_count(an, "wake-stop"), 1);
	ev_switch(an, 3 * MS, 0, 50, 1, 701, "migration/0");
	ev_switch(an, 4 * MS, 0, 701, 1, 50, NULL);
	ev_switch(an, 5 * MS, 1, 51, 1, 701, "migration/0");
	ev_switch(an, 6 * MS, 1, 701, 1, 51, NULL);
	named_waking(an, 7 * MS, 0, 0, 701, 120, 1, "migration/0");
	ev_wakeup(an, 7 * MS + 1 * US, 0, 0, 701, 1);
	assert_int_equal(path_count(an, "wake-stop"), 1);
	rq_analysis_free(an);
}

/*
 * What a comm says (a per-CPU kthread pinned to its CPU, the stopper) is worked out when
 * the comm changes: an exec that renames the task takes both away with the old name.
 */
static void comm_facts_follow_renames(void **state)
{
	struct rq_analysis *an = an_with(2, "6.18", NULL);

	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
	named_waking(an, 3 * MS, 0, 910, 600, 120, 0, "kworker/0:1");
	ev_wakeup(an, 3 * MS + 2 * US, 0, 910, 600, 0);
	named_waking(an, 3 * MS, 0, 910, 601, 120, 0, "migration/0");
	ev_wakeup(an, 3 * MS + 3 * US, 0, 910, 601, 0);
	assert_int_equal(path_count(an, "wake-affine"), 1);
	assert_int_equal(path_count(an, "wake-stop"), 1);
	for (int pid = 600; pid <= 601; pid++) {
		/* it runs, execs a shell, sleeps, and wakes where it slept */
		ev_switch(an, 4 * MS + pid, 0, 910, 0, pid, pid == 600 ? "kworker/0:1" :
							  "migration/0");
		ev_exec(an, 5 * MS + pid, 0, pid, "/bin/sh");
		ev_switch(an, 6 * MS + pid, 0, pid, 1, 910, "busy");
		ev_waking(an, 7 * MS + pid, 0, 910, pid, 0);	/* no comm: the exec's name holds */
		ev_wakeup(an, 7 * MS + pid + 2 * US, 0, 910, pid, 0);
	}
	assert_int_equal(path_count(an, "wake-affine"), 1);
	assert_int_equal(path_count(an, "wake-stop"), 1);
	assert_int_equal(path_count(an, "wake-prev"), 2);
	rq_analysis_free(an);
}

static void percpu_kthread_names(void **state)
{
	assert_int_equal(rqe_percpu_kthread_cpu("kworker/3:1H"), 3);
	assert_int_equal(rqe_percpu_kthread_cpu("kworker/u8:2"), -1);
	assert_int_equal(rqe_percpu_kthread_cpu("ksoftirqd/12"), 12);
	assert_int_equal(rqe_percpu_kthread_cpu("migration/0"), 0);
	assert_int_equal(rqe_percpu_kthread_cpu("cpuhp/7"), 7);
	assert_int_equal(rqe_percpu_kthread_cpu("rcuc/1"), 1);
	assert_int_equal(rqe_percpu_kthread_cpu("idle_inject/2"), 2);
	assert_int_equal(rqe_percpu_kthread_cpu("ksoftirqd/1x"), -1);
	assert_int_equal(rqe_percpu_kthread_cpu("rcu_preempt"), -1);
	assert_int_equal(rqe_percpu_kthread_cpu("kworker/R-mm_pe"), -1);
}

/* --topology: what it accepts, and a clear error for what it does not. */
static void topology_spec(void **state)
{
	struct rq_analysis *an = an_with(4, "6.18",
					  "llc 0-1 2-3; smt 0,1 2,3\ncapacity 1024 1024 446 446");
	struct rq_analysis_opts bad = { .topology = "llc 0-5" };
	struct rq_analysis *b = rq_analysis_new(&bad);

	assert_int_equal(an->cpus[3].llc, 2);
	assert_int_equal(an->cpus[1].core, 0);
	assert_true(an->facts.asym_capacity);
	assert_int_equal(an->cpus[2].capacity, 446);
	assert_int_equal(rq_analysis_begin(b, "x", 4, "6.18", NULL), -1);
	assert_non_null(strstr(b->error, "CPU 4"));
	rq_analysis_free(an);
	rq_analysis_free(b);
}

/* Asymmetric capacities: EAS may choose a busy CPU on purpose, so a miss is possible. */
static void asymmetric_capacity_makes_missed_idle_possible(void **state)
{
	struct rq_analysis *an = an_with(2, "6.18", "llc 0-1; capacity 1024 446");

	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	mark_task(an, 1 * MS, 900, 0, "0-1");
	mark_task(an, 1 * MS, 910, 0, "0-1");
	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
	ev_waking(an, 5 * MS, 0, 910, 900, 0);
	ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 900, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->count, 0);
	assert_int_equal(fs(an, RQ_FIND_MISSED_IDLE)->possible, 1);
	rq_analysis_free(an);
}

/*
 * Without the sched_setaffinity events a marker's mask may be stale at an exec (the
 * task may have pinned itself just before): the exec waits for the recorder's next
 * marker for the task, which settles it; with the events, the marker's mask holds.
 */
struct exec_rows {
	int n, needless, affine;
	int late;		/* settled with late_findings */
	uint64_t late_ts;
};

static void count_exec_rows(void *ctx, const struct rq_placement *p)
{
	struct exec_rows *r = ctx;

	if (rq_paths[p->path].kind != RQ_KIND_EXEC)
		return;
	assert_int_equal(p->delay_ns, 0);
	if (p->late_findings) {
		assert_int_equal(p->late_findings, 1u << RQ_FIND_NEEDLESS_CALLBACK);
		r->late++;
		r->late_ts = p->ts;
	}
	r->n++;
	r->needless += !!(p->findings & (1u << RQ_FIND_NEEDLESS_CALLBACK));
	r->affine += p->path == RQ_PATH_EXEC_AFFINE;
}

static void exec_mask_settled_by_the_next_marker(void **state)
{
	struct rq_analysis *an = an_with(2, "6.18", "llc 0-1");	/* no syscall events */
	struct rq_analysis *sc = marked(2, "6.18");			/* with them */
	struct exec_rows rows = { 0 };

	/* the rows (placements export, timeline) carry the verdict the counts take */
	rq_analysis_subscribe(an, &(struct rq_observer){ .on_settled = count_exec_rows,
							  .ctx = &rows });
	mark_task(an, 1 * MS, 970, 0, "0-1");
	mark_task(sc, 1 * MS, 970, 0, "0-1");
	ev_exec(an, 2 * MS, 1, 970, "/bin/true");
	ev_exec(sc, 2 * MS, 1, 970, "/bin/true");
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->unknown, 1);
	assert_int_equal(rows.n, 0);	/* its row waits for the verdict */
	assert_int_equal(fs(sc, RQ_FIND_NEEDLESS_CALLBACK)->unknown, 0);
	assert_int_equal(fs(sc, RQ_FIND_NEEDLESS_CALLBACK)->judged, 1);
	mark_task(an, 3 * MS, 970, 0, "1");	/* it had pinned itself */
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->count, 1);
	/* the mask read after the exec may be newer than the exec: inferred, not exact */
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->inferred, 1);
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->exact, 0);
	assert_true(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->assumptions &
		    (1u << RQ_ASSUME_MASK_LAST_READ));
	assert_int_equal(rq_recent(an, 0)->conf, RQ_CONF_INFERRED);
	assert_int_equal(fs(an, RQ_FIND_NEEDLESS_CALLBACK)->unknown, 0);
	assert_int_equal(path_count(an, "exec-affine"), 1);
	assert_int_equal(rows.n, 1);
	assert_int_equal(rows.needless, 1);
	assert_int_equal(rows.affine, 1);
	/* the TUI's sparkline hears of the finding, at the exec's time */
	assert_int_equal(rows.late, 1);
	assert_int_equal(rows.late_ts, 2 * MS);
	assert_true(rq_recent(an, 0)->findings & (1u << RQ_FIND_NEEDLESS_CALLBACK));
	assert_int_equal(rq_recent(an, 0)->path, RQ_PATH_EXEC_AFFINE);
	assert_int_equal(fs(sc, RQ_FIND_NEEDLESS_CALLBACK)->count, 0);
	rq_analysis_free(an);
	rq_analysis_free(sc);
}

/*
 * A marker's mask with the sched_setaffinity events in the trace: no change of it is
 * unseen, except a cpuset move when the trace lacks cgroup_attach_task.  Then a miss
 * and a needless exec callback resting on that mask are inferred (cpuset-unseen), with
 * the event they are exact.
 */
static void cpuset_move_unseen_without_cgroup_events(void **state)
{
	for (int cgroup = 0; cgroup <= 1; cgroup++) {
		const bool ev[RQ_EV__COUNT] = {
			[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true, [RQ_EV_WAKEUP] = true,
			[RQ_EV_WAKEUP_NEW] = true, [RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true,
			[RQ_EV_EXIT] = true, [RQ_EV_EXEC] = true,
			[RQ_EV_SETAFFINITY_ENTER] = true, [RQ_EV_SETAFFINITY_EXIT] = true,
			[RQ_EV_CGROUP_ATTACH] = cgroup,
			/* the policies' changes seen: the verdicts rest on the mask alone */
			[RQ_EV_SETSCHED_ENTER] = true, [RQ_EV_SETSCHED_EXIT] = true,
			[RQ_EV_SETATTR_ENTER] = true, [RQ_EV_SETATTR_EXIT] = true,
		};
		struct rq_analysis *an = marked_with(2, "6.6.30", ev);
		const struct rq_finding_store *mi, *nc;
		unsigned int unseen = cgroup ? 0 : 1u << RQ_ASSUME_CPUSET_UNSEEN;

		mark_task(an, 1 * MS, 970, 0, "1");
		blocked_then_woken_on_busy_cpu0(an);
		ev_exec(an, 6 * MS, 1, 970, "/bin/true");
		mi = fs(an, RQ_FIND_MISSED_IDLE);
		nc = fs(an, RQ_FIND_NEEDLESS_CALLBACK);
		assert_int_equal(mi->count, 1);
		assert_int_equal(mi->exact, cgroup);
		assert_int_equal(mi->inferred, !cgroup);
		assert_int_equal(mi->assumptions, unseen);
		assert_int_equal(nc->count, 1);
		assert_int_equal(nc->exact, cgroup);
		assert_int_equal(nc->inferred, !cgroup);
		assert_int_equal(nc->assumptions, unseen);
		assert_int_equal(nc->unknown, 0);
		assert_int_equal(rq_recent(an, 0)->assume, unseen);
		rq_analysis_free(an);
	}
}

/* pid, running on CPU 0 (the records' writer), makes itself SCHED_NORMAL just after ts */
static void self_normal(struct rq_analysis *an, uint64_t ts, int pid)
{
	ev_simple(an, ts + 1 * US, 0, RQ_EV_SETSCHED_ENTER, pid, 0, RQ_SCHED_NORMAL);
	ev_simple(an, ts + 2 * US, 0, RQ_EV_SETSCHED_EXIT, pid, 0, 0);
	assert_int_equal(rqe_task_find(an, pid)->policy, RQ_SCHED_NORMAL);
}

/*
 * 900 and 910 (allowed 0-1) as in blocked_then_woken_on_busy_cpu0(), SCHED_NORMAL from
 * their markers (900: policy900), or (by_syscall) from a sched_setscheduler() each makes
 * after markers that knew no policy; rec: a truth record for the waking, 900 NORMAL and
 * not on a runqueue, CPU 1 truly idle and CPU 0 busy, or (x_unknown) CPU 0 unknown to it.
 */
static void woken_on_busy_policy(struct rq_analysis *an, bool by_syscall, int policy900,
				 struct rq_truth_rec *rec, bool x_unknown)
{
	mark_task(an, 1 * MS, 900, by_syscall ? -1 : policy900, "0-1");
	mark_task(an, 1 * MS, 910, by_syscall ? -1 : 0, "0-1");
	ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy");
	if (by_syscall)
		self_normal(an, 2 * MS, 910);
	ev_switch(an, 3 * MS, 0, 910, 0, 900, "t");
	if (by_syscall)
		self_normal(an, 3 * MS, 900);
	ev_switch(an, 4 * MS, 0, 900, 1, 910, "busy");
	ev_waking(an, 5 * MS, 0, 910, 900, 0);
	if (rec) {
		truth_init(rec, 5 * MS + 1 * US, RQ_TRUTH_WAKING, 900, 0, 0x3, 2);
		rec->task_cpu = 0;
		truth_cpu(rec, 0, 910, 1, 0);
		truth_cpu(rec, 1, 0, 0, 0);
		if (x_unknown)
			rec->cpus[0].known = 0;
		ev_truth(an, rec);
	}
	ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 900, 0);
}

static void assert_counted(const struct rq_analysis *an, enum rq_finding f, bool exact,
			   unsigned int assume, const char *what)
{
	if (fs(an, f)->count != 1 || fs(an, f)->exact != exact)
		print_message("%s: count %llu exact %llu, want 1 and %d\n", what,
			      (unsigned long long)fs(an, f)->count,
			      (unsigned long long)fs(an, f)->exact, exact);
	assert_int_equal(fs(an, f)->count, 1);
	assert_int_equal(fs(an, f)->exact, exact);
	assert_int_equal(fs(an, f)->inferred, !exact);
	assert_int_equal(fs(an, f)->assumptions, assume);
	assert_int_equal(fs(an, f)->examples[0].assume, assume);
}

/*
 * A known policy may be stale: it changes through sched_setscheduler() or
 * sched_setattr() (chrt -p, a thread's own call), which the trace shows only with both
 * syscalls' events.  Without either, a miss or a stacking that used a policy known from
 * a marker, or from a traced sched_setscheduler() (a later sched_setattr() is unseen
 * all the same), is inferred and names policy-last-read; with both it is exact.  The
 * masks rest on nothing here (setaffinity and cgroup events, a 6.6 kernel proves every
 * selection).  A truth record's policy is the kernel's: its verdict is exact without
 * the events; with the record's CPU x unknown, x is the model's (910's policy) but the
 * wakee's policy stays the record's, even against a stale model's SCHED_IDLE.
 */
static void policy_rests_on_the_policy_syscalls(void **state)
{
	const unsigned int last_read = 1u << RQ_ASSUME_POLICY_LAST_READ;

	for (int setsched = 0; setsched <= 1; setsched++) {
		for (int setattr = 0; setattr <= 1; setattr++) {
			const bool ev[RQ_EV__COUNT] = {
				[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true,
				[RQ_EV_WAKEUP] = true, [RQ_EV_WAKEUP_NEW] = true,
				[RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true, [RQ_EV_EXIT] = true,
				[RQ_EV_EXEC] = true, [RQ_EV_SETAFFINITY_ENTER] = true,
				[RQ_EV_SETAFFINITY_EXIT] = true, [RQ_EV_CGROUP_ATTACH] = true,
				[RQ_EV_TRUTH] = true,
				[RQ_EV_SETSCHED_ENTER] = setsched, [RQ_EV_SETSCHED_EXIT] = setsched,
				[RQ_EV_SETATTR_ENTER] = setattr, [RQ_EV_SETATTR_EXIT] = setattr,
			};
			bool exact = setsched && setattr;
			unsigned int unseen = exact ? 0 : last_read;
			struct rq_analysis *an = marked_with(2, "6.6.30", ev);
			struct rq_truth_rec rec;

			/* missed-idle: the wakee's and the runner's policies, from markers */
			woken_on_busy_policy(an, false, 0, NULL, false);
			assert_counted(an, RQ_FIND_MISSED_IDLE, exact, unseen, "markers");
			assert_int_equal(rq_recent(an, 0)->assume, unseen);
			/* its path rests on neither */
			assert_int_equal(rq_recent(an, 0)->conf, RQ_CONF_EXACT);
			rq_analysis_free(an);

			/*
			 * the wakee's policy unknown (policy-from-prio): CPU 0 is busy by the
			 * runner's known one all the same
			 */
			an = marked_with(2, "6.6.30", ev);
			woken_on_busy_policy(an, false, -1, NULL, false);
			assert_counted(an, RQ_FIND_MISSED_IDLE, false,
				       (1u << RQ_ASSUME_POLICY_PRIO) | unseen, "runner");
			rq_analysis_free(an);

			/* from the traced sched_setscheduler(): as unseen without sched_setattr */
			if (setsched) {
				an = marked_with(2, "6.6.30", ev);
				woken_on_busy_policy(an, true, 0, NULL, false);
				assert_counted(an, RQ_FIND_MISSED_IDLE, exact, unseen, "syscall");
				rq_analysis_free(an);
			}

			/*
			 * idle-stacking: 801 (SCHED_IDLE) blocked on CPU 1 is woken onto CPU 0,
			 * where 800 (SCHED_IDLE) runs, while CPU 1 idles
			 */
			an = marked_with(2, "6.6.30", ev);
			mark_task(an, 1 * MS, 800, 5, "0");
			mark_task(an, 1 * MS, 801, 5, "0-1");
			ev_switch(an, 2 * MS, 0, 0, 0, 800, "hog");
			ev_switch(an, 2 * MS, 1, 0, 0, 801, "t801");
			ev_switch(an, 3 * MS, 1, 801, 1, 0, NULL);
			ev_waking(an, 4 * MS, 0, 800, 801, 1);
			ev_migrate(an, 4 * MS + 1 * US, 0, 800, 0, 801, 120, 1, 0);
			ev_wakeup(an, 4 * MS + 2 * US, 0, 800, 801, 0);
			assert_counted(an, RQ_FIND_IDLE_STACKING, exact, unseen, "stacking");
			rq_analysis_free(an);

			/* the kernel's policy and CPUs (truth record): exact all the same */
			an = marked_with(2, "6.6.30", ev);
			woken_on_busy_policy(an, false, 0, &rec, false);
			assert_counted(an, RQ_FIND_MISSED_IDLE, true, 0, "truth");
			rq_analysis_free(an);

			/*
			 * CPU 0 unknown to the record: busy by the model's 910 (its policy rests
			 * on the events), 900 fair by the record although the model, stale,
			 * has it SCHED_IDLE
			 */
			an = marked_with(2, "6.6.30", ev);
			woken_on_busy_policy(an, false, 5, &rec, true);
			assert_int_equal(rqe_task_find(an, 900)->policy, RQ_SCHED_IDLE);
			assert_counted(an, RQ_FIND_MISSED_IDLE, exact, unseen, "truth, x unknown");
			assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->count, 0);
			rq_analysis_free(an);
		}
	}
}

/* The newest placement of pid in the recent ring, or NULL. */
static const struct rq_placement *recent_of(const struct rq_analysis *an, int pid)
{
	const struct rq_placement *p;

	for (unsigned int i = 0; (p = rq_recent(an, i)); i++)
		if (p->pid == pid)
			return p;
	return NULL;
}

static void assert_path_conf(const struct rq_analysis *an, enum rq_path path, int pid,
			     bool exact, unsigned int unseen)
{
	const struct rq_placement *p = recent_of(an, pid);

	assert_int_equal(an->stats.path_counts[path], 1);
	assert_int_equal(an->stats.path_conf[path][RQ_CONF_EXACT], exact);
	assert_int_equal(an->stats.path_conf[path][RQ_CONF_INFERRED], !exact);
	assert_non_null(p);
	assert_int_equal(p->path, path);
	assert_int_equal(p->conf, exact ? RQ_CONF_EXACT : RQ_CONF_INFERRED);
	/* the placement names what its path rests on (rqpath-paths(7): "rests on") */
	assert_int_equal(p->assume & unseen, unseen);
	if (exact)
		assert_int_equal(p->assume, 0);
}

/*
 * A path that needs the allowed CPUs (wake-prev and fork-* to exclude the one-CPU
 * shortcut, wake-affine, fork-affine and exec-affine to name it) is exact only when the
 * marker's mask rests on nothing: with sys_enter_sched_setaffinity (no self-pin after
 * the recorder's read is unseen) and cgroup_attach_task (no cpuset move is) in the
 * trace.  Without either the path is inferred and names the assumption.  wake-rt rests
 * on the policy, not on the mask: exact in every case.
 */
static void path_confidence_rests_on_the_mask(void **state)
{
	for (int setaff = 0; setaff <= 1; setaff++) {
		for (int cgroup = 0; cgroup <= 1; cgroup++) {
			const bool ev[RQ_EV__COUNT] = {
				[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true,
				[RQ_EV_WAKEUP] = true, [RQ_EV_WAKEUP_NEW] = true,
				[RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true, [RQ_EV_EXIT] = true,
				[RQ_EV_EXEC] = true, [RQ_EV_SETAFFINITY_ENTER] = setaff,
				[RQ_EV_SETAFFINITY_EXIT] = setaff, [RQ_EV_CGROUP_ATTACH] = cgroup,
			};
			struct rq_analysis *an = marked_with(2, "6.6.30", ev);
			unsigned int unseen = (setaff ? 0 : 1u << RQ_ASSUME_MASK_LAST_READ) |
					      (cgroup ? 0 : 1u << RQ_ASSUME_CPUSET_UNSEEN);
			bool exact = setaff && cgroup;

			/* 6.6.30 is before DELAY_DEQUEUE: every wakeup selects (proven) */
			mark_task(an, 1 * MS, 900, 0, "0-1");	/* wake-prev */
			mark_task(an, 1 * MS, 901, 0, "1");	/* wake-affine */
			mark_task(an, 1 * MS, 902, 0, "1");	/* forks 903: fork-affine */
			mark_task(an, 1 * MS, 904, 0, "0");	/* exec-affine */
			mark_task(an, 1 * MS, 905, 1, "0-1");	/* SCHED_FIFO: wake-rt */

			ev_switch(an, 2 * MS, 0, 0, 0, 900, "t900");
			ev_switch(an, 3 * MS, 0, 900, 1, 0, NULL);
			ev_waking(an, 4 * MS, 1, 51, 900, 0);
			ev_wakeup(an, 4 * MS + 2 * US, 1, 51, 900, 0);
			assert_path_conf(an, RQ_PATH_WAKE_PREV, 900, exact, unseen);

			ev_switch(an, 5 * MS, 1, 0, 0, 901, "t901");
			ev_switch(an, 6 * MS, 1, 901, 1, 0, NULL);
			ev_waking(an, 7 * MS, 0, 900, 901, 1);
			ev_wakeup(an, 7 * MS + 2 * US, 0, 900, 901, 1);
			assert_path_conf(an, RQ_PATH_WAKE_AFFINE, 901, exact, unseen);

			ev_fork(an, 8 * MS, 1, 902, 903);
			ev_wakeup_new(an, 8 * MS + 2 * US, 1, 902, 903, 1);
			assert_path_conf(an, RQ_PATH_FORK_AFFINE, 903, exact, unseen);

			ev_exec(an, 9 * MS, 0, 904, "/bin/true");
			/* without the setaffinity events the next marker settles the exec */
			mark_task(an, 10 * MS, 904, 0, "0");
			assert_path_conf(an, RQ_PATH_EXEC_AFFINE, 904, exact, unseen);

			ev_switch(an, 11 * MS, 1, 0, 0, 905, "t905");
			ev_switch(an, 12 * MS, 1, 905, 1, 0, NULL);
			feed(an, (struct rq_event){ .ts = 13 * MS, .type = RQ_EV_WAKING, .cpu = 0,
						    .common_pid = 900, .pid = 905, .prio = 49,
						    .cpu_a = 1 });
			feed(an, (struct rq_event){ .ts = 13 * MS + 2 * US, .type = RQ_EV_WAKEUP,
						    .cpu = 0, .common_pid = 900, .pid = 905,
						    .prio = 49, .cpu_a = 1 });
			assert_path_conf(an, RQ_PATH_WAKE_RT, 905, true, 0);
			rq_analysis_free(an);
			if (!setaff)
				continue;
			/*
			 * an exec right after a traced sched_setaffinity (its new mask is not
			 * in the trace): the recorder's next marker settles it, and the path
			 * rests on what that read rests on
			 */
			an = rq_analysis_new(NULL);
			assert_non_null(an);
			assert_int_equal(rq_analysis_begin(an, "synthetic", 2, "6.6.30", ev), 0);
			mark_cpu(an, 0, 0);
			mark_cpu(an, 1, 0);
			mark_task(an, 1 * MS, 906, 0, "0-1");
			ev_simple(an, 2 * MS, 0, RQ_EV_SETAFFINITY_ENTER, 906, 0, 0);
			ev_simple(an, 2 * MS + 1 * US, 0, RQ_EV_SETAFFINITY_EXIT, 906, 0, 0);
			ev_exec(an, 3 * MS, 0, 906, "/bin/true");
			assert_int_equal(an->stats.path_counts[RQ_PATH_EXEC_AFFINE], 0);
			mark_task(an, 4 * MS, 906, 0, "0");
			assert_path_conf(an, RQ_PATH_EXEC_AFFINE, 906, exact, unseen);
			rq_analysis_free(an);
		}
	}
}

/* The placement of pid with that path in the recent ring, newest first; NULL if none. */
static const struct rq_placement *recent_path(const struct rq_analysis *an, int pid,
					      enum rq_path path)
{
	const struct rq_placement *p;

	for (unsigned int i = 0; (p = rq_recent(an, i)); i++)
		if (p->pid == pid && p->path == path)
			return p;
	return NULL;
}

/* Does p name the assumption called name (looked up by name, not by number)? */
static bool rests_on(const struct rq_placement *p, const char *name)
{
	for (int a = 0; a < RQ_ASSUME__COUNT; a++)
		if (!strcmp(rq_assumption_names[a], name))
			return p->assume & (1u << a);
	return false;
}

/*
 * Issue 19 item 8.  900 runs on CPU 1 after its last idle; its switch-out is missing:
 * the next record there is 910's (a repair).  It may have blocked as late as that, and
 * stay delay-dequeued: CPU 1 idle before then proves nothing, so its wakeup onto busy
 * CPU 1 while CPU 0 idles is possible.  Once CPU 1 shows the idle task after the repair,
 * the same wakeup is proven.  A task first seen at its wakeup (920) is proven by its
 * CPU's idle time under the stated assumption blocked-before-trace: inferred.
 */
static void repaired_switch_proves_no_selection(void **state)
{
	for (int idle_after = 0; idle_after <= 1; idle_after++) {
		struct rq_analysis *an = marked(2, "6.18");
		const struct rq_finding_store *mi = fs(an, RQ_FIND_MISSED_IDLE);

		mark_task(an, 1 * MS, 900, 0, "0-1");
		mark_task(an, 1 * MS, 910, 0, "0-1");
		ev_switch(an, 2 * MS, 1, 0, 0, 900, "t");
		ev_simple(an, 3 * MS, 1, RQ_EV_OTHER, 910, 0, 0);	/* 900's switch-out lost */
		assert_int_equal(an->cpus[1].curr, 910);
		if (idle_after) {
			ev_simple(an, 3 * MS + 100 * US, 1, RQ_EV_OTHER, 0, 0, 0);
			ev_simple(an, 3 * MS + 200 * US, 1, RQ_EV_OTHER, 910, 0, 0);
		}
		ev_waking(an, 4 * MS, 1, 910, 900, 1);
		ev_wakeup(an, 4 * MS + 2 * US, 1, 910, 900, 1);
		assert_int_equal(mi->count, idle_after);
		assert_int_equal(mi->exact, idle_after);
		assert_int_equal(mi->possible, !idle_after);

		mark_task(an, 5 * MS, 920, 0, "0-1");
		ev_waking(an, 6 * MS, 1, 910, 920, 1);
		ev_wakeup(an, 6 * MS + 2 * US, 1, 910, 920, 1);
		assert_int_equal(mi->count, idle_after + 1);
		assert_int_equal(mi->exact, idle_after);
		assert_int_equal(mi->inferred, 1);
		assert_true(rests_on(recent_of(an, 920), "blocked-before-trace"));
		rq_analysis_free(an);
	}
}

/*
 * Issue 19 item 9.  CPU 2 of the LLC is allowed but the trace never shows it: it may
 * have been idle, so a wakeup onto busy CPU 0 with CPU 1 busy too is not judged (not
 * "judged, no miss").  Seen busy, it is judged; seen idle, the miss counts.
 */
static void unknown_cpu_in_the_llc_is_not_judged(void **state)
{
	for (int cpu2 = 0; cpu2 < 3; cpu2++) {	/* never shown, busy, idle */
		struct rq_analysis *an = synth_new(3, "6.6.30");
		const struct rq_finding_store *mi = fs(an, RQ_FIND_MISSED_IDLE);

		for (int c = 0; c < 3; c++)
			mark_cpu(an, c, 0);
		ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
		ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
		if (cpu2)
			ev_switch(an, 1 * MS, 2, 52, 1, 0, NULL);
		mark_task(an, 1 * MS, 900, 0, "0-2");
		mark_task(an, 1 * MS, 910, 0, "0-2");
		mark_task(an, 1 * MS, 911, 0, "0-2");
		mark_task(an, 1 * MS, 912, 0, "0-2");
		ev_switch(an, 2 * MS, 0, 0, 0, 910, "busy0");
		ev_switch(an, 2 * MS, 1, 0, 0, 911, "busy1");
		if (cpu2 == 1)
			ev_switch(an, 2 * MS, 2, 0, 0, 912, "busy2");
		ev_waking(an, 3 * MS, 0, 910, 900, 0);
		ev_wakeup(an, 3 * MS + 2 * US, 0, 910, 900, 0);
		assert_int_equal(mi->not_judged, cpu2 == 0);
		assert_int_equal(mi->judged, cpu2 != 0);
		assert_int_equal(mi->count, cpu2 == 2);
		rq_analysis_free(an);
	}
}

/*
 * Issue 19 item 12.  CPU 0 was never seen idle and has not been watched for 20 ms: its
 * runqueue is unknown, but 910 is known to run there, and a running task that is not
 * SCHED_IDLE work makes the CPU busy whatever is queued.  The wakeup onto it while CPU 1
 * idles is judged, and the miss counts.
 */
static void known_runner_makes_the_cpu_busy(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.6.30");
	const struct rq_finding_store *mi = fs(an, RQ_FIND_MISSED_IDLE);

	mark_cpu(an, 0, 0);
	mark_cpu(an, 1, 0);
	mark_task(an, 1 * MS, 900, 0, "0-1");
	mark_task(an, 1 * MS, 910, 0, "0-1");
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	ev_switch(an, 2 * MS, 0, 50, 1, 910, "busy");
	assert_false(an->cpus[0].known);
	ev_waking(an, 5 * MS, 0, 910, 900, 0);
	ev_wakeup(an, 5 * MS + 2 * US, 0, 910, 900, 0);
	assert_int_equal(mi->not_judged, 0);
	assert_int_equal(mi->judged, 1);
	assert_int_equal(mi->count, 1);
	assert_int_equal(mi->exact, 1);
	rq_analysis_free(an);
}

/*
 * Issue 19 item 13.  migration/0 moves 300 at the start of its execve (sched_exec()),
 * then, while the binary loads, migration/1 moves it back; the exec follows.  The exec
 * pairs with the first move inside its window (0 -> 1, exec-moved); the later one is the
 * other stopper's work (lb-active), not the other way round.
 */
static void exec_pairs_the_first_stopper_move(void **state)
{
	struct rq_analysis *an = marked(2, "6.18");
	const struct rq_placement *p;

	ev_switch(an, 2 * MS, 0, 0, 0, 300, "sh");
	ev_switch(an, 3 * MS, 0, 300, 0, 10, "migration/0");
	ev_migrate(an, 3 * MS + 70 * US, 0, 10, 0, 300, 120, 0, 1);
	ev_switch(an, 3 * MS + 80 * US, 1, 0, 0, 300, "sh");
	ev_switch(an, 5 * MS, 1, 300, 0, 11, "migration/1");
	ev_migrate(an, 5 * MS + 10 * US, 1, 11, 0, 300, 120, 1, 0);
	ev_switch(an, 5 * MS + 20 * US, 0, 10, 1, 300, "sh");
	ev_exec(an, 8 * MS, 0, 300, "/bin/true");
	rq_analysis_finish(an);
	assert_int_equal(path_count(an, "exec-moved"), 1);
	assert_int_equal(path_count(an, "lb-active"), 1);
	p = recent_path(an, 300, RQ_PATH_EXEC_MOVED);
	assert_non_null(p);
	assert_int_equal(p->from_cpu, 0);
	assert_int_equal(p->to_cpu, 1);
	p = recent_path(an, 300, RQ_PATH_LB_ACTIVE);
	assert_non_null(p);
	assert_int_equal(p->from_cpu, 1);
	assert_int_equal(p->to_cpu, 0);
	rq_analysis_free(an);
}

/* A record written in hard interrupt context: it shows no runner. */
static void irq_event(struct rq_analysis *an, enum rq_event_type type, uint64_t ts, int cpu,
		      int pid, int target)
{
	feed(an, (struct rq_event){ .ts = ts, .type = type, .cpu = cpu, .common_pid = 0,
				    .flags = RQ_FLAG_HARDIRQ, .pid = pid, .prio = 120,
				    .cpu_a = target });
}

/*
 * Issue 19 item 14.  The SCHED_IDLE hog 800 is woken onto idle CPU 0 and runs there, but
 * the switch out of idle is missing (as on CPU 1 of this machine): the model has the idle
 * task running and 800 queued.  801 (SCHED_IDLE) is stacked on it while CPU 1 idles;
 * the example names the SCHED_IDLE work, pid 800, not the idle task's pid 0.
 */
static void idle_stacking_names_the_sched_idle_task(void **state)
{
	struct rq_analysis *an = marked(2, "6.18");
	const struct rq_placement *p;
	char text[512];

	mark_task(an, 1 * MS, 800, 5, "0");
	mark_task(an, 1 * MS, 801, 5, "0-1");
	irq_event(an, RQ_EV_WAKING, 2 * MS, 0, 800, 0);
	irq_event(an, RQ_EV_WAKEUP, 2 * MS + 1 * US, 0, 800, 0);
	irq_event(an, RQ_EV_WAKING, 5 * MS, 0, 801, 0);
	irq_event(an, RQ_EV_WAKEUP, 5 * MS + 2 * US, 0, 801, 0);
	assert_int_equal(fs(an, RQ_FIND_IDLE_STACKING)->count, 1);
	p = &fs(an, RQ_FIND_IDLE_STACKING)->examples[0];
	assert_int_equal(p->why_pid, 800);
	rq_placement_describe(p, text, sizeof(text));
	assert_non_null(strstr(text, "SCHED_IDLE work (pid 800)"));
	rq_analysis_free(an);
}

/*
 * Issue 19 item 11.  A 3.x kernel has no sched_waking (v4.3) and no sched_prepare_exec
 * (v6.10), traces set_task_cpu() of every wakeup before its sched_wakeup, and that of
 * wake_up_new_task() before sched_wakeup_new.  With no release known, the profile
 * follows from the events (before v6.12: no delayed dequeue) and says so; the wakeup's
 * move is part of the wakeup (from its old CPU: wake-pulled here, to the waker's CPU),
 * even for a task the trace has not shown before; the fork's move is part of the fork:
 * no "unknown" placement either way.
 */
static void old_kernel_without_sched_waking(void **state)
{
	static const bool has[RQ_EV__COUNT] = {
		[RQ_EV_SWITCH] = true, [RQ_EV_WAKEUP] = true, [RQ_EV_WAKEUP_NEW] = true,
		[RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true, [RQ_EV_EXIT] = true,
		[RQ_EV_EXEC] = true,
	};
	struct rq_analysis *an = rq_analysis_new(NULL);
	const struct rq_placement *p;

	assert_non_null(an);
	assert_int_equal(rq_analysis_begin(an, "synthetic", 2, NULL, has), 0);
	assert_false(an->profile.delayed_dequeue);
	assert_non_null(strstr(an->profile.note, "sched_waking"));
	ev_switch(an, 1 * MS, 0, 50, 1, 0, NULL);
	ev_switch(an, 1 * MS, 1, 51, 1, 0, NULL);
	ev_switch(an, 2 * MS, 0, 0, 0, 910, "waker");
	/* 900, never seen, blocked on CPU 1 before the trace: woken to the waker's CPU */
	ev_migrate(an, 3 * MS, 0, 910, 0, 900, 120, 1, 0);
	ev_wakeup(an, 3 * MS + 1 * US, 0, 910, 900, 0);
	assert_int_equal(path_count(an, "unknown"), 0);
	assert_int_equal(path_count(an, "wake-prev"), 0);
	assert_int_equal(path_count(an, "wake-pulled"), 1);
	p = recent_of(an, 900);
	assert_int_equal(p->from_cpu, 1);
	assert_int_equal(p->to_cpu, 0);
	/* a fork on CPU 1 placed on CPU 0 */
	ev_switch(an, 4 * MS, 1, 0, 0, 902, "parent");
	ev_fork(an, 5 * MS, 1, 902, 903);
	ev_migrate(an, 5 * MS + 1 * US, 1, 902, 0, 903, 120, 1, 0);
	ev_wakeup_new(an, 5 * MS + 2 * US, 1, 902, 903, 0);
	assert_int_equal(path_count(an, "fork-moved"), 1);
	/* a move no sched_wakeup follows (the task runs): a move of unknown reason */
	ev_migrate(an, 6 * MS, 0, 910, 0, 905, 120, 1, 0);
	ev_switch(an, 7 * MS, 0, 910, 0, 905, "queued");
	rq_analysis_finish(an);
	assert_int_equal(path_count(an, "unknown"), 1);
	assert_int_equal(an->stats.nr_placements, 3);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(missed_idle_possible_then_proven_by_idle),
		cmocka_unit_test(missed_idle_proven_before_delayed_dequeue),
		cmocka_unit_test(missed_idle_proven_by_migration),
		cmocka_unit_test(pending_wakeup_hides_idle_cpu),
		cmocka_unit_test(woken_not_running_makes_cpu_busy),
		cmocka_unit_test(sched_idle_only_cpu_is_idle_for_fair_wakee),
		cmocka_unit_test(model_repaired_from_common_pid),
		cmocka_unit_test(plain_trace_assumptions),
		cmocka_unit_test(plain_trace_idle_stacking_inferred),
		cmocka_unit_test(idle_stacking_only_inside_the_llc),
		cmocka_unit_test(idle_stacking_profile_fixed),
		cmocka_unit_test(cross_llc_move_is_never_wake_llc),
		cmocka_unit_test(markers_trusted_from_the_recorder_only),
		cmocka_unit_test(stopper_moves),
		cmocka_unit_test(stop_class_wakeup),
		cmocka_unit_test(migration_name_contradicted_by_facts),
		cmocka_unit_test(comm_facts_follow_renames),
		cmocka_unit_test(percpu_kthread_names),
		cmocka_unit_test(topology_spec),
		cmocka_unit_test(asymmetric_capacity_makes_missed_idle_possible),
		cmocka_unit_test(exec_mask_settled_by_the_next_marker),
		cmocka_unit_test(cpuset_move_unseen_without_cgroup_events),
		cmocka_unit_test(policy_rests_on_the_policy_syscalls),
		cmocka_unit_test(path_confidence_rests_on_the_mask),
		cmocka_unit_test(repaired_switch_proves_no_selection),
		cmocka_unit_test(unknown_cpu_in_the_llc_is_not_judged),
		cmocka_unit_test(known_runner_makes_the_cpu_busy),
		cmocka_unit_test(exec_pairs_the_first_stopper_move),
		cmocka_unit_test(idle_stacking_names_the_sched_idle_task),
		cmocka_unit_test(old_kernel_without_sched_waking),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
