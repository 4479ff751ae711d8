/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - the model (model.c): its tasks and interned CPU sets, its part of the analysis
 * (struct rq_analysis, engine.h, embeds them); then what the other parts call in it.
 * Private to the engine.
 */
#ifndef RQPATH_MODEL_H
#define RQPATH_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

/*
 * An interned CPU set (model.c): the tasks allowed the same CPUs share one, counted, so
 * that 100 k tasks allowed everywhere hold one set, not 100 k: a task's memory does not
 * grow with the number of CPUs.  Every set of an analysis has nr_cpus bits.
 */
struct rqe_mask {
	struct rq_cpumask m;	/* first: a task's mask pointer is its entry's */
	struct rqe_mask *next;	/* the intern table's chain */
	uint32_t refs;		/* tasks (and per-CPU assumptions) holding it */
	uint32_t hash;
};

/* PID_MAX_LIMIT of a 64-bit kernel: pids from 1 to here are indexed directly */
#define RQ_PID_LIMIT 4194304
#define RQ_PID_PAGE 1024	/* pids per page of the index (8 KiB) */

struct rq_task;
struct rqe_task_chunk;
struct rqe_task_slot;

/*
 * The interned masks (struct rqe_mask) in a hash table; no_mask, the empty set every
 * task without one points to (not counted); scratch, to parse into; one_cpu[c], the
 * set of CPU c alone, made when a per-CPU kthread's assumed mask first needs it
 */
struct rqe_masks {
	struct rq_cpumask all_cpus;	/* the assumed mask of tasks with no other evidence */
	struct rqe_mask **table;
	unsigned int masks_size, nmasks;
	struct rqe_mask no_mask;
	struct rq_cpumask scratch;
	const struct rq_cpumask **one_cpu;
};

struct rqe_tasks {
	/*
	 * Every task is in the hash, which gives rqe_task_foreach() its order (outputs
	 * depend on it: rq_analysis_finish() resolves pending moves in it).  Lookups, a few
	 * per event, go first to pid_pages: an index by pid for the pids a kernel hands out,
	 * in pages allocated when a pid in them is first seen, so that a hostile pid costs
	 * one page at most; a pid from RQ_PID_LIMIT on is only in the hash.
	 */
	struct rq_task **task_hash;
	unsigned int task_hash_size;
	struct rq_task **pid_pages[RQ_PID_LIMIT / RQ_PID_PAGE];
	/*
	 * the pids each page holds: a page whose last task is evicted is freed, or a kernel
	 * handing out ever higher pids (until pid_max wraps) would cost 8 bytes for every pid
	 * it ever used: memory grows with the tasks alive, never with the trace's length
	 */
	uint16_t pid_page_used[RQ_PID_LIMIT / RQ_PID_PAGE];
	/*
	 * the tasks' memory (model.c, task_alloc()): chunks of RQE_TASK_CHUNK slots, each
	 * the task's own size, a free list of the slots of evicted tasks
	 */
	struct rqe_task_chunk *task_chunks;
	unsigned int task_chunk_used;	/* slots handed out of the newest chunk */
	struct rqe_task_slot *task_free;
	unsigned int nr_tasks;
	unsigned int nr_exited_kept;
	unsigned int exited_head;
	int *exited_ring;	/* pids of freed tasks kept for the views, oldest first */
	uint64_t nr_tasks_evicted;
};

#endif /* RQPATH_MODEL_H */

/*
 * What the other parts call in the model.  Skipped while engine.h includes this header
 * for the state above (RQPATH_ENGINE_STATE_ONLY): what follows needs engine.h's structs,
 * and includes it.
 */
#if !defined(RQPATH_ENGINE_STATE_ONLY) && !defined(RQPATH_MODEL_FNS)
#define RQPATH_MODEL_FNS

#include "cpubits.h"
#include "engine.h"

/* exited tasks kept for the views before the oldest is evicted */
#define EXITED_KEEP 4096
/*
 * DELAY_DEQUEUE (v6.12+) leaves a blocked, not yet eligible fair task enqueued until
 * it would be picked; no event says when.  The model counts it as possibly enqueued on
 * its CPU until that CPU goes idle or for this long, about two ticks plus a slice.
 */
#define DELAYED_WINDOW (10 * NSEC_PER_MSEC)
#define SCHED_RESET_ON_FORK 0x40000000
/*
 * A CPU's runqueue is known once the CPU is seen going idle, or after this long of
 * watching its switches: a fair task queued before the trace started would have run
 * (and been seen) by then, since a slice is a few milliseconds.  Inferred.
 */
#define CPU_KNOWN_AFTER (20 * NSEC_PER_MSEC)

/* A prio from a record, in 16 bits: what prio tests (< 100, PRIO_UNKNOWN) says stays. */
static inline int16_t rqe_prio(int v)
{
	return v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : (int16_t)v;
}

/* rqe_task_get() of a pid not known yet (pid > 0) */
struct rq_task *rqe_task_new(struct rq_analysis *an, int pid, uint64_t ts);
/* free the memory of every task (rq_analysis_free()) */
void rqe_tasks_free(struct rq_analysis *an);

/* The task with that pid, created if new; NULL for pid <= 0 or out of memory. */
static inline struct rq_task *rqe_task_get(struct rq_analysis *an, int pid, uint64_t ts)
{
	struct rq_task *t = rqe_task_find(an, pid);

	return t || pid <= 0 ? t : rqe_task_new(an, pid, ts);
}

/*
 * The per-CPU lists hold task pointers and each task knows its index, so that taking
 * a task off is O(1); a task leaves every list before it is freed (evict_task).  A few
 * calls per event: inline.
 */
static inline void rqe_list_del(struct rq_task **list, int *n, struct rq_task *t)
{
	int i = t->rq_index;

	if ((unsigned int)i >= (unsigned int)*n || list[i] != t)
		return;
	list[i] = list[--(*n)];
	list[i]->rq_index = i;
	t->rq_index = -1;
}

/* A list's capacity from its bits in struct rq_cpu: 1 << cap, 0 when there is none. */
static inline int rqe_list_cap(unsigned int cap)
{
	return cap ? 1 << cap : 0;
}

/* Double cpu's queue or maybe-delayed set (8 to start with); -1 out of memory. */
int rqe_list_grow(struct rq_cpu *c, bool delayed);

/* Take t off whatever runqueue list the model has it on. */
static inline void rqe_remove(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_cpu *c;

	if (!rqe_valid_cpu(an, t->rq_cpu))
		return;
	rqe_cpu_dirty(an, t->rq_cpu);
	c = &an->cpus[t->rq_cpu];
	if (t->on_delayed)
		rqe_list_del(c->delayed, &c->ndelayed, t);
	else
		rqe_list_del(c->queued, &c->nqueued, t);
	t->rq_cpu = -1;
	t->on_delayed = false;
}

/* Put t at the end of cpu's queue, or of its maybe-delayed set. */
static inline void rqe_enqueue(struct rq_analysis *an, struct rq_task *t, int cpu, bool delayed)
{
	struct rq_task **list;
	struct rq_cpu *c;
	int *n;

	rqe_remove(an, t);
	if (!rqe_valid_cpu(an, cpu))
		return;
	c = &an->cpus[cpu];
	n = delayed ? &c->ndelayed : &c->nqueued;
	if (*n == rqe_list_cap(delayed ? c->delayed_cap : c->queued_cap) &&
	    rqe_list_grow(c, delayed))
		return;
	list = delayed ? c->delayed : c->queued;
	rqe_cpu_dirty(an, cpu);
	t->rq_index = *n;
	list[(*n)++] = t;
	t->rq_cpu = cpu;
	t->on_delayed = delayed;
}

static inline bool rqe_task_is_idle_class(const struct rq_task *t)
{
	return t->policy == RQ_SCHED_IDLE || t->idle_cgroup;
}

/*
 * What a known policy rests on, 1 << RQ_ASSUME_*: a policy changes through
 * sched_setscheduler() or sched_setattr(), and the model sees a change only with both
 * syscalls' enter and exit events; without any one of them a change since the policy was
 * learnt is unseen.  That holds for a sched_setscheduler value the trace shows as much as
 * for a /proc read (a marker's) or an inherited one: a later sched_setattr() the trace
 * lacks changes it just as unseen, as a marker's mask rests on cpuset-unseen whatever
 * sched_setaffinity events the trace has.  The truth records' policy is the kernel's:
 * its verdicts never ask here.
 */
static inline unsigned int rqe_policy_unseen(const struct rq_analysis *an)
{
	return an->facts.has_event[RQ_EV_SETSCHED_ENTER] && an->facts.has_event[RQ_EV_SETSCHED_EXIT] &&
	       an->facts.has_event[RQ_EV_SETATTR_ENTER] && an->facts.has_event[RQ_EV_SETATTR_EXIT] ?
	       0 : 1u << RQ_ASSUME_POLICY_LAST_READ;
}

/*
 * Is t SCHED_IDLE work (policy SCHED_IDLE or under a cpu.idle cgroup)?  1 yes, 0 no, -1
 * unknown.  SCHED_IDLE is never assumed: the priority fields cannot show it (a SCHED_IDLE
 * task has prio 120 like a nice-0 SCHED_NORMAL one).  They do show RT and DL, which is
 * an answer "no" resting on RQ_ASSUME_POLICY_PRIO when no policy is known.  An answer
 * from a known policy rests on rqe_policy_unseen(); a cpu.idle cgroup answers "yes"
 * whatever the policy.
 */
static inline int rqe_idle_class(const struct rq_analysis *an, const struct rq_task *t,
			     unsigned int *assume)
{
	if (!t)
		return -1;
	if (t->idle_cgroup)
		return 1;
	if (t->policy != RQ_POLICY_UNKNOWN) {
		*assume |= rqe_policy_unseen(an);
		return t->policy == RQ_SCHED_IDLE;
	}
	if (t->prio != PRIO_UNKNOWN && t->prio < 100) {
		*assume |= 1u << RQ_ASSUME_POLICY_PRIO;
		return 0;
	}
	return -1;
}

/* comm arrays are all RQ_COMM_LEN bytes and NUL-terminated: a fixed copy is enough */
static inline void rqe_copy_comm(char *dst, const char *src)
{
	memcpy(dst, src, RQ_COMM_LEN);
	dst[RQ_COMM_LEN - 1] = '\0';
}

int rqe_grow_hash(struct rq_analysis *an);
int rqe_masks_init(struct rq_analysis *an);
void rqe_masks_free(struct rq_analysis *an);
/* m's set, interned: a counted reference (rqe_mask_put()), or NULL when out of memory */
const struct rq_cpumask *rqe_mask_intern(struct rq_analysis *an, const struct rq_cpumask *m);
void rqe_mask_put(struct rq_analysis *an, const struct rq_cpumask *m);
/*
 * t's mask becomes m's set (-1 when out of memory: t then has none, an->masks.no_mask), or
 * src's own (shared), or none.
 */
int rqe_task_set_mask(struct rq_analysis *an, struct rq_task *t, const struct rq_cpumask *m);
void rqe_task_share_mask(struct rq_analysis *an, struct rq_task *t, const struct rq_task *src);
void rqe_task_drop_mask(struct rq_analysis *an, struct rq_task *t);
void rqe_look_cpu_scan(const struct rq_analysis *an, int cpu, const struct rq_task *skip,
		       struct cpu_look *l, bool busy_enough);

void rqe_note_comm(struct rq_task *t, const char *comm);
/* Whoever writes t->comm calls this. */
void rqe_comm_changed(struct rq_task *t);
/* t is the stopper: named migration/N, and nothing known of it (tr, facts) says not */
bool rqe_is_stopper(struct rq_task *t, const struct rq_truth_rec *tr);
void rqe_clear_pending(struct rq_analysis *an, struct rq_task *t);
void rqe_left_unseen(struct rq_task *t, int cpu, uint64_t ts);
void rqe_set_pending(struct rq_analysis *an, struct rq_task *t, int cpu);
void rqe_copy_attrs(struct rq_analysis *an, struct rq_task *child, const struct rq_task *parent);
void rqe_repair_from_owner(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_fork(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_exit(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_free(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_syscall(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_numa(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_cgroup_attach(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_marker(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_lost(struct rq_analysis *an, const struct rq_event *ev);

/*
 * rqe_look_cpu(busy_enough) then rqe_look_busy() in their common case, without filling a
 * cpu_look: the runqueue is known and its running task (not skip) is not SCHED_IDLE
 * work by its known policy.  false: ask rqe_look_cpu().
 */
static inline bool rqe_busy_by_curr(const struct rq_analysis *an, int cpu,
				    const struct rq_task *skip)
{
	const struct rq_cpu *c = &an->cpus[cpu];

	if (!c->known || c->curr <= 0 || (skip && c->curr == skip->pid))
		return false;
	/* q, rqe_task_find(curr), is curr_task: its class is in c (cpubits.c) */
	return c->curr_task && c->curr_policy_known && !c->curr_idle_class;
}

/*
 * Fill l for cpu.  A judge that only needs to know whether the CPU is busy passes
 * busy_enough: the scan stops at the first task that is not SCHED_IDLE by its known
 * policy (the common case, the running task, makes this O(1) and inline); the counts
 * are then partial, but nonidle > 0 and the verdict rests on no assumption about the
 * others.
 */
static inline void rqe_look_cpu(const struct rq_analysis *an, int cpu,
				const struct rq_task *skip, struct cpu_look *l, bool busy_enough)
{
	const struct rq_cpu *c = &an->cpus[cpu];

	if (busy_enough && rqe_busy_by_curr(an, cpu, skip)) {
		/* what the scan finds at its first task, and where it stops */
		*l = (struct cpu_look){
			.known = true, .pending = c->pending_wakeups > 0, .ntasks = 1, .nonidle = 1,
			/* busy by the running task's known policy: rqe_idle_class() */
			.assume = (c->watched && !c->last_idle_ts ?
				   1u << RQ_ASSUME_CPU_WATCHED : 0) | rqe_policy_unseen(an),
		};
		return;
	}
	rqe_look_cpu_scan(an, cpu, skip, l, busy_enough);
}

/* N for a per-CPU kthread name (kworker/N:M, ksoftirqd/N, migration/N, ...), else -1. */
int rqe_percpu_kthread_cpu(const char *comm);

#endif /* RQPATH_MODEL_FNS */
