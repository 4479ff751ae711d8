// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the model (docs/kernel.md §4): tasks and their attributes, per-CPU runqueues,
 * and the handlers of the events that only change it (switch, fork, exit, syscalls,
 * cgroups, markers, lost events).
 *
 * What the trace cannot show stays unknown: a task's affinity or policy is only known
 * from a marker (the recorder's /proc snapshot), inheritance at fork, or a
 * sched_setscheduler syscall whose value is in the trace; a CPU's runqueue is only
 * known after it was seen going idle.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "classify.h"
#include "cpubits.h"
#include "delay_store.h"
#include "engine.h"
#include "findings.h"
#include "markers.h"
#include "model.h"
#include "truth_model.h"

static void retire_task(struct rq_analysis *an, struct rq_task *t);

/* ---- tasks --------------------------------------------------------------- */

static unsigned int pid_hash(int pid, unsigned int size)
{
	return ((unsigned int)pid * 2654435761u) & (size - 1);
}

struct rq_task *rqe_task_find_hashed(const struct rq_analysis *an, int pid)
{
	struct rq_task *t;

	if (!an->tasks.task_hash)
		return NULL;
	for (t = an->tasks.task_hash[pid_hash(pid, an->tasks.task_hash_size)]; t; t = t->hnext)
		if (t->pid == pid)
			return t;
	return NULL;
}

int rqe_grow_hash(struct rq_analysis *an)
{
	unsigned int nsize = an->tasks.task_hash_size ? an->tasks.task_hash_size * 2 : 1024;
	struct rq_task **nh = calloc(nsize, sizeof(*nh));

	if (!nh)
		return -1;
	for (unsigned int i = 0; i < an->tasks.task_hash_size; i++) {
		struct rq_task *t = an->tasks.task_hash[i], *next;

		for (; t; t = next) {
			unsigned int b = pid_hash(t->pid, nsize);

			next = t->hnext;
			t->hnext = nh[b];
			nh[b] = t;
		}
	}
	free(an->tasks.task_hash);
	an->tasks.task_hash = nh;
	an->tasks.task_hash_size = nsize;
	return 0;
}

/* every cold field at its default: what a task without a cold part reads */
const struct rq_task_cold rqe_cold_none = {
	.fork_example = -1,
	.fork_parent_cpu = -1,
	.stopper_slot = -1,
	.stopper_later_slot = -1,
	.wake_move_slot = -1,
	.exec_slot = -1,
};

struct rq_task_cold *rqe_cold_new(struct rq_task *t)
{
	struct rq_task_cold *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = rqe_cold_none;
	t->cold = c;
	return c;
}

static void cold_free(struct rq_task *t)
{
	if (t->cold != &rqe_cold_none)
		free((struct rq_task_cold *)t->cold);
	t->cold = &rqe_cold_none;
}

static void task_init(struct rq_task *t, int pid, uint64_t ts)
{
	struct rq_task *hnext = t->hnext;
	const struct rq_cpumask *mask = t->mask;
	/* the CPUs naming this pid as running still do (cpubits.c) */
	int ncurr = t->ncurr, curr_cpu = t->curr_cpu, snap = t->snap;

	cold_free(t);
	memset(t, 0, sizeof(*t));
	t->cold = &rqe_cold_none;
	t->ncurr = ncurr;
	t->curr_cpu = curr_cpu;
	t->hnext = hnext;
	t->mask = mask;
	t->snap = snap;
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
	t->first_ts = ts;
	rqe_comm_changed(t);
}

/* ---- interned masks ---------------------------------------------------------- */

static struct rqe_mask *mask_entry(const struct rq_cpumask *m)
{
	return (struct rqe_mask *)m;	/* m is the first member */
}

static uint32_t mask_words_hash(const unsigned long *w, size_t n)
{
	uint64_t h = 0x9e3779b97f4a7c15ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ w[i]) * 0x100000001b3ULL;
	return (uint32_t)(h ^ (h >> 32));
}

int rqe_masks_init(struct rq_analysis *an)
{
	an->masks.masks_size = 64;
	an->masks.table = calloc(an->masks.masks_size, sizeof(*an->masks.table));
	an->masks.one_cpu = calloc((size_t)an->nr_cpus, sizeof(*an->masks.one_cpu));
	if (!an->masks.table || !an->masks.one_cpu ||
	    rq_cpumask_init(&an->masks.no_mask.m, an->nr_cpus) ||
	    rq_cpumask_init(&an->masks.scratch, an->nr_cpus))
		return -1;
	return 0;
}

void rqe_masks_free(struct rq_analysis *an)
{
	for (unsigned int b = 0; an->masks.table && b < an->masks.masks_size; b++) {
		struct rqe_mask *e = an->masks.table[b], *next;

		for (; e; e = next) {
			next = e->next;
			rq_cpumask_free(&e->m);
			free(e);
		}
	}
	free(an->masks.table);
	free(an->masks.one_cpu);
	rq_cpumask_free(&an->masks.no_mask.m);
	rq_cpumask_free(&an->masks.scratch);
	an->masks.table = NULL;
	an->masks.one_cpu = NULL;
}

static int masks_grow(struct rq_analysis *an)
{
	unsigned int nsize = an->masks.masks_size * 2;
	struct rqe_mask **nt = calloc(nsize, sizeof(*nt));

	if (!nt)
		return -1;
	for (unsigned int b = 0; b < an->masks.masks_size; b++) {
		struct rqe_mask *e = an->masks.table[b], *next;

		for (; e; e = next) {
			next = e->next;
			e->next = nt[e->hash & (nsize - 1)];
			nt[e->hash & (nsize - 1)] = e;
		}
	}
	free(an->masks.table);
	an->masks.table = nt;
	an->masks.masks_size = nsize;
	return 0;
}

const struct rq_cpumask *rqe_mask_intern(struct rq_analysis *an, const struct rq_cpumask *m)
{
	size_t n = rqe_mask_longs(an), size = n * sizeof(unsigned long);
	uint32_t h = mask_words_hash(m->bits, n);
	struct rqe_mask *e;

	for (e = an->masks.table[h & (an->masks.masks_size - 1)]; e; e = e->next)
		if (e->hash == h && !memcmp(e->m.bits, m->bits, size)) {
			e->refs++;
			return &e->m;
		}
	if (an->masks.nmasks >= an->masks.masks_size && masks_grow(an))
		return NULL;
	e = calloc(1, sizeof(*e));
	if (!e || rq_cpumask_init(&e->m, an->nr_cpus)) {
		free(e);
		return NULL;
	}
	memcpy(e->m.bits, m->bits, size);
	e->hash = h;
	e->refs = 1;
	e->next = an->masks.table[h & (an->masks.masks_size - 1)];
	an->masks.table[h & (an->masks.masks_size - 1)] = e;
	an->masks.nmasks++;
	return &e->m;
}

void rqe_mask_put(struct rq_analysis *an, const struct rq_cpumask *m)
{
	struct rqe_mask *e = mask_entry(m), **pp;

	if (!m || m == &an->masks.no_mask.m || --e->refs)
		return;
	for (pp = &an->masks.table[e->hash & (an->masks.masks_size - 1)]; *pp; pp = &(*pp)->next)
		if (*pp == e) {
			*pp = e->next;
			break;
		}
	an->masks.nmasks--;
	rq_cpumask_free(&e->m);
	free(e);
}

int rqe_task_set_mask(struct rq_analysis *an, struct rq_task *t, const struct rq_cpumask *m)
{
	const struct rq_cpumask *nm = rqe_mask_intern(an, m);

	rqe_mask_put(an, t->mask);
	t->mask = nm ? nm : &an->masks.no_mask.m;
	return nm ? 0 : -1;
}

void rqe_task_share_mask(struct rq_analysis *an, struct rq_task *t, const struct rq_task *src)
{
	if (src->mask != &an->masks.no_mask.m)
		mask_entry(src->mask)->refs++;
	rqe_mask_put(an, t->mask);
	t->mask = src->mask;
}

void rqe_task_drop_mask(struct rq_analysis *an, struct rq_task *t)
{
	rqe_mask_put(an, t->mask);
	t->mask = &an->masks.no_mask.m;
}

struct rq_task *const rqe_no_pid_page[RQ_PID_PAGE];

/* The slot of pid in the direct index, its page allocated if needed; NULL if none. */
static struct rq_task **pid_slot(struct rq_analysis *an, int pid, bool alloc)
{
	struct rq_task ***page;

	if (pid <= 0 || pid >= RQ_PID_LIMIT)
		return NULL;
	page = &an->tasks.pid_pages[pid / RQ_PID_PAGE];
	if (*page == rqe_no_pid_page) {
		struct rq_task **np = alloc ? calloc(RQ_PID_PAGE, sizeof(**page)) : NULL;

		if (!np)
			return NULL;
		*page = np;
	}
	return &(*page)[pid % RQ_PID_PAGE];
}

/* Point pid's entry of the index at t, counting the entries its page holds. */
static void pid_slot_set(struct rq_analysis *an, struct rq_task **slot, int pid,
			 struct rq_task *t)
{
	if (!*slot)
		an->tasks.pid_page_used[pid / RQ_PID_PAGE]++;
	*slot = t;
}

/* Forget t in the index if its entry is t's, and free a page left with no task. */
static void pid_slot_clear(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_task **slot = pid_slot(an, t->pid, false);
	int pg;

	if (!slot || *slot != t)
		return;
	*slot = NULL;
	pg = t->pid / RQ_PID_PAGE;
	if (!--an->tasks.pid_page_used[pg]) {
		free(an->tasks.pid_pages[pg]);
		an->tasks.pid_pages[pg] = (struct rq_task **)rqe_no_pid_page;
	}
}

/*
 * Tasks live in chunks, not one malloc each: malloc puts a task anywhere on 16 bytes with
 * its 8-byte header between tasks.  The slots are the task's own 152 bytes, not padded:
 * slots of 160 on 32-byte boundaries (2 or 3 lines for the first 128 bytes) save 0.1 D1
 * miss an event at 256 CPUs (cachegrind) but cost 8 bytes a task, and a live task (its
 * slot, its share of the hash at a load of two) stays within 200 bytes of peak RSS
 * (docs/performance.md).  Under AddressSanitizer a free slot is poisoned, so a use of an
 * evicted task is still caught.
 */
#define RQE_TASK_CHUNK 256
struct rqe_task_slot {
	union {
		struct rq_task t;
		struct rqe_task_slot *next_free;
	};
};
struct rqe_task_chunk {
	struct rqe_task_slot slot[RQE_TASK_CHUNK];
	struct rqe_task_chunk *next;
} __attribute__((aligned(64)));

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define slot_poison(s) ASAN_POISON_MEMORY_REGION(&(s)->t, sizeof(struct rq_task))
#define slot_unpoison(s) ASAN_UNPOISON_MEMORY_REGION(&(s)->t, sizeof(struct rq_task))
#else
#define slot_poison(s) ((void)(s))
#define slot_unpoison(s) ((void)(s))
#endif

/* A zeroed task; NULL out of memory. */
static struct rq_task *task_alloc(struct rq_analysis *an)
{
	struct rqe_task_slot *s = an->tasks.task_free;

	if (s) {
		slot_unpoison(s);
		an->tasks.task_free = s->next_free;
	} else {
		if (!an->tasks.task_chunks || an->tasks.task_chunk_used == RQE_TASK_CHUNK) {
			struct rqe_task_chunk *c = aligned_alloc(64, sizeof(*c));

			if (!c)
				return NULL;
			c->next = an->tasks.task_chunks;
			an->tasks.task_chunks = c;
			an->tasks.task_chunk_used = 0;
		}
		s = &an->tasks.task_chunks->slot[an->tasks.task_chunk_used++];
	}
	memset(&s->t, 0, sizeof(s->t));
	return &s->t;
}

static void task_release(struct rq_analysis *an, struct rq_task *t)
{
	struct rqe_task_slot *s = (struct rqe_task_slot *)t;

	s->next_free = an->tasks.task_free;
	an->tasks.task_free = s;
	slot_poison(s);
}

void rqe_tasks_free(struct rq_analysis *an)
{
	while (an->tasks.task_chunks) {
		struct rqe_task_chunk *c = an->tasks.task_chunks;

		an->tasks.task_chunks = c->next;
		/* the free slots are poisoned: free() does not mind */
		free(c);
	}
	an->tasks.task_free = NULL;
}

struct rq_task *rqe_task_new(struct rq_analysis *an, int pid, uint64_t ts)
{
	struct rq_task *t, **slot;
	unsigned int b;

	if (an->tasks.nr_tasks >= 2 * an->tasks.task_hash_size && rqe_grow_hash(an))
		return NULL;
	slot = pid_slot(an, pid, true);
	if (!slot && pid < RQ_PID_LIMIT)
		return NULL;
	t = task_alloc(an);
	if (!t)
		return NULL;
	t->mask = &an->masks.no_mask.m;
	t->cold = &rqe_cold_none;
	if (slot)
		pid_slot_set(an, slot, pid, t);
	t->curr_cpu = -1;
	t->snap = -1;
	task_init(t, pid, ts);
	b = pid_hash(pid, an->tasks.task_hash_size);
	t->hnext = an->tasks.task_hash[b];
	an->tasks.task_hash[b] = t;
	an->tasks.nr_tasks++;
	rqe_task_created(an, t);
	return t;
}

int rqe_task_foreach(const struct rq_analysis *an, int (*fn)(const struct rq_task *, void *),
		    void *data)
{
	for (unsigned int i = 0; i < an->tasks.task_hash_size; i++)
		for (struct rq_task *t = an->tasks.task_hash[i]; t; t = t->hnext) {
			int ret = fn(t, data);

			if (ret)
				return ret;
		}
	return 0;
}

/* ---- per-CPU runqueue model (docs/kernel.md §4) ----------------------- */

/* The per-CPU lists only ever grow, and rarely: out of the inline rqe_enqueue(). */
int rqe_list_grow(struct rq_cpu *c, bool delayed)
{
	struct rq_task ***list = delayed ? &c->delayed : &c->queued;
	unsigned int cap = delayed ? c->delayed_cap : c->queued_cap;
	/* 8 to start with, then twice as many; 1 << 30 tasks is past any memory */
	unsigned int ncap = cap ? cap + 1 : 3;
	struct rq_task **nl;

	if (ncap > 30)
		return -1;
	nl = reallocarray(*list, (size_t)1 << ncap, sizeof(**list));
	if (!nl)
		return -1;
	*list = nl;
	if (delayed)
		c->delayed_cap = ncap;
	else
		c->queued_cap = ncap;
	return 0;
}

/* Forget what a CPU holds: after lost events, or when it is seen going idle. */
static void cpu_clear_lists(struct rq_analysis *an, int cpu)
{
	struct rq_cpu *c = &an->cpus[cpu];

	rqe_cpu_dirty(an, cpu);
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
		rqe_remove(an, t);
	}
}

/* ---- task attributes: facts first, then stated assumptions ------------------ */

/*
 * Per-CPU kthreads carry their CPU in their name and are bound to it
 * (kthread_bind / kthread_create_on_cpu).  One list, documented in rqpath-paths(7).
 * Returns N, or -1 when comm is not one of them.
 */
int rqe_percpu_kthread_cpu(const char *comm)
{
#define P(s) { s, sizeof(s) - 1 }
	static const struct {
		const char *s;
		size_t n;
	} prefixes[] = {
		P("kworker/"), P("ksoftirqd/"), P("migration/"), P("cpuhp/"), P("rcuc/"),
		P("idle_inject/"), P("watchdog/"), P("irq_work/"), P("ktimers/"), P("posixcputmr/"),
	};
#undef P

	/*
	 * Every new task and every rename asks (a fork storm is many): the lengths are
	 * constants, and the first letter rules out most prefixes before strncmp()
	 */
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t n = prefixes[i].n;
		const char *s = comm + n;
		long cpu = 0;

		if (comm[0] != prefixes[i].s[0] || strncmp(comm, prefixes[i].s, n) ||
		    *s < '0' || *s > '9')
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

/*
 * The set of cpu alone, kept by the analysis from its first use on (a per-CPU kthread's
 * assumed mask); NULL when out of memory.  rqe_task_mask_unknown() reads a const
 * analysis: this is its one write, a cache.
 */
static __attribute__((noinline)) const struct rq_cpumask *
one_cpu_mask(const struct rq_analysis *can, int cpu)
{
	struct rq_analysis *an = (struct rq_analysis *)can;

	rq_cpumask_clear(&an->masks.scratch);
	rq_cpumask_set(&an->masks.scratch, cpu);
	an->masks.one_cpu[cpu] = rqe_mask_intern(an, &an->masks.scratch);
	return an->masks.one_cpu[cpu];
}

const struct rq_cpumask *rqe_task_mask_unknown(const struct rq_analysis *an,
					       const struct rq_task *t, unsigned int *assume)
{
	int cpu;

	/* a change in the trace whose value the trace does not hold: nothing to assume */
	if (t->mask_changed || an->facts.has_markers)
		return NULL;
	cpu = t->kthread_cpu;
	if (cpu >= 0 && cpu < an->nr_cpus && (an->masks.one_cpu[cpu] || one_cpu_mask(an, cpu))) {
		*assume |= 1u << RQ_ASSUME_PERCPU_KTHREAD;
		return an->masks.one_cpu[cpu];
	}
	*assume |= 1u << RQ_ASSUME_MASK_ALL;
	return &an->masks.all_cpus;
}

/* ---- what the kernel would see on a CPU ------------------------------------- */

/* Count q into l; true when q is not SCHED_IDLE work by its known policy. */
static bool look_task(const struct rq_analysis *an, const struct rq_task *q, struct cpu_look *l)
{
	int cls = rqe_idle_class(an, q, &l->assume);

	l->ntasks++;
	if (cls == 0)
		l->nonidle++;
	else if (cls < 0)
		l->unknown++;
	return cls == 0 && q->policy != RQ_POLICY_UNKNOWN;
}

/* rqe_look_cpu() past its common case: scan the CPU's running and queued tasks. */
void rqe_look_cpu_scan(const struct rq_analysis *an, int cpu, const struct rq_task *skip,
		       struct cpu_look *l, bool busy_enough)
{
	const struct rq_cpu *c = &an->cpus[cpu];
	unsigned int ignored = 0;

	memset(l, 0, sizeof(*l));
	l->known = c->known && c->curr >= 0;
	if (!l->known)
		return;
	if (c->watched && !c->last_idle_ts)
		l->assume |= 1u << RQ_ASSUME_CPU_WATCHED;
	l->pending = c->pending_wakeups > 0;
	if (c->curr > 0 && (!skip || c->curr != skip->pid) &&
	    look_task(an, c->curr_task, l) && busy_enough)
		return;
	for (int i = 0; i < c->nqueued; i++)
		if (c->queued[i] != skip && look_task(an, c->queued[i], l) && busy_enough)
			return;
	/* a blocked task counts as maybe delayed for DELAYED_WINDOW (pruning is lazy) */
	for (int i = 0; i < c->ndelayed; i++) {
		const struct rq_task *d = c->delayed[i];

		if (d != skip && an->stats.last_ts - d->blocked_ts <= DELAYED_WINDOW &&
		    rqe_idle_class(an, d, &ignored) != 1)
			l->delayed_nonidle++;
	}
	l->idle = !l->ntasks && !l->pending && c->curr == 0;
}

/*
 * Busy for the kernel: neither idle_cpu() nor sched_idle_cpu().  A task whose policy
 * is unknown counts as not SCHED_IDLE (RQ_ASSUME_POLICY_PRIO); a CPU with a wakeup
 * pending and nothing running is not idle.
 */
bool rqe_look_busy(const struct cpu_look *l, unsigned int *assume)
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

/* ---- event handlers -------------------------------------------------------- */

/*
 * A CPU whose runqueue is unknown (never seen idle, not watched long enough, or after
 * lost events) but whose running task is known: that task alone makes the CPU busy for
 * the kernel, unless it is SCHED_IDLE work (or may be: its policy unknown, which counts
 * as not SCHED_IDLE under policy-from-prio, as rqe_look_busy() does).  Fills l as
 * rqe_look_cpu(busy_enough) would for a known runqueue.
 */
bool rqe_runner_busy(const struct rq_analysis *an, int cpu, const struct rq_task *skip,
		     struct cpu_look *l)
{
	const struct rq_cpu *c = &an->cpus[cpu];
	const struct rq_task *q;

	if (c->curr <= 0 || (skip && c->curr == skip->pid))
		return false;
	q = c->curr_task;	/* rqe_task_find(curr) without the index's line */
	memset(l, 0, sizeof(*l));
	if (!q || rqe_task_is_idle_class(q))
		return false;
	l->known = true;
	l->pending = c->pending_wakeups > 0;
	look_task(an, q, l);
	return true;
}

void rqe_note_comm(struct rq_task *t, const char *comm)
{
	/* the same name, the common case by far, first: a few calls per event */
	if (!t || !memcmp(t->comm, comm, RQ_COMM_LEN) || !comm[0])
		return;
	/*
	 * a new name after a stopper move: exec evidence (begin_new_exec() renames), unless
	 * sched_prepare_exec said an exec is under way: its own record follows
	 */
	if (t->stopper_pending && t->comm[0] && !t->cold->exec_prepared)
		rqe_cold_if(t)->stopper_comm_changed = true;	/* a held move: it has one */
	rqe_copy_comm(t->comm, comm);
	rqe_comm_changed(t);
}

void rqe_comm_changed(struct rq_task *t)
{
	t->kthread_cpu = rqe_percpu_kthread_cpu(t->comm);
	t->stop_class = t->comm[0] == 'm' && !strncmp(t->comm, "migration/", 10);
}

/*
 * The stopper (migration/N, a stop-class task) is known by its name alone in a trace:
 * tracepoints carry no class and no kernel-thread flag, and any task may take that name
 * (prctl PR_SET_NAME).  The kernel's stopper is SCHED_FIFO and bound to its one CPU;
 * whatever is known of t that says otherwise (a truth record's policy or allowed CPUs,
 * a policy or a mask of several CPUs from the markers or syscalls, runs seen on two
 * CPUs) makes it a task like any other that took the name, until its next rename.
 */
bool rqe_is_stopper(struct rq_task *t, const struct rq_truth_rec *tr)
{
	if (!t->stop_class)
		return false;
	if ((tr && (tr->policy != RQ_SCHED_FIFO || tr->nr_cpus_allowed != 1)) ||
	    (t->policy != RQ_POLICY_UNKNOWN && t->policy != RQ_SCHED_FIFO) ||
	    (t->mask_known && !rq_cpumask_single(t->mask)) || t->seen_multi) {
		t->stop_class = false;
		return false;
	}
	return true;
}

/* A wakeup on its way to a CPU makes it not idle for the kernel (rq->ttwu_pending). */
void rqe_clear_pending(struct rq_analysis *an, struct rq_task *t)
{
	int cpu = t->pending_wake_cpu;

	if (cpu < 0)
		return;
	if (rqe_valid_cpu(an, cpu) && an->cpus[cpu].pending_wakeups > 0) {
		an->cpus[cpu].pending_wakeups--;
		rqe_cpu_dirty(an, cpu);
	}
	t->pending_wake_cpu = -1;
}

void rqe_set_pending(struct rq_analysis *an, struct rq_task *t, int cpu)
{
	rqe_clear_pending(an, t);
	if (!rqe_valid_cpu(an, cpu))
		return;
	an->cpus[cpu].pending_wakeups++;
	rqe_cpu_dirty(an, cpu);
	t->pending_wake_cpu = cpu;
}

/*
 * t stopped running on cpu and the trace does not show when: its switch-out is missing
 * (the next record there has another owner, or a switch names another prev) or was lost.
 * It may have blocked (and stay delay-dequeued there) as late as ts, the first sign that
 * it no longer ran: only the CPU going idle after ts proves a later wakeup selected.
 */
void rqe_left_unseen(struct rq_task *t, int cpu, uint64_t ts)
{
	if (t->state == RQ_TS_RUNNING)
		t->state = RQ_TS_UNKNOWN;
	t->blocked_ts = ts;
	t->blocked_cpu = cpu;
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
	if (t->mask_known && !rq_cpumask_test(t->mask, cpu)) {
		an->quality.mask_violations++;
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
void rqe_repair_from_owner(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_cpu *c = &an->cpus[ev->cpu];
	int owner = ev->common_pid;
	struct rq_task *t;

	if (!rq_event_shows_runner(ev))
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
		if (!c->curr) {
			c->idle_repairs++;
			c->idle_repaired = true;
		}
		t = c->curr > 0 ? rqe_task_find(an, c->curr) : NULL;
		/* it switched out unseen: blocked or preempted, nobody knows */
		if (t && t->state == RQ_TS_RUNNING)
			rqe_left_unseen(t, ev->cpu, ev->ts);
	}
	if (!owner) {
		rqe_set_curr(an, ev->cpu, 0, NULL);
		/* the idle task runs: nothing was runnable here */
		cpu_clear_lists(an, ev->cpu);
		c->known = true;
		c->last_idle_ts = ev->ts;
		return;
	}
	t = rqe_task_get(an, owner, ev->ts);
	rqe_set_curr(an, ev->cpu, owner, t);
	if (!t)
		return;
	rqe_remove(an, t);
	rqe_clear_pending(an, t);
	t->state = RQ_TS_RUNNING;
	note_running(an, t, ev->cpu);
}

void rqe_handle_switch(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_cpu *c = &an->cpus[ev->cpu];
	struct rq_task *prev, *next;

	/* prev is nearly always the CPU's curr: its task without the pid index's line */
	if (ev->pid > 0 && ev->pid == c->curr && c->curr_task)
		prev = c->curr_task;
	else
		prev = rqe_task_get(an, ev->pid, ev->ts);

	/*
	 * The switch names who ran: the model should have said the same.  The idle task
	 * where a task switches out is a switch out of idle the trace lacks (the task wrote
	 * nothing before its own switch): a repair like those from common_pid.
	 */
	if (c->curr == 0 && ev->pid > 0) {
		c->repairs++;
		c->idle_repairs++;
		c->idle_repaired = true;
	} else if (c->curr >= 0 && c->curr != ev->pid) {
		struct rq_task *gone = c->curr > 0 ? rqe_task_find(an, c->curr) : NULL;

		c->switch_mismatches++;
		if (gone && gone->state == RQ_TS_RUNNING)
			rqe_left_unseen(gone, ev->cpu, ev->ts);
	}
	c->trailing_prev = ev->pid;
	if (!ev->pid)
		c->last_idle_ts = ev->ts;	/* the idle task ran until now */
	if (prev) {
		rqe_note_comm(prev, ev->comm);
		prev->prio = rqe_prio(ev->prio);
		rqe_expire_stopper(an, prev, ev->ts);
		rqe_resolve_wake_move(an, prev);
		/* prev_state 0 (R) or TASK_REPORT_MAX alone (R+, preempted): still runnable */
		if (!(ev->state & 0xff)) {
			/* preempted, possibly while exiting: still queued */
			prev->state = RQ_TS_QUEUED;
			rqe_enqueue(an, prev, ev->cpu, false);
		} else if (ev->state & 0x30 || (prev->exited && ev->state & 0x40)) {
			/* X or Z (TASK_DEAD, 0x40, on kernels before 4.14): its last switch */
			retire_task(an, prev);
		} else {
			prev->state = RQ_TS_SLEEPING;
			/* DELAY_DEQUEUE (v6.12+) may leave a blocked fair task enqueued */
			prev->blocked_ts = ev->ts;
			prev->blocked_cpu = ev->cpu;
			if (!rqe_task_is_rt_or_dl(prev))
				rqe_enqueue(an, prev, ev->cpu, true);
			else
				rqe_remove(an, prev);
		}
		prev->cpu = ev->cpu;
	}
	prune_delayed(an, ev->cpu, ev->ts);
	if (!c->known) {
		if (!c->watched_since) {
			c->watched_since = ev->ts;
			c->watched = c->watched_since != 0;
		} else if (ev->ts - c->watched_since >= CPU_KNOWN_AFTER) {
			c->known = true;
		}
		rqe_cpu_dirty(an, ev->cpu);
	}
	if (ev->pid2 == 0) {
		/* going idle: the runqueue is provably empty from here on */
		cpu_clear_lists(an, ev->cpu);
		rqe_set_curr(an, ev->cpu, 0, NULL);
		c->known = true;
		c->last_idle_ts = ev->ts;
		return;
	}
	next = rqe_task_get(an, ev->pid2, ev->ts);
	rqe_set_curr(an, ev->cpu, ev->pid2, next);
	if (!next)
		return;
	rqe_note_comm(next, ev->comm2);
	next->prio = rqe_prio(ev->prio2);
	/* it runs without a sched_wakeup: a move held as its wakeup's was not */
	rqe_resolve_wake_move(an, next);
	next->fork_selecting = false;
	rqe_remove(an, next);
	rqe_clear_pending(an, next);
	next->state = RQ_TS_RUNNING;
	note_running(an, next, ev->cpu);
}

void rqe_copy_attrs(struct rq_analysis *an, struct rq_task *child, const struct rq_task *parent)
{
	child->policy = parent->policy;
	child->idle_cgroup = parent->idle_cgroup;
	child->mask_known = parent->mask_known;
	child->mask_changed = parent->mask_changed;
	if (parent->mask_known)
		rqe_task_share_mask(an, child, parent);
	rqe_task_class_changed(an, child);
}

void rqe_handle_fork(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *parent = rqe_task_get(an, ev->pid, ev->ts);
	struct rq_task *child = rqe_task_get(an, ev->pid2, ev->ts);

	if (!child)
		return;
	/* pid reuse: forget whatever an earlier task with this pid left behind */
	rqe_remove(an, child);
	rqe_clear_pending(an, child);
	if (rqe_cold_if(child)) {
		rqe_release(an, &rqe_cold_if(child)->stopper_slot);
		rqe_release(an, &rqe_cold_if(child)->stopper_later_slot);
		rqe_release(an, &rqe_cold_if(child)->wake_move_slot);
	}
	rqe_snap_put(an, child);
	rqe_unknown_execs_stay(an, child);
	rqe_delay_task_gone(an, child);
	task_init(child, ev->pid2, ev->ts);
	/* wake_up_new_task() selects its CPU next (a move then is the fork's, < v4.1) */
	child->fork_selecting = true;
	rqe_note_comm(child, ev->comm2);
	if (parent) {
		rqe_note_comm(parent, ev->comm);
		struct rq_task_cold *cc = rqe_cold(child);

		rqe_task_count(parent, nr_forks, 1);
		if (cc)
			cc->ppid = parent->pid;
		child->prio = parent->prio;
		rqe_copy_attrs(an, child, parent);
		/* SCHED_RESET_ON_FORK is invisible: an RT/DL parent's child may be NORMAL */
		if (rqe_task_is_rt_or_dl(parent))
			child->policy = RQ_POLICY_UNKNOWN;
	}
	/* a pid reused: the task's class is the new one's */
	rqe_task_class_changed(an, child);
}

void rqe_handle_exit(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_find(an, ev->pid);

	if (!t)
		return;
	rqe_note_comm(t, ev->comm);
	rqe_resolve_stopper(an, t, false);
	t->exited = true;
	if (rqe_cold(t))
		rqe_cold_if(t)->exit_ts = ev->ts;
	rqe_fork_child_gone(an, t);
}

static void evict_task(struct rq_analysis *an, struct rq_task *t)
{
	unsigned int b = pid_hash(t->pid, an->tasks.task_hash_size);
	struct rq_task **pp = &an->tasks.task_hash[b];

	rqe_resolve_stopper(an, t, false);
	rqe_resolve_wake_move(an, t);
	rqe_unknown_execs_stay(an, t);
	rqe_remove(an, t);
	rqe_clear_pending(an, t);
	while (*pp && *pp != t)
		pp = &(*pp)->hnext;
	if (*pp)
		*pp = t->hnext;
	pid_slot_clear(an, t);
	rqe_task_evicted(an, t);
	rqe_delay_task_gone(an, t);
	rqe_task_drop_mask(an, t);
	rqe_snap_put(an, t);
	cold_free(t);
	task_release(an, t);
	an->tasks.nr_tasks--;
	an->tasks.nr_tasks_evicted++;
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
	rqe_remove(an, t);
	if (t->retired)
		return;
	t->retired = true;
	if (!an->tasks.exited_ring) {
		an->tasks.exited_ring = calloc(EXITED_KEEP, sizeof(int));
		if (!an->tasks.exited_ring) {
			evict_task(an, t);
			return;
		}
	}
	if (an->tasks.nr_exited_kept == EXITED_KEEP) {
		old = rqe_task_find(an, an->tasks.exited_ring[an->tasks.exited_head]);
		/*
		 * the pid may belong to a new task by now: only a dead one goes, and not t
		 * (its pid's earlier task was reused by a fork: the entry is stale)
		 */
		if (old && old->retired && old != t)
			evict_task(an, old);
		an->tasks.exited_head = (an->tasks.exited_head + 1) % EXITED_KEEP;
		an->tasks.nr_exited_kept--;
	}
	an->tasks.exited_ring[(an->tasks.exited_head + an->tasks.nr_exited_kept) % EXITED_KEEP] =
		t->pid;
	an->tasks.nr_exited_kept++;
}

void rqe_handle_free(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_find(an, ev->pid);

	if (t)
		retire_task(an, t);
}

static struct rq_task *syscall_target(struct rq_analysis *an, const struct rq_event *ev,
				      int pid)
{
	return rqe_task_get(an, pid > 0 ? pid : ev->common_pid, ev->ts);
}

void rqe_handle_syscall(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *caller = rqe_task_get(an, ev->common_pid, ev->ts);
	struct rq_task_cold *cc, *tc;
	struct rq_task *t;

	if (!caller)
		return;
	switch (ev->type) {
	case RQ_EV_SETAFFINITY_ENTER:
	case RQ_EV_SETSCHED_ENTER:
	case RQ_EV_SETATTR_ENTER:
		cc = rqe_cold(caller);
		if (!cc)
			return;
		cc->inflight_target = ev->pid > 0 ? ev->pid : ev->common_pid;
		cc->inflight_policy = ev->type == RQ_EV_SETSCHED_ENTER ? ev->arg : -1;
		t = syscall_target(an, ev, ev->pid);
		if (t && ev->type == RQ_EV_SETAFFINITY_ENTER && (tc = rqe_cold(t))) {
			tc->setaffinity_inflight = true;
			tc->affinity_change_ts = ev->ts;
			/* execs before this change stay unknown: no later marker describes them */
			rqe_unknown_execs_stay(an, t);
		}
		return;
	default:
		break;
	}
	t = caller->cold->inflight_target ? rqe_task_find(an, caller->cold->inflight_target) : NULL;
	if (!t)
		return;
	if (ev->type == RQ_EV_SETAFFINITY_EXIT) {
		if (rqe_cold_if(t))
			rqe_cold_if(t)->setaffinity_inflight = false;
		/* the new mask is not in the trace; a recorder marker may follow with it */
		if (ev->arg == 0)
			mask_forget(t);
	} else if (ev->type == RQ_EV_SETSCHED_EXIT && ev->arg == 0) {
		long long policy = caller->cold->inflight_policy & ~(long long)SCHED_RESET_ON_FORK;

		t->policy = (policy >= 0 && policy <= 7 && policy != 4) ? (int)policy :
									    RQ_POLICY_UNKNOWN;
	} else if (ev->type == RQ_EV_SETATTR_EXIT && ev->arg == 0) {
		t->policy = RQ_POLICY_UNKNOWN;	/* the attr struct is not in the trace */
	}
	rqe_task_class_changed(an, t);
	/* the target was found through the caller's cold part: it has one */
	rqe_cold_if(caller)->inflight_policy = -1;
}

void rqe_handle_numa(struct rq_analysis *an, const struct rq_event *ev)
{
	/* mark the task(s) so that the stopper move that follows is attributed to NUMA */
	int pids[2] = { ev->pid, ev->type == RQ_EV_SWAP_NUMA ? ev->pid2 : 0 };

	for (int i = 0; i < 2; i++) {
		struct rq_task *t = pids[i] > 0 ? rqe_task_get(an, pids[i], ev->ts) : NULL;

		if (!t || !rqe_cold(t))
			continue;
		rqe_cold_if(t)->numa_ts = ev->ts;
		rqe_cold_if(t)->numa_swap = ev->type == RQ_EV_SWAP_NUMA;
	}
}

/*
 * Moving to another cgroup can change the allowed CPUs (cpuset) and whether the task
 * counts as SCHED_IDLE (cpu.idle): unknown until the recorder's marker says.
 */
void rqe_handle_cgroup_attach(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_task *t = rqe_task_get(an, ev->pid, ev->ts);

	if (!t)
		return;
	mask_forget(t);
	rqe_unknown_execs_stay(an, t);
	if (t->idle_cgroup) {
		t->idle_cgroup = false;
		t->policy = t->policy == RQ_SCHED_IDLE ? t->policy : RQ_POLICY_UNKNOWN;
		rqe_task_class_changed(an, t);
	}
}

static void apply_cpu_marker(struct rq_analysis *an, const struct rq_marker *m)
{
	/* --topology was given: the user's word wins over what the recording says */
	if (!rqe_valid_cpu(an, m->cpu) || an->facts.llc_source == RQ_LLC_OPTION)
		return;
	an->cpus[m->cpu].core = m->core;
	an->cpus[m->cpu].llc = rqe_valid_cpu(an, m->llc) ? m->llc : m->cpu;
	an->bits.llc_stale = true;
	an->cpus[m->cpu].node = m->node;
	if (m->capacity > 0) {
		if (!an->facts.capacity_source || strcmp(an->facts.capacity_source, "option")) {
			/* the recorder's word replaces what the kernel's events suggested */
			if (an->facts.capacity_source &&
			    !strcmp(an->facts.capacity_source, "eas-events"))
				an->facts.asym_capacity = false;
			an->facts.capacity_source = "trace";
		}
		an->cpus[m->cpu].capacity = m->capacity;
		for (int c = 0; c < an->nr_cpus; c++)
			if (an->cpus[c].capacity && an->cpus[c].capacity != m->capacity)
				an->facts.asym_capacity = true;
	}
	an->facts.has_topology = true;
	an->facts.llc_source = !strcmp(m->llc_src, "cache") ? RQ_LLC_CACHE :
			 !strcmp(m->llc_src, "package") ? RQ_LLC_PACKAGE : RQ_LLC_ASSUMED;
}

static void apply_task_marker(struct rq_analysis *an, const struct rq_marker *m, uint64_t ts)
{
	struct rq_task *t = rqe_task_get(an, m->pid, ts);

	if (!t)
		return;
	if (m->kind == RQ_MARK_TASK_GONE) {
		/* the task vanished before its /proc entry could be read */
		mask_forget(t);
		return;
	}
	if (m->tgid > 0 && m->tgid == t->pid) {
		t->tgid_self = true;
	} else if (m->tgid > 0 && rqe_cold(t)) {
		t->tgid_self = false;
		rqe_cold_if(t)->tgid = m->tgid;
	}
	if (m->comm[0]) {
		strlcpy(t->comm, m->comm, sizeof(t->comm));
		rqe_comm_changed(t);
	}
	t->policy = m->policy >= 0 ? m->policy : RQ_POLICY_UNKNOWN;
	t->idle_cgroup = m->idle_cg > 0;
	rqe_task_class_changed(an, t);
	t->mask_known = strcmp(m->cpulist, "?") &&
			!rq_cpumask_parse(&an->masks.scratch, m->cpulist) &&
			rq_cpumask_weight(&an->masks.scratch) > 0 &&
			!rqe_task_set_mask(an, t, &an->masks.scratch);
	if (t->mask_known) {
		t->mask_changed = false;
		t->seen_cpu = -1;
		t->seen_multi = false;
	} else {
		mask_forget(t);
	}
	/*
	 * an exec whose own record (truth.c) is a moment away waits for that, not this:
	 * the marker settles it only if the record does not come (rqe_exec_wait_end())
	 */
	if (!t->cold->truth_exec_wait || ts - t->cold->truth_exec_ts > TRUTH_EXEC_AFTER)
		rqe_settle_unknown_execs(an, t);
	else if (t->mask_known)
		rqe_cold_if(t)->truth_exec_marked = true;
}

void rqe_handle_marker(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_marker m;

	if (!ev->str || rq_marker_parse(ev->str, (size_t)ev->str_len, &m))
		return;
	/*
	 * Only the recorder's own lines are facts: it writes the first marker (the kernel
	 * line, before any command starts) and every later one from the same pid.  A
	 * traced command can write to trace_marker too: its lines are counted, not used.
	 */
	if (an->quality.marker_pid < 0) {
		an->quality.marker_pid = ev->common_pid;
	} else if (ev->common_pid != an->quality.marker_pid) {
		an->quality.markers_ignored++;
		return;
	}
	an->facts.has_markers = true;
	switch (m.kind) {
	case RQ_MARK_KERNEL:
		if (!an->profile.release[0] && !an->profile.overridden) {
			rq_profile_from_release(&an->profile, m.release);
			if (an->opts.profile_override)
				rq_profile_override(&an->profile, an->opts.profile_override,
						    NULL, 0);
		}
		break;
	case RQ_MARK_CPU:
		apply_cpu_marker(an, &m);
		break;
	case RQ_MARK_TASK:
	case RQ_MARK_TASK_GONE:
		apply_task_marker(an, &m, ev->ts);
		break;
	case RQ_MARK_TRUTH:
		an->quality.truth_marked = !strcmp(m.truth_source, "bpf");
		an->quality.truth_drops += (uint64_t)m.truth_drops;
		an->quality.truth_misses += (uint64_t)m.truth_misses;
		break;
	default:
		break;
	}
}

void rqe_handle_lost(struct rq_analysis *an, const struct rq_event *ev)
{
	struct rq_cpu *c;

	an->stats.lost_events += ev->arg > 0 ? (uint64_t)ev->arg : 0;
	if (!rqe_valid_cpu(an, ev->cpu))
		return;
	c = &an->cpus[ev->cpu];
	if (ev->state == RQ_LOST_BACKWARDS)
		c->clock_backwards++;
	else
		c->lost_events += ev->arg > 0 ? (uint64_t)ev->arg : 1;
	an->quality.lost_on_cpus |= c->lost_events > 0;
	/*
	 * what happened in the gap is unknown: so is this CPU's runqueue, and when its
	 * running and queued tasks stopped running there
	 */
	if (c->curr > 0) {
		struct rq_task *t = rqe_task_find(an, c->curr);

		if (t && t->state == RQ_TS_RUNNING)
			rqe_left_unseen(t, ev->cpu, ev->ts);
	}
	for (int i = 0; i < c->nqueued; i++)
		rqe_left_unseen(c->queued[i], ev->cpu, ev->ts);
	cpu_clear_lists(an, ev->cpu);
	c->known = false;
	c->watched_since = 0;
	c->watched = false;
	rqe_set_curr(an, ev->cpu, -1, NULL);
	c->trailing_prev = -1;
	c->pending_wakeups = 0;	/* the tasks' own marks are dropped as they are seen */
}
