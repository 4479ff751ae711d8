/* SPDX-License-Identifier: GPL-2.0 */
/*
 * findings.h - the judges (findings.c): what the classifier, the model and truth.c call
 * to count a placement's findings, and to settle the execs whose verdict waited.  The
 * stores of the verdicts are the analysis' (an->findings, rqe_store()).
 * Private to the engine.
 */
#ifndef RQPATH_FINDINGS_H
#define RQPATH_FINDINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "engine.h"
#include "model.h"

/* Count a proven finding; keep the example if there is room.  Returns its index or -1. */
int rqe_add_finding(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
		    enum rq_finding f);
/* What the judges of a select-path placement (wakeup, fork) onto CPU x read. */
struct rqe_select {
	int x;
	const unsigned long *idle_before;	/* truly idle CPUs at sched_waking, or NULL */
	const unsigned long *busy_before;	/* busy ones then, or NULL */
	const unsigned long *unknown_before;	/* unknown ones then, or NULL */
	bool proven;		/* select_task_rq() provably ran (selection_proven()) */
	unsigned int proof_assume;	/* what that proof rests on */
	const struct rq_cpumask *mask;	/* rqe_task_mask() of the task, worked out once */
	unsigned int mask_assume;	/* what that mask rests on */
	bool rt_or_dl;		/* rqe_task_is_rt_or_dl() of the task, worked out once */
	/*
	 * the kernel's state at the waking or fork (truth.c), or NULL; no_selection: it
	 * shows the task on a runqueue, so a finding is "no selection", never counted
	 */
	const struct rq_truth_rec *truth;
	bool no_selection;
};
void rqe_judge_idle_stacking_full(struct rq_analysis *an, struct rq_placement *p,
				  struct rq_task *t, const struct rqe_select *sel);
/*
 * idle-stacking judges SCHED_IDLE wakees or unknown ones (rqe_judge_idle_stacking_full());
 * most wakeups stop at this inline test
 */
static inline void rqe_judge_idle_stacking(struct rq_analysis *an, struct rq_placement *p,
					   struct rq_task *t, const struct rqe_select *sel)
{
	unsigned int ignored = 0;

	if (an->profile.idle_stack_allowed && rqe_idle_class(an, t, &ignored) != 0)
		rqe_judge_idle_stacking_full(an, p, t, sel);
}
void rqe_judge_missed_idle(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			   const struct rqe_select *sel);
/* A wakeup of unknown path (no previous CPU): not judged for each finding it could have */
void rqe_judge_none(struct rq_analysis *an, struct rq_task *t, const struct rqe_select *sel);
/*
 * The two judges of a select-path placement from the kernel's state (sel->truth): the
 * CPU states at the waking or fork, the policy and the mask from the record; a CPU the
 * record does not know is the model's (the judges above for x itself).
 */
void rqe_judge_idle_stacking_truth(struct rq_analysis *an, struct rq_placement *p,
				   struct rq_task *t, const struct rqe_select *sel);
void rqe_judge_missed_idle_truth(struct rq_analysis *an, struct rq_placement *p,
				 struct rq_task *t, const struct rqe_select *sel);
/*
 * An exec whose record follows its event: not judged until rqe_settle_exec_truth() hears
 * the record (or the next marker settles it).
 */
void rqe_judge_needless_wait(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			     uint64_t ts);
void rqe_settle_exec_truth(struct rq_analysis *an, struct rq_task *t,
			   const struct rq_truth_rec *r);
/* needless-callback from the exec's record: one CPU allowed or migration disabled */
void rqe_judge_needless_truth(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			      const struct rq_truth_rec *r);
void rqe_judge_offcpu_fork(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			   int parent_cpu, int to);
/* mask_current: t's mask is known and current (no affinity change unseen since) */
void rqe_judge_needless_callback(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
				 bool mask_current);
void rqe_settle_unknown_execs(struct rq_analysis *an, struct rq_task *t);
#ifdef RQ_TEST_FIFTH_FINDING
/* findings.def's test-only row: its judge lives in tests/unit/test_fifth_finding.c */
void rqe_judge_test_dummy(struct rq_analysis *an, struct rq_placement *p);
#endif
/* No marker will describe t's execs waiting for one: they stay not judged, everywhere. */
void rqe_unknown_execs_stay(struct rq_analysis *an, struct rq_task *t);

#endif
