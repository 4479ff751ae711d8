// SPDX-License-Identifier: GPL-2.0
/*
 * classify.c - the classifier (docs/kernel.md §3): each placement event (wakeup, new task,
 * exec, migration) gets the select_task_rq() path that explains it and the confidence
 * the evidence allows, is handed to the judges (findings.c), and is stored by emit_placement().
 */
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "classify.h"
#include "cpubits.h"
#include "delay_store.h"
#include "engine.h"
#include "findings.h"
#include "model.h"
#include "truth_model.h"

static void placement_init(struct rq_placement *p, const struct rq_event *ev,
			   const struct rq_task *t, int from, int to, enum rq_path path,
			   enum rq_confidence conf)
{
	memset(p, 0, sizeof(*p));
	p->ts = ev->ts;
	p->pid = t ? t->pid : ev->pid;
	rqe_copy_comm(p->comm, t && t->comm[0] ? t->comm : ev->comm);
	p->cpu = ev->cpu;
	p->from_cpu = from;
	p->to_cpu = to;
	p->writer_pid = ev->common_pid;
	p->path = path;
	p->conf = conf;
	p->parent_cpu_idled = -1;
	p->child_lifetime_ns = -1;
	p->delay_ns = -1;
}

/* Store a classified placement: counters and the recent ring. */
bool rqe_in_scope_slow(const struct rq_analysis *an, const struct rq_placement *p)
{
	const struct rq_filter *f = &an->scope.filter;
	double at = p->ts >= an->stats.first_ts ? (double)(p->ts - an->stats.first_ts) / 1e9 : 0;
	bool pid = !f->npids;

	for (int i = 0; i < f->npids && !pid; i++)
		pid = f->pids[i] == p->pid;
	if (!pid)
		return false;
	if (f->comm && strncmp(an->scope.filter_comm, p->comm, RQ_COMM_LEN))
		return false;
	if (f->cpus && !rq_cpumask_test(&an->scope.filter_cpus, p->to_cpu))
		return false;
	if (f->has_from && at < f->from)
		return false;
	if (f->has_to && at > f->to)
		return false;
	return true;
}

bool rq_filter_active(const struct rq_filter *f)
{
	return f && (f->npids || f->comm || f->cpus || f->has_from || f->has_to);
}

int rq_filter_check(const struct rq_filter *f, char *err, size_t errlen)
{
	struct rq_cpumask m;
	int rc;

	if (f->has_from && f->has_to && f->to < f->from) {
		snprintf(err, errlen, "--to %g is before --from %g", f->to, f->from);
		return -1;
	}
	if (!f->cpus)
		return 0;
	if (rq_cpumask_init(&m, RQ_MAX_CPUS)) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = rq_cpumask_parse(&m, f->cpus);
	if (!rc && !rq_cpumask_weight(&m))
		rc = -1;
	rq_cpumask_free(&m);
	if (rc)
		snprintf(err, errlen, "--cpu wants a CPU list (0,2-3), not '%.64s'", f->cpus);
	return rc;
}

static void emit_placement(struct rq_analysis *an, struct rq_placement *p)
{
	/* a CPU whose events were lost is unknown until seen idle again: say so */
	if (an->quality.lost_on_cpus &&
	    ((rqe_valid_cpu(an, p->to_cpu) && an->cpus[p->to_cpu].lost_events &&
	      !an->cpus[p->to_cpu].known) ||
	     (rqe_valid_cpu(an, p->cpu) && an->cpus[p->cpu].lost_events &&
	      !an->cpus[p->cpu].known)))
		p->notes |= RQ_NOTE_AFTER_LOSS;
#ifdef RQ_TEST_FIFTH_FINDING
	rqe_judge_test_dummy(an, p);	/* tests/unit/test_fifth_finding.c */
#endif
	an->stats.nr_placements++;
	p->seq = an->stats.nr_placements;
	if (!rqe_in_scope(an, p)) {
		/* left out: counted nowhere, shown nowhere (the model already has it) */
		an->stats.nr_filtered++;
		return;
	}
	if (an->obs.placement)
		rqe_notify_placement(an, p);
	an->stats.path_counts[p->path]++;
	an->stats.path_conf[p->path][p->conf]++;
	an->stats.conf_counts[p->conf]++;
	if (rqe_valid_cpu(an, p->from_cpu) && p->from_cpu != p->to_cpu)
		rqe_count32(&an->cpus[p->from_cpu].placements_out,
			    &an->cpus[p->from_cpu].placements_out_hi);
	if (rqe_valid_cpu(an, p->to_cpu))
		rqe_count32(&an->cpus[p->to_cpu].placements_in,
			    &an->cpus[p->to_cpu].placements_in_hi);
	if (an->recent.cap) {
		an->recent.ring[an->recent.head] = *p;
		if (++an->recent.head == an->recent.cap)
			an->recent.head = 0;
		if (an->recent.len < an->recent.cap)
			an->recent.len++;
	}
	rqe_delay_placed(an, p);
}

const struct rq_placement *rq_recent(const struct rq_analysis *an, unsigned int i)
{
	if (i >= an->recent.len)
		return NULL;
	return &an->recent.ring[(an->recent.head + an->recent.cap - 1 - i) % an->recent.cap];
}

/*
 * Proof of selection (docs/design.md §3): did select_task_rq() run for this wakeup?  On a
 * kernel with DELAY_DEQUEUE a fair task that blocked may still be enqueued, and
 * ttwu_runnable() then requeues it where it was, with no selection at all.  Proven
 * when it migrated inside the wakeup, when the CPU it blocked on ran the idle task
 * since (a CPU goes idle only after the fair pick dequeued every delayed entity), for
 * RT/DL tasks (never delayed), or on a kernel without delayed dequeue.  When it blocked
 * is its switch-out, or the first sign that it no longer ran (rqe_left_unseen()); a
 * task the trace never showed before this wakeup blocked before the trace began, on
 * the CPU sched_waking names (task_cpu()): that proof rests on RQ_ASSUME_BLOCKED_BEFORE,
 * added to *assume.
 */
static bool selection_proven(const struct rq_analysis *an, const struct rq_task *t,
			     bool rt_or_dl, unsigned int *assume)
{
	int b = t->blocked_cpu;

	/* a move seen inside the waking window: set_task_cpu() after a selection */
	if (!an->profile.delayed_dequeue || rt_or_dl || (t->wake_migrated && t->waking))
		return true;
	if (!rqe_valid_cpu(an, b) || !an->cpus[b].last_idle_ts ||
	    an->cpus[b].last_idle_ts < t->blocked_ts)
		return false;
	if (!t->blocked_ts)
		*assume |= 1u << RQ_ASSUME_BLOCKED_BEFORE;
	return true;
}

/* ---- placements held until what follows is known ------------------------------ */

int rqe_hold(struct rq_analysis *an, int *slot, const struct rq_placement *p)
{
	if (*slot < 0) {
		if (an->held.nfree) {
			*slot = an->held.free_slots[--an->held.nfree];
		} else {
			if (an->held.n == an->held.cap) {
				int ncap = an->held.cap ? an->held.cap * 2 : 16;
				struct rq_placement *nh = reallocarray(an->held.slots, (size_t)ncap,
								       sizeof(*nh));
				int *nf;

				if (!nh)
					return -1;
				an->held.slots = nh;
				nf = reallocarray(an->held.free_slots, (size_t)ncap, sizeof(*nf));
				if (!nf)
					return -1;
				an->held.free_slots = nf;
				an->held.cap = ncap;
			}
			*slot = an->held.n++;
		}
	}
	an->held.slots[*slot] = *p;
	return 0;
}

void rqe_release(struct rq_analysis *an, int *slot)
{
	if (*slot < 0)
		return;
	an->held.free_slots[an->held.nfree++] = *slot;
	*slot = -1;
}

/* ---- the stopper (migration/N) moves: resolved once we know what followed ---- */

/*
 * A migration/N move (docs/kernel.md §3) is decided by what follows it: an
 * exec of the task inside STOPPER_EXEC_WINDOW (sched_exec(): rqe_handle_exec() emits it),
 * a change of its name (an exec whose record is missing), a sched_setaffinity on it,
 * or nothing.  Wakeups in between decide nothing: exec may block loading the binary.
 * Active balance is said only when the trace would have shown an exec or an affinity
 * change; otherwise the reason stays unknown.
 */
static void resolve_stopper_move(struct rq_analysis *an, struct rq_task *t, int *slot);

/*
 * Up to two moves wait: the first of the window (stopper_slot), which an exec pairs,
 * since sched_exec() moves the task at the start of execve, before the binary loads, and
 * the latest after it (stopper_later_slot), which an exec does not: a move while the
 * binary loads is another stopper's work.  by_exec: the exec handler emits the first.
 */
void rqe_resolve_stopper(struct rq_analysis *an, struct rq_task *t, bool by_exec)
{
	struct rq_task_cold *c = rqe_cold_if(t);	/* a held move: it has one */

	if (!t->stopper_pending)
		return;
	t->stopper_pending = false;
	if (by_exec) {
		rqe_release(an, &c->stopper_slot);
		/* a rename since was this exec's: one exec record, one exec placement */
		c->stopper_comm_changed = false;
	} else {
		resolve_stopper_move(an, t, &c->stopper_slot);
	}
	if (c->stopper_later_slot >= 0)
		resolve_stopper_move(an, t, &c->stopper_later_slot);
}

/* The first move's window closed without an exec: the later one is the first now. */
static void expire_first_stopper(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_task_cold *c = rqe_cold_if(t);	/* a held move: it has one */

	resolve_stopper_move(an, t, &c->stopper_slot);
	c->stopper_slot = c->stopper_later_slot;
	c->stopper_later_slot = -1;
	t->stopper_pending = c->stopper_slot >= 0;
}

/* A held stopper move that no exec explains: its reason from what else followed. */
static void resolve_stopper_move(struct rq_analysis *an, struct rq_task *t, int *slot)
{
	struct rq_placement *p = rqe_held(an, *slot);

	p->conf = RQ_CONF_INFERRED;
	if (t->cold->stopper_comm_changed) {
		p->path = RQ_PATH_EXEC_MOVED;
		p->why |= 1u << RQ_WHY_STOPPER_RENAMED;
		memcpy(p->why_comm, t->comm, RQ_COMM_LEN);
	} else if (t->cold->affinity_change_ts &&
		   p->ts - t->cold->affinity_change_ts < AFFINITY_WINDOW) {
		p->path = RQ_PATH_AFFINITY_STOPPER;
		p->why |= 1u << RQ_WHY_STOPPER_AFFINITY;
	} else if ((an->facts.has_event[RQ_EV_EXEC] || an->stats.counts[RQ_EV_EXEC]) &&
		   an->facts.has_event[RQ_EV_SETAFFINITY_ENTER]) {
		p->path = RQ_PATH_LB_ACTIVE;
		p->why |= 1u << RQ_WHY_STOPPER_ACTIVE;
	} else {
		p->path = RQ_PATH_STOPPER_UNKNOWN;
		p->conf = RQ_CONF_UNKNOWN;
		p->why |= 1u << (an->facts.has_event[RQ_EV_SETAFFINITY_ENTER] ?
				 RQ_WHY_STOPPER_NO_EXEC : RQ_WHY_STOPPER_NO_AFFINITY);
	}
	emit_placement(an, p);
	rqe_release(an, slot);
}

void rqe_expire_stopper(struct rq_analysis *an, struct rq_task *t, uint64_t now)
{
	while (t->stopper_pending &&
	       now - rqe_held(an, t->cold->stopper_slot)->ts > STOPPER_EXEC_WINDOW)
		expire_first_stopper(an, t);
}

/*
 * A trace without sched_waking (before v4.3): the move of a sleeping task (or one whose
 * state is unknown) is its wakeup's set_task_cpu() when its sched_wakeup follows; it is
 * held until then (wake_move_slot).  Anything else that shows the task first (it runs,
 * moves again, wakes through sched_waking, exits, the trace ends) makes it a move of
 * unknown reason: emitted as such here.
 */
void rqe_resolve_wake_move(struct rq_analysis *an, struct rq_task *t)
{
	if (!t->wake_move_held)
		return;
	emit_placement(an, rqe_held(an, t->cold->wake_move_slot));
	rqe_release(an, &rqe_cold_if(t)->wake_move_slot);
	t->wake_move_held = false;
	t->wake_migrated = false;
}

void rqe_handle_waking(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_get(an, ev->pid, ev->ts);
	unsigned long *snap;

	if (!t)
		return;
	rqe_note_comm(t, ev->comm);
	t->prio = rqe_prio(ev->prio);
	rqe_expire_stopper(an, t, ev->ts);
	rqe_resolve_wake_move(an, t);
	snap = rqe_snap_take(an, t);
	if (snap)
		rqe_snapshot_cpus(an, t, snap, snap + rqe_mask_longs(an),
				  snap + 2 * rqe_mask_longs(an));
	t->waking = true;
	t->waking_cpu = ev->cpu;
	t->waker_pid = ev->common_pid;
	t->wake_migrated = false;
	if (t->cpu < 0 && rqe_valid_cpu(an, ev->cpu_a))
		t->cpu = ev->cpu_a;
	/* target_cpu of sched_waking is task_cpu(p): where it blocked, if that was unseen */
	if (t->blocked_cpu < 0 && rqe_valid_cpu(an, ev->cpu_a))
		t->blocked_cpu = ev->cpu_a;
	/* not still queued or running (ttwu_runnable()): the wakeup is on its way there */
	if (t->state != RQ_TS_RUNNING && !(t->state == RQ_TS_QUEUED && !t->on_delayed))
		rqe_set_pending(an, t, ev->cpu_a);
}

/*
 * A wakeup placement onto CPU to: which select_task_rq() path put it there.  Called at
 * sched_wakeup, or at the migration itself when the trace has no sched_wakeup.
 */
static void wakeup_placement(struct rq_analysis *an, const struct rq_event *ev,
			     struct rq_task *t, int to)
{
	bool saw_waking = t->waking;
	unsigned long *snap = saw_waking ? rqe_snap(an, t) : NULL;
	int from = t->wake_migrated ? t->wake_from : t->cpu;
	/* the waker's CPU: its sched_waking's, or its move's (the trace has no sched_waking) */
	int waker_cpu = saw_waking || t->wake_migrated ? t->waking_cpu : ev->cpu;
	/* asked up to three times below: policy and prio do not change in between */
	bool rt_or_dl = rqe_task_is_rt_or_dl(t);
	unsigned int proof_assume = 0;
	bool proven = selection_proven(an, t, rt_or_dl, &proof_assume);
	bool mask_one = t->mask_known && rq_cpumask_single(t->mask);
	unsigned int assume = 0, path_assume = 0;
	const struct rq_cpumask *mask = rqe_task_mask(an, t, &assume);
	/* still running or queued for the model: ttwu_runnable() */
	bool runnable = t->state == RQ_TS_RUNNING ||
			(t->state == RQ_TS_QUEUED && !t->wake_migrated);
	/* the kernel's state at the waking (truth.c), if the trace has it */
	const struct rq_truth_rec *tr = rqe_truth_take(an, t->pid, RQ_TRUTH_WAKING, ev->ts);
	/* migration/N by name, unless the record or what is known of it says otherwise */
	bool stopper = rqe_is_stopper(t, tr);
	/* the model would have judged this wakeup (its path below is a selection's) */
	bool model_judges = !runnable && !stopper;
	struct rqe_select sel;
	struct rq_placement p;
	enum rq_path path;
	enum rq_confidence conf = RQ_CONF_INFERRED;

	if (tr) {
		/*
		 * The record decides what the model could only infer: whether a selection
		 * ran (on_rq at sched_waking: ttwu_runnable()), the policy, the allowed CPUs;
		 * the model is measured against it first.
		 */
		rqe_truth_compare(an, tr, t, proven, runnable, snap, mask);
		/*
		 * on_rq is read at sched_waking, a moment before ttwu_runnable() reads it
		 * under the runqueue lock: a task that dequeued itself in between is selected
		 * for all the same, which a move inside the waking window shows
		 */
		runnable = (tr->flags & RQ_TRUTH_ON_RQ) && !(t->wake_migrated && t->waking);
		proven = !runnable;
		proof_assume = 0;
		rt_or_dl = rqe_truth_rt_or_dl(tr);
		mask_one = rqe_truth_one_cpu(tr);
		mask = rqe_truth_mask(an, tr, mask);
		assume = 0;
	}
	sel = (struct rqe_select){
		.x = to, .proven = proven, .proof_assume = proof_assume, .mask = mask,
		.mask_assume = assume, .rt_or_dl = rt_or_dl,
		.idle_before = snap,
		.busy_before = snap ? snap + rqe_mask_longs(an) : NULL,
		.unknown_before = snap ? snap + 2 * rqe_mask_longs(an) : NULL,
		.truth = tr, .no_selection = tr && runnable,
	};

	rqe_task_count(t, nr_wakeups, 1);
	rqe_clear_pending(an, t);

	if (runnable) {
		path = RQ_PATH_WAKE_RUNNABLE;
		if (tr)
			conf = RQ_CONF_EXACT;
	} else if (stopper) {
		path = RQ_PATH_WAKE_STOP;
	} else if (tr && mask_one) {
		path = RQ_PATH_WAKE_AFFINE;
		conf = RQ_CONF_EXACT;
	} else if (!tr && (mask_one ||
		   /* a known mask is t->mask itself, tested above: only an assumed one here */
		   (!t->mask_known && mask && assume && rq_cpumask_single(mask)))) {
		path = RQ_PATH_WAKE_AFFINE;
		/*
		 * a known mask may be stale (rqe_task_mask()): the path rests on it then, and
		 * on what the proof of selection rests on
		 */
		conf = mask_one && proven && !assume && !proof_assume ? RQ_CONF_EXACT :
		       RQ_CONF_INFERRED;
		if (t->mask_known)
			path_assume = assume | (proven ? proof_assume : 0);
	} else if (rt_or_dl) {
		path = RQ_PATH_WAKE_RT;
		conf = RQ_CONF_EXACT;
	} else if (from < 0) {
		path = RQ_PATH_UNKNOWN;
		conf = RQ_CONF_UNKNOWN;
	} else if (to == from) {
		/*
		 * exact only when a selection is proven, the mask is a fact with several
		 * CPUs (resting on nothing: a stale one may hide a pin to prev), and no EAS
		 * could have returned prev: else ttwu_runnable(), the one-CPU shortcut or
		 * EAS look the same.  The kernel's state proves the first two.
		 */
		path = RQ_PATH_WAKE_PREV;
		if (t->mask_known && !tr)
			path_assume = assume | (saw_waking && proven ? proof_assume : 0);
		if (((saw_waking && proven && t->mask_known && !assume && !proof_assume) || tr) &&
		    !an->facts.asym_capacity)
			conf = RQ_CONF_EXACT;
	} else if (to == waker_cpu) {
		path = RQ_PATH_WAKE_PULLED;
	} else if (!an->facts.has_topology) {
		path = RQ_PATH_WAKE_MOVED;	/* which LLC each CPU is in is not known */
	} else if (rqe_same_llc(an, from, to)) {
		path = RQ_PATH_WAKE_LLC;
	} else {
		path = RQ_PATH_WAKE_CROSS_LLC;
	}
	placement_init(&p, ev, t, from, to, path, conf);
	if (path == RQ_PATH_UNKNOWN)
		p.why |= 1u << RQ_WHY_WAKE_FROM_UNKNOWN;
	if (saw_waking)
		p.writer_pid = t->waker_pid;
	if (!saw_waking && path != RQ_PATH_WAKE_RUNNABLE)
		p.notes |= RQ_NOTE_NO_WAKING;
	if (!proven && path != RQ_PATH_WAKE_RUNNABLE) {
		p.notes |= RQ_NOTE_MAYBE_DELAYED;
		p.blocked_us = t->blocked_ts && ev->ts > t->blocked_ts ?
			       (uint32_t)((ev->ts - t->blocked_ts) / 1000) : UINT32_MAX;
	}
	if (tr) {
		rqe_truth_mark(an, &p, tr, t);
		if (!runnable)
			p.truth &= (uint8_t)~RQ_PT_ON_RQ;	/* moved in the window: selected */
		p.truth |= RQ_PT_SELECTION | RQ_PT_POLICY | RQ_PT_MASK;
		an->truth.summary.placements++;
	}

	if (tr) {
		/*
		 * with the record, every selection is judged from it, and so is a wakeup the
		 * model would have judged that made none: "no selection" where a finding
		 * would hold
		 */
		if (path != RQ_PATH_WAKE_STOP && (!runnable || (model_judges && from >= 0))) {
			rqe_judge_idle_stacking_truth(an, &p, t, &sel);
			rqe_judge_missed_idle_truth(an, &p, t, &sel);
		}
	} else if (path != RQ_PATH_WAKE_RUNNABLE && path != RQ_PATH_UNKNOWN &&
		   path != RQ_PATH_WAKE_STOP) {
		rqe_judge_idle_stacking(an, &p, t, &sel);
		rqe_judge_missed_idle(an, &p, t, &sel);
	} else if (path == RQ_PATH_UNKNOWN) {
		rqe_judge_none(an, t, &sel);
	}
	/* after the judges: their verdicts set p.assume to what the finding rests on */
	p.assume |= (uint16_t)path_assume;
	emit_placement(an, &p);

	t->waking = false;
	t->wake_migrated = false;
	rqe_snap_put(an, t);
	t->cpu = to;
	if (an->cpus[to].curr != t->pid) {
		t->state = RQ_TS_QUEUED;
		rqe_enqueue(an, t, to, false);
	}
}

void rqe_handle_wakeup(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_get(an, ev->pid, ev->ts);

	if (!t || !rqe_valid_cpu(an, ev->cpu_a))
		return;
	rqe_note_comm(t, ev->comm);
	t->prio = rqe_prio(ev->prio);
	/* the move held as this wakeup's is part of its placement (wake_from) */
	if (t->wake_move_held) {
		rqe_release(an, &rqe_cold_if(t)->wake_move_slot);
		t->wake_move_held = false;
	}
	wakeup_placement(an, ev, t, ev->cpu_a);
}

void rqe_handle_wakeup_new(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_get(an, ev->pid, ev->ts);
	int parent_cpu = ev->cpu, to = ev->cpu_a;
	/* a fork always selects (wake_up_new_task): no proof needed */
	struct rqe_select sel = { .x = to, .proven = true };
	const struct rq_truth_rec *tr;
	struct rq_placement p;
	enum rq_path path;
	unsigned int path_assume = 0;
	int nex;

	if (!t || !rqe_valid_cpu(an, to))
		return;
	rqe_note_comm(t, ev->comm);
	t->prio = rqe_prio(ev->prio);
	t->fork_selecting = false;
	/* the kernel's state at sched_process_fork: the child's policy, mask, the CPUs */
	tr = rqe_truth_take(an, t->pid, RQ_TRUTH_FORK, ev->ts);
	if (tr) {
		unsigned int ignored = 0;

		rqe_truth_compare(an, tr, t, -1, -1, NULL, rqe_task_mask(an, t, &ignored));
		path = rqe_truth_one_cpu(tr) ? RQ_PATH_FORK_AFFINE :
		       rqe_truth_rt_or_dl(tr) ? RQ_PATH_FORK_RT :
		       to == parent_cpu ? RQ_PATH_FORK_LOCAL : RQ_PATH_FORK_MOVED;
	} else if (t->mask_known && rq_cpumask_single(t->mask)) {
		path = RQ_PATH_FORK_AFFINE;
	} else if (rqe_task_is_rt_or_dl(t)) {
		path = RQ_PATH_FORK_RT;
	} else if (to == parent_cpu) {
		path = RQ_PATH_FORK_LOCAL;
	} else {
		path = RQ_PATH_FORK_MOVED;
	}
	/*
	 * with the mask unknown, or known but maybe stale (rqe_task_mask()), the one-CPU
	 * shortcut may have decided instead
	 */
	if (t->mask_known && path != RQ_PATH_FORK_RT && !tr)
		path_assume = rqe_mask_unseen(an);
	placement_init(&p, ev, t, parent_cpu, to, path,
		       (t->mask_known && !path_assume) || path == RQ_PATH_FORK_RT || tr ?
		       RQ_CONF_EXACT : RQ_CONF_INFERRED);
	if (path == RQ_PATH_FORK_MOVED) {
		p.level = !an->facts.has_topology ? RQ_LEVEL_UNKNOWN :
			  an->cpus[to].core == an->cpus[parent_cpu].core ? RQ_LEVEL_SMT :
			  rqe_same_llc(an, to, parent_cpu) ? RQ_LEVEL_LLC :
			  an->cpus[to].node == an->cpus[parent_cpu].node ? RQ_LEVEL_PKG :
			  RQ_LEVEL_NUMA;
		if (tr ? !rqe_truth_allows(tr, parent_cpu) :
		    t->mask_known && !rq_cpumask_test(t->mask, parent_cpu))
			p.notes |= RQ_NOTE_PARENT_NOT_ALLOWED;
	}

	nex = rqe_store(an, &p, RQ_FIND_OFFCPU_FORK)->nexamples;
	rqe_judge_offcpu_fork(an, &p, t, parent_cpu, to);
	sel.mask = rqe_task_mask(an, t, &sel.mask_assume);
	sel.rt_or_dl = rqe_task_is_rt_or_dl(t);
	if (tr) {
		rqe_truth_mark(an, &p, tr, t);
		p.truth |= RQ_PT_POLICY | RQ_PT_MASK;
		an->truth.summary.placements++;
		sel.mask = rqe_truth_mask(an, tr, sel.mask);
		sel.mask_assume = 0;
		sel.rt_or_dl = rqe_truth_rt_or_dl(tr);
		sel.truth = tr;
		rqe_judge_idle_stacking_truth(an, &p, t, &sel);
	} else {
		rqe_judge_idle_stacking(an, &p, t, &sel);
	}
	/*
	 * after the judges: offcpu-fork (a fact) does not rest on the path's assumption,
	 * but its example shows the path's confidence, so it names what that rests on
	 */
	p.assume |= (uint16_t)path_assume;
	if (rqe_store(an, &p, RQ_FIND_OFFCPU_FORK)->nexamples > nex)
		rqe_store(an, &p, RQ_FIND_OFFCPU_FORK)->examples[nex].assume |=
			(uint16_t)path_assume;
	emit_placement(an, &p);

	t->first_run_pending = true;
	if (rqe_cold(t)) {
		rqe_cold_if(t)->fork_parent_cpu = (int16_t)parent_cpu;
		rqe_cold_if(t)->fork_ts = ev->ts;
	}
	t->cpu = to;
	t->state = RQ_TS_QUEUED;
	rqe_enqueue(an, t, to, false);
}

void rqe_handle_migrate(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_get(an, ev->pid, ev->ts);
	struct rq_task *writer = rqe_task_find(an, ev->common_pid);
	int from = ev->cpu_a, to = ev->cpu_b;
	struct rq_task_cold *c;
	struct rq_placement p;
	enum rq_path path = RQ_PATH_UNKNOWN;
	enum rq_confidence conf = RQ_CONF_INFERRED;
	bool queued;

	if (!t || !rqe_valid_cpu(an, to))
		return;
	rqe_note_comm(t, ev->comm);
	t->prio = rqe_prio(ev->prio);
	rqe_task_count(t, nr_migrations, 1);
	/* a pending stopper move stays pending across wakeups: only its window ends it */
	rqe_expire_stopper(an, t, ev->ts);
	/* a move held as a wakeup's, and another move before that wakeup: it was not */
	rqe_resolve_wake_move(an, t);
	queued = t->state == RQ_TS_QUEUED && !t->on_delayed;

	/*
	 * 0. between sched_process_fork and sched_wakeup_new: wake_up_new_task()'s
	 * set_task_cpu() (kernels before v4.1 trace it), part of the fork's placement
	 */
	if (t->fork_selecting) {
		t->cpu = to;
		return;
	}

	/* 1. inside a waking window on the waker's CPU: select_task_rq() of a wakeup */
	if (t->waking && ev->cpu == t->waking_cpu) {
		t->wake_migrated = true;
		t->wake_from = from;
		rqe_set_pending(an, t, to);
		t->cpu = to;
		return;	/* classified at sched_wakeup */
	}
	placement_init(&p, ev, t, from, to, RQ_PATH_UNKNOWN, RQ_CONF_INFERRED);
	if (t->cold->numa_ts && ev->ts - t->cold->numa_ts < NUMA_WINDOW) {
		/* a sched_move_numa/sched_swap_numa on this task just before */
		path = t->cold->numa_swap ? RQ_PATH_NUMA_SWAP : RQ_PATH_NUMA_MOVE;
		rqe_cold_if(t)->numa_ts = 0;
	} else if (writer && rqe_is_stopper(writer, NULL) && from == ev->cpu) {
		/*
		 * 2. migration/N: exec balance if an exec follows, else affinity or active LB.
		 * A second move inside the first one's window: the first stays the exec's
		 * candidate (rqe_resolve_stopper()); the one between them had no exec.
		 */
		p.conf = RQ_CONF_INFERRED;
		c = rqe_cold(t);
		if (!c) {
			/* out of memory: the move cannot wait for what follows */
		} else if (!t->stopper_pending) {
			t->stopper_pending = !rqe_hold(an, &c->stopper_slot, &p);
			c->stopper_comm_changed = false;
		} else {
			if (c->stopper_later_slot >= 0)
				resolve_stopper_move(an, t, &c->stopper_later_slot);
			rqe_hold(an, &c->stopper_later_slot, &p);
		}
		goto model;
	} else if ((ev->flags & RQ_FLAG_SOFTIRQ) && from != ev->cpu) {
		path = to == ev->cpu ? RQ_PATH_LB_PERIODIC : RQ_PATH_LB_NOHZ;
	} else if (t->cold->setaffinity_inflight ||
		   (writer && writer->cold->inflight_target == t->pid &&
		    t->cold->affinity_change_ts &&
		    ev->ts - t->cold->affinity_change_ts < AFFINITY_WINDOW)) {
		path = RQ_PATH_AFFINITY_CALLER;
	} else if (rqe_task_is_rt_or_dl(t)) {
		path = RQ_PATH_LB_RT;
	} else if (!(ev->flags & (RQ_FLAG_HARDIRQ | RQ_FLAG_SOFTIRQ)) && to == ev->cpu &&
		   ev->common_pid != t->pid && queued) {
		path = RQ_PATH_LB_NEWIDLE;
	} else if (t->state == RQ_TS_SLEEPING ||
		   (t->state == RQ_TS_UNKNOWN && !an->facts.has_event[RQ_EV_WAKING])) {
		/*
		 * only a wakeup selects a CPU for a sleeping task (its waking was not seen);
		 * without sched_waking in the trace (before v4.3) every wakeup's move looks
		 * so, of a task whose state is unknown too: held until its sched_wakeup
		 */
		t->wake_migrated = true;
		t->wake_from = from;
		t->waking_cpu = ev->cpu;
		/*
		 * a sched_wakeup will follow when the trace has them: some seen, or (its
		 * first wakeups come after their moves) the event defined without sched_waking
		 */
		if (an->stats.counts[RQ_EV_WAKEUP] ||
		    (an->facts.has_event[RQ_EV_WAKEUP] && !an->facts.has_event[RQ_EV_WAKING])) {
			p.why |= 1u << RQ_WHY_MIGRATE_UNKNOWN;
			p.why_n = ev->flags;
			p.conf = RQ_CONF_UNKNOWN;
			if ((c = rqe_cold(t)))
				t->wake_move_held = !rqe_hold(an, &c->wake_move_slot, &p);
			t->cpu = to;
			return;	/* classified at sched_wakeup */
		}
		wakeup_placement(an, ev, t, to);
		return;
	} else {
		path = RQ_PATH_UNKNOWN;
		conf = RQ_CONF_UNKNOWN;
	}
	p.path = path;
	p.conf = conf;
	if (path == RQ_PATH_UNKNOWN) {
		p.why |= 1u << RQ_WHY_MIGRATE_UNKNOWN;
		p.why_n = ev->flags;
	}
	/* load balancing does not select through select_task_rq(): no finding judged */
	emit_placement(an, &p);
model:
	t->cpu = to;
	if (queued)
		rqe_enqueue(an, t, to, false);
	else if (t->on_delayed)
		rqe_remove(an, t);
}

/*
 * sched_prepare_exec (v6.10): begin_new_exec() is under way, before the name changes and
 * before de_thread(); the exec's sched_process_exec follows.
 */
void rqe_handle_prepare_exec(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_get(an, ev->pid, ev->ts);
	struct rq_task_cold *c;

	if (!t)
		return;
	rqe_note_comm(t, ev->comm);	/* the name before the exec */
	c = rqe_cold(t);
	if (c)
		c->exec_prepared = true;
}

void rqe_handle_exec(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_find(an, ev->pid2 ? ev->pid2 : ev->pid);
	struct rq_placement p;
	const char *base;
	enum rq_path path;
	int cpu = ev->cpu;
	bool mask_current;
	unsigned int path_assume = 0;
	const struct rq_truth_rec *tr;

	if (!t)
		t = rqe_task_get(an, ev->pid, ev->ts);
	if (!t)
		return;
	/* after an exec the task leads its thread group: its pid (the event's) is its tgid */
	t->tgid_self = true;
	if (ev->pid2 && ev->pid2 != ev->pid) {
		/* de_thread(): a non-leader thread took the leader's pid */
		struct rq_task *leader = rqe_task_get(an, ev->pid, ev->ts);

		if (leader && leader != t) {
			struct rq_task_cold *lc = rqe_cold_if(leader), *tc = rqe_cold_if(t);

			rqe_copy_attrs(an, leader, t);
			leader->prio = t->prio;
			/* the leader takes the thread's pending move, and drops its own */
			if (lc) {
				rqe_release(an, &lc->stopper_slot);
				rqe_release(an, &lc->stopper_later_slot);
			}
			if (tc && (tc->stopper_slot >= 0 || tc->stopper_later_slot >= 0) &&
			    (lc || (lc = rqe_cold(leader)))) {
				lc->stopper_slot = tc->stopper_slot;
				lc->stopper_later_slot = tc->stopper_later_slot;
				leader->stopper_pending = t->stopper_pending;
				tc->stopper_slot = -1;
				tc->stopper_later_slot = -1;
			} else {
				leader->stopper_pending = false;
				if (tc) {	/* out of memory: the thread's moves are lost */
					rqe_release(an, &tc->stopper_slot);
					rqe_release(an, &tc->stopper_later_slot);
				}
			}
			t->stopper_pending = false;
			t = leader;
		}
	}
	if (ev->str && ev->str_len > 0) {
		char name[256];
		size_t n = (size_t)ev->str_len < sizeof(name) - 1 ? (size_t)ev->str_len :
								      sizeof(name) - 1;

		memcpy(name, ev->str, n);
		name[n] = '\0';
		base = strrchr(name, '/');
		strlcpy(t->comm, base ? base + 1 : name, sizeof(t->comm));
		rqe_comm_changed(t);
	}
	rqe_task_count(t, nr_execs, 1);
	if (t->cold->exec_prepared)
		rqe_cold_if(t)->exec_prepared = false;	/* this is its record */
	/*
	 * Without the sched_setaffinity events a marker's mask may be stale: the task may
	 * have pinned itself just before this exec.  The recorder reads /proc again after
	 * every exec and writes the mask in its next marker, which settles this exec.
	 */
	mask_current = t->mask_known &&
		       (an->facts.has_event[RQ_EV_SETAFFINITY_ENTER] || !an->facts.has_markers);
	/* the last exec's record can no longer come: its marker settles it, if one came */
	rqe_exec_wait_end(an, t);
	/* the kernel's state at sched_process_exec: the one-CPU test itself */
	tr = rqe_truth_take(an, t->pid, RQ_TRUTH_EXEC, ev->ts);
	if (tr) {
		unsigned int ignored = 0;

		rqe_truth_compare(an, tr, t, -1, -1, NULL, rqe_task_mask(an, t, &ignored));
	}

	/* moves whose window closed had no exec; the first one left is this exec's */
	rqe_expire_stopper(an, t, ev->ts);
	if (t->stopper_pending) {
		p = *rqe_held(an, t->cold->stopper_slot);
		rqe_resolve_stopper(an, t, true);
		p.ts = ev->ts;
		strlcpy(p.comm, t->comm, sizeof(p.comm));
		p.path = RQ_PATH_EXEC_MOVED;
		/* paired by time: the move came inside the window before this exec */
		p.conf = RQ_CONF_INFERRED;
		p.why = 1u << RQ_WHY_EXEC_AFTER_STOPPER;
	} else if (tr) {
		path = rqe_truth_exec_one_cpu(tr) ? RQ_PATH_EXEC_AFFINE :
		       rqe_truth_rt_or_dl(tr) ? RQ_PATH_EXEC_RT : RQ_PATH_EXEC_LOCAL;
		placement_init(&p, ev, t, cpu, cpu, path,
			       path == RQ_PATH_EXEC_LOCAL ? RQ_CONF_INFERRED : RQ_CONF_EXACT);
	} else {
		if (mask_current && rq_cpumask_single(t->mask))
			path = RQ_PATH_EXEC_AFFINE;
		else if (rqe_task_is_rt_or_dl(t))
			path = RQ_PATH_EXEC_RT;
		else
			path = RQ_PATH_EXEC_LOCAL;
		/* current as far as the trace shows: a cpuset move it lacks is not */
		if (path == RQ_PATH_EXEC_AFFINE)
			path_assume = rqe_mask_unseen(an);
		placement_init(&p, ev, t, cpu, cpu, path,
			       path == RQ_PATH_EXEC_LOCAL || path_assume ? RQ_CONF_INFERRED :
			       RQ_CONF_EXACT);
	}

	/*
	 * truth.c tells this exec's record from a later exec's by it, also when it comes
	 * before the trace's first record (the task's cold part: execs are rare)
	 */
	{
		struct rq_task_cold *c = rqe_cold(t);

		if (c)
			c->truth_exec_ts = ev->ts;
	}
	if (tr) {
		rqe_truth_mark(an, &p, tr, t);
		an->truth.summary.placements++;
		rqe_judge_needless_truth(an, &p, t, tr);
	} else if (an->truth.summary.records && !an->truth.summary.rejected) {
		/* the trace has the kernel's state: this exec's record comes next */
		rqe_judge_needless_wait(an, &p, t, ev->ts);
	} else {
		rqe_judge_needless_callback(an, &p, t, mask_current);
	}
	p.assume |= (uint16_t)path_assume;
	emit_placement(an, &p);
	/* numbered by emit_placement(): the example if it is settled */
	if (t->cold->unknown_execs == 1 && !tr && (!mask_current || t->cold->truth_exec_wait))
		rqe_hold(an, &rqe_cold_if(t)->exec_slot, &p);
	t->cpu = ev->cpu;
}
