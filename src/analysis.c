// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - model, classifier and findings (docs/kernel.md §3, §4, §6).
 *
 * Each event updates the per-task and per-CPU model; placement events are classified
 * into a select_task_rq() path and checked against the four findings.  What the trace
 * cannot show stays unknown: a task's affinity or policy is only known from a marker
 * (the recorder's /proc snapshot), inheritance at fork, or a sched_setscheduler
 * syscall whose value is in the trace; a CPU's runqueue is only known after it was
 * seen going idle.  The kernel profile is in profile.c; the words of an explanation
 * are made in describe.c, from the facts kept here.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "analysis.h"
#include "describe.h"
#include "markers.h"

#define NSEC_PER_MSEC 1000000ULL
/* how long a migration/N move may wait for its exec to show (exec loads the binary) */
#define STOPPER_EXEC_WINDOW (100 * NSEC_PER_MSEC)
/* an affinity syscall this recent explains a stopper or caller-context move */
#define AFFINITY_WINDOW (10 * NSEC_PER_MSEC)
#define NUMA_WINDOW (10 * NSEC_PER_MSEC)
/* exited tasks kept for the views before the oldest is evicted */
#define EXITED_KEEP 4096
#define PRIO_UNKNOWN -1000
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

static void retire_task(struct rq_analysis *an, struct rq_task *t);

/* ---- tasks --------------------------------------------------------------- */

static unsigned int pid_hash(int pid, unsigned int size)
{
	return ((unsigned int)pid * 2654435761u) & (size - 1);
}

struct rq_task *rq_task_find(const struct rq_analysis *an, int pid)
{
	struct rq_task *t;

	if (!an->task_hash)
		return NULL;
	for (t = an->task_hash[pid_hash(pid, an->task_hash_size)]; t; t = t->hnext)
		if (t->pid == pid)
			return t;
	return NULL;
}

static int grow_hash(struct rq_analysis *an)
{
	unsigned int nsize = an->task_hash_size ? an->task_hash_size * 2 : 1024;
	struct rq_task **nh = calloc(nsize, sizeof(*nh));

	if (!nh)
		return -1;
	for (unsigned int i = 0; i < an->task_hash_size; i++) {
		struct rq_task *t = an->task_hash[i], *next;

		for (; t; t = next) {
			unsigned int b = pid_hash(t->pid, nsize);

			next = t->hnext;
			t->hnext = nh[b];
			nh[b] = t;
		}
	}
	free(an->task_hash);
	an->task_hash = nh;
	an->task_hash_size = nsize;
	return 0;
}

static void task_init(struct rq_task *t, int pid, uint64_t ts)
{
	struct rq_task *hnext = t->hnext;
	struct rq_cpumask mask = t->mask;
	unsigned long *idle = t->idle_at_waking, *busy = t->busy_at_waking;

	memset(t, 0, sizeof(*t));
	t->hnext = hnext;
	t->mask = mask;
	t->idle_at_waking = idle;
	t->busy_at_waking = busy;
	t->blocked_cpu = -1;
	t->seen_cpu = -1;
	t->pid = pid;
	t->policy = RQ_POLICY_UNKNOWN;
	t->prio = PRIO_UNKNOWN;
	t->cpu = -1;
	t->rq_cpu = -1;
	t->rq_index = -1;
	t->waking_cpu = -1;
	t->pending_wake_cpu = -1;
	t->fork_example = -1;
	t->fork_parent_cpu = -1;
	t->first_ts = ts;
}

static struct rq_task *task_get(struct rq_analysis *an, int pid, uint64_t ts)
{
	struct rq_task *t = rq_task_find(an, pid);
	unsigned int b;

	if (t || pid <= 0)
		return t;
	if (an->nr_tasks >= an->task_hash_size && grow_hash(an))
		return NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	if (rq_cpumask_init(&t->mask, an->nr_cpus)) {
		free(t);
		return NULL;
	}
	task_init(t, pid, ts);
	b = pid_hash(pid, an->task_hash_size);
	t->hnext = an->task_hash[b];
	an->task_hash[b] = t;
	an->nr_tasks++;
	return t;
}

int rq_task_foreach(const struct rq_analysis *an, int (*fn)(const struct rq_task *, void *),
		    void *data)
{
	for (unsigned int i = 0; i < an->task_hash_size; i++)
		for (struct rq_task *t = an->task_hash[i]; t; t = t->hnext) {
			int ret = fn(t, data);

			if (ret)
				return ret;
		}
	return 0;
}

/* ---- per-CPU runqueue model (docs/kernel.md §4) ----------------------- */

/*
 * The per-CPU lists hold task pointers and each task knows its index, so that taking
 * a task off is O(1); a task leaves every list before it is freed (evict_task).
 */
static int list_add(struct rq_task ***list, int *n, int *cap, struct rq_task *t)
{
	if (*n == *cap) {
		int ncap = *cap ? *cap * 2 : 8;
		struct rq_task **nl = reallocarray(*list, (size_t)ncap, sizeof(**list));

		if (!nl)
			return -1;
		*list = nl;
		*cap = ncap;
	}
	t->rq_index = *n;
	(*list)[(*n)++] = t;
	return 0;
}

static void list_del(struct rq_task **list, int *n, struct rq_task *t)
{
	int i = t->rq_index;

	if (i < 0 || i >= *n || list[i] != t)
		return;
	list[i] = list[--(*n)];
	list[i]->rq_index = i;
	t->rq_index = -1;
}

static bool valid_cpu(const struct rq_analysis *an, int cpu)
{
	return cpu >= 0 && cpu < an->nr_cpus;
}

/* Take t off whatever runqueue list the model has it on. */
static void rq_remove(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_cpu *c;

	if (!valid_cpu(an, t->rq_cpu))
		return;
	c = &an->cpus[t->rq_cpu];
	if (t->on_delayed)
		list_del(c->delayed, &c->ndelayed, t);
	else
		list_del(c->queued, &c->nqueued, t);
	t->rq_cpu = -1;
	t->on_delayed = false;
}

static void rq_enqueue(struct rq_analysis *an, struct rq_task *t, int cpu, bool delayed)
{
	struct rq_cpu *c;
	int ret;

	rq_remove(an, t);
	if (!valid_cpu(an, cpu))
		return;
	c = &an->cpus[cpu];
	if (delayed)
		ret = list_add(&c->delayed, &c->ndelayed, &c->delayed_cap, t);
	else
		ret = list_add(&c->queued, &c->nqueued, &c->queued_cap, t);
	if (!ret) {
		t->rq_cpu = cpu;
		t->on_delayed = delayed;
	}
}

/* Forget what a CPU holds: after lost events, or when it is seen going idle. */
static void cpu_clear_lists(struct rq_analysis *an, int cpu)
{
	struct rq_cpu *c = &an->cpus[cpu];

	while (c->nqueued) {
		struct rq_task *t = c->queued[--c->nqueued];

		t->rq_cpu = -1;
		t->rq_index = -1;
		t->state = RQ_TS_UNKNOWN;
	}
	while (c->ndelayed) {
		struct rq_task *t = c->delayed[--c->ndelayed];

		t->rq_cpu = -1;
		t->rq_index = -1;
		t->on_delayed = false;
	}
}

/* Drop the possibly-delayed tasks that blocked more than DELAYED_WINDOW ago. */
static void prune_delayed(struct rq_analysis *an, int cpu, uint64_t now)
{
	struct rq_cpu *c = &an->cpus[cpu];

	/* the window is coarse: looking once a millisecond is enough */
	if (!c->ndelayed || now - c->last_prune < NSEC_PER_MSEC)
		return;
	c->last_prune = now;
	for (int i = 0; i < c->ndelayed;) {
		struct rq_task *t = c->delayed[i];

		if (now - t->blocked_ts <= DELAYED_WINDOW) {
			i++;
			continue;
		}
		rq_remove(an, t);
	}
}

/* idle_cpu(): the idle task runs, nothing queued, no wakeup on its way. */
static bool cpu_truly_idle(const struct rq_analysis *an, int cpu)
{
	const struct rq_cpu *c = &an->cpus[cpu];

	return c->known && c->curr == 0 && !c->nqueued && !c->ndelayed && !c->pending_wakeups;
}

#define BITS_PER_UL (sizeof(unsigned long) * 8)

static size_t mask_longs(const struct rq_analysis *an)
{
	return ((size_t)an->nr_cpus + BITS_PER_UL - 1) / BITS_PER_UL;
}

static bool bit_test(const unsigned long *bits, int cpu)
{
	return bits[cpu / BITS_PER_UL] & (1UL << (cpu % BITS_PER_UL));
}

static void bit_set(unsigned long *bits, int cpu)
{
	bits[cpu / BITS_PER_UL] |= 1UL << (cpu % BITS_PER_UL);
}

/* ---- task attributes: facts first, then stated assumptions ------------------ */

/* RT and DL tasks show prio < 100 (DL: -1) in every sched event. */
static bool task_is_rt_or_dl(const struct rq_task *t)
{
	if (t->policy == RQ_SCHED_FIFO || t->policy == RQ_SCHED_RR ||
	    t->policy == RQ_SCHED_DEADLINE)
		return true;
	return t->prio != PRIO_UNKNOWN && t->prio < 100;
}

static bool task_is_idle_class(const struct rq_task *t)
{
	return t->policy == RQ_SCHED_IDLE || t->idle_cgroup;
}

/*
 * Is t SCHED_IDLE work (policy SCHED_IDLE or under a cpu.idle cgroup)?  1 yes, 0 no, -1
 * unknown.  SCHED_IDLE is never assumed: the priority fields cannot show it (a SCHED_IDLE
 * task has prio 120 like a nice-0 SCHED_NORMAL one).  They do show RT and DL, which is
 * an answer "no" resting on RQ_ASSUME_POLICY_PRIO when no policy is known.
 */
static int idle_class(const struct rq_task *t, unsigned int *assume)
{
	if (!t)
		return -1;
	if (task_is_idle_class(t))
		return 1;
	if (t->policy != RQ_POLICY_UNKNOWN)
		return 0;
	if (t->prio != PRIO_UNKNOWN && t->prio < 100) {
		*assume |= 1u << RQ_ASSUME_POLICY_PRIO;
		return 0;
	}
	return -1;
}

/*
 * Per-CPU kthreads carry their CPU in their name and are bound to it
 * (kthread_bind / kthread_create_on_cpu).  One list, documented in rqpath-paths(7).
 * Returns N, or -1 when comm is not one of them.
 */
int rq_percpu_kthread_cpu(const char *comm)
{
	static const char *const prefixes[] = {
		"kworker/", "ksoftirqd/", "migration/", "cpuhp/", "rcuc/", "idle_inject/",
		"watchdog/", "irq_work/", "ktimers/", "posixcputmr/",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = strlen(prefixes[i]);
		const char *s = comm + n;
		long cpu = 0;

		if (strncmp(comm, prefixes[i], n) || *s < '0' || *s > '9')
			continue;
		while (*s >= '0' && *s <= '9' && cpu < RQ_MAX_CPUS)
			cpu = cpu * 10 + (*s++ - '0');
		/* kworker/N:M and kworker/N:MH are bound; kworker/uN:M are not */
		if (i == 0 ? *s != ':' : *s != '\0')
			return -1;
		return cpu < RQ_MAX_CPUS ? (int)cpu : -1;
	}
	return -1;
}

const struct rq_cpumask *rq_task_mask(const struct rq_analysis *an, const struct rq_task *t,
				      unsigned int *assume)
{
	int cpu;

	if (t->mask_known) {
		/* without the syscall events a change since the last /proc read is unseen */
		if (!an->has_event[RQ_EV_SETAFFINITY_ENTER])
			*assume |= 1u << RQ_ASSUME_MASK_LAST_READ;
		return &t->mask;
	}
	/* a change in the trace whose value the trace does not hold: nothing to assume */
	if (t->mask_changed || an->has_markers)
		return NULL;
	cpu = rq_percpu_kthread_cpu(t->comm);
	if (cpu >= 0 && cpu < an->nr_cpus) {
		*assume |= 1u << RQ_ASSUME_PERCPU_KTHREAD;
		/* t->mask holds no fact for this task: it may carry the assumed one */
		rq_cpumask_clear((struct rq_cpumask *)&t->mask);
		rq_cpumask_set((struct rq_cpumask *)&t->mask, cpu);
		return &t->mask;
	}
	*assume |= 1u << RQ_ASSUME_MASK_ALL;
	return &an->all_cpus;
}

/* ---- what the kernel would see on a CPU ------------------------------------- */

/*
 * A CPU as idle_cpu() and sched_idle_cpu() would see it, the task being placed (skip)
 * left out.  nr_running counts the running task, the queued ones and the delayed ones
 * (DELAY_DEQUEUE); only the first two are facts here.
 */
struct cpu_look {
	bool known;		/* runqueue and running task known */
	bool idle;		/* idle_cpu(): idle task, nothing queued, no wakeup pending */
	bool pending;		/* a wakeup is on its way to it */
	int ntasks;		/* running + queued */
	int nonidle;		/* of those, not SCHED_IDLE work */
	int unknown;		/* of those, policy unknown */
	int delayed_nonidle;	/* maybe-delayed ones not known to be SCHED_IDLE work */
	unsigned int assume;
};

/* Count q into l; true when q is not SCHED_IDLE work by its known policy. */
static bool look_task(const struct rq_task *q, struct cpu_look *l)
{
	int cls = idle_class(q, &l->assume);

	l->ntasks++;
	if (cls == 0)
		l->nonidle++;
	else if (cls < 0)
		l->unknown++;
	return cls == 0 && q->policy != RQ_POLICY_UNKNOWN;
}

/*
 * Fill l for cpu.  A judge that only needs to know whether the CPU is busy passes
 * busy_enough: the scan stops at the first task that is not SCHED_IDLE by its known
 * policy (the common case, the running task, makes this O(1)); the counts are then
 * partial, but nonidle > 0 and the verdict rests on no assumption about the others.
 */
static void look_cpu(const struct rq_analysis *an, int cpu, const struct rq_task *skip,
		     struct cpu_look *l, bool busy_enough)
{
	const struct rq_cpu *c = &an->cpus[cpu];
	unsigned int ignored = 0;

	memset(l, 0, sizeof(*l));
	l->known = c->known && c->curr >= 0;
	if (!l->known)
		return;
	if (c->watched_since && !c->last_idle_ts)
		l->assume |= 1u << RQ_ASSUME_CPU_WATCHED;
	l->pending = c->pending_wakeups > 0;
	if (c->curr > 0 && (!skip || c->curr != skip->pid) &&
	    look_task(rq_task_find(an, c->curr), l) && busy_enough)
		return;
	for (int i = 0; i < c->nqueued; i++)
		if (c->queued[i] != skip && look_task(c->queued[i], l) && busy_enough)
			return;
	/* a blocked task counts as maybe delayed for DELAYED_WINDOW (pruning is lazy) */
	for (int i = 0; i < c->ndelayed; i++) {
		const struct rq_task *d = c->delayed[i];

		if (d != skip && an->last_ts - d->blocked_ts <= DELAYED_WINDOW &&
		    idle_class(d, &ignored) != 1)
			l->delayed_nonidle++;
	}
	l->idle = !l->ntasks && !l->pending && c->curr == 0;
}

/*
 * Busy for the kernel: neither idle_cpu() nor sched_idle_cpu().  A task whose policy
 * is unknown counts as not SCHED_IDLE (RQ_ASSUME_POLICY_PRIO); a CPU with a wakeup
 * pending and nothing running is not idle.
 */
static bool look_busy(const struct cpu_look *l, unsigned int *assume)
{
	if (l->idle)
		return false;
	if (l->nonidle || (!l->ntasks && l->pending))
		return true;
	if (l->unknown) {
		*assume |= 1u << RQ_ASSUME_POLICY_PRIO;
		return true;
	}
	return false;	/* only SCHED_IDLE work: sched_idle_cpu() */
}

/* At sched_waking: which CPUs were truly idle and which busy, while the kernel chose. */
static void snapshot_cpus(const struct rq_analysis *an, const struct rq_task *t,
			  unsigned long *idle, unsigned long *busy)
{
	memset(idle, 0, mask_longs(an) * sizeof(unsigned long));
	memset(busy, 0, mask_longs(an) * sizeof(unsigned long));
	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		struct cpu_look l;
		unsigned int ignored = 0;

		if (cpu_truly_idle(an, cpu)) {
			bit_set(idle, cpu);
			continue;
		}
		look_cpu(an, cpu, t, &l, true);
		if (l.known && look_busy(&l, &ignored))
			bit_set(busy, cpu);
	}
}

/* ---- placements and findings --------------------------------------------- */

/* comm arrays are all RQ_COMM_LEN bytes and NUL-terminated: a fixed copy is enough */
static void copy_comm(char *dst, const char *src)
{
	memcpy(dst, src, RQ_COMM_LEN);
	dst[RQ_COMM_LEN - 1] = '\0';
}

static void placement_init(struct rq_placement *p, const struct rq_event *ev,
			   const struct rq_task *t, int from, int to, enum rq_path path,
			   enum rq_confidence conf)
{
	memset(p, 0, sizeof(*p));
	p->ts = ev->ts;
	p->pid = t ? t->pid : ev->pid;
	copy_comm(p->comm, t && t->comm[0] ? t->comm : ev->comm);
	p->cpu = ev->cpu;
	p->from_cpu = from;
	p->to_cpu = to;
	p->writer_pid = ev->common_pid;
	p->path = path;
	p->conf = conf;
	p->parent_cpu_idled = -1;
	p->child_lifetime_ns = -1;
}

/* Add a remark to a placement's explanation (only for the rarer remarks: see notes). */
static void why(struct rq_placement *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void why(struct rq_placement *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rq_vappendf(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
}

/* Count a proven finding; keep the example if there is room.  Returns its index or -1. */
static int add_finding(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
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
		t->nr_findings[f]++;
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

	p->assume = (uint8_t)assume;
	if (!possible) {
		add_finding(an, p, t, f);
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

/* Store a classified placement: counters and the recent ring. */
static void emit(struct rq_analysis *an, struct rq_placement *p)
{
	/* a CPU whose events were lost is unknown until seen idle again: say so */
	if ((valid_cpu(an, p->to_cpu) && an->cpus[p->to_cpu].lost_events &&
	     !an->cpus[p->to_cpu].known) ||
	    (valid_cpu(an, p->cpu) && an->cpus[p->cpu].lost_events && !an->cpus[p->cpu].known))
		p->notes |= RQ_NOTE_AFTER_LOSS;
	an->nr_placements++;
	p->seq = an->nr_placements;
	an->path_counts[p->path]++;
	an->path_conf[p->path][p->conf]++;
	an->conf_counts[p->conf]++;
	if (valid_cpu(an, p->from_cpu) && p->from_cpu != p->to_cpu)
		an->cpus[p->from_cpu].placements_out++;
	if (valid_cpu(an, p->to_cpu))
		an->cpus[p->to_cpu].placements_in++;
	if (an->recent_cap) {
		an->recent[an->recent_head] = *p;
		an->recent_head = (an->recent_head + 1) % an->recent_cap;
		if (an->recent_len < an->recent_cap)
			an->recent_len++;
	}
	rq_delay_placed(an, p);
}

const struct rq_placement *rq_recent(const struct rq_analysis *an, unsigned int i)
{
	if (i >= an->recent_len)
		return NULL;
	return &an->recent[(an->recent_head + an->recent_cap - 1 - i) % an->recent_cap];
}

static bool same_llc(const struct rq_analysis *an, int a, int b)
{
	return valid_cpu(an, a) && valid_cpu(an, b) && an->cpus[a].llc == an->cpus[b].llc;
}

/*
 * The first CPU of x's LLC (the span select_idle_cpu() scans) other than x, allowed by
 * mask, that is truly idle now and was idle when the waking was seen (idle_before, if
 * known); -1 if none.  What that rests on goes into *assume.
 */
static int idle_allowed_cpu(const struct rq_analysis *an, const struct rq_cpumask *mask, int x,
			    const unsigned long *idle_before, unsigned int *assume)
{
	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		if (cpu == x || !same_llc(an, cpu, x) || !rq_cpumask_test(mask, cpu) ||
		    !cpu_truly_idle(an, cpu))
			continue;
		if (idle_before && !bit_test(idle_before, cpu))
			continue;
		if (!an->has_topology)
			*assume |= 1u << RQ_ASSUME_LLC;
		/* its switches out of idle are missing here: was it really idle? */
		if (an->cpus[cpu].idle_repairs)
			*assume |= 1u << RQ_ASSUME_IDLE_REPAIRED;
		return cpu;
	}
	return -1;
}

/*
 * Proof of selection (docs/design.md §3): did select_task_rq() run for this wakeup?  On a
 * kernel with DELAY_DEQUEUE a fair task that blocked may still be enqueued, and
 * ttwu_runnable() then requeues it where it was, with no selection at all.  Proven
 * when it migrated inside the wakeup, when the CPU it blocked on ran the idle task
 * since (a CPU goes idle only after the fair pick dequeued every delayed entity), for
 * RT/DL tasks (never delayed), or on a kernel without delayed dequeue.
 */
static bool selection_proven(const struct rq_analysis *an, const struct rq_task *t)
{
	int b = t->blocked_cpu;

	/* a move seen inside the waking window: set_task_cpu() after a selection */
	if (!an->profile.delayed_dequeue || task_is_rt_or_dl(t) || (t->wake_migrated && t->waking))
		return true;
	return valid_cpu(an, b) && an->cpus[b].last_idle_ts &&
	       an->cpus[b].last_idle_ts >= t->blocked_ts;
}

/*
 * idle-stacking (docs/design.md §3): a select-path placement (wakeup or fork) of a SCHED_IDLE
 * task onto CPU x running only SCHED_IDLE work, while another allowed CPU of x's LLC
 * was truly idle.  SCHED_IDLE only from evidence; every task on x must be known.
 */
static void judge_idle_stacking(struct rq_analysis *an, struct rq_placement *p,
				struct rq_task *t, int x, const unsigned long *idle_before,
				bool proven)
{
	struct rq_finding_store *s = &an->findings[RQ_FIND_IDLE_STACKING];
	unsigned int assume = 0;
	const struct rq_cpumask *mask;
	struct cpu_look l;
	int cls, idle_cpu;

	if (!an->profile.idle_stack_allowed)
		return;		/* v7.1 skips SCHED_IDLE rqs for SCHED_IDLE tasks */
	cls = idle_class(t, &assume);
	if (cls == 0)
		return;
	mask = rq_task_mask(an, t, &assume);
	look_cpu(an, x, t, &l, true);
	if (cls < 0 || !mask || !l.known || (l.unknown && !l.nonidle)) {
		s->not_judged++;
		return;
	}
	s->judged++;
	if (l.idle || !l.ntasks || l.nonidle)
		return;		/* nothing stacked on, or not SCHED_IDLE-only */
	idle_cpu = idle_allowed_cpu(an, mask, x, idle_before, &assume);
	if (idle_cpu < 0)
		return;
	why(p, "; CPU %d ran only SCHED_IDLE work (pid %d) while allowed CPU %d of its LLC "
	    "was idle", x, an->cpus[x].curr, idle_cpu);
	/* a blocked fair task maybe still delayed there would make it not SCHED_IDLE-only */
	if (l.delayed_nonidle)
		why(p, "; %d blocked task(s) not known as SCHED_IDLE may still be enqueued there",
		    l.delayed_nonidle);
	verdict(an, p, t, RQ_FIND_IDLE_STACKING, !proven || l.delayed_nonidle,
		assume | l.assume);
}

/*
 * missed-idle (docs/design.md §3): a wakeup of a fair, non-SCHED_IDLE task onto CPU x that
 * was busy for the kernel while another allowed CPU of x's LLC was truly idle, both
 * when the kernel chose (sched_waking) and at sched_wakeup.
 */
static void judge_missed_idle(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			      int x, const unsigned long *idle_before,
			      const unsigned long *busy_before, bool proven)
{
	struct rq_finding_store *s = &an->findings[RQ_FIND_MISSED_IDLE];
	unsigned int assume = 0;
	const struct rq_cpumask *mask;
	struct cpu_look l;
	bool possible = !proven;
	int cls, idle_cpu;

	cls = idle_class(t, &assume);
	if (cls == 1 || task_is_rt_or_dl(t) || t->policy == RQ_SCHED_EXT)
		return;		/* not a fair, non-SCHED_IDLE wakee */
	if (cls < 0)
		assume |= 1u << RQ_ASSUME_POLICY_PRIO;
	mask = rq_task_mask(an, t, &assume);
	look_cpu(an, x, t, &l, true);
	if (!mask || !l.known) {
		s->not_judged++;
		return;
	}
	s->judged++;
	if (!look_busy(&l, &assume)) {
		if (l.idle || !l.delayed_nonidle)
			return;
		/* SCHED_IDLE work only, unless a delayed fair task is still enqueued */
		possible = true;
	}
	if (busy_before && !bit_test(busy_before, x))
		return;		/* not busy when the kernel chose */
	idle_cpu = idle_allowed_cpu(an, mask, x, idle_before, &assume);
	if (idle_cpu < 0)
		return;
	if (an->cpus[x].curr > 0)
		why(p, "; CPU %d was busy (pid %d running) while CPU %d of its LLC was idle", x,
		    an->cpus[x].curr, idle_cpu);
	else
		why(p, "; CPU %d was busy (%s) while CPU %d of its LLC was idle", x,
		    l.ntasks ? "a woken task waiting to run" : "a wakeup pending", idle_cpu);
	if (an->asym_capacity) {
		/* EAS or select_idle_capacity() may have preferred x for its capacity */
		p->notes |= RQ_NOTE_ASYM;
		possible = true;
	}
	verdict(an, p, t, RQ_FIND_MISSED_IDLE, possible, assume | l.assume);
}

/* ---- the stopper (migration/N) moves: resolved once we know what followed ---- */

/*
 * A migration/N move (docs/kernel.md §3) is decided by what follows it: an
 * exec of the task inside STOPPER_EXEC_WINDOW (sched_exec(): handle_exec() emits it),
 * a change of its name (an exec whose record is missing), a sched_setaffinity on it,
 * or nothing.  Wakeups in between decide nothing: exec may block loading the binary.
 * Active balance is said only when the trace would have shown an exec or an affinity
 * change; otherwise the reason stays unknown.
 */
static void resolve_stopper(struct rq_analysis *an, struct rq_task *t, bool by_exec)
{
	struct rq_placement *p = &t->stopper;

	if (!t->stopper_pending)
		return;
	t->stopper_pending = false;
	if (by_exec)
		return;	/* the exec handler emits it as exec-moved */
	p->conf = RQ_CONF_INFERRED;
	if (t->stopper_comm_changed) {
		p->path = RQ_PATH_EXEC_MOVED;
		why(p, "; migration/%d moved it, then its name changed to \"%s\": an exec whose "
		    "exec record is not in the trace", p->cpu, t->comm);
	} else if (t->affinity_change_ts && p->ts - t->affinity_change_ts < AFFINITY_WINDOW) {
		p->path = RQ_PATH_AFFINITY_STOPPER;
		why(p, "; migration/%d moved it right after a sched_setaffinity on it", p->cpu);
	} else if ((an->has_event[RQ_EV_EXEC] || an->counts[RQ_EV_EXEC]) &&
		   an->has_event[RQ_EV_SETAFFINITY_ENTER]) {
		p->path = RQ_PATH_LB_ACTIVE;
		why(p, "; migration/%d moved it and no exec or affinity change followed: "
		    "active balance (or CPU hotplug, which looks the same)", p->cpu);
	} else {
		p->path = RQ_PATH_STOPPER_UNKNOWN;
		p->conf = RQ_CONF_UNKNOWN;
		why(p, "; the trace lacks %s: exec, affinity change and active balance look "
		    "the same", an->has_event[RQ_EV_SETAFFINITY_ENTER] ? "exec events" :
		    "the sched_setaffinity syscall events");
	}
	emit(an, p);
}

static void expire_stopper(struct rq_analysis *an, struct rq_task *t, uint64_t now)
{
	if (t->stopper_pending && now - t->stopper.ts > STOPPER_EXEC_WINDOW)
		resolve_stopper(an, t, false);
}

/* ---- event handlers -------------------------------------------------------- */

static void note_comm(struct rq_task *t, const char *comm)
{
	if (!t || !comm[0] || !memcmp(t->comm, comm, RQ_COMM_LEN))
		return;
	/* a new name after a stopper move: exec evidence (begin_new_exec() renames) */
	if (t->stopper_pending && t->comm[0])
		t->stopper_comm_changed = true;
	copy_comm(t->comm, comm);
}

/* A wakeup on its way to a CPU makes it not idle for the kernel (rq->ttwu_pending). */
static void clear_pending(struct rq_analysis *an, struct rq_task *t)
{
	int cpu = t->pending_wake_cpu;

	if (cpu < 0)
		return;
	if (valid_cpu(an, cpu) && an->cpus[cpu].pending_wakeups > 0)
		an->cpus[cpu].pending_wakeups--;
	t->pending_wake_cpu = -1;
}

static void set_pending(struct rq_analysis *an, struct rq_task *t, int cpu)
{
	clear_pending(an, t);
	if (!valid_cpu(an, cpu))
		return;
	an->cpus[cpu].pending_wakeups++;
	t->pending_wake_cpu = cpu;
}

/* The mask is no fact any more (changed, or contradicted): nothing assumed either. */
static void mask_forget(struct rq_task *t)
{
	t->mask_known = false;
	t->mask_changed = true;
	t->seen_cpu = -1;
	t->seen_multi = false;
}

/* Where t runs: a proven subset of its allowed CPUs, and a check of a marked mask. */
static void note_running(struct rq_analysis *an, struct rq_task *t, int cpu)
{
	if (t->mask_known && !rq_cpumask_test(&t->mask, cpu)) {
		an->mask_violations++;
		mask_forget(t);
	}
	if (t->seen_cpu < 0)
		t->seen_cpu = cpu;
	else if (t->seen_cpu != cpu)
		t->seen_multi = true;
	t->cpu = cpu;
}

/*
 * Every record's common_pid is the task running on the CPU that wrote it.  Correct
 * the model from it: some kernels leave switches out of the trace (on 6.18 here, every
 * switch out of CPU 1's idle task).  Records of irq context are skipped, and so are
 * records of another system the outgoing task writes right after its own switch (TLB,
 * FPU, stack traces) until the incoming task writes.
 */
static void repair_from_owner(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_cpu *c = &an->cpus[ev->cpu];
	int owner = ev->common_pid;
	struct rq_task *t;

	/* a switch names its prev itself; markers are the recorder's notes, not its work */
	if (ev->type == RQ_EV_SWITCH || ev->type == RQ_EV_MARKER || owner < 0 ||
	    (ev->flags & (RQ_FLAG_HARDIRQ | RQ_FLAG_SOFTIRQ | RQ_FLAG_NMI)))
		return;
	if (owner == c->curr) {
		c->trailing_prev = -1;
		if (!owner)
			c->last_idle_ts = ev->ts;
		return;
	}
	if (owner == c->trailing_prev && ev->type == RQ_EV_OTHER)
		return;
	c->trailing_prev = -1;
	if (c->curr >= 0) {
		c->repairs++;
		if (!c->curr)
			c->idle_repairs++;
		t = c->curr > 0 ? rq_task_find(an, c->curr) : NULL;
		/* it switched out unseen: blocked or preempted, nobody knows */
		if (t && t->state == RQ_TS_RUNNING)
			t->state = RQ_TS_UNKNOWN;
	}
	c->curr = owner;
	if (!owner) {
		/* the idle task runs: nothing was runnable here */
		cpu_clear_lists(an, ev->cpu);
		c->known = true;
		c->last_idle_ts = ev->ts;
		return;
	}
	t = task_get(an, owner, ev->ts);
	if (!t)
		return;
	rq_remove(an, t);
	clear_pending(an, t);
	t->state = RQ_TS_RUNNING;
	note_running(an, t, ev->cpu);
}

static void handle_switch(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_cpu *c = &an->cpus[ev->cpu];
	struct rq_task *prev = task_get(an, ev->pid, ev->ts);
	struct rq_task *next;

	/*
	 * The switch names who ran: the model should have said the same.  The idle task
	 * where a task switches out is a switch out of idle the trace lacks (the task wrote
	 * nothing before its own switch): a repair like those from common_pid.
	 */
	if (c->curr == 0 && ev->pid > 0) {
		c->repairs++;
		c->idle_repairs++;
	} else if (c->curr >= 0 && c->curr != ev->pid) {
		struct rq_task *gone = c->curr > 0 ? rq_task_find(an, c->curr) : NULL;

		c->switch_mismatches++;
		if (gone && gone->state == RQ_TS_RUNNING)
			gone->state = RQ_TS_UNKNOWN;
	}
	c->trailing_prev = ev->pid;
	if (!ev->pid)
		c->last_idle_ts = ev->ts;	/* the idle task ran until now */
	if (prev) {
		note_comm(prev, ev->comm);
		prev->prio = ev->prio;
		expire_stopper(an, prev, ev->ts);
		/* prev_state 0 (R) or TASK_REPORT_MAX alone (R+, preempted): still runnable */
		if (!(ev->state & 0xff)) {
			/* preempted, possibly while exiting: still queued */
			prev->state = RQ_TS_QUEUED;
			rq_enqueue(an, prev, ev->cpu, false);
		} else if (ev->state & 0x30 || (prev->exited && ev->state & 0x40)) {
			/* X or Z (TASK_DEAD, 0x40, on kernels before 4.14): its last switch */
			retire_task(an, prev);
		} else {
			prev->state = RQ_TS_SLEEPING;
			/* DELAY_DEQUEUE (v6.12+) may leave a blocked fair task enqueued */
			prev->blocked_ts = ev->ts;
			prev->blocked_cpu = ev->cpu;
			if (!task_is_rt_or_dl(prev))
				rq_enqueue(an, prev, ev->cpu, true);
			else
				rq_remove(an, prev);
		}
		prev->cpu = ev->cpu;
	}
	prune_delayed(an, ev->cpu, ev->ts);
	if (!c->known) {
		if (!c->watched_since)
			c->watched_since = ev->ts;
		else if (ev->ts - c->watched_since >= CPU_KNOWN_AFTER)
			c->known = true;
	}
	if (ev->pid2 == 0) {
		/* going idle: the runqueue is provably empty from here on */
		cpu_clear_lists(an, ev->cpu);
		c->curr = 0;
		c->known = true;
		c->last_idle_ts = ev->ts;
		for (int i = 0; i < an->findings[RQ_FIND_OFFCPU_FORK].nexamples; i++) {
			struct rq_placement *x = &an->findings[RQ_FIND_OFFCPU_FORK].examples[i];
			struct rq_task *child = rq_task_find(an, x->pid);

			if (x->parent_cpu_idled < 0 && x->from_cpu == ev->cpu && child &&
			    child->first_run_pending)
				x->parent_cpu_idled = 1;
		}
		return;
	}
	next = task_get(an, ev->pid2, ev->ts);
	c->curr = ev->pid2;
	if (!next)
		return;
	note_comm(next, ev->comm2);
	next->prio = ev->prio2;
	rq_remove(an, next);
	clear_pending(an, next);
	next->state = RQ_TS_RUNNING;
	note_running(an, next, ev->cpu);
	if (next->first_run_pending) {
		next->first_run_pending = false;
		if (next->fork_example >= 0) {
			struct rq_placement *x =
				&an->findings[RQ_FIND_OFFCPU_FORK].examples[next->fork_example];

			if (x->pid == next->pid && x->parent_cpu_idled < 0)
				x->parent_cpu_idled = 0;
		}
	}
}

static void handle_waking(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = task_get(an, ev->pid, ev->ts);

	if (!t)
		return;
	note_comm(t, ev->comm);
	t->prio = ev->prio;
	expire_stopper(an, t, ev->ts);
	if (!t->idle_at_waking)
		t->idle_at_waking = calloc(2 * mask_longs(an), sizeof(unsigned long));
	if (t->idle_at_waking) {
		t->busy_at_waking = t->idle_at_waking + mask_longs(an);
		snapshot_cpus(an, t, t->idle_at_waking, t->busy_at_waking);
	}
	t->waking = true;
	t->waking_cpu = ev->cpu;
	t->waker_pid = ev->common_pid;
	t->wake_migrated = false;
	if (t->cpu < 0 && valid_cpu(an, ev->cpu_a))
		t->cpu = ev->cpu_a;
	/* target_cpu of sched_waking is task_cpu(p): where it blocked, if that was unseen */
	if (t->blocked_cpu < 0 && valid_cpu(an, ev->cpu_a))
		t->blocked_cpu = ev->cpu_a;
	/* not still queued or running (ttwu_runnable()): the wakeup is on its way there */
	if (t->state != RQ_TS_RUNNING && !(t->state == RQ_TS_QUEUED && !t->on_delayed))
		set_pending(an, t, ev->cpu_a);
}

/* A stop-class task: the per-CPU stopper, migration/N. */
static bool is_stop_class(const struct rq_task *t)
{
	return !strncmp(t->comm, "migration/", 10);
}

/*
 * A wakeup placement onto CPU to: which select_task_rq() path put it there.  Called at
 * sched_wakeup, or at the migration itself when the trace has no sched_wakeup.
 */
static void wakeup_placement(struct rq_analysis *an, const struct rq_event *ev,
			     struct rq_task *t, int to)
{
	bool saw_waking = t->waking;
	const unsigned long *idle_before = saw_waking ? t->idle_at_waking : NULL;
	const unsigned long *busy_before = saw_waking ? t->busy_at_waking : NULL;
	int from = t->wake_migrated ? t->wake_from : t->cpu;
	bool proven = selection_proven(an, t);
	bool mask_one = t->mask_known && rq_cpumask_weight(&t->mask) == 1;
	unsigned int assume = 0;
	const struct rq_cpumask *mask = rq_task_mask(an, t, &assume);
	struct rq_placement p;
	enum rq_path path;
	enum rq_confidence conf = RQ_CONF_INFERRED;

	t->nr_wakeups++;
	clear_pending(an, t);

	if (t->state == RQ_TS_RUNNING || (t->state == RQ_TS_QUEUED && !t->wake_migrated)) {
		path = RQ_PATH_WAKE_RUNNABLE;
	} else if (is_stop_class(t)) {
		path = RQ_PATH_WAKE_STOP;
	} else if (mask_one || (mask && assume && rq_cpumask_weight(mask) == 1)) {
		path = RQ_PATH_WAKE_AFFINE;
		conf = mask_one && proven ? RQ_CONF_EXACT : RQ_CONF_INFERRED;
	} else if (task_is_rt_or_dl(t)) {
		path = RQ_PATH_WAKE_RT;
		conf = RQ_CONF_EXACT;
	} else if (from < 0) {
		path = RQ_PATH_UNKNOWN;
		conf = RQ_CONF_UNKNOWN;
	} else if (to == from) {
		/*
		 * exact only when a selection is proven, the mask is a fact with several
		 * CPUs, and no EAS could have returned prev: else ttwu_runnable(), the
		 * one-CPU shortcut or EAS look the same
		 */
		path = RQ_PATH_WAKE_PREV;
		if (saw_waking && proven && t->mask_known && !an->asym_capacity)
			conf = RQ_CONF_EXACT;
	} else if (to == (saw_waking ? t->waking_cpu : ev->cpu)) {
		path = RQ_PATH_WAKE_PULLED;
	} else if (!an->has_topology) {
		path = RQ_PATH_WAKE_MOVED;	/* which LLC each CPU is in is not known */
	} else if (same_llc(an, from, to)) {
		path = RQ_PATH_WAKE_LLC;
	} else {
		path = RQ_PATH_WAKE_CROSS_LLC;
	}
	placement_init(&p, ev, t, from, to, path, conf);
	if (saw_waking)
		p.writer_pid = t->waker_pid;
	if (!saw_waking && path != RQ_PATH_WAKE_RUNNABLE)
		p.notes |= RQ_NOTE_NO_WAKING;
	if (!proven && path != RQ_PATH_WAKE_RUNNABLE) {
		p.notes |= RQ_NOTE_MAYBE_DELAYED;
		p.blocked_us = t->blocked_ts && ev->ts > t->blocked_ts ?
			       (uint32_t)((ev->ts - t->blocked_ts) / 1000) : UINT32_MAX;
	}

	if (path != RQ_PATH_WAKE_RUNNABLE && path != RQ_PATH_UNKNOWN &&
	    path != RQ_PATH_WAKE_STOP) {
		judge_idle_stacking(an, &p, t, to, idle_before, proven);
		judge_missed_idle(an, &p, t, to, idle_before, busy_before, proven);
	}
	emit(an, &p);

	t->waking = false;
	t->wake_migrated = false;
	t->cpu = to;
	if (an->cpus[to].curr != t->pid) {
		t->state = RQ_TS_QUEUED;
		rq_enqueue(an, t, to, false);
	}
}

static void handle_wakeup(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = task_get(an, ev->pid, ev->ts);

	if (!t || !valid_cpu(an, ev->cpu_a))
		return;
	note_comm(t, ev->comm);
	t->prio = ev->prio;
	wakeup_placement(an, ev, t, ev->cpu_a);
}

static void handle_wakeup_new(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = task_get(an, ev->pid, ev->ts);
	int parent_cpu = ev->cpu, to = ev->cpu_a;
	struct rq_placement p;
	enum rq_path path;

	if (!t || !valid_cpu(an, to))
		return;
	note_comm(t, ev->comm);
	t->prio = ev->prio;
	if (t->mask_known && rq_cpumask_weight(&t->mask) == 1)
		path = RQ_PATH_FORK_AFFINE;
	else if (task_is_rt_or_dl(t))
		path = RQ_PATH_FORK_RT;
	else if (to == parent_cpu)
		path = RQ_PATH_FORK_LOCAL;
	else
		path = RQ_PATH_FORK_MOVED;
	/* with the mask unknown, the one-CPU shortcut may have decided instead */
	placement_init(&p, ev, t, parent_cpu, to, path,
		       t->mask_known || path == RQ_PATH_FORK_RT ? RQ_CONF_EXACT :
		       RQ_CONF_INFERRED);
	if (path == RQ_PATH_FORK_MOVED) {
		p.level = !an->has_topology ? RQ_LEVEL_UNKNOWN :
			  an->cpus[to].core == an->cpus[parent_cpu].core ? RQ_LEVEL_SMT :
			  same_llc(an, to, parent_cpu) ? RQ_LEVEL_LLC :
			  an->cpus[to].node == an->cpus[parent_cpu].node ? RQ_LEVEL_PKG :
			  RQ_LEVEL_NUMA;
		if (t->mask_known && !rq_cpumask_test(&t->mask, parent_cpu))
			p.notes |= RQ_NOTE_PARENT_NOT_ALLOWED;
	}

	an->findings[RQ_FIND_OFFCPU_FORK].of++;
	an->findings[RQ_FIND_OFFCPU_FORK].judged++;
	if (to != parent_cpu && an->profile.fork_util_regression)
		why(&p, "; v6.4-v6.13 autogroup kernel: stale utilization of exited tasks "
		    "makes the parent's group look busy (76f970ce51c8)");
	if (to != parent_cpu) {
		int idx = add_finding(an, &p, t, RQ_FIND_OFFCPU_FORK);

		t->fork_example = idx;
	}
	/* a fork always selects (wake_up_new_task): no proof needed */
	judge_idle_stacking(an, &p, t, to, NULL, true);
	emit(an, &p);

	t->first_run_pending = true;
	t->fork_parent_cpu = parent_cpu;
	t->fork_ts = ev->ts;
	t->cpu = to;
	t->state = RQ_TS_QUEUED;
	rq_enqueue(an, t, to, false);
}

static void handle_migrate(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = task_get(an, ev->pid, ev->ts);
	struct rq_task *writer = rq_task_find(an, ev->common_pid);
	int from = ev->cpu_a, to = ev->cpu_b;
	struct rq_placement p;
	enum rq_path path = RQ_PATH_UNKNOWN;
	enum rq_confidence conf = RQ_CONF_INFERRED;
	bool queued;

	if (!t || !valid_cpu(an, to))
		return;
	note_comm(t, ev->comm);
	t->prio = ev->prio;
	t->nr_migrations++;
	/* a pending stopper move stays pending across wakeups: only its window ends it */
	expire_stopper(an, t, ev->ts);
	queued = t->state == RQ_TS_QUEUED && !t->on_delayed;

	/* 1. inside a waking window on the waker's CPU: select_task_rq() of a wakeup */
	if (t->waking && ev->cpu == t->waking_cpu) {
		t->wake_migrated = true;
		t->wake_from = from;
		set_pending(an, t, to);
		t->cpu = to;
		return;	/* classified at sched_wakeup */
	}
	placement_init(&p, ev, t, from, to, RQ_PATH_UNKNOWN, RQ_CONF_INFERRED);
	if (t->numa_ts && ev->ts - t->numa_ts < NUMA_WINDOW) {
		/* a sched_move_numa/sched_swap_numa on this task just before */
		path = t->numa_swap ? RQ_PATH_NUMA_SWAP : RQ_PATH_NUMA_MOVE;
		t->numa_ts = 0;
	} else if (writer && is_stop_class(writer) && from == ev->cpu) {
		/* 2. migration/N: exec balance if an exec follows, else affinity or active LB */
		resolve_stopper(an, t, false);	/* a second move: the first had no exec */
		p.conf = RQ_CONF_INFERRED;
		t->stopper = p;
		t->stopper_pending = true;
		t->stopper_comm_changed = false;
		goto model;
	} else if ((ev->flags & RQ_FLAG_SOFTIRQ) && from != ev->cpu) {
		path = to == ev->cpu ? RQ_PATH_LB_PERIODIC : RQ_PATH_LB_NOHZ;
	} else if (t->setaffinity_inflight ||
		   (writer && writer->inflight_target == t->pid && t->affinity_change_ts &&
		    ev->ts - t->affinity_change_ts < AFFINITY_WINDOW)) {
		path = RQ_PATH_AFFINITY_CALLER;
	} else if (task_is_rt_or_dl(t)) {
		path = RQ_PATH_LB_RT;
	} else if (!(ev->flags & (RQ_FLAG_HARDIRQ | RQ_FLAG_SOFTIRQ)) && to == ev->cpu &&
		   ev->common_pid != t->pid && queued) {
		path = RQ_PATH_LB_NEWIDLE;
	} else if (t->state == RQ_TS_SLEEPING) {
		/* only a wakeup selects a CPU for a sleeping task (its waking was not seen) */
		t->wake_migrated = true;
		t->wake_from = from;
		if (an->counts[RQ_EV_WAKEUP]) {
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
	if (path == RQ_PATH_UNKNOWN)
		why(&p, " (writer pid %d, flags 0x%x)", ev->common_pid, ev->flags);
	/* load balancing does not select through select_task_rq(): no finding judged */
	emit(an, &p);
model:
	t->cpu = to;
	if (queued)
		rq_enqueue(an, t, to, false);
	else if (t->on_delayed)
		rq_remove(an, t);
}

static void copy_attrs(struct rq_analysis *an, struct rq_task *child, const struct rq_task *parent)
{
	child->policy = parent->policy;
	child->idle_cgroup = parent->idle_cgroup;
	child->mask_known = parent->mask_known;
	child->mask_changed = parent->mask_changed;
	if (parent->mask_known)
		rq_cpumask_copy(&child->mask, &parent->mask);
}

static void handle_fork(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *parent = task_get(an, ev->pid, ev->ts);
	struct rq_task *child = task_get(an, ev->pid2, ev->ts);

	if (!child)
		return;
	/* pid reuse: forget whatever an earlier task with this pid left behind */
	rq_remove(an, child);
	clear_pending(an, child);
	task_init(child, ev->pid2, ev->ts);
	note_comm(child, ev->comm2);
	if (parent) {
		note_comm(parent, ev->comm);
		parent->nr_forks++;
		child->ppid = parent->pid;
		child->prio = parent->prio;
		copy_attrs(an, child, parent);
		/* SCHED_RESET_ON_FORK is invisible: an RT/DL parent's child may be NORMAL */
		if (task_is_rt_or_dl(parent))
			child->policy = RQ_POLICY_UNKNOWN;
	}
}

static void handle_exec(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rq_task_find(an, ev->pid2 ? ev->pid2 : ev->pid);
	struct rq_placement p;
	const char *base;
	enum rq_path path;
	int cpu = ev->cpu;
	bool mask_current;

	if (!t)
		t = task_get(an, ev->pid, ev->ts);
	if (!t)
		return;
	if (ev->pid2 && ev->pid2 != ev->pid) {
		/* de_thread(): a non-leader thread took the leader's pid */
		struct rq_task *leader = task_get(an, ev->pid, ev->ts);

		if (leader && leader != t) {
			copy_attrs(an, leader, t);
			leader->prio = t->prio;
			leader->stopper = t->stopper;
			leader->stopper_pending = t->stopper_pending;
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
	}
	t->nr_execs++;
	/*
	 * Without the sched_setaffinity events a marker's mask may be stale: the task may
	 * have pinned itself just before this exec.  The recorder reads /proc again after
	 * every exec and writes the mask in its next marker, which settles this exec.
	 */
	mask_current = t->mask_known &&
		       (an->has_event[RQ_EV_SETAFFINITY_ENTER] || !an->has_markers);

	if (t->stopper_pending && ev->ts - t->stopper.ts <= STOPPER_EXEC_WINDOW) {
		p = t->stopper;
		resolve_stopper(an, t, true);
		p.ts = ev->ts;
		strlcpy(p.comm, t->comm, sizeof(p.comm));
		p.path = RQ_PATH_EXEC_MOVED;
		/* paired by time: the move came inside the window before this exec */
		p.conf = RQ_CONF_INFERRED;
		p.why[0] = '\0';
		why(&p, ": migration/%d moved it %d -> %d just before the exec", p.cpu,
		    p.from_cpu, p.to_cpu);
	} else {
		expire_stopper(an, t, ev->ts);
		if (mask_current && rq_cpumask_weight(&t->mask) == 1)
			path = RQ_PATH_EXEC_AFFINE;
		else if (task_is_rt_or_dl(t))
			path = RQ_PATH_EXEC_RT;
		else
			path = RQ_PATH_EXEC_LOCAL;
		placement_init(&p, ev, t, cpu, cpu, path,
			       path == RQ_PATH_EXEC_LOCAL ? RQ_CONF_INFERRED : RQ_CONF_EXACT);
	}

	/*
	 * needless-callback: sched_exec() asked the class although one CPU was allowed.
	 * Exact only: an assumed mask never makes an exec needless, and a task seen on
	 * two CPUs since its last affinity change (in a trace that would show one) has a
	 * proven multi-CPU mask, which proves the callback was not needless.
	 */
	if (!mask_current && t->seen_multi && an->has_event[RQ_EV_SETAFFINITY_ENTER] &&
	    an->has_event[RQ_EV_CGROUP_ATTACH]) {
		why(&p, "; ran on several CPUs since its affinity last changed: not needless");
		an->findings[RQ_FIND_NEEDLESS_CALLBACK].judged++;
	} else if (!mask_current) {
		an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown++;
		an->findings[RQ_FIND_NEEDLESS_CALLBACK].not_judged++;
		p.notes |= RQ_NOTE_MASK_UNKNOWN;
		t->unknown_execs++;
	} else if (an->findings[RQ_FIND_NEEDLESS_CALLBACK].judged++,
		   rq_cpumask_weight(&t->mask) == 1 && an->profile.exec_callback_unconditional) {
		why(&p, "; allowed on CPU %d only, yet sched_exec() called %s",
		    rq_cpumask_first(&t->mask),
		    task_is_rt_or_dl(t) ? "the RT/DL callback (cheap: returns the input CPU)" :
					  "select_task_rq_fair(WF_EXEC)");
		add_finding(an, &p, t, RQ_FIND_NEEDLESS_CALLBACK);
	}
	emit(an, &p);
	if (t->unknown_execs == 1 && !mask_current)
		t->pending_exec = p;	/* numbered by emit(): the example if it is settled */
	t->cpu = ev->cpu;
}

static void handle_exit(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rq_task_find(an, ev->pid);

	if (!t)
		return;
	note_comm(t, ev->comm);
	resolve_stopper(an, t, false);
	t->exited = true;
	t->exit_ts = ev->ts;
	if (t->fork_example >= 0 && t->fork_ts) {
		struct rq_placement *x = &an->findings[RQ_FIND_OFFCPU_FORK].examples[t->fork_example];

		if (x->pid == t->pid && x->child_lifetime_ns < 0)
			x->child_lifetime_ns = (int64_t)(ev->ts - t->fork_ts);
	}
}

static void evict_task(struct rq_analysis *an, struct rq_task *t)
{
	unsigned int b = pid_hash(t->pid, an->task_hash_size);
	struct rq_task **pp = &an->task_hash[b];

	resolve_stopper(an, t, false);
	rq_remove(an, t);
	clear_pending(an, t);
	while (*pp && *pp != t)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = t->hnext;
	rq_cpumask_free(&t->mask);
	free(t->idle_at_waking);
	free(t);
	an->nr_tasks--;
	an->nr_tasks_evicted++;
}

/*
 * A task is gone for good: at its last switch-out after sched_process_exit, or at
 * sched_process_free (a trace may lack either).  Keep the last EXITED_KEEP of them for
 * the views in a FIFO of pids and evict the oldest, so memory stays flat however many
 * tasks come and go; the counters already hold what they did.
 */
static void retire_task(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_task *old;

	t->exited = true;
	t->state = RQ_TS_DEAD;
	rq_remove(an, t);
	if (t->retired)
		return;
	t->retired = true;
	if (!an->exited_ring) {
		an->exited_ring = calloc(EXITED_KEEP, sizeof(int));
		if (!an->exited_ring) {
			evict_task(an, t);
			return;
		}
	}
	if (an->nr_exited_kept == EXITED_KEEP) {
		old = rq_task_find(an, an->exited_ring[an->exited_head]);
		/* the pid may belong to a new task by now: only a dead one goes */
		if (old && old->retired)
			evict_task(an, old);
		an->exited_head = (an->exited_head + 1) % EXITED_KEEP;
		an->nr_exited_kept--;
	}
	an->exited_ring[(an->exited_head + an->nr_exited_kept) % EXITED_KEEP] = t->pid;
	an->nr_exited_kept++;
}

static void handle_free(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rq_task_find(an, ev->pid);

	if (t)
		retire_task(an, t);
}

static struct rq_task *syscall_target(struct rq_analysis *an, const struct rq_event *ev,
				      int pid)
{
	return task_get(an, pid > 0 ? pid : ev->common_pid, ev->ts);
}

static void handle_syscall(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *caller = task_get(an, ev->common_pid, ev->ts);
	struct rq_task *t;

	if (!caller)
		return;
	switch (ev->type) {
	case RQ_EV_SETAFFINITY_ENTER:
	case RQ_EV_SETSCHED_ENTER:
	case RQ_EV_SETATTR_ENTER:
		caller->inflight_target = ev->pid > 0 ? ev->pid : ev->common_pid;
		caller->inflight_policy = ev->type == RQ_EV_SETSCHED_ENTER ? ev->arg : -1;
		t = syscall_target(an, ev, ev->pid);
		if (t && ev->type == RQ_EV_SETAFFINITY_ENTER) {
			t->setaffinity_inflight = true;
			t->affinity_change_ts = ev->ts;
			/* execs before this change stay unknown: no later marker describes them */
			t->unknown_execs = 0;
		}
		return;
	default:
		break;
	}
	t = caller->inflight_target ? rq_task_find(an, caller->inflight_target) : NULL;
	if (!t)
		return;
	if (ev->type == RQ_EV_SETAFFINITY_EXIT) {
		t->setaffinity_inflight = false;
		/* the new mask is not in the trace; a recorder marker may follow with it */
		if (ev->arg == 0)
			mask_forget(t);
	} else if (ev->type == RQ_EV_SETSCHED_EXIT && ev->arg == 0) {
		long long policy = caller->inflight_policy & ~(long long)SCHED_RESET_ON_FORK;

		t->policy = (policy >= 0 && policy <= 7 && policy != 4) ? (int)policy :
									    RQ_POLICY_UNKNOWN;
	} else if (ev->type == RQ_EV_SETATTR_EXIT && ev->arg == 0) {
		t->policy = RQ_POLICY_UNKNOWN;	/* the attr struct is not in the trace */
	}
	caller->inflight_policy = -1;
}

static void handle_numa(struct rq_analysis *an, const struct rq_event *ev)
{
	/* mark the task(s) so that the stopper move that follows is attributed to NUMA */
	int pids[2] = { ev->pid, ev->type == RQ_EV_SWAP_NUMA ? ev->pid2 : 0 };

	for (int i = 0; i < 2; i++) {
		struct rq_task *t = pids[i] > 0 ? task_get(an, pids[i], ev->ts) : NULL;

		if (!t)
			continue;
		t->numa_ts = ev->ts;
		t->numa_swap = ev->type == RQ_EV_SWAP_NUMA;
	}
}

/*
 * Moving to another cgroup can change the allowed CPUs (cpuset) and whether the task
 * counts as SCHED_IDLE (cpu.idle): unknown until the recorder's marker says.
 */
static void handle_cgroup_attach(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = task_get(an, ev->pid, ev->ts);

	if (!t)
		return;
	mask_forget(t);
	t->unknown_execs = 0;
	if (t->idle_cgroup) {
		t->idle_cgroup = false;
		t->policy = t->policy == RQ_SCHED_IDLE ? t->policy : RQ_POLICY_UNKNOWN;
	}
}

static void apply_cpu_marker(struct rq_analysis *an, const struct rq_marker *m)
{
	/* --topology was given: the user's word wins over what the recording says */
	if (!valid_cpu(an, m->cpu) || an->llc_source == RQ_LLC_OPTION)
		return;
	an->cpus[m->cpu].core = m->core;
	an->cpus[m->cpu].llc = valid_cpu(an, m->llc) ? m->llc : m->cpu;
	an->cpus[m->cpu].node = m->node;
	if (m->capacity > 0) {
		an->cpus[m->cpu].capacity = m->capacity;
		for (int c = 0; c < an->nr_cpus; c++)
			if (an->cpus[c].capacity && an->cpus[c].capacity != m->capacity)
				an->asym_capacity = true;
	}
	an->has_topology = true;
	an->llc_source = !strcmp(m->llc_src, "cache") ? RQ_LLC_CACHE :
			 !strcmp(m->llc_src, "package") ? RQ_LLC_PACKAGE : RQ_LLC_ASSUMED;
}

/*
 * The recorder writes a task's mask into the trace some time after the fork, exec or
 * syscall that changed it.  Execs judged "unknown" in between, with no affinity
 * change since, ran with the mask this marker carries: judge them now.
 */
static void settle_unknown_execs(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_finding_store *s = &an->findings[RQ_FIND_NEEDLESS_CALLBACK];
	uint64_t n = t->unknown_execs;
	struct rq_placement *p = &t->pending_exec;

	t->unknown_execs = 0;
	if (!n || !t->mask_known)
		return;
	/* they are judged now: needless if the mask has one CPU, fine otherwise */
	s->unknown -= n < s->unknown ? n : s->unknown;
	s->not_judged -= n < s->not_judged ? n : s->not_judged;
	s->judged += n;
	if (rq_cpumask_weight(&t->mask) != 1)
		return;
	if (an->profile.exec_callback_unconditional) {
		p->notes &= ~RQ_NOTE_MASK_UNKNOWN;	/* the marker settled it */
		why(p, "; allowed on CPU %d only (from the recorder's next marker for it), yet "
		    "sched_exec() called the class callback", rq_cpumask_first(&t->mask));
		add_finding(an, p, t, RQ_FIND_NEEDLESS_CALLBACK);
		s->count += n - 1;
		s->exact += n - 1;
		t->nr_findings[RQ_FIND_NEEDLESS_CALLBACK] += n - 1;
	}
	if (an->path_counts[RQ_PATH_EXEC_LOCAL] >= n &&
	    an->path_conf[RQ_PATH_EXEC_LOCAL][RQ_CONF_INFERRED] >= n) {
		an->path_counts[RQ_PATH_EXEC_LOCAL] -= n;
		an->path_counts[RQ_PATH_EXEC_AFFINE] += n;
		an->path_conf[RQ_PATH_EXEC_LOCAL][RQ_CONF_INFERRED] -= n;
		an->path_conf[RQ_PATH_EXEC_AFFINE][RQ_CONF_EXACT] += n;
		an->conf_counts[RQ_CONF_INFERRED] -= n;
		an->conf_counts[RQ_CONF_EXACT] += n;
	}
}

static void apply_task_marker(struct rq_analysis *an, const struct rq_marker *m, uint64_t ts)
{
	struct rq_task *t = task_get(an, m->pid, ts);

	if (!t)
		return;
	if (m->kind == RQ_MARK_TASK_GONE) {
		/* the task vanished before its /proc entry could be read */
		mask_forget(t);
		return;
	}
	if (m->tgid > 0)
		t->tgid = m->tgid;
	if (m->comm[0])
		strlcpy(t->comm, m->comm, sizeof(t->comm));
	t->policy = m->policy >= 0 ? m->policy : RQ_POLICY_UNKNOWN;
	t->idle_cgroup = m->idle_cg > 0;
	t->mask_known = strcmp(m->cpulist, "?") && !rq_cpumask_parse(&t->mask, m->cpulist) &&
			rq_cpumask_weight(&t->mask) > 0;
	if (t->mask_known) {
		t->mask_changed = false;
		t->seen_cpu = -1;
		t->seen_multi = false;
	} else {
		mask_forget(t);
	}
	settle_unknown_execs(an, t);
}

static void handle_marker(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_marker m;

	if (!ev->str || rq_marker_parse(ev->str, (size_t)ev->str_len, &m))
		return;
	/*
	 * Only the recorder's own lines are facts: it writes the first marker (the kernel
	 * line, before any command starts) and every later one from the same pid.  A
	 * traced command can write to trace_marker too: its lines are counted, not used.
	 */
	if (an->marker_pid < 0) {
		an->marker_pid = ev->common_pid;
	} else if (ev->common_pid != an->marker_pid) {
		an->markers_ignored++;
		return;
	}
	an->has_markers = true;
	switch (m.kind) {
	case RQ_MARK_KERNEL:
		if (!an->profile.release[0] && !an->profile.overridden) {
			rq_profile_from_release(&an->profile, m.release);
			if (an->opts.profile_override)
				rq_profile_override(&an->profile, an->opts.profile_override, NULL, 0);
		}
		break;
	case RQ_MARK_CPU:
		apply_cpu_marker(an, &m);
		break;
	case RQ_MARK_TASK:
	case RQ_MARK_TASK_GONE:
		apply_task_marker(an, &m, ev->ts);
		break;
	default:
		break;
	}
}

static void handle_lost(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_cpu *c;

	an->lost_events += ev->arg > 0 ? (uint64_t)ev->arg : 0;
	if (!valid_cpu(an, ev->cpu))
		return;
	c = &an->cpus[ev->cpu];
	if (ev->state == RQ_LOST_BACKWARDS)
		c->clock_backwards++;
	else
		c->lost_events += ev->arg > 0 ? (uint64_t)ev->arg : 1;
	/* what happened in the gap is unknown: so is this CPU's runqueue */
	cpu_clear_lists(an, ev->cpu);
	c->known = false;
	c->watched_since = 0;
	c->curr = -1;
	c->trailing_prev = -1;
	c->pending_wakeups = 0;	/* the tasks' own marks are dropped as they are seen */
}

void rq_analysis_feed(struct rq_analysis *an, const struct rq_event *ev)
{
	if (ev->type == RQ_EV_LOST) {
		handle_lost(an, ev);
		rq_delay_event(an, ev);
		return;
	}
	an->nr_events++;
	if (!an->first_ts || ev->ts < an->first_ts)
		an->first_ts = ev->ts;
	if (ev->ts > an->last_ts)
		an->last_ts = ev->ts;
	if ((unsigned int)ev->type < RQ_EV__COUNT)
		an->counts[ev->type]++;
	if (!valid_cpu(an, ev->cpu))
		return;
	repair_from_owner(an, ev);
	switch (ev->type) {
	case RQ_EV_SWITCH: handle_switch(an, ev); break;
	case RQ_EV_WAKING: handle_waking(an, ev); break;
	case RQ_EV_WAKEUP: handle_wakeup(an, ev); break;
	case RQ_EV_WAKEUP_NEW: handle_wakeup_new(an, ev); break;
	case RQ_EV_MIGRATE: handle_migrate(an, ev); break;
	case RQ_EV_FORK: handle_fork(an, ev); break;
	case RQ_EV_EXIT: handle_exit(an, ev); break;
	case RQ_EV_FREE: handle_free(an, ev); break;
	case RQ_EV_EXEC: handle_exec(an, ev); break;
	case RQ_EV_MOVE_NUMA:
	case RQ_EV_SWAP_NUMA: handle_numa(an, ev); break;
	case RQ_EV_SETAFFINITY_ENTER:
	case RQ_EV_SETAFFINITY_EXIT:
	case RQ_EV_SETSCHED_ENTER:
	case RQ_EV_SETSCHED_EXIT:
	case RQ_EV_SETATTR_ENTER:
	case RQ_EV_SETATTR_EXIT: handle_syscall(an, ev); break;
	case RQ_EV_CGROUP_ATTACH: handle_cgroup_attach(an, ev); break;
	case RQ_EV_MARKER: handle_marker(an, ev); break;
	default: break;
	}
	rq_delay_event(an, ev);
}

static int finish_task(const struct rq_task *t, void *data)
{
	resolve_stopper(data, (struct rq_task *)t, false);
	return 0;
}

void rq_analysis_finish(struct rq_analysis *an)
{
	rq_task_foreach(an, finish_task, an);
	rq_delay_finish(an);
}

/* ---- life cycle -------------------------------------------------------------- */

struct rq_analysis *rq_analysis_new(const struct rq_analysis_opts *opts)
{
	struct rq_analysis *an = calloc(1, sizeof(*an));

	if (!an)
		return NULL;
	if (opts)
		an->opts = *opts;
	an->recent_cap = an->opts.recent_capacity > 0 ? (unsigned int)an->opts.recent_capacity :
							RQ_RECENT_DEFAULT;
	an->recent = calloc(an->recent_cap, sizeof(*an->recent));
	an->delay = rq_delay_new();
	if (!an->recent || !an->delay) {
		free(an->recent);
		rq_delay_free(an->delay);
		free(an);
		return NULL;
	}
	rq_profile_from_release(&an->profile, NULL);
	an->marker_pid = -1;
	return an;
}

int rq_analysis_begin(struct rq_analysis *an, const char *source, int nr_cpus,
		      const char *release, const bool *has_event)
{
	char err[256];

	if (nr_cpus <= 0 || nr_cpus > RQ_MAX_CPUS || an->cpus) {
		errno = EINVAL;
		return -1;
	}
	strlcpy(an->source, source ? source : "", sizeof(an->source));
	an->nr_cpus = nr_cpus;
	an->cpus = calloc((size_t)nr_cpus, sizeof(*an->cpus));
	if (!an->cpus || grow_hash(an))
		return -1;
	if (rq_cpumask_init(&an->all_cpus, nr_cpus))
		return -1;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		/* without topology in the trace: one LLC, one core per CPU (said so) */
		an->cpus[cpu].curr = -1;
		an->cpus[cpu].llc = 0;
		an->cpus[cpu].core = cpu;
		an->cpus[cpu].trailing_prev = -1;
		rq_cpumask_set(&an->all_cpus, cpu);
	}
	an->llc_source = RQ_LLC_ASSUMED;
	rq_profile_from_release(&an->profile, release && *release ? release : NULL);
	if (an->opts.profile_override &&
	    rq_profile_override(&an->profile, an->opts.profile_override, err, sizeof(err))) {
		strlcpy(an->error, err, sizeof(an->error));
		errno = EINVAL;
		return -1;
	}
	if (an->opts.topology &&
	    rq_topology_apply(an, an->opts.topology, err, sizeof(err))) {
		snprintf(an->error, sizeof(an->error), "--topology: %.200s", err);
		errno = EINVAL;
		return -1;
	}
	if (has_event)
		memcpy(an->has_event, has_event, sizeof(an->has_event));
	return 0;
}

static int free_task(const struct rq_task *t, void *data)
{
	struct rq_task *m = (struct rq_task *)t;

	rq_cpumask_free(&m->mask);
	free(m->idle_at_waking);
	return 0;
}

void rq_analysis_free(struct rq_analysis *an)
{
	if (!an)
		return;
	rq_task_foreach(an, free_task, NULL);
	for (unsigned int i = 0; i < an->task_hash_size; i++) {
		struct rq_task *t = an->task_hash[i], *next;

		for (; t; t = next) {
			next = t->hnext;
			free(t);
		}
	}
	for (int cpu = 0; an->cpus && cpu < an->nr_cpus; cpu++) {
		free(an->cpus[cpu].queued);
		free(an->cpus[cpu].delayed);
	}
	free(an->cpus);
	rq_cpumask_free(&an->all_cpus);
	free(an->task_hash);
	free(an->recent);
	free(an->exited_ring);
	rq_delay_free(an->delay);
	free(an);
}
