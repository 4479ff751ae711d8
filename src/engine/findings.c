// SPDX-License-Identifier: GPL-2.0
/*
 * findings.c - the judges of the four findings (docs/design.md §3) and the stores of
 * their verdicts: proven (exact, or inferred under stated assumptions) goes to the
 * count, an unproven selection to possible, a missing fact to not_judged.
 */
#include <string.h>

#include "engine.h"

/* Count a proven finding; keep the example if there is room.  Returns its index or -1. */
int rqe_add_finding(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
		    enum rq_finding f)
{
	struct rq_finding_store *s = &an->findings[f];

	p->findings |= 1u << f;
	/* emit() follows at once and gives it this number */
	if (!p->seq)
		p->seq = an->nr_placements + 1;
	s->count++;
	if (p->assume)
		s->inferred++;
	else
		s->exact++;
	s->assumptions |= p->assume;
	if (t)
		rqe_task_count(t, nr_findings[f], 1);
	if (s->nexamples >= RQ_MAX_EXAMPLES)
		return -1;
	s->examples[s->nexamples] = *p;
	return s->nexamples++;
}

/*
 * The verdict of a judge: proven (exact, or inferred under the assumptions in assume)
 * goes to the count; a placement whose selection the trace cannot prove goes to
 * possible, never to the count.
 */
static void verdict(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
		    enum rq_finding f, bool possible, unsigned int assume)
{
	struct rq_finding_store *s = &an->findings[f];

	p->assume = (uint16_t)assume;
	if (!possible) {
		rqe_add_finding(an, p, t, f);
		return;
	}
	p->notes |= RQ_NOTE_POSSIBLE;
	p->possible |= 1u << f;
	s->possible++;
	if (!p->seq)
		p->seq = an->nr_placements + 1;
	if (s->npossible < (int)(sizeof(s->possible_examples) / sizeof(s->possible_examples[0])))
		s->possible_examples[s->npossible++] = *p;
}

/*
 * The first CPU of x's LLC (the span select_idle_cpu() scans) other than x, allowed by
 * mask, that is truly idle now and was idle when the waking was seen (sel->idle_before,
 * if known); -1 if none.  What that rests on goes into *assume.  *unknown: with none
 * found, whether such a CPU's idleness was unknown then or now (never seen in the trace,
 * or after lost events), so that it may have been truly idle at both: then the trace
 * cannot say whether an idle CPU was missed.  A few words, not a visit of the CPUs:
 * the CPUs idle and unknown now (cpubits.c), the LLC's, the mask's and those idle or
 * unknown at waking, over the LLC's words only.
 */
static int idle_allowed_cpu(struct rq_analysis *an, const struct rq_cpumask *mask,
			    const struct rqe_select *sel, unsigned int *assume, bool *unknown)
{
	const unsigned long *idle_before = sel->idle_before;
	const unsigned long *unknown_before = sel->unknown_before;
	int x = sel->x, lo, hi, cpu = -1;
	const unsigned long *in_llc = rqe_llc_bits(an, an->cpus[x].llc, &lo, &hi);

	*unknown = false;
	if (!in_llc || mask->nbits != an->nr_cpus)
		return -1;	/* out of memory, or a mask not of this trace's CPUs */
	rqe_cpubits_flush(an);
	for (int w = lo; w <= hi; w++) {
		/* the candidates: allowed CPUs of the LLC but x, idle or unknown at waking */
		unsigned long cand = in_llc[w] & mask->bits[w], then = ~0UL, both;

		if (w == x / (int)BITS_PER_UL)
			cand &= ~(1UL << (x % BITS_PER_UL));
		if (idle_before) {
			cand &= idle_before[w] | unknown_before[w];
			then = idle_before[w];
		}
		both = cand & then & an->idle_bits[w];
		if (both) {
			cpu = w * (int)BITS_PER_UL + __builtin_ctzl(both);
			break;
		}
		/* idle now, or unknown now: it may have been idle at both */
		if (cand & (an->idle_bits[w] | an->unknown_bits[w]))
			*unknown = true;
	}
	if (cpu < 0)
		return -1;
	if (!an->has_topology)
		*assume |= 1u << RQ_ASSUME_LLC;
	/* its switches out of idle are missing here: was it really idle? */
	if (an->cpus[cpu].idle_repairs)
		*assume |= 1u << RQ_ASSUME_IDLE_REPAIRED;
	return cpu;
}

/*
 * The SCHED_IDLE work on x a stacking example names: its running task, or when the
 * model has the idle task running there (a switch out of idle the trace lacks), the
 * first task queued there.
 */
static int idle_work_pid(const struct rq_analysis *an, int x, const struct rq_task *skip)
{
	const struct rq_cpu *c = &an->cpus[x];

	if (c->curr > 0 && c->curr != skip->pid)
		return c->curr;
	for (int i = 0; i < c->nqueued; i++)
		if (c->queued[i] != skip)
			return c->queued[i]->pid;
	return c->curr;
}

/*
 * idle-stacking (docs/design.md §3): a select-path placement (wakeup or fork) of a SCHED_IDLE
 * task onto CPU x running only SCHED_IDLE work, while another allowed CPU of x's LLC
 * was truly idle.  SCHED_IDLE only from evidence; every task on x must be known.
 */
void rqe_judge_idle_stacking_full(struct rq_analysis *an, struct rq_placement *p,
				  struct rq_task *t, const struct rqe_select *sel)
{
	struct rq_finding_store *s = &an->findings[RQ_FIND_IDLE_STACKING];
	const struct rq_cpumask *mask = sel->mask;
	unsigned int assume = 0;
	int x = sel->x;
	struct cpu_look l;
	int cls, idle_cpu;
	bool unknown;

	if (!an->profile.idle_stack_allowed)
		return;		/* v7.1 skips SCHED_IDLE rqs for SCHED_IDLE tasks */
	cls = idle_class(t, &assume);
	if (cls == 0)
		return;
	assume |= sel->mask_assume;
	rqe_look_cpu(an, x, t, &l, true);
	if (cls < 0 || !mask || !l.known || (l.unknown && !l.nonidle)) {
		s->not_judged++;
		return;
	}
	if (l.idle || !l.ntasks || l.nonidle) {
		s->judged++;
		return;		/* nothing stacked on, or not SCHED_IDLE-only */
	}
	idle_cpu = idle_allowed_cpu(an, mask, sel, &assume, &unknown);
	if (idle_cpu < 0) {
		/* an allowed CPU of the LLC the trace does not show: it may have been idle */
		if (unknown)
			s->not_judged++;
		else
			s->judged++;
		return;
	}
	s->judged++;
	p->why |= 1u << RQ_WHY_IDLE_STACKED;
	p->why_pid = idle_work_pid(an, x, t);
	p->why_cpu = idle_cpu;
	/* a blocked fair task maybe still delayed there would make it not SCHED_IDLE-only */
	if (l.delayed_nonidle) {
		p->why |= 1u << RQ_WHY_DELAYED_NOT_IDLE;
		p->why_n = (uint32_t)l.delayed_nonidle;
	}
	verdict(an, p, t, RQ_FIND_IDLE_STACKING, !sel->proven || l.delayed_nonidle,
		assume | l.assume | sel->proof_assume);
}

/*
 * missed-idle (docs/design.md §3): a wakeup of a fair, non-SCHED_IDLE task onto CPU x that
 * was busy for the kernel while another allowed CPU of x's LLC was truly idle, both
 * when the kernel chose (sched_waking) and at sched_wakeup.
 */
void rqe_judge_missed_idle(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			   const struct rqe_select *sel)
{
	struct rq_finding_store *s = &an->findings[RQ_FIND_MISSED_IDLE];
	const struct rq_cpumask *mask = sel->mask;
	unsigned int assume = 0;
	int x = sel->x;
	struct cpu_look l;
	bool possible = !sel->proven;
	int cls, idle_cpu;
	bool unknown;

	cls = idle_class(t, &assume);
	if (cls == 1 || sel->rt_or_dl || t->policy == RQ_SCHED_EXT)
		return;		/* not a fair, non-SCHED_IDLE wakee */
	if (cls < 0)
		assume |= 1u << RQ_ASSUME_POLICY_PRIO;
	assume |= sel->mask_assume;
	rqe_look_cpu(an, x, t, &l, true);
	/* its runqueue unknown, but a task known to run there: busy all the same */
	if (mask && !l.known)
		rqe_runner_busy(an, x, t, &l);
	if (!mask || !l.known) {
		s->not_judged++;
		return;
	}
	if (!rqe_look_busy(&l, &assume)) {
		if (l.idle || !l.delayed_nonidle) {
			s->judged++;
			return;
		}
		/* SCHED_IDLE work only, unless a delayed fair task is still enqueued */
		possible = true;
	}
	if (sel->busy_before && !bit_test(sel->busy_before, x)) {
		s->judged++;
		return;		/* not busy when the kernel chose */
	}
	idle_cpu = idle_allowed_cpu(an, mask, sel, &assume, &unknown);
	if (idle_cpu < 0) {
		/* an allowed CPU of the LLC the trace does not show: it may have been idle */
		if (unknown)
			s->not_judged++;
		else
			s->judged++;
		return;
	}
	s->judged++;
	assume |= sel->proof_assume;	/* set only when proven */
	p->why |= 1u << (an->cpus[x].curr > 0 ? RQ_WHY_BUSY_RUNNING :
			 l.ntasks ? RQ_WHY_BUSY_WAITING : RQ_WHY_BUSY_PENDING);
	p->why_pid = an->cpus[x].curr;
	p->why_cpu = idle_cpu;
	if (an->asym_capacity) {
		/* EAS or select_idle_capacity() may have preferred x for its capacity */
		p->notes |= RQ_NOTE_ASYM;
		possible = true;
	}
	verdict(an, p, t, RQ_FIND_MISSED_IDLE, possible, assume | l.assume);
}

/*
 * The execs settled by a marker, as the rows show them: the sinks (delay.c's wait list)
 * and the recent ring get the same verdict the counts below take.
 */
static void settled_execs_out(struct rq_analysis *an, struct rq_task *t, uint64_t n)
{
	struct rq_exec_fix fix = {
		.one_cpu = rq_cpumask_single(t->mask),
		.cpu = rq_cpumask_first(t->mask),
	};

	fix.needless = fix.one_cpu && an->profile.exec_callback_unconditional;
	fix.assume = rqe_mask_unseen(an);
	rq_delay_execs_settled(an, t, &fix);
	/* the ring's newest entries: stop at the n-th waiting exec of t */
	for (unsigned int i = 0; n && i < an->recent_len; i++) {
		struct rq_placement *p = &an->recent[(an->recent_head + an->recent_cap - 1 - i) %
						     an->recent_cap];

		if (p->pid != t->pid || !(p->notes & RQ_NOTE_MASK_UNKNOWN))
			continue;
		rq_exec_fix_apply(p, &fix);
		n--;
	}
}

void rqe_unknown_execs_stay(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_task_cold *c = rqe_cold_if(t);

	if (c)
		c->unknown_execs = 0;
	rq_delay_execs_settled(an, t, NULL);
	if (c)
		rqe_release(an, &c->exec_slot);
}

/*
 * The recorder writes a task's mask into the trace some time after the fork, exec or
 * syscall that changed it.  Execs judged "unknown" in between, with no affinity
 * change since, ran with the mask this marker carries: judge them now.
 */
void rqe_settle_unknown_execs(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_finding_store *s = &an->findings[RQ_FIND_NEEDLESS_CALLBACK];
	uint64_t n = t->cold->unknown_execs;
	struct rq_placement none = { .parent_cpu_idled = -1, .child_lifetime_ns = -1 };
	/* the first of them; none if it could not be held (out of memory) */
	struct rq_placement *p = t->cold->exec_slot >= 0 ? held(an, t->cold->exec_slot) : &none;
	/* n > 0: execs were counted in it */
	struct rq_task_cold *c = rqe_cold_if(t);
	enum rq_confidence conf = RQ_CONF_EXACT;
	unsigned int unseen = rqe_mask_unseen(an);

	if (!n || !t->mask_known) {
		rqe_unknown_execs_stay(an, t);
		return;
	}
	c->unknown_execs = 0;
	settled_execs_out(an, t, n);
	/* they are judged now: needless if the mask has one CPU, fine otherwise */
	s->unknown -= n < s->unknown ? n : s->unknown;
	s->not_judged -= n < s->not_judged ? n : s->not_judged;
	s->judged += n;
	if (!rq_cpumask_single(t->mask)) {
		rqe_release(an, &c->exec_slot);
		return;
	}
	/*
	 * Without the sched_setaffinity events nothing shows that the mask the recorder read
	 * after the exec held at the exec: the task may have pinned itself just after it (a
	 * workload that pins itself at start does).  Then the verdict and the path rest on
	 * that read.  Without cgroup_attach_task a cpuset move in between is unseen as well:
	 * the verdict and the path (like every exec-affine) rest on that too.
	 */
	p->assume |= unseen;
	if (unseen)
		conf = RQ_CONF_INFERRED;
	if (an->profile.exec_callback_unconditional) {
		p->notes &= ~RQ_NOTE_MASK_UNKNOWN;	/* the marker settled it */
		p->why |= 1u << RQ_WHY_NEEDLESS_MARKER;
		p->why_cpu = rq_cpumask_first(t->mask);
		rqe_add_finding(an, p, t, RQ_FIND_NEEDLESS_CALLBACK);
		s->count += n - 1;
		if (p->assume)
			s->inferred += n - 1;
		else
			s->exact += n - 1;
		rqe_task_count(t, nr_findings[RQ_FIND_NEEDLESS_CALLBACK], n - 1);
	}
	if (an->path_counts[RQ_PATH_EXEC_LOCAL] >= n &&
	    an->path_conf[RQ_PATH_EXEC_LOCAL][RQ_CONF_INFERRED] >= n) {
		an->path_counts[RQ_PATH_EXEC_LOCAL] -= n;
		an->path_counts[RQ_PATH_EXEC_AFFINE] += n;
		an->path_conf[RQ_PATH_EXEC_LOCAL][RQ_CONF_INFERRED] -= n;
		an->path_conf[RQ_PATH_EXEC_AFFINE][conf] += n;
		an->conf_counts[RQ_CONF_INFERRED] -= n;
		an->conf_counts[conf] += n;
	}
	rqe_release(an, &c->exec_slot);
}

/*
 * offcpu-fork (docs/design.md §3): a new task placed on another CPU than its parent's.
 * Every fork is judged (wake_up_new_task() always selects); the example is followed
 * until the child first runs and exits (offcpu_fork_*() below).
 */
void rqe_judge_offcpu_fork(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			   int parent_cpu, int to)
{
	an->findings[RQ_FIND_OFFCPU_FORK].of++;
	an->findings[RQ_FIND_OFFCPU_FORK].judged++;
	if (to != parent_cpu && an->profile.fork_util_regression)
		p->why |= 1u << RQ_WHY_FORK_UTIL;
	if (to != parent_cpu) {
		int idx = rqe_add_finding(an, p, t, RQ_FIND_OFFCPU_FORK);

		struct rq_task_cold *c = rqe_cold(t);

		if (c)
			c->fork_example = idx;
	}
}

/*
 * needless-callback: sched_exec() asked the class although one CPU was allowed.
 * Exact only: an assumed mask never makes an exec needless, and a task seen on
 * two CPUs since its last affinity change (in a trace that would show one) has a
 * proven multi-CPU mask, which proves the callback was not needless.
 */
void rqe_judge_needless_callback(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
				 bool mask_current)
{
	if (!mask_current && t->seen_multi && an->has_event[RQ_EV_SETAFFINITY_ENTER] &&
	    an->has_event[RQ_EV_CGROUP_ATTACH]) {
		p->why |= 1u << RQ_WHY_EXEC_MULTI_CPU;
		an->findings[RQ_FIND_NEEDLESS_CALLBACK].judged++;
	} else if (!mask_current) {
		an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown++;
		an->findings[RQ_FIND_NEEDLESS_CALLBACK].not_judged++;
		p->notes |= RQ_NOTE_MASK_UNKNOWN;
		if (rqe_cold(t))
			rqe_cold_if(t)->unknown_execs++;
	} else if (an->findings[RQ_FIND_NEEDLESS_CALLBACK].judged++,
		   rq_cpumask_single(t->mask) && an->profile.exec_callback_unconditional) {
		p->why |= 1u << (task_is_rt_or_dl(t) ? RQ_WHY_NEEDLESS_RT : RQ_WHY_NEEDLESS_FAIR);
		p->why_cpu = rq_cpumask_first(t->mask);
		/* current as far as the trace shows: a cpuset move it lacks is not */
		p->assume |= rqe_mask_unseen(an);
		rqe_add_finding(an, p, t, RQ_FIND_NEEDLESS_CALLBACK);
	}
}
