// SPDX-License-Identifier: GPL-2.0
/*
 * findings.c - the judges of the four findings (docs/design.md §3) and the stores of
 * their verdicts: proven (exact, or inferred under stated assumptions) goes to the
 * count, an unproven selection to possible, a missing fact to not_judged.
 */
#include <string.h>

#include "cpubits.h"
#include "delay_store.h"
#include "engine.h"
#include "findings.h"
#include "model.h"
#include "truth_model.h"

/* Count a proven finding; keep the example if there is room.  Returns its index or -1. */
int rqe_add_finding(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
		    enum rq_finding f)
{
	struct rq_finding_store *s = rqe_store(an, p, f);

	p->findings |= 1u << f;
	/* emit_placement() follows at once and gives it this number */
	if (!p->seq)
		p->seq = an->stats.nr_placements + 1;
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
 * possible, never to the count; one the kernel's state shows made no selection
 * (sel->no_selection: on a runqueue at sched_waking) goes to no_selection, neither
 * counted nor possible.
 */
static void verdict(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
		    enum rq_finding f, const struct rqe_select *sel, bool possible,
		    unsigned int assume)
{
	struct rq_finding_store *s = rqe_store(an, p, f);

	p->assume = (uint16_t)assume;
	if (sel->no_selection) {
		p->no_selection |= 1u << f;
		s->no_selection++;
		if (!p->seq)
			p->seq = an->stats.nr_placements + 1;
		return;
	}
	if (!possible) {
		rqe_add_finding(an, p, t, f);
		return;
	}
	p->notes |= RQ_NOTE_POSSIBLE;
	p->possible |= 1u << f;
	s->possible++;
	if (!p->seq)
		p->seq = an->stats.nr_placements + 1;
	if (s->npossible < (int)(sizeof(s->possible_examples) / sizeof(s->possible_examples[0])))
		s->possible_examples[s->npossible++] = *p;
}

/*
 * Whether the trace can support finding f, judged at a wakeup or fork: it has records
 * of sched_wakeup when the finding needs them (findings.def), as the report's "cannot
 * support" lines say.  A judge of a finding the trace cannot support counts its
 * candidate not judged: a trace without sched_wakeup shows the moves of sleeping tasks,
 * which are taken for their wakeups' placements, but not the wakeups that stayed or the
 * CPUs' pending ones.  Counts only grow: a finding unsupported at the end was
 * unsupported at every verdict.  The switches the findings need too are not asked for:
 * a placement before the trace's first switch is judged on what the other records'
 * writers show (the model's repair from common_pid), and a CPU the trace never shows
 * stays unknown, which the judges count not judged.
 */
static bool supported(const struct rq_analysis *an, enum rq_finding f,
		      const struct rq_placement *p)
{
	/* a fork's placement is its sched_wakeup_new: judged without sched_wakeup */
	return !(rq_findings[f].needs & (1u << RQ_EV_WAKEUP)) || an->stats.counts[RQ_EV_WAKEUP] ||
	       rq_paths[p->path].kind == RQ_KIND_FORK;
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
		both = cand & then & an->bits.idle_bits[w];
		if (both) {
			cpu = w * (int)BITS_PER_UL + __builtin_ctzl(both);
			break;
		}
		/* idle now, or unknown now: it may have been idle at both */
		if (cand & (an->bits.idle_bits[w] | an->bits.unknown_bits[w]))
			*unknown = true;
	}
	if (cpu < 0)
		return -1;
	if (!an->facts.has_topology)
		*assume |= 1u << RQ_ASSUME_LLC;
	/* its switches out of idle are missing here: was it really idle? */
	if (an->cpus[cpu].idle_repaired)
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
	struct rq_finding_store *s = rqe_store(an, p, RQ_FIND_IDLE_STACKING);
	const struct rq_cpumask *mask = sel->mask;
	unsigned int assume = 0;
	int x = sel->x;
	struct cpu_look l;
	int cls, idle_cpu;
	bool unknown;

	if (!an->profile.idle_stack_allowed)
		return;		/* v7.1 skips SCHED_IDLE rqs for SCHED_IDLE tasks */
	/* called by the truth judge (x unknown to the record): the wakee's is the kernel's */
	cls = sel->truth ? rqe_truth_idle_class(sel->truth, t) : rqe_idle_class(an, t, &assume);
	if (cls == 0)
		return;
	if (!supported(an, RQ_FIND_IDLE_STACKING, p)) {
		s->not_judged++;
		return;
	}
	assume |= sel->mask_assume;
	rqe_look_cpu(an, x, t, &l, true);
	/*
	 * nothing stacked on x, or x not SCHED_IDLE-only: no finding, whatever the wakee's
	 * policy and its mask
	 */
	if (l.known && (l.nonidle || (!l.unknown && (l.idle || !l.ntasks)))) {
		s->judged++;
		return;
	}
	if (cls < 0 || !mask || !l.known || (l.unknown && !l.nonidle)) {
		unsigned int ignored = 0;

		/*
		 * x may be SCHED_IDLE-only for a SCHED_IDLE wakee; but with no allowed CPU of
		 * its LLC that may have been idle (the mask, assumed all CPUs if unknown, a
		 * superset of the real one) there is no idle CPU it was stacked away from
		 */
		if (mask && idle_allowed_cpu(an, mask, sel, &ignored, &unknown) < 0 && !unknown)
			s->judged++;
		else
			s->not_judged++;
		return;
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
	p->why_idle_ts = an->cpus[idle_cpu].idle_since;
	/* a blocked fair task maybe still delayed there would make it not SCHED_IDLE-only */
	if (l.delayed_nonidle) {
		p->why |= 1u << RQ_WHY_DELAYED_NOT_IDLE;
		p->why_n = (uint32_t)l.delayed_nonidle;
	}
	verdict(an, p, t, RQ_FIND_IDLE_STACKING, sel, !sel->proven || l.delayed_nonidle,
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
	struct rq_finding_store *s = rqe_store(an, p, RQ_FIND_MISSED_IDLE);
	const struct rq_cpumask *mask = sel->mask;
	unsigned int assume = 0;
	int x = sel->x;
	struct cpu_look l;
	bool possible = !sel->proven;
	int cls, idle_cpu;
	bool unknown;

	/* called by the truth judge (x unknown to the record): the wakee's is the kernel's */
	cls = sel->truth ? rqe_truth_idle_class(sel->truth, t) : rqe_idle_class(an, t, &assume);
	if (cls == 1 || sel->rt_or_dl ||
	    (sel->truth ? (int)sel->truth->policy : t->policy) == RQ_SCHED_EXT)
		return;		/* not a fair, non-SCHED_IDLE wakee */
	if (!supported(an, RQ_FIND_MISSED_IDLE, p)) {
		s->not_judged++;
		return;
	}
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
	if (sel->busy_before && !rqe_bit_test(sel->busy_before, x)) {
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
	p->why_idle_ts = an->cpus[idle_cpu].idle_since;
	if (an->facts.asym_capacity) {
		/* EAS or select_idle_capacity() may have preferred x for its capacity */
		p->notes |= RQ_NOTE_ASYM;
		possible = true;
	}
	verdict(an, p, t, RQ_FIND_MISSED_IDLE, sel, possible, assume | l.assume);
}

/*
 * A wakeup whose previous CPU the trace does not show (path unknown): the judges do not
 * run, and each finding it is a candidate of counts it not judged.
 */
void rqe_judge_none(struct rq_analysis *an, struct rq_task *t, const struct rqe_select *sel)
{
	unsigned int ignored = 0;
	int cls = rqe_idle_class(an, t, &ignored);

	if (an->profile.idle_stack_allowed && cls != 0)
		an->findings[RQ_FIND_IDLE_STACKING].not_judged++;
	if (cls != 1 && !sel->rt_or_dl && t->policy != RQ_SCHED_EXT)
		an->findings[RQ_FIND_MISSED_IDLE].not_judged++;
}

/* ---- the same two judges from the kernel's state (truth.c) ----------------------- */

/*
 * The first CPU of x's LLC other than x, allowed by the record, truly idle at the waking
 * (or fork) by the record; a CPU the record does not know is the model's (idle at the
 * waking, if seen, and now), taken only when the record shows none.  -1 if none;
 * *unknown: none found, but a candidate's state is unknown to both; *from_model: the
 * CPU found is the model's.
 */
static int truth_idle_cpu(struct rq_analysis *an, const struct rqe_select *sel,
			  const struct rq_task *t, bool *unknown, bool *from_model)
{
	const struct rq_truth_rec *r = sel->truth;
	int x = sel->x, lo, hi, model = -1;
	const unsigned long *in_llc = rqe_llc_bits(an, an->cpus[x].llc, &lo, &hi);
	bool wakee_idle = rqe_truth_idle_class(r, t);

	*unknown = *from_model = false;
	if (!in_llc)
		return -1;
	rqe_cpubits_flush(an);
	for (int c = lo * (int)BITS_PER_UL; c < (hi + 1) * (int)BITS_PER_UL && c < an->nr_cpus;
	     c++) {
		enum rq_truth_cpu_state st;

		if (c == x || !rqe_bit_test(in_llc, c) || !rq_cpumask_test(sel->mask, c))
			continue;
		st = rqe_truth_cpu(an, r, c, t->pid, wakee_idle);
		if (st == RQ_TCPU_IDLE)
			return c;
		if (st != RQ_TCPU_UNKNOWN)
			continue;
		if (rqe_bit_test(an->bits.idle_bits, c) &&
		    (!sel->idle_before || rqe_bit_test(sel->idle_before, c))) {
			if (model < 0)
				model = c;
		} else if (rqe_bit_test(an->bits.unknown_bits, c) ||
			   (sel->unknown_before && rqe_bit_test(sel->unknown_before, c))) {
			*unknown = true;
		}
	}
	if (model >= 0) {
		*from_model = true;
		*unknown = false;
	}
	return model;
}

/*
 * The two truth judges' common step: the idle CPU the placement passed over, or -1; the
 * candidate counted judged, or not judged when a CPU of unknown idleness could be one.
 */
static int truth_judged_idle_cpu(struct rq_analysis *an, struct rq_finding_store *s,
				 const struct rqe_select *sel, const struct rq_task *t,
				 bool *from_model)
{
	bool unknown;
	int idle_cpu = truth_idle_cpu(an, sel, t, &unknown, from_model);

	if (idle_cpu < 0 && unknown)
		s->not_judged++;
	else
		s->judged++;
	return idle_cpu;
}

/* What a verdict resting on the model's idle CPU (from_model) rests on. */
static unsigned int truth_found_assume(const struct rq_analysis *an, int cpu, bool from_model)
{
	unsigned int assume = an->facts.has_topology ? 0 : 1u << RQ_ASSUME_LLC;

	if (from_model && an->cpus[cpu].idle_repaired)
		assume |= 1u << RQ_ASSUME_IDLE_REPAIRED;
	return assume;
}

void rqe_judge_idle_stacking_truth(struct rq_analysis *an, struct rq_placement *p,
				   struct rq_task *t, const struct rqe_select *sel)
{
	struct rq_finding_store *s = rqe_store(an, p, RQ_FIND_IDLE_STACKING);
	const struct rq_truth_rec *r = sel->truth;
	enum rq_truth_cpu_state xs;
	bool from_model;
	int idle_cpu;

	if (!an->profile.idle_stack_allowed || !rqe_truth_idle_class(r, t))
		return;		/* v7.1 skips SCHED_IDLE rqs; not SCHED_IDLE work */
	if (!sel->mask || !supported(an, RQ_FIND_IDLE_STACKING, p)) {
		s->not_judged++;
		return;
	}
	xs = rqe_truth_cpu(an, r, sel->x, t->pid, true);
	if (xs == RQ_TCPU_UNKNOWN) {
		/* x's runqueue is the model's: its judge, with the record's proof and mask */
		rqe_judge_idle_stacking_full(an, p, t, sel);
		return;
	}
	p->truth |= RQ_PT_CPUS;
	if (xs != RQ_TCPU_IDLE_ONLY) {
		s->judged++;
		return;		/* nothing stacked on, or not SCHED_IDLE-only */
	}
	idle_cpu = truth_judged_idle_cpu(an, s, sel, t, &from_model);
	if (idle_cpu < 0)
		return;
	p->why |= 1u << RQ_WHY_IDLE_STACKED;
	p->why_pid = (int)rqe_truth_entry(r, sel->x)->curr_pid;
	p->why_cpu = idle_cpu;
	verdict(an, p, t, RQ_FIND_IDLE_STACKING, sel, false,
		truth_found_assume(an, idle_cpu, from_model));
}

void rqe_judge_missed_idle_truth(struct rq_analysis *an, struct rq_placement *p,
				 struct rq_task *t, const struct rqe_select *sel)
{
	struct rq_finding_store *s = rqe_store(an, p, RQ_FIND_MISSED_IDLE);
	const struct rq_truth_rec *r = sel->truth;
	enum rq_truth_cpu_state xs;
	const struct rq_truth_cpu *xc;
	bool from_model, possible = false;
	int idle_cpu;

	if (rqe_truth_idle_class(r, t) || rqe_truth_rt_or_dl(r) || r->policy == RQ_SCHED_EXT)
		return;		/* not a fair, non-SCHED_IDLE wakee */
	if (!sel->mask || !supported(an, RQ_FIND_MISSED_IDLE, p)) {
		s->not_judged++;
		return;
	}
	xs = rqe_truth_cpu(an, r, sel->x, t->pid, false);
	if (xs == RQ_TCPU_UNKNOWN) {
		rqe_judge_missed_idle(an, p, t, sel);
		return;
	}
	p->truth |= RQ_PT_CPUS;
	if (xs != RQ_TCPU_BUSY) {
		s->judged++;
		return;		/* idle, SCHED_IDLE work only, or only the wakee: not busy */
	}
	idle_cpu = truth_judged_idle_cpu(an, s, sel, t, &from_model);
	if (idle_cpu < 0)
		return;
	xc = rqe_truth_entry(r, sel->x);
	p->why |= 1u << (xc->curr_pid > 0 && (int)xc->curr_pid != t->pid ? RQ_WHY_BUSY_RUNNING :
			 xc->nr_running ? RQ_WHY_BUSY_WAITING : RQ_WHY_BUSY_PENDING);
	p->why_pid = (int)xc->curr_pid;
	p->why_cpu = idle_cpu;
	if (an->facts.asym_capacity) {
		/* EAS or select_idle_capacity() may have preferred x for its capacity */
		p->notes |= RQ_NOTE_ASYM;
		possible = true;
	}
	verdict(an, p, t, RQ_FIND_MISSED_IDLE, sel, possible,
		truth_found_assume(an, idle_cpu, from_model));
}

void rqe_judge_needless_truth(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			      const struct rq_truth_rec *r)
{
	int cpu = -1;

	rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK)->judged++;
	p->truth |= RQ_PT_MASK | RQ_PT_POLICY;
	if (!rqe_truth_exec_one_cpu(r))
		return;
	p->truth |= RQ_PT_ONE_CPU;
	if (!an->profile.exec_callback_unconditional)
		return;
	for (int c = 0; c < RQ_TRUTH_MASK_WORDS * 64 && cpu < 0; c++)
		if (rqe_truth_allows(r, c))
			cpu = c;
	/* migration disabled: the CPU it runs on */
	p->why |= 1u << (rqe_truth_rt_or_dl(r) ? RQ_WHY_NEEDLESS_RT : RQ_WHY_NEEDLESS_FAIR);
	p->why_cpu = r->nr_cpus_allowed == 1 && cpu >= 0 ? cpu : p->cpu;
	p->assume = 0;
	rqe_add_finding(an, p, t, RQ_FIND_NEEDLESS_CALLBACK);
}

/*
 * The execs settled by a marker, as the rows show them: the sinks (delay.c's wait list)
 * and the recent ring get the same verdict the counts below take.
 */
static void settled_execs_out(struct rq_analysis *an, struct rq_task *t, uint64_t n,
			      const struct rq_exec_fix *fix)
{
	rqe_delay_execs_settled(an, t, fix);
	/* the ring's newest entries: stop at the n-th waiting exec of t */
	for (unsigned int i = 0; n && i < an->recent.len; i++) {
		unsigned int k = (an->recent.head + an->recent.cap - 1 - i) % an->recent.cap;
		struct rq_placement *p = &an->recent.ring[k];

		if (p->pid != t->pid || !(p->notes & RQ_NOTE_MASK_UNKNOWN))
			continue;
		rqe_exec_fix_apply(p, fix);
		n--;
	}
}

void rqe_unknown_execs_stay(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_task_cold *c = rqe_cold_if(t);

	if (c) {
		c->unknown_execs = 0;
		c->truth_exec_wait = false;
		c->truth_exec_marked = false;
	}
	rqe_delay_execs_settled(an, t, NULL);
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
	struct rq_finding_store *s;
	uint64_t n = t->cold->unknown_execs;
	struct rq_placement none = { .parent_cpu_idled = -1, .child_lifetime_ns = -1 };
	/* the first of them; none if it could not be held (out of memory) */
	struct rq_placement *p = t->cold->exec_slot >= 0 ? rqe_held(an, t->cold->exec_slot) : &none;
	/* n > 0: execs were counted in it */
	struct rq_task_cold *c = rqe_cold_if(t);
	enum rq_confidence conf = RQ_CONF_EXACT;
	unsigned int unseen = rqe_mask_unseen(an);
	struct rq_exec_fix fix = { 0 };

	/* with a filter: they count where the first of them counted */
	s = rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK);
	if (!n || !t->mask_known) {
		rqe_unknown_execs_stay(an, t);
		return;
	}
	c->unknown_execs = 0;
	fix.one_cpu = rq_cpumask_single(t->mask);
	fix.cpu = rq_cpumask_first(t->mask);
	fix.needless = fix.one_cpu && an->profile.exec_callback_unconditional;
	fix.assume = rqe_mask_unseen(an);
	settled_execs_out(an, t, n, &fix);
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
	if (rqe_in_scope(an, p) && an->stats.path_counts[RQ_PATH_EXEC_LOCAL] >= n &&
	    an->stats.path_conf[RQ_PATH_EXEC_LOCAL][RQ_CONF_INFERRED] >= n) {
		an->stats.path_counts[RQ_PATH_EXEC_LOCAL] -= n;
		an->stats.path_counts[RQ_PATH_EXEC_AFFINE] += n;
		an->stats.path_conf[RQ_PATH_EXEC_LOCAL][RQ_CONF_INFERRED] -= n;
		an->stats.path_conf[RQ_PATH_EXEC_AFFINE][conf] += n;
		an->stats.conf_counts[RQ_CONF_INFERRED] -= n;
		an->stats.conf_counts[conf] += n;
	}
	rqe_release(an, &c->exec_slot);
}

/*
 * An exec whose record is still to come: the BPF program of sched_process_exec runs
 * after the tracepoint's ftrace probe, so its record follows the event by a
 * microsecond.  Not judged until it comes (rqe_settle_exec_truth()), like an exec
 * waiting for the recorder's marker; the marker settles it if the record never does.
 */
void rqe_judge_needless_wait(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			     uint64_t ts)
{
	struct rq_task_cold *c;

	rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK)->unknown++;
	rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK)->not_judged++;
	p->notes |= RQ_NOTE_MASK_UNKNOWN;
	c = rqe_cold(t);
	if (!c)
		return;		/* out of memory: the marker settles it, or it stays unknown */
	c->unknown_execs++;
	c->truth_exec_wait = true;
	c->truth_exec_marked = false;
	c->truth_exec_ts = ts;
}

/*
 * The exec's record did not come (a missed or dropped program run), by the task's next
 * exec or the end of the trace: the marker that came while it waited settles it.
 */
void rqe_exec_wait_end(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_task_cold *c = rqe_cold_if(t);

	if (!c || !c->truth_exec_wait)
		return;
	c->truth_exec_wait = false;
	if (c->truth_exec_marked && t->mask_known)
		rqe_settle_unknown_execs(an, t);
	c->truth_exec_marked = false;
}

void rqe_settle_exec_truth(struct rq_analysis *an, struct rq_task *t, const struct rq_truth_rec *r)
{
	struct rq_finding_store *s;
	struct rq_placement none = { .parent_cpu_idled = -1, .child_lifetime_ns = -1 };
	struct rq_task_cold *c = rqe_cold_if(t);
	struct rq_placement *p;
	unsigned int ignored = 0;
	struct rq_exec_fix fix = {
		.one_cpu = rqe_truth_exec_one_cpu(r), .cpu = (int)r->cpu,
		.rt = rqe_truth_rt_or_dl(r), .truth = RQ_PT_RECORD | RQ_PT_MASK | RQ_PT_POLICY,
		.truth_policy = (uint8_t)r->policy,
		.truth_allowed = (uint16_t)(r->nr_cpus_allowed > UINT16_MAX ? UINT16_MAX :
					    r->nr_cpus_allowed),
	};

	if (!c)
		return;		/* nothing waits: the exec was settled already */
	p = c->exec_slot >= 0 ? rqe_held(an, c->exec_slot) : &none;
	s = rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK);
	c->truth_exec_wait = false;
	c->truth_exec_marked = false;
	if (c->unknown_execs != 1)
		return;		/* older execs wait too: the marker settles them all */
	rqe_truth_compare(an, r, t, -1, -1, NULL, rqe_task_mask(an, t, &ignored));
	for (int cpu = 0; cpu < RQ_TRUTH_MASK_WORDS * 64; cpu++)
		if (r->nr_cpus_allowed == 1 && rqe_truth_allows(r, cpu)) {
			fix.cpu = cpu;
			break;
		}
	if (fix.one_cpu)
		fix.truth |= RQ_PT_ONE_CPU;
	fix.needless = fix.one_cpu && an->profile.exec_callback_unconditional;
	c->unknown_execs = 0;
	an->truth.summary.placements++;
	settled_execs_out(an, t, 1, &fix);
	s->unknown -= s->unknown ? 1 : 0;
	s->not_judged -= s->not_judged ? 1 : 0;
	s->judged++;
	if (fix.one_cpu) {
		rqe_exec_fix_apply(p, &fix);
		if (fix.needless) {
			p->findings &= ~(1u << RQ_FIND_NEEDLESS_CALLBACK);	/* counted below */
			p->late_findings = 0;
			p->assume = 0;
			rqe_add_finding(an, p, t, RQ_FIND_NEEDLESS_CALLBACK);
		}
		/* the path was counted exec-local (inferred): it is exec-affine, exact */
		if (an->stats.path_counts[RQ_PATH_EXEC_LOCAL] &&
		    an->stats.path_conf[RQ_PATH_EXEC_LOCAL][RQ_CONF_INFERRED]) {
			an->stats.path_counts[RQ_PATH_EXEC_LOCAL]--;
			an->stats.path_counts[RQ_PATH_EXEC_AFFINE]++;
			an->stats.path_conf[RQ_PATH_EXEC_LOCAL][RQ_CONF_INFERRED]--;
			an->stats.path_conf[RQ_PATH_EXEC_AFFINE][RQ_CONF_EXACT]++;
			an->stats.conf_counts[RQ_CONF_INFERRED]--;
			an->stats.conf_counts[RQ_CONF_EXACT]++;
		}
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
	rqe_store(an, p, RQ_FIND_OFFCPU_FORK)->of++;
	rqe_store(an, p, RQ_FIND_OFFCPU_FORK)->judged++;
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
	if (!mask_current && t->seen_multi && an->facts.has_event[RQ_EV_SETAFFINITY_ENTER] &&
	    an->facts.has_event[RQ_EV_CGROUP_ATTACH]) {
		p->why |= 1u << RQ_WHY_EXEC_MULTI_CPU;
		rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK)->judged++;
	} else if (!mask_current) {
		rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK)->unknown++;
		rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK)->not_judged++;
		p->notes |= RQ_NOTE_MASK_UNKNOWN;
		if (rqe_cold(t))
			rqe_cold_if(t)->unknown_execs++;
	} else if (rqe_store(an, p, RQ_FIND_NEEDLESS_CALLBACK)->judged++,
		   rq_cpumask_single(t->mask) && an->profile.exec_callback_unconditional) {
		p->why |= 1u << (rqe_task_is_rt_or_dl(t) ? RQ_WHY_NEEDLESS_RT :
				 RQ_WHY_NEEDLESS_FAIR);
		p->why_cpu = rq_cpumask_first(t->mask);
		/* current as far as the trace shows: a cpuset move it lacks is not */
		p->assume |= rqe_mask_unseen(an);
		rqe_add_finding(an, p, t, RQ_FIND_NEEDLESS_CALLBACK);
	}
}
