// SPDX-License-Identifier: GPL-2.0
/*
 * truth.c - the kernel's own scheduler state in the trace (rqpath:truth records,
 * src/base/truth.h; docs/design.md "Kernel truth"): the records wait here until the
 * placement they describe (a waking's until its sched_wakeup, a fork's until its
 * sched_wakeup_new, an exec's for the exec), what a CPU's runqueue state in a record
 * means for the kernel's idle tests, and where the tracepoint model disagrees with it
 * (struct rq_truth_summary: the model's error rate).
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "findings.h"
#include "truth_model.h"

/*
 * Records waiting for their placement, direct-mapped by pid: only the tasks between a
 * waking (or fork) and its wakeup hold one, a few per CPU, so a collision (a record
 * replaced before it was used) is rare and only loses that record.
 */
#define TRUTH_SLOTS 1024
/*
 * A record older than this at its placement is not that placement's: sched_waking and
 * sched_wakeup are microseconds apart, a fork and its wakeup_new, an exec's record and
 * its event too.
 */
#define TRUTH_MAX_AGE (20 * NSEC_PER_MSEC)

const char *const rq_mvt_names[RQ_MVT__COUNT] = {
	[RQ_MVT_SELECTION] = "selection", [RQ_MVT_CPU] = "cpu_state",
	[RQ_MVT_POLICY] = "policy", [RQ_MVT_MASK] = "mask",
};

static struct rq_truth_rec *slot_of(struct rq_analysis *an, int pid)
{
	return &an->truth.slots[(unsigned int)pid % TRUTH_SLOTS];
}

const char *const rq_tchk_names[RQ_TCHK__COUNT] = {
	[RQ_TCHK_ON_RQ] = "on_rq", [RQ_TCHK_CPU] = "cpu_state", [RQ_TCHK_TASK] = "task",
};

static void checked(struct rq_analysis *an, enum rq_tchk_kind k, bool contradicts)
{
	struct rq_truth_summary *s = &an->truth.summary;

	s->checked[k]++;
	if (!contradicts)
		return;
	s->contradicted[k]++;
	if (!(s->rejected & 1u << k) && s->checked[k] >= RQ_TRUTH_REJECT_MIN &&
	    s->contradicted[k] * 1000 > s->checked[k] * RQ_TRUTH_REJECT_PERMILLE) {
		if (!s->rejected)
			s->rejected_at = s->records;
		s->rejected |= 1u << k;
	}
}

/*
 * on_rq: a task whose switch-out the trace shows blocking (prev_state S, D, ...: the
 * model's SLEEPING), and that nothing woke since, was dequeued by __schedule() before
 * that sched_switch: at its next sched_waking it is on no runqueue, unless delayed
 * dequeue kept it there (se.sched_delayed, its own flag).  Before 7.2 on_rq was an int,
 * since a u8 beside is_blocked: a 4-byte read of it breaks exactly this.
 */
static void check_on_rq(struct rq_analysis *an, const struct rq_truth_rec *r)
{
	struct rq_task *t;

	if (r->point != RQ_TRUTH_WAKING)
		return;
	t = rqe_task_find(an, (int)r->pid);
	if (!t || t->state != RQ_TS_SLEEPING)
		return;
	checked(an, RQ_TCHK_ON_RQ, (r->flags & (RQ_TRUTH_ON_RQ | RQ_TRUTH_DELAYED)) ==
		RQ_TRUTH_ON_RQ);
}

/*
 * cpu_state: the CPU the program ran on counts its running task in nr_running; on every
 * CPU the SCHED_IDLE count is part of nr_running and a queued wakeup is a flag.  Reads
 * of other CPUs race with their switches, so only these hold always.  (The running task
 * of the record's own CPU against the model's was tried: the model's curr is stale after
 * lost events, 99 of 760 on tests/fixtures/truth/spawn-truth.dat, so it proves nothing.)
 */
static void check_cpus(struct rq_analysis *an, const struct rq_truth_rec *r)
{
	int n = r->nr_cpus < RQ_TRUTH_MAX_CPUS ? r->nr_cpus : RQ_TRUTH_MAX_CPUS;
	bool bad = false;

	for (int i = 0; i < n; i++) {
		const struct rq_truth_cpu *k = &r->cpus[i];

		if (k->known != RQ_TRUTH_RQ_KNOWN)
			continue;
		bad |= k->cpu >= an->nr_cpus;
		bad |= k->ttwu_pending > 1;
		bad |= !(r->flags & RQ_TRUTH_NO_IDLE_COUNT) && k->h_nr_idle > k->nr_running;
		/* the record's own CPU: the task running the program is on its runqueue */
		bad |= k->cpu == r->cpu && k->curr_pid && !k->nr_running;
	}
	checked(an, RQ_TCHK_CPU, bad);
}

/*
 * task: a policy the kernel has (0-7), a task_cpu of the trace, and nr_cpus_allowed the
 * weight of cpus_ptr, but while migrate_disable() points cpus_ptr at one CPU alone
 * (and leaves nr_cpus_allowed) or the mask is wider than the words a record keeps.
 */
static void check_task(struct rq_analysis *an, const struct rq_truth_rec *r)
{
	int words = r->mask_words;
	bool bad = r->policy > 7 || r->task_cpu >= (uint32_t)an->nr_cpus;

	if (!(r->flags & RQ_TRUTH_MIGRATE_OFF) && an->nr_cpus <= words * 64) {
		int weight = 0;

		for (int w = 0; w < words; w++)
			weight += rq_popcount_long((unsigned long)r->mask[w]);
		bad |= (uint32_t)weight != r->nr_cpus_allowed;
	}
	checked(an, RQ_TCHK_TASK, bad);
}

/*
 * Hold the record against the trace before anything uses it: past the threshold a
 * group of fields is refused, and with it every record from then on (the judges read a
 * record's fields together).
 */
static void self_check(struct rq_analysis *an, const struct rq_truth_rec *r)
{
	if (r->point != RQ_TRUTH_WAKING && r->point != RQ_TRUTH_FORK &&
	    r->point != RQ_TRUTH_WAKEUP_NEW && r->point != RQ_TRUTH_EXEC)
		return;
	check_on_rq(an, r);
	check_cpus(an, r);
	check_task(an, r);
}

void rqe_handle_truth(struct rq_analysis *an, const struct rq_event *ev)
{
	const struct rq_truth_rec *r = ev->truth;
	struct rq_truth_rec *s;

	if (an->opts.no_truth || !r)
		return;
	an->truth.summary.records++;
	self_check(an, r);
	if (an->truth.summary.rejected)
		return;
	/* the records after the placement (sched_wakeup, sched_wakeup_new) judge nothing */
	if (r->point != RQ_TRUTH_WAKING && r->point != RQ_TRUTH_FORK &&
	    r->point != RQ_TRUTH_EXEC)
		return;
	if (!r->pid)
		return;
	if (r->point == RQ_TRUTH_EXEC) {
		struct rq_task *t = rqe_task_find(an, (int)r->pid);

		if (t && t->cold->truth_exec_ts && r->ts >= t->cold->truth_exec_ts &&
		    r->ts - t->cold->truth_exec_ts <= TRUTH_EXEC_AFTER) {
			/*
			 * the record of the exec just seen: it settles the exec if that waits,
			 * else (judged before records came) it is no later exec's
			 */
			if (t->cold->truth_exec_wait) {
				an->truth.summary.used++;
				rqe_settle_exec_truth(an, t, r);
			}
			return;
		}
	}
	if (!an->truth.slots) {
		an->truth.slots = calloc(TRUTH_SLOTS, sizeof(*an->truth.slots));
		if (!an->truth.slots)
			return;
	}
	s = slot_of(an, (int)r->pid);
	*s = *r;
	/* a cut or hostile count: never more entries than the record has */
	if (s->nr_cpus > RQ_TRUTH_MAX_CPUS)
		s->nr_cpus = RQ_TRUTH_MAX_CPUS;
	/*
	 * sorted by CPU for rqe_truth_entry(): the BPF side writes two LLCs' CPUs one after
	 * the other, each in order, so this is a merge of two runs at most
	 */
	for (int i = 1; i < s->nr_cpus; i++) {
		struct rq_truth_cpu e = s->cpus[i];
		int j = i;

		for (; j > 0 && s->cpus[j - 1].cpu > e.cpu; j--)
			s->cpus[j] = s->cpus[j - 1];
		s->cpus[j] = e;
	}
}

const struct rq_truth_cpu *rqe_truth_entry(const struct rq_truth_rec *r, int cpu)
{
	int lo = 0, hi = (int)r->nr_cpus - 1;

	while (lo <= hi) {
		int mid = (lo + hi) / 2;

		if (r->cpus[mid].cpu == cpu)
			return &r->cpus[mid];
		if (r->cpus[mid].cpu < cpu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

const struct rq_truth_rec *rqe_truth_take(struct rq_analysis *an, int pid, int point,
					  uint64_t ts)
{
	struct rq_truth_rec *s;

	if (!an->truth.slots || pid <= 0 || an->truth.summary.rejected)
		return NULL;
	s = slot_of(an, pid);
	if ((int)s->pid != pid || !s->point)
		return NULL;
	if (s->point != point || s->ts > ts || ts - s->ts > TRUTH_MAX_AGE) {
		/* another point's, or too old: not this placement's, and no later one's */
		if (s->point == point)
			s->point = 0;
		return NULL;
	}
	s->point = 0;	/* used once; the copy stays valid until the slot is written */
	an->truth.summary.used++;
	return s;
}

enum rq_truth_cpu_state rqe_truth_cpu(const struct rq_analysis *an, const struct rq_truth_rec *r,
				      int cpu, int wakee, bool wakee_idle)
{
	const struct rq_truth_cpu *c;
	int n, h;

	if (!rqe_valid_cpu(an, cpu))
		return RQ_TCPU_UNKNOWN;
	c = rqe_truth_entry(r, cpu);
	if (!c || c->known != RQ_TRUTH_RQ_KNOWN)
		return RQ_TCPU_UNKNOWN;
	n = c->nr_running;
	h = c->h_nr_idle;
	/* the wakee still enqueued there (on_rq: its task_cpu) counts in nr_running */
	if ((r->flags & RQ_TRUTH_ON_RQ) && (int)r->task_cpu == cpu && n > 0) {
		n--;
		if (wakee_idle && h > 0)
			h--;
	}
	if (c->curr_pid == 0 && n == 0 && !c->ttwu_pending)
		return RQ_TCPU_IDLE;
	/* a kernel without the SCHED_IDLE count: busy and SCHED_IDLE-only look the same */
	if (n > 0 && (r->flags & RQ_TRUTH_NO_IDLE_COUNT))
		return RQ_TCPU_UNKNOWN;
	if (n > 0 && h >= n)
		return RQ_TCPU_IDLE_ONLY;
	if (n == 0 && !c->ttwu_pending && (int)c->curr_pid == wakee)
		return RQ_TCPU_NONE;
	return RQ_TCPU_BUSY;
}

void rqe_truth_mark(const struct rq_analysis *an, struct rq_placement *p,
		    const struct rq_truth_rec *r, const struct rq_task *t)
{
	p->truth |= RQ_PT_RECORD;
	p->truth_policy = (uint8_t)r->policy;
	p->truth_allowed = (uint16_t)(r->nr_cpus_allowed > UINT16_MAX ? UINT16_MAX :
				      r->nr_cpus_allowed);
	p->truth_x = (int8_t)rqe_truth_cpu(an, r, p->to_cpu, t->pid, rqe_truth_idle_class(r, t));
	if (r->flags & RQ_TRUTH_ON_RQ)
		p->truth |= RQ_PT_ON_RQ;
	if (r->flags & RQ_TRUTH_DELAYED)
		p->truth |= RQ_PT_DELAYED;
}

/* The model's state of cpu in a waking snapshot, in the record's terms (or UNKNOWN). */
static enum rq_truth_cpu_state model_cpu(const struct rq_analysis *an, const unsigned long *snap,
					 int cpu)
{
	size_t w = rqe_mask_longs(an);

	if (rqe_bit_test(snap + 2 * w, cpu))
		return RQ_TCPU_UNKNOWN;
	if (rqe_bit_test(snap, cpu))
		return RQ_TCPU_IDLE;
	if (rqe_bit_test(snap + w, cpu))
		return RQ_TCPU_BUSY;
	return RQ_TCPU_IDLE_ONLY;	/* neither: SCHED_IDLE work, or only the wakee */
}

static void compared(struct rq_analysis *an, enum rq_mvt_kind k, bool disagree)
{
	an->truth.summary.compared[k]++;
	an->truth.summary.disagree[k] += disagree;
}

void rqe_truth_compare(struct rq_analysis *an, const struct rq_truth_rec *r,
		       const struct rq_task *t, int model_proven, int model_runnable,
		       const unsigned long *snap, const struct rq_cpumask *mask)
{
	bool on_rq = r->flags & RQ_TRUTH_ON_RQ;

	/*
	 * the model is wrong when it proves a selection that did not run, or calls it
	 * ttwu_runnable() when one did; "not proven" is no answer, not an error
	 */
	if (model_runnable > 0)
		compared(an, RQ_MVT_SELECTION, !on_rq);
	else if (model_proven > 0)
		compared(an, RQ_MVT_SELECTION, on_rq);
	if (t->policy != RQ_POLICY_UNKNOWN)
		compared(an, RQ_MVT_POLICY, t->policy != (int)r->policy);
	if (mask && mask->nbits == an->nr_cpus) {
		bool differ = false;

		for (int c = 0; c < an->nr_cpus && c < RQ_TRUTH_MASK_WORDS * 64; c++)
			differ |= rq_cpumask_test(mask, c) != rqe_truth_allows(r, c);
		compared(an, RQ_MVT_MASK, differ);
	}
	if (!snap)
		return;
	for (int i = 0; i < r->nr_cpus; i++) {
		int c = r->cpus[i].cpu;
		enum rq_truth_cpu_state k = rqe_truth_cpu(an, r, c, t->pid,
							  rqe_truth_idle_class(r, t));
		enum rq_truth_cpu_state m;

		if (k == RQ_TCPU_UNKNOWN)
			continue;
		m = model_cpu(an, snap, c);

		if (k == RQ_TCPU_UNKNOWN || m == RQ_TCPU_UNKNOWN)
			continue;
		/* the model's "neither idle nor busy" covers both of these */
		if (k == RQ_TCPU_NONE)
			k = RQ_TCPU_IDLE_ONLY;
		compared(an, RQ_MVT_CPU, k != m);
	}
}

const struct rq_cpumask *rqe_truth_mask(struct rq_analysis *an, const struct rq_truth_rec *r,
					const struct rq_cpumask *model)
{
	struct rq_cpumask *m = &an->truth.mask;

	if (!m->bits && rq_cpumask_init(m, an->nr_cpus))
		return NULL;
	rq_cpumask_clear(m);
	for (int c = 0; c < an->nr_cpus; c++)
		if (c < RQ_TRUTH_MASK_WORDS * 64 ? rqe_truth_allows(r, c) :
		    model && rq_cpumask_test(model, c))
			rq_cpumask_set(m, c);
	return m;
}

void rqe_truth_free(struct rq_analysis *an)
{
	free(an->truth.slots);
	an->truth.slots = NULL;
	rq_cpumask_free(&an->truth.mask);
}
