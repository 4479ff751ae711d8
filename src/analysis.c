// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - model, classifier and findings (docs/kernel.md §3, §4, §6).
 *
 * Each event updates the per-task and per-CPU model; placement events are classified
 * into a select_task_rq() path and checked against the four findings.  What the trace
 * cannot show stays unknown: a task's affinity or policy is only known from a marker
 * (the recorder's /proc snapshot), inheritance at fork, or a sched_setscheduler
 * syscall whose value is in the trace; a CPU's runqueue is only known after it was
 * seen going idle.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "analysis.h"
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

/* ---- kernel profile ---------------------------------------------------- */

void rq_profile_from_release(struct rq_profile *p, const char *release)
{
	int v;

	memset(p, 0, sizeof(*p));
	if (release)
		strlcpy(p->release, release, sizeof(p->release));
	if (release && sscanf(release, "%d.%d", &p->major, &p->minor) != 2)
		p->major = p->minor = 0;
	v = p->major * 1000 + p->minor;
	/* No kernel is known to carry the sched_exec() fix yet (docs/kernel.md §7). */
	p->exec_callback_unconditional = true;
	/* Loehle's fd54d81c2c0e (v7.1) stops preferring SCHED_IDLE-only rqs for IDLE tasks. */
	p->idle_stack_allowed = !v || v < 7001;
	/* eff6c8ce8d4d (v6.4) until its revert 76f970ce51c8 (v6.14). */
	p->fork_util_regression = v >= 6004 && v < 6014;
	snprintf(p->note, sizeof(p->note), "%s",
		 v ? "from the kernel release in the trace" : "kernel release unknown: defaults");
}

static int parse_fixed(const char *val, bool *affected)
{
	if (!strcmp(val, "fixed") || !strcmp(val, "no") || !strcmp(val, "0"))
		*affected = false;
	else if (!strcmp(val, "affected") || !strcmp(val, "yes") || !strcmp(val, "1"))
		*affected = true;
	else
		return -1;
	return 0;
}

int rq_profile_override(struct rq_profile *p, const char *spec, char *err, size_t errlen)
{
	char buf[256];
	char *save = NULL;

	if (!spec || !*spec)
		return 0;
	strlcpy(buf, spec, sizeof(buf));
	for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		bool *field = NULL;

		if (!eq)
			goto bad;
		*eq = '\0';
		if (!strcmp(tok, "exec-callback"))
			field = &p->exec_callback_unconditional;
		else if (!strcmp(tok, "idle-stack"))
			field = &p->idle_stack_allowed;
		else if (!strcmp(tok, "fork-util"))
			field = &p->fork_util_regression;
		if (!field || parse_fixed(eq + 1, field))
			goto bad;
		p->overridden = true;
	}
	if (p->overridden)
		snprintf(p->note, sizeof(p->note), "overridden with --profile %s", spec);
	return 0;
bad:
	snprintf(err, errlen, "bad --profile '%s': use KEY=fixed|affected with KEY one of "
		 "exec-callback, idle-stack, fork-util", spec);
	return -1;
}

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
	unsigned long *idle = t->idle_at_waking;

	memset(t, 0, sizeof(*t));
	t->hnext = hnext;
	t->mask = mask;
	t->idle_at_waking = idle;
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

static void snapshot_idle(const struct rq_analysis *an, unsigned long *bits)
{
	memset(bits, 0, mask_longs(an) * sizeof(unsigned long));
	for (int cpu = 0; cpu < an->nr_cpus; cpu++)
		if (cpu_truly_idle(an, cpu))
			bits[cpu / BITS_PER_UL] |= 1UL << (cpu % BITS_PER_UL);
}

static bool bit_test(const unsigned long *bits, int cpu)
{
	return bits[cpu / BITS_PER_UL] & (1UL << (cpu % BITS_PER_UL));
}

/* ---- placements and findings --------------------------------------------- */

/* comm arrays are all RQ_COMM_LEN bytes and NUL-terminated: a fixed copy is enough */
static void copy_comm(char *dst, const char *src)
{
	memcpy(dst, src, RQ_COMM_LEN);
	dst[RQ_COMM_LEN - 1] = '\0';
}


static bool task_is_idle_class(const struct rq_task *t)
{
	return t->policy == RQ_SCHED_IDLE || t->idle_cgroup;
}

static bool task_policy_known(const struct rq_task *t)
{
	return t->policy != RQ_POLICY_UNKNOWN || t->idle_cgroup;
}

/* RT and DL tasks show prio < 100 (DL: -1) in every sched event. */
static bool task_is_rt_or_dl(const struct rq_task *t)
{
	if (t->policy == RQ_SCHED_FIFO || t->policy == RQ_SCHED_RR ||
	    t->policy == RQ_SCHED_DEADLINE)
		return true;
	return t->prio != PRIO_UNKNOWN && t->prio < 100;
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

static void vappend(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t len = strlen(buf);

	if (len + 1 < size)
		vsnprintf(buf + len, size - len, fmt, ap);
}

/* Append printf-style text to buf (size bytes, NUL-terminated). */
static void append(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(buf, size, fmt, ap);
	va_end(ap);
}

/* Add a remark to a placement's explanation (only for the rarer remarks: see notes). */
static void why(struct rq_placement *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void why(struct rq_placement *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappend(p->why, sizeof(p->why), fmt, ap);
	va_end(ap);
}

/* Count a finding; keep the example if there is room.  Returns the example index or -1. */
static int add_finding(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
		       enum rq_finding f)
{
	struct rq_finding_store *s = &an->findings[f];

	p->findings |= 1u << f;
	/* emit() follows at once and gives it this number */
	if (!p->seq)
		p->seq = an->nr_placements + 1;
	s->count++;
	if (t)
		t->nr_findings[f]++;
	if (s->nexamples >= RQ_MAX_EXAMPLES)
		return -1;
	s->examples[s->nexamples] = *p;
	return s->nexamples++;
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
 * The first CPU other than x, allowed to t (and in x's LLC if asked), that is truly
 * idle now and was idle when the waking was seen (idle_before, if known); -1 if none.
 */
static int idle_allowed_cpu(const struct rq_analysis *an, const struct rq_task *t, int x,
			    bool in_llc, const unsigned long *idle_before)
{
	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		if (cpu == x || (in_llc && !same_llc(an, cpu, x)) ||
		    !rq_cpumask_test(&t->mask, cpu) || !cpu_truly_idle(an, cpu))
			continue;
		if (idle_before && !bit_test(idle_before, cpu))
			continue;
		return cpu;
	}
	return -1;
}

/*
 * idle-stacking (docs/design.md §3): a SCHED_IDLE task put on CPU x that runs only SCHED_IDLE
 * work while another allowed CPU was truly idle.  Judged only with every policy known.
 */
static void judge_idle_stacking(struct rq_analysis *an, struct rq_placement *p,
				struct rq_task *t, int x, const unsigned long *idle_before)
{
	const struct rq_cpu *c = &an->cpus[x];
	struct rq_task *curr;
	int idle_cpu = -1;

	if (!task_policy_known(t)) {
		an->findings[RQ_FIND_IDLE_STACKING].not_judged++;
		return;
	}
	if (!task_is_idle_class(t))
		return;
	if (c->known && c->curr == 0)
		return;		/* put on an idle CPU: nothing stacked */
	if (!t->mask_known || !c->known || c->curr < 0) {
		an->findings[RQ_FIND_IDLE_STACKING].not_judged++;
		return;
	}
	curr = rq_task_find(an, c->curr);
	if (!curr || !task_policy_known(curr)) {
		an->findings[RQ_FIND_IDLE_STACKING].not_judged++;
		return;
	}
	if (!task_is_idle_class(curr))
		return;
	/*
	 * Only the queued tasks count: a maybe-delayed blocked task may be gone already,
	 * and the kernel's choice of x suggests it was (sched_idle_rq() held).
	 */
	for (int i = 0; i < c->nqueued; i++) {
		struct rq_task *q = c->queued[i];

		if (q == t)
			continue;
		if (!q || !task_policy_known(q)) {
			an->findings[RQ_FIND_IDLE_STACKING].not_judged++;
			return;
		}
		if (!task_is_idle_class(q))
			return;
	}
	idle_cpu = idle_allowed_cpu(an, t, x, false, idle_before);
	if (idle_cpu < 0)
		return;
	why(p, "; CPU %d ran only SCHED_IDLE work (pid %d) while allowed CPU %d was idle",
	    x, c->curr, idle_cpu);
	add_finding(an, p, t, RQ_FIND_IDLE_STACKING);
}

/*
 * missed-idle (docs/design.md §3): a fair wakeup put on CPU x running a task while another
 * allowed CPU of x's LLC was truly idle, both when the waking was seen and now.
 */
static void judge_missed_idle(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			      int x, const unsigned long *idle_before)
{
	const struct rq_cpu *c = &an->cpus[x];
	struct rq_task *curr;
	int idle_cpu = -1;

	if (task_is_rt_or_dl(t))
		return;
	if (!t->mask_known || !c->known) {
		an->findings[RQ_FIND_MISSED_IDLE].not_judged++;
		return;
	}
	if (c->curr <= 0 || c->curr == t->pid)
		return;
	/* a CPU running only SCHED_IDLE work is idle-ish for the kernel (sched_idle_cpu) */
	curr = rq_task_find(an, c->curr);
	if (curr && task_is_idle_class(curr))
		return;
	idle_cpu = idle_allowed_cpu(an, t, x, true, idle_before);
	if (idle_cpu < 0)
		return;
	why(p, "; CPU %d was busy (pid %d) while CPU %d of the same LLC was idle", x, c->curr,
	    idle_cpu);
	add_finding(an, p, t, RQ_FIND_MISSED_IDLE);
}

/* ---- the stopper (migration/N) moves: resolved once we know what followed ---- */

static void resolve_stopper(struct rq_analysis *an, struct rq_task *t, bool by_exec)
{
	struct rq_placement *p = &t->stopper;

	if (!t->stopper_pending)
		return;
	t->stopper_pending = false;
	if (by_exec)
		return;	/* the exec handler emits it as exec-moved */
	if (t->affinity_change_ts && p->ts - t->affinity_change_ts < AFFINITY_WINDOW) {
		p->path = RQ_PATH_AFFINITY_STOPPER;
		p->conf = RQ_CONF_INFERRED;
		why(p, "; migration/%d moved it right after a sched_setaffinity on it", p->cpu);
	} else {
		p->path = RQ_PATH_LB_ACTIVE;
		p->conf = RQ_CONF_INFERRED;
		why(p, "; migration/%d moved it and no exec or affinity change followed: "
		    "active balance", p->cpu);
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
	if (t && comm[0] && memcmp(t->comm, comm, RQ_COMM_LEN))
		copy_comm(t->comm, comm);
}

static void handle_switch(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_cpu *c = &an->cpus[ev->cpu];
	struct rq_task *prev = task_get(an, ev->pid, ev->ts);
	struct rq_task *next;

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
	next->state = RQ_TS_RUNNING;
	next->cpu = ev->cpu;
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
		t->idle_at_waking = calloc(mask_longs(an), sizeof(unsigned long));
	if (t->idle_at_waking)
		snapshot_idle(an, t->idle_at_waking);
	t->waking = true;
	t->waking_cpu = ev->cpu;
	t->waker_pid = ev->common_pid;
	t->wake_migrated = false;
	if (t->cpu < 0 && valid_cpu(an, ev->cpu_a))
		t->cpu = ev->cpu_a;
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
	int from = t->wake_migrated ? t->wake_from : t->cpu;
	struct rq_placement p;
	enum rq_path path;
	enum rq_confidence conf;
	bool maybe_delayed;

	t->nr_wakeups++;
	if (t->pending_wake_cpu >= 0) {
		if (an->cpus[t->pending_wake_cpu].pending_wakeups > 0)
			an->cpus[t->pending_wake_cpu].pending_wakeups--;
		t->pending_wake_cpu = -1;
	}

	maybe_delayed = t->on_delayed && !t->wake_migrated && to == t->rq_cpu;
	if (t->state == RQ_TS_RUNNING || (t->state == RQ_TS_QUEUED && !t->wake_migrated)) {
		path = RQ_PATH_WAKE_RUNNABLE;
		conf = RQ_CONF_INFERRED;
	} else if (t->mask_known && rq_cpumask_weight(&t->mask) == 1) {
		path = RQ_PATH_WAKE_AFFINE;
		conf = RQ_CONF_EXACT;
	} else if (task_is_rt_or_dl(t)) {
		path = RQ_PATH_WAKE_RT;
		conf = RQ_CONF_EXACT;
	} else if (from < 0) {
		path = RQ_PATH_UNKNOWN;
		conf = RQ_CONF_UNKNOWN;
	} else if (to == from) {
		path = RQ_PATH_WAKE_PREV;
		conf = saw_waking ? RQ_CONF_EXACT : RQ_CONF_INFERRED;
	} else if (to == (saw_waking ? t->waking_cpu : ev->cpu)) {
		path = RQ_PATH_WAKE_PULLED;
		conf = RQ_CONF_INFERRED;
	} else if (same_llc(an, from, to)) {
		path = RQ_PATH_WAKE_LLC;
		conf = RQ_CONF_INFERRED;
	} else {
		path = RQ_PATH_WAKE_CROSS_LLC;
		conf = RQ_CONF_INFERRED;
	}
	placement_init(&p, ev, t, from, to, path, conf);
	if (saw_waking)
		p.writer_pid = t->waker_pid;
	if (!saw_waking && path != RQ_PATH_WAKE_RUNNABLE)
		p.notes |= RQ_NOTE_NO_WAKING;
	if (maybe_delayed && path != RQ_PATH_WAKE_RUNNABLE) {
		p.conf = RQ_CONF_INFERRED;
		p.notes |= RQ_NOTE_MAYBE_DELAYED;
		p.blocked_us = (uint32_t)((ev->ts - t->blocked_ts) / 1000);
	}

	if (path != RQ_PATH_WAKE_RUNNABLE && path != RQ_PATH_UNKNOWN) {
		judge_idle_stacking(an, &p, t, to, idle_before);
		judge_missed_idle(an, &p, t, to, idle_before);
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
	placement_init(&p, ev, t, parent_cpu, to, path, RQ_CONF_EXACT);
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
	if (to != parent_cpu && an->profile.fork_util_regression)
		why(&p, "; v6.4-v6.13 autogroup kernel: stale utilization of exited tasks "
		    "makes the parent's group look busy (76f970ce51c8)");
	if (to != parent_cpu) {
		int idx = add_finding(an, &p, t, RQ_FIND_OFFCPU_FORK);

		t->fork_example = idx;
	}
	judge_idle_stacking(an, &p, t, to, NULL);
	emit(an, &p);

	t->first_run_pending = true;
	t->fork_parent_cpu = parent_cpu;
	t->fork_ts = ev->ts;
	t->cpu = to;
	t->state = RQ_TS_QUEUED;
	rq_enqueue(an, t, to, false);
}

static bool is_stopper_thread(const struct rq_analysis *an, int pid)
{
	const struct rq_task *w = rq_task_find(an, pid);

	return w && !strncmp(w->comm, "migration/", 10);
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
	expire_stopper(an, t, ev->ts);
	resolve_stopper(an, t, false);
	queued = t->state == RQ_TS_QUEUED && !t->on_delayed;

	/* 1. inside a waking window on the waker's CPU: select_task_rq() of a wakeup */
	if (t->waking && ev->cpu == t->waking_cpu) {
		t->wake_migrated = true;
		t->wake_from = from;
		t->pending_wake_cpu = to;
		an->cpus[to].pending_wakeups++;
		t->cpu = to;
		return;	/* classified at sched_wakeup */
	}
	placement_init(&p, ev, t, from, to, RQ_PATH_UNKNOWN, RQ_CONF_INFERRED);
	if (t->numa_ts && ev->ts - t->numa_ts < NUMA_WINDOW) {
		/* a sched_move_numa/sched_swap_numa on this task just before */
		path = t->numa_swap ? RQ_PATH_NUMA_SWAP : RQ_PATH_NUMA_MOVE;
		t->numa_ts = 0;
	} else if (is_stopper_thread(an, ev->common_pid) && from == ev->cpu) {
		/* 2. migration/N: exec balance if an exec follows, else affinity or active LB */
		p.conf = RQ_CONF_INFERRED;
		t->stopper = p;
		t->stopper_pending = true;
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
	if (queued && path != RQ_PATH_UNKNOWN)
		judge_idle_stacking(an, &p, t, to, NULL);
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

	if (t->stopper_pending && ev->ts - t->stopper.ts <= STOPPER_EXEC_WINDOW) {
		p = t->stopper;
		resolve_stopper(an, t, true);
		p.ts = ev->ts;
		strlcpy(p.comm, t->comm, sizeof(p.comm));
		p.path = RQ_PATH_EXEC_MOVED;
		p.conf = RQ_CONF_EXACT;
		p.why[0] = '\0';
		why(&p, ": migration/%d moved it %d -> %d just before the exec", p.cpu,
		    p.from_cpu, p.to_cpu);
	} else {
		expire_stopper(an, t, ev->ts);
		if (t->mask_known && rq_cpumask_weight(&t->mask) == 1)
			path = RQ_PATH_EXEC_AFFINE;
		else if (task_is_rt_or_dl(t))
			path = RQ_PATH_EXEC_RT;
		else
			path = RQ_PATH_EXEC_LOCAL;
		placement_init(&p, ev, t, cpu, cpu, path,
			       path == RQ_PATH_EXEC_LOCAL ? RQ_CONF_INFERRED : RQ_CONF_EXACT);
	}

	/* needless-callback: sched_exec() asked the class although one CPU was allowed */
	if (!t->mask_known) {
		an->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown++;
		why(&p, "; allowed CPUs unknown at this exec: not judged");
		t->unknown_execs++;
	} else if (rq_cpumask_weight(&t->mask) == 1 && an->profile.exec_callback_unconditional) {
		why(&p, "; allowed on CPU %d only, yet sched_exec() called %s",
		    rq_cpumask_first(&t->mask),
		    task_is_rt_or_dl(t) ? "the RT/DL callback (cheap: returns the input CPU)" :
					  "select_task_rq_fair(WF_EXEC)");
		add_finding(an, &p, t, RQ_FIND_NEEDLESS_CALLBACK);
	}
	emit(an, &p);
	if (t->unknown_execs == 1 && !t->mask_known)
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
	if (t->pending_wake_cpu >= 0 && an->cpus[t->pending_wake_cpu].pending_wakeups > 0)
		an->cpus[t->pending_wake_cpu].pending_wakeups--;
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
			t->mask_known = false;
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
	t->mask_known = false;
	t->unknown_execs = 0;
	if (t->idle_cgroup) {
		t->idle_cgroup = false;
		t->policy = t->policy == RQ_SCHED_IDLE ? t->policy : RQ_POLICY_UNKNOWN;
	}
}

static void apply_cpu_marker(struct rq_analysis *an, const struct rq_marker *m)
{
	if (!valid_cpu(an, m->cpu))
		return;
	an->cpus[m->cpu].core = m->core;
	an->cpus[m->cpu].llc = valid_cpu(an, m->llc) ? m->llc : m->cpu;
	an->cpus[m->cpu].node = m->node;
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
	if (rq_cpumask_weight(&t->mask) != 1)
		return;
	if (an->profile.exec_callback_unconditional) {
		char *cut = strstr(p->why, "; allowed CPUs unknown");

		if (cut)
			*cut = '\0';
		why(p, "; allowed on CPU %d only (from the recorder's next marker for it), yet "
		    "sched_exec() called the class callback", rq_cpumask_first(&t->mask));
		add_finding(an, p, t, RQ_FIND_NEEDLESS_CALLBACK);
		s->count += n - 1;
		t->nr_findings[RQ_FIND_NEEDLESS_CALLBACK] += n - 1;
	}
	if (an->path_counts[RQ_PATH_EXEC_LOCAL] >= n) {
		an->path_counts[RQ_PATH_EXEC_LOCAL] -= n;
		an->path_counts[RQ_PATH_EXEC_AFFINE] += n;
	}
}

static void apply_task_marker(struct rq_analysis *an, const struct rq_marker *m, uint64_t ts)
{
	struct rq_task *t = task_get(an, m->pid, ts);

	if (!t)
		return;
	if (m->kind == RQ_MARK_TASK_GONE) {
		/* the task vanished before its /proc entry could be read */
		t->mask_known = false;
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
	settle_unknown_execs(an, t);
}

static void handle_marker(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_marker m;

	if (!ev->str || rq_marker_parse(ev->str, (size_t)ev->str_len, &m))
		return;
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
	c->lost_events += ev->arg > 0 ? (uint64_t)ev->arg : 1;
	/* what happened in the gap is unknown: so is this CPU's runqueue */
	cpu_clear_lists(an, ev->cpu);
	c->known = false;
	c->watched_since = 0;
	c->curr = -1;
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
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		/* without topology in the trace: one LLC, one core per CPU (said so) */
		an->cpus[cpu].curr = -1;
		an->cpus[cpu].llc = 0;
		an->cpus[cpu].core = cpu;
	}
	an->llc_source = RQ_LLC_ASSUMED;
	rq_profile_from_release(&an->profile, release && *release ? release : NULL);
	if (an->opts.profile_override &&
	    rq_profile_override(&an->profile, an->opts.profile_override, err, sizeof(err))) {
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
	free(an->task_hash);
	free(an->recent);
	free(an->exited_ring);
	rq_delay_free(an->delay);
	free(an);
}

static const char *const level_names[] = {
	[RQ_LEVEL_UNKNOWN] = "unknown (no topology in the trace)",
	[RQ_LEVEL_SMT] = "SMT level", [RQ_LEVEL_LLC] = "LLC (MC) level",
	[RQ_LEVEL_PKG] = "package level", [RQ_LEVEL_NUMA] = "NUMA level",
};

void rq_placement_describe(const struct rq_placement *p, char *buf, size_t size)
{
	if (!size)
		return;
	strlcpy(buf, rq_paths[p->path].summary, size);
	if (p->path == RQ_PATH_WAKE_PULLED)
		append(buf, size, " (CPU %d)", p->to_cpu);
	if (p->level != RQ_LEVEL_NONE && p->level <= RQ_LEVEL_NUMA)
		append(buf, size, "; deciding domain: %s", level_names[p->level]);
	if (p->notes & RQ_NOTE_PARENT_NOT_ALLOWED)
		append(buf, size, "; the parent's CPU is not allowed to the child");
	if (p->notes & RQ_NOTE_NO_WAKING)
		append(buf, size, "; no sched_waking seen: previous CPU from the model");
	if (p->notes & RQ_NOTE_MAYBE_DELAYED)
		append(buf, size, "; it blocked %.1f ms before: if still delay-dequeued, "
		       "ttwu_runnable() requeued it without a selection",
		       (double)p->blocked_us / 1e3);
	if (p->notes & RQ_NOTE_AFTER_LOSS)
		append(buf, size, "; in a gap after lost events: that CPU's runqueue was unknown");
	append(buf, size, "%s", p->why);
	if (!(p->findings & (1u << RQ_FIND_OFFCPU_FORK)))
		return;
	append(buf, size, "; parent's CPU %d %s; child ", p->from_cpu,
	       p->parent_cpu_idled < 0 ? "idle before the child ran: unknown" :
	       p->parent_cpu_idled ? "went idle before the child first ran" :
				     "stayed busy until the child first ran");
	if (p->child_lifetime_ns < 0)
		append(buf, size, "did not exit inside the trace");
	else
		append(buf, size, "exited after %.3f ms", (double)p->child_lifetime_ns / 1e6);
}
