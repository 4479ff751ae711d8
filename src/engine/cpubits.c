// SPDX-License-Identifier: GPL-2.0
/*
 * cpubits.c - which CPUs are truly idle and which are busy for the kernel, kept as
 * bitmaps between events, so that a wakeup costs a few words, not a visit of every
 * CPU: an event's cost stays nearly flat in the number of CPUs (a visit of each CPU at
 * every sched_waking's snapshot would be most of the engine's time at 256 CPUs).
 *
 * A CPU's bits are a function of its own fields (known, curr, its queue, its
 * maybe-delayed set, pending wakeups) and of the class (SCHED_IDLE work or not) of the
 * tasks running and queued there.  Whatever changes one of them marks the CPU dirty
 * (rqe_cpu_dirty()); the dirty CPUs are worked out again, with the same rules as
 * before, when the bits are next read (rqe_cpubits_flush()): a few per event.  The bits
 * leave no task out; the wakee's own CPUs (where it runs, where it is queued) are
 * worked out again without it at each snapshot.
 *
 * To find the CPUs a task runs on without visiting them all, each CPU keeps the task
 * its curr names (curr_task: rqe_task_find(curr), kept in step when a task with that pid
 * is created or evicted), and each task how many CPUs name it and one of them.
 */
#include <stdlib.h>
#include <string.h>

#include "cpubits.h"
#include "engine.h"
#include "model.h"

int rqe_cpubits_init(struct rq_analysis *an)
{
	size_t words = rqe_mask_longs(an);

	an->bits.idle_bits = calloc(3 * words, sizeof(unsigned long));
	an->bits.dirty = calloc((size_t)an->nr_cpus, sizeof(int));
	an->bits.llc_row = calloc((size_t)an->nr_cpus, sizeof(int));
	if (!an->bits.idle_bits || !an->bits.dirty || !an->bits.llc_row)
		return -1;
	an->bits.busy_bits = an->bits.idle_bits + words;
	an->bits.unknown_bits = an->bits.busy_bits + words;
	for (int cpu = 0; cpu < an->nr_cpus; cpu++)
		rqe_cpu_dirty(an, cpu);
	an->bits.llc_stale = true;
	return 0;
}

void rqe_cpubits_free(struct rq_analysis *an)
{
	free(an->bits.idle_bits);
	free(an->bits.dirty);
	free(an->bits.llc_row);
	free(an->bits.llc_bits);
	free(an->bits.snaps);
	free(an->bits.snap_free);
}

/* ---- the wakings' snapshots ------------------------------------------------------------ */

/*
 * Only the tasks between sched_waking and sched_wakeup hold one (a few per CPU), not
 * every task that ever woke: a pool, so that a task costs an index, not a buffer.
 */
unsigned long *rqe_snap_take(struct rq_analysis *an, struct rq_task *t)
{
	size_t words = 3 * rqe_mask_longs(an);

	if (t->snap < 0) {
		if (an->bits.nsnap_free) {
			t->snap = an->bits.snap_free[--an->bits.nsnap_free];
		} else {
			if (an->bits.nsnaps == an->bits.snap_cap) {
				int ncap = an->bits.snap_cap ? an->bits.snap_cap * 2 : 64;
				unsigned long *ns = reallocarray(an->bits.snaps, (size_t)ncap * words,
								 sizeof(*ns));
				int *nf;

				if (!ns)
					return NULL;
				an->bits.snaps = ns;
				nf = reallocarray(an->bits.snap_free, (size_t)ncap, sizeof(*nf));
				if (!nf)
					return NULL;
				an->bits.snap_free = nf;
				an->bits.snap_cap = ncap;
			}
			t->snap = an->bits.nsnaps++;
		}
	}
	return rqe_snap(an, t);
}

void rqe_snap_put(struct rq_analysis *an, struct rq_task *t)
{
	if (t->snap < 0)
		return;
	an->bits.snap_free[an->bits.nsnap_free++] = t->snap;
	t->snap = -1;
}

/* ---- which CPUs name a task as running -------------------------------------------------- */

/* t no longer runs on cpu (for the model): another CPU that names it, if any, is kept. */
static void curr_detach(struct rq_analysis *an, struct rq_task *t, int cpu)
{
	if (--t->ncurr == 0) {
		t->curr_cpu = -1;
		return;
	}
	if (t->curr_cpu != cpu)
		return;
	/* it ran on two CPUs at once for the model (a switch missing): rare, look */
	for (int i = 0; i < an->nr_cpus; i++)
		if (i != cpu && an->cpus[i].curr_task == t) {
			t->curr_cpu = i;
			return;
		}
}

static void curr_attach(struct rq_task *t, int cpu)
{
	if (!t->ncurr++)
		t->curr_cpu = cpu;
}

/* c's copy of its runner's class (struct rq_cpu), after curr_task or the class changed */
static void curr_class(struct rq_cpu *c)
{
	const struct rq_task *t = c->curr_task;

	c->curr_idle_class = t && rqe_task_is_idle_class(t);
	c->curr_policy_known = t && t->policy != RQ_POLICY_UNKNOWN;
}

static bool unresolved(const struct rq_cpu *c)
{
	return c->curr > 0 && !c->curr_task;
}

void rqe_set_curr(struct rq_analysis *an, int cpu, int pid, struct rq_task *t)
{
	struct rq_cpu *c = &an->cpus[cpu];

	rqe_cpu_dirty(an, cpu);
	an->bits.nunresolved -= unresolved(c);
	if (c->curr_task != t) {
		if (c->curr_task)
			curr_detach(an, c->curr_task, cpu);
		if (t)
			curr_attach(t, cpu);
		c->curr_task = t;
		curr_class(c);
	}
	c->curr = pid;
	an->bits.nunresolved += unresolved(c);
}

/* A task that CPUs' bits depend on changed: where it runs, where it waits. */
static void task_cpus_dirty(struct rq_analysis *an, const struct rq_task *t)
{
	if (rqe_valid_cpu(an, t->rq_cpu))
		rqe_cpu_dirty(an, t->rq_cpu);
	if (t->ncurr == 1 && rqe_valid_cpu(an, t->curr_cpu)) {
		rqe_cpu_dirty(an, t->curr_cpu);
	} else if (t->ncurr) {
		for (int i = 0; i < an->nr_cpus; i++)
			if (an->cpus[i].curr_task == t)
				rqe_cpu_dirty(an, i);
	}
}

void rqe_task_class_changed(struct rq_analysis *an, const struct rq_task *t)
{
	task_cpus_dirty(an, t);
	if (t->ncurr == 1 && rqe_valid_cpu(an, t->curr_cpu)) {
		curr_class(&an->cpus[t->curr_cpu]);
	} else if (t->ncurr) {
		for (int i = 0; i < an->nr_cpus; i++)
			if (an->cpus[i].curr_task == t)
				curr_class(&an->cpus[i]);
	}
}

/* A new task: a CPU whose curr is its pid (none found until now) names it from here on. */
void rqe_task_created(struct rq_analysis *an, struct rq_task *t)
{
	if (!an->bits.nunresolved)
		return;
	for (int i = 0; i < an->nr_cpus; i++) {
		struct rq_cpu *c = &an->cpus[i];

		if (c->curr == t->pid && !c->curr_task) {
			c->curr_task = t;
			curr_class(c);
			curr_attach(t, i);
			an->bits.nunresolved--;
			rqe_cpu_dirty(an, i);
		}
	}
}

/* t is freed: the CPUs that name it find no task for their curr any more. */
void rqe_task_evicted(struct rq_analysis *an, struct rq_task *t)
{
	task_cpus_dirty(an, t);
	for (int i = 0; t->ncurr && i < an->nr_cpus; i++) {
		struct rq_cpu *c = &an->cpus[i];

		if (c->curr_task == t) {
			c->curr_task = NULL;
			curr_class(c);
			t->ncurr--;
			an->bits.nunresolved += unresolved(c);
		}
	}
	t->curr_cpu = -1;
}

/* ---- the bits ---------------------------------------------------------------------- */

static inline void bit_put(unsigned long *bits, int cpu, bool v)
{
	unsigned long b = 1UL << (cpu % BITS_PER_UL);

	if (v)
		bits[cpu / BITS_PER_UL] |= b;
	else
		bits[cpu / BITS_PER_UL] &= ~b;
}

/*
 * cpu as the kernel chose, skip (the wakee, or NULL) left out: truly idle (idle_cpu()),
 * busy (neither idle_cpu() nor sched_idle_cpu()), of unknown idleness
 * (rqe_cpu_unknown()), or none of them (only SCHED_IDLE work).  The common cases (not
 * known, idle, running a task that is not SCHED_IDLE work) from the CPU's own fields
 * and its running task, the rest from rqe_look_cpu_scan().
 */
static void cpu_state(const struct rq_analysis *an, int cpu, const struct rq_task *skip,
		      bool *idle, bool *busy, bool *unknown)
{
	const struct rq_cpu *c = &an->cpus[cpu];
	unsigned int ignored = 0;
	struct cpu_look l;

	*idle = *busy = *unknown = false;
	if (rqe_cpu_unknown(c)) {
		*unknown = true;
		return;
	}
	/*
	 * a known runner, its runqueue unknown: busy if that runner is (what
	 * rqe_runner_busy() tells the missed-idle judge), never idle
	 */
	if (!c->known) {
		*busy = rqe_runner_busy(an, cpu, skip, &l);
		return;
	}
	if (c->curr == 0) {
		/* rqe_cpu_truly_idle() */
		if (!c->nqueued && !c->ndelayed && !c->pending_wakeups) {
			*idle = true;
			return;
		}
	} else if (!skip || c->curr != skip->pid) {
		/*
		 * a running task not known to be SCHED_IDLE work (of unknown policy too)
		 * makes the CPU busy for rqe_look_busy(), whatever is queued
		 */
		if (!c->curr_task || !c->curr_idle_class) {
			*busy = true;
			return;
		}
	}
	rqe_look_cpu_scan(an, cpu, skip, &l, true);
	*busy = l.known && rqe_look_busy(&l, &ignored);
}

void rqe_cpubits_flush(struct rq_analysis *an)
{
	for (int i = 0; i < an->bits.ndirty; i++) {
		int cpu = an->bits.dirty[i];
		bool idle, busy, unknown;

		an->cpus[cpu].dirty = false;
		cpu_state(an, cpu, NULL, &idle, &busy, &unknown);
		bit_put(an->bits.idle_bits, cpu, idle);
		bit_put(an->bits.busy_bits, cpu, busy);
		bit_put(an->bits.unknown_bits, cpu, unknown);
	}
	an->bits.ndirty = 0;
}

/* cpu's bits in a snapshot for t: worked out again without t */
static void snapshot_skip(const struct rq_analysis *an, int cpu, const struct rq_task *t,
			  unsigned long *idle, unsigned long *busy, unsigned long *unknown)
{
	bool i, b, u;

	cpu_state(an, cpu, t, &i, &b, &u);
	bit_put(idle, cpu, i);
	bit_put(busy, cpu, b);
	bit_put(unknown, cpu, u);
}

/*
 * At sched_waking: which CPUs were truly idle, which busy and which unknown, while the
 * kernel chose (t, the wakee, is left out).  The bits, and the CPUs where t runs or
 * waits worked out again without it.
 */
void rqe_snapshot_cpus(struct rq_analysis *an, const struct rq_task *t,
		       unsigned long *idle, unsigned long *busy, unsigned long *unknown)
{
	size_t words = rqe_mask_longs(an);

	rqe_cpubits_flush(an);
	memcpy(idle, an->bits.idle_bits, words * sizeof(unsigned long));
	memcpy(busy, an->bits.busy_bits, words * sizeof(unsigned long));
	memcpy(unknown, an->bits.unknown_bits, words * sizeof(unsigned long));
	if (rqe_valid_cpu(an, t->rq_cpu) && !t->on_delayed)
		snapshot_skip(an, t->rq_cpu, t, idle, busy, unknown);
	if (t->ncurr == 1 && rqe_valid_cpu(an, t->curr_cpu)) {
		snapshot_skip(an, t->curr_cpu, t, idle, busy, unknown);
	} else if (t->ncurr) {
		for (int i = 0; i < an->nr_cpus; i++)
			if (an->cpus[i].curr_task == t)
				snapshot_skip(an, i, t, idle, busy, unknown);
	}
}

/* ---- the LLCs as bitmaps ------------------------------------------------------------ */

/* The rows of the LLCs (one per LLC id), from the CPUs' llc fields. */
static int llc_rebuild(struct rq_analysis *an)
{
	size_t words = rqe_mask_longs(an);
	int nrows = 0;

	for (int cpu = 0; cpu < an->nr_cpus; cpu++)
		an->bits.llc_row[cpu] = -1;
	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		int llc = an->cpus[cpu].llc;

		if (rqe_valid_cpu(an, llc) && an->bits.llc_row[llc] < 0)
			an->bits.llc_row[llc] = nrows++;
	}
	free(an->bits.llc_bits);
	an->bits.llc_bits = calloc((size_t)nrows * (words + 1), sizeof(unsigned long));
	if (!an->bits.llc_bits)
		return -1;
	for (int cpu = 0; cpu < an->nr_cpus; cpu++) {
		int llc = an->cpus[cpu].llc;
		unsigned long *row;

		if (!rqe_valid_cpu(an, llc))
			continue;
		/* a row: its first and last word with a CPU (packed in one long), the bits */
		row = an->bits.llc_bits + (size_t)an->bits.llc_row[llc] * (words + 1);
		if (!row[0])
			row[0] = (unsigned long)(cpu / BITS_PER_UL) << 16 | 0x8000;
		row[0] = (row[0] & ~0x7fffUL) | (unsigned long)(cpu / BITS_PER_UL);
		rqe_bit_set(row + 1, cpu);
	}
	an->bits.llc_stale = false;
	return 0;
}

const unsigned long *rqe_llc_bits(struct rq_analysis *an, int llc, int *lo, int *hi)
{
	const unsigned long *row;

	if (an->bits.llc_stale && llc_rebuild(an))
		return NULL;
	if (!rqe_valid_cpu(an, llc) || an->bits.llc_row[llc] < 0)
		return NULL;
	row = an->bits.llc_bits + (size_t)an->bits.llc_row[llc] * (rqe_mask_longs(an) + 1);
	*lo = (int)(row[0] >> 16);
	*hi = (int)(row[0] & 0x7fff);
	return row + 1;
}
