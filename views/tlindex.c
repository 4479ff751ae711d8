// SPDX-License-Identifier: GPL-2.0
/*
 * tlindex.c - the whole-trace index of runs, lost events and placements (tlindex.h).
 *
 * Runs are the engine's (on_run: who runs, as the model knows it), each with the task's
 * policy; each CPU's queue length whenever the engine's changed.  Memory: 24 bytes a
 * run, 16 a queue change, 56 a placement (and its whole record when it has more facts
 * than that holds); a growth that fails stops the index (x->full) instead of the
 * program.
 */
#include <stdlib.h>
#include <string.h>

#include "delay.h"
#include "tlindex.h"

#define TL_MAX_CPUS 4096

struct tl_index *tl_index_new(void)
{
	return calloc(1, sizeof(struct tl_index));
}

static void reset(struct tl_index *x)
{
	for (int c = 0; c < x->nr_cpus; c++) {
		free(x->cpu[c].runs);
		free(x->cpu[c].q);
	}
	free(x->cpu);
	free(x->pl);
	free(x->more);
	free(x->lost);
	free(x->comms);
	free(x->hash);
	memset(x, 0, sizeof(*x));
}

void tl_index_free(struct tl_index *x)
{
	if (!x)
		return;
	reset(x);
	free(x);
}

static bool array_grow(void **p, size_t *cap, size_t need, size_t size)
{
	size_t n = *cap ? *cap : 256;
	void *q;

	if (need <= *cap)
		return true;
	while (n < need)
		n *= 2;
	q = realloc(*p, n * size);
	if (!q)
		return false;
	*p = q;
	*cap = n;
	return true;
}

static uint32_t hash_comm(const char *s)
{
	uint32_t h = 2166136261u;

	for (int i = 0; i < RQ_COMM_LEN && s[i]; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/* The id of a comm, interned; 0 ("?") when out of memory. */
static uint32_t intern_comm(struct tl_index *x, const char *comm)
{
	uint32_t h, i;

	if (!x->hash) {
		x->hashcap = 1024;
		x->hash = calloc(x->hashcap, sizeof(*x->hash));
		x->comms = calloc(512, RQ_COMM_LEN);
		x->commcap = 512;
		if (!x->hash || !x->comms)
			return 0;
		strcpy(x->comms[0], "?");
		x->ncomms = 1;
	}
	h = hash_comm(comm);
	for (i = h & (x->hashcap - 1); x->hash[i]; i = (i + 1) & (x->hashcap - 1))
		if (!strncmp(x->comms[x->hash[i] - 1], comm, RQ_COMM_LEN))
			return x->hash[i] - 1;
	if (x->ncomms * 2 >= x->hashcap) {
		uint32_t *nh = calloc(x->hashcap * 2, sizeof(*nh));

		if (!nh)
			return 0;
		for (uint32_t k = 0; k < x->hashcap; k++) {
			uint32_t j;

			if (!x->hash[k])
				continue;
			j = hash_comm(x->comms[x->hash[k] - 1]) & (x->hashcap * 2 - 1);
			while (nh[j])
				j = (j + 1) & (x->hashcap * 2 - 1);
			nh[j] = x->hash[k];
		}
		free(x->hash);
		x->hash = nh;
		x->hashcap *= 2;
		return intern_comm(x, comm);
	}
	if (x->ncomms == x->commcap) {
		void *p = realloc(x->comms, (size_t)x->commcap * 2 * RQ_COMM_LEN);

		if (!p)
			return 0;
		x->comms = p;
		x->commcap *= 2;
	}
	memset(x->comms[x->ncomms], 0, RQ_COMM_LEN);
	strncpy(x->comms[x->ncomms], comm, RQ_COMM_LEN - 1);
	x->hash[i] = x->ncomms + 1;
	return x->ncomms++;
}

const char *tl_comm(const struct tl_index *x, uint32_t id)
{
	return id < x->ncomms ? x->comms[id] : "?";
}

static bool want_cpu(struct tl_index *x, int cpu)
{
	struct tl_cpu *c;
	int n;

	if (cpu < 0 || cpu >= TL_MAX_CPUS)
		return false;
	if (cpu < x->nr_cpus)
		return true;
	n = cpu + 1;
	if (x->an && rq_analysis_nr_cpus(x->an) > n && rq_analysis_nr_cpus(x->an) <= TL_MAX_CPUS)
		n = rq_analysis_nr_cpus(x->an);
	c = realloc(x->cpu, n * sizeof(*c));
	if (!c)
		return false;
	memset(c + x->nr_cpus, 0, (n - x->nr_cpus) * sizeof(*c));
	x->cpu = c;
	x->nr_cpus = n;
	return true;
}

void tl_index_window(struct tl_index *x, size_t max_pl, size_t max_runs)
{
	x->max_pl = max_pl;
	x->max_runs = max_runs;
}

static void end_run(struct tl_index *x, int cpu, uint64_t ts)
{
	struct tl_cpu *c = &x->cpu[cpu];

	if (!c->open)
		return;
	c->open = false;
	if (ts < c->cur.start)
		return;
	/* a window (live): the oldest half goes */
	if (x->max_runs && c->n >= x->max_runs / (size_t)(x->nr_cpus ? x->nr_cpus : 1)) {
		size_t keep = c->n / 2;

		memmove(c->runs, c->runs + (c->n - keep), keep * sizeof(*c->runs));
		c->n = keep;
		if (keep && c->runs[0].start > x->first_ts)
			x->first_ts = c->runs[0].start;
	}
	if (!array_grow((void **)&c->runs, &c->cap, c->n + 1, sizeof(*c->runs))) {
		x->full = true;
		return;
	}
	c->cur.end = ts;
	c->runs[c->n++] = c->cur;
}

static void begin_run(struct tl_index *x, int cpu, int pid, const char *comm, int policy,
		      uint64_t ts)
{
	struct tl_cpu *c = &x->cpu[cpu];
	uint32_t id = pid ? intern_comm(x, comm) : 0;

	end_run(x, cpu, ts);
	c->cur.start = ts;
	c->cur.pid = pid;
	c->cur.comm = id < (1u << 24) ? id : 0;
	c->cur.policy = policy >= 0 && policy < TL_POLICY_UNKNOWN ? policy : TL_POLICY_UNKNOWN;
	c->open = true;
}

static int policy_of(const struct tl_index *x, int pid)
{
	struct rq_task_info t;

	return x->an && pid > 0 && rq_task_info_get(x->an, pid, &t) ? t.policy : RQ_POLICY_UNKNOWN;
}

/* The engine's queue length of cpu, recorded when it changed. */
static void note_queue(struct tl_index *x, int cpu, uint64_t ts)
{
	struct tl_cpu *c;
	struct tl_queue e = { ts, -1, 0 };

	if (cpu < 0 || cpu >= x->nr_cpus || !x->an || cpu >= rq_analysis_nr_cpus(x->an))
		return;
	c = &x->cpu[cpu];
	e.n = rq_analysis_queued(x->an, cpu);
	e.pid = e.n > 0 ? rq_analysis_queued_pid(x->an, cpu, 0) : 0;
	if (c->nq && c->q[c->nq - 1].n == e.n && c->q[c->nq - 1].pid == e.pid)
		return;
	if (c->nq && c->q[c->nq - 1].ts == ts) {
		c->q[c->nq - 1] = e;
		return;
	}
	/* a window (live): the oldest half goes */
	if (x->max_runs && c->nq >= x->max_runs / (size_t)(x->nr_cpus ? x->nr_cpus : 1)) {
		size_t keep = c->nq / 2;

		memmove(c->q, c->q + (c->nq - keep), keep * sizeof(*c->q));
		c->nq = keep;
	}
	if (!array_grow((void **)&c->q, &c->qcap, c->nq + 1, sizeof(*c->q))) {
		x->full = true;
		return;
	}
	c->q[c->nq++] = e;
}

/* After the engine handled ev: the queues it may have changed. */
static void note_queues(struct tl_index *x, const struct rq_event *ev)
{
	int n = x->an ? rq_analysis_nr_cpus(x->an) : 0;

	if (n > x->nr_cpus)
		n = x->nr_cpus;
	/* few CPUs: every queue (a lost-event reset or a prune touches any of them) */
	if (n <= 16 || ev->type == RQ_EV_LOST) {
		for (int c = 0; c < n; c++)
			note_queue(x, c, ev->ts);
		return;
	}
	note_queue(x, ev->cpu, ev->ts);
	if (ev->type == RQ_EV_WAKING || ev->type == RQ_EV_WAKEUP || ev->type == RQ_EV_WAKEUP_NEW ||
	    ev->type == RQ_EV_MIGRATE) {
		if (ev->cpu_a != ev->cpu)
			note_queue(x, ev->cpu_a, ev->ts);
		if (ev->type == RQ_EV_MIGRATE && ev->cpu_b != ev->cpu && ev->cpu_b != ev->cpu_a)
			note_queue(x, ev->cpu_b, ev->ts);
	}
}

int tl_queued_before(const struct tl_index *x, int cpu, uint64_t ts, int *first)
{
	const struct tl_cpu *c;
	size_t lo;

	if (first)
		*first = 0;
	if (cpu < 0 || cpu >= x->nr_cpus)
		return -1;
	c = &x->cpu[cpu];
	/* the first change at or after ts; the one before it holds */
	lo = TL_LOWER_BOUND(c->q, c->nq, ts, ts);
	if (first && lo)
		*first = c->q[lo - 1].pid;
	return lo ? c->q[lo - 1].n : -1;
}

static void index_on_event(void *ctx, const struct rq_event *ev)
{
	struct tl_index *x = ctx;

	if (x->full || !want_cpu(x, ev->cpu))
		return;
	if (!x->first_ts || ev->ts < x->first_ts)
		x->first_ts = ev->ts;
	if (ev->ts > x->last_ts)
		x->last_ts = ev->ts;
	note_queues(x, ev);
	if (ev->type == RQ_EV_LOST) {
		if (!array_grow((void **)&x->lost, &x->lostcap, x->nlost + 1, sizeof(*x->lost))) {
			x->full = true;
			return;
		}
		x->lost[x->nlost++] = (struct tl_lost){ ev->ts, ev->cpu,
							(uint32_t)(ev->arg > 0 ? ev->arg : 0) };
		return;
	}
	/* a policy learnt or changed (a syscall's exit, a recorder's marker): a running
	 * task's run goes on under its new policy from here */
	if (ev->type == RQ_EV_SETSCHED_EXIT || ev->type == RQ_EV_SETATTR_EXIT ||
	    ev->type == RQ_EV_MARKER || ev->type == RQ_EV_CGROUP_ATTACH) {
		for (int k = 0; k < x->nr_cpus; k++) {
			struct tl_cpu *o = &x->cpu[k];
			int pol;

			if (!o->open || o->cur.pid <= 0)
				continue;
			pol = policy_of(x, o->cur.pid);
			pol = pol >= 0 && pol < TL_POLICY_UNKNOWN ? pol : TL_POLICY_UNKNOWN;
			if ((unsigned int)pol != o->cur.policy)
				begin_run(x, k, o->cur.pid, tl_comm(x, o->cur.comm), pol, ev->ts);
		}
	}
}

/* Who runs on cpu from ts on: the model's answer (0 idle, -1 unknown: no run). */
static void index_on_run(void *ctx, int cpu, int pid, uint64_t ts)
{
	struct tl_index *x = ctx;
	struct rq_task_info info;
	const struct rq_task_info *t;

	if (x->full || !want_cpu(x, cpu))
		return;
	if (pid < 0) {
		end_run(x, cpu, ts);
		return;
	}
	t = x->an && pid > 0 && rq_task_info_get(x->an, pid, &info) ? &info : NULL;
	begin_run(x, cpu, pid, t && t->comm[0] ? t->comm : "?",
		  t ? t->policy : RQ_POLICY_UNKNOWN, ts);
}

/* The packed form of p; false when it cannot hold all of p (more[] must). */
static bool pack_placement(struct tl_index *x, const struct rq_placement *p, struct tl_pl *c)
{
	struct rq_placement back, want;

	*c = (struct tl_pl){
		.ts = p->ts, .delay_ns = p->delay_ns, .seq = (uint32_t)p->seq, .pid = p->pid,
		.writer = p->writer_pid, .comm = intern_comm(x, p->comm),
		.cpu = (int16_t)p->cpu, .from = (int16_t)p->from_cpu, .to = (int16_t)p->to_cpu,
		.path = (uint8_t)p->path, .findings = (uint8_t)p->findings,
		.possible = p->possible, .conf = (uint8_t)p->conf, .notes = p->notes,
		.assume = p->assume, .level = p->level,
	};
	tl_pl_expand(x, c, &back);
	memcpy(&want, p, sizeof(want));
	/* the record as it reads back: names end at their NUL */
	memset(want.comm, 0, sizeof(want.comm));
	memcpy(want.comm, p->comm, strnlen(p->comm, RQ_COMM_LEN - 1));
	return !memcmp(&back, &want, sizeof(back));
}

_Static_assert(RQ_FIND__COUNT <= 8 * sizeof(((struct tl_pl *)0)->findings),
	       "struct tl_pl: findings too narrow for findings.def");
_Static_assert(RQ_FIND__COUNT <= 8 * sizeof(((struct tl_pl *)0)->possible),
	       "struct tl_pl: possible too narrow for findings.def");
_Static_assert(RQ_ASSUME__COUNT <= 8 * sizeof(((struct tl_pl *)0)->assume),
	       "struct tl_pl: assume too narrow");
_Static_assert(RQ_PATH__COUNT <= 1 << (8 * sizeof(((struct tl_pl *)0)->path)),
	       "struct tl_pl: path too narrow");

/* Drop the more[] records no placement points to any longer (live: the window moved). */
static void more_compact(struct tl_index *x)
{
	size_t n = 0;

	for (size_t i = 0; i < x->npl; i++) {
		if (!x->pl[i].more)
			continue;
		x->more[n] = x->more[x->pl[i].more - 1];
		x->pl[i].more = (uint32_t)++n;
	}
	x->nmore = n;
}

static void index_on_settled(void *ctx, const struct rq_placement *p)
{
	struct tl_index *x = ctx;
	struct tl_pl c;

	if (x->full)
		return;
	if (x->max_pl && x->npl >= x->max_pl) {
		size_t keep = x->npl / 2;

		tl_index_sort(x);
		memmove(x->pl, x->pl + (x->npl - keep), keep * sizeof(*x->pl));
		x->npl = x->sorted = keep;
		more_compact(x);
		if (x->nlost > 1024) {
			memmove(x->lost, x->lost + x->nlost / 2,
				(x->nlost - x->nlost / 2) * sizeof(*x->lost));
			x->nlost -= x->nlost / 2;
		}
	}
	if (!array_grow((void **)&x->pl, &x->plcap, x->npl + 1, sizeof(*x->pl))) {
		x->full = true;
		return;
	}
	if (!pack_placement(x, p, &c)) {
		if (x->nmore >= UINT32_MAX ||
		    !array_grow((void **)&x->more, &x->morecap, x->nmore + 1, sizeof(*x->more))) {
			x->full = true;
			return;
		}
		x->more[x->nmore++] = *p;
		c.more = (uint32_t)x->nmore;
	}
	x->pl[x->npl++] = c;
}

void tl_index_attach(struct tl_index *x, struct rq_analysis *an)
{
	size_t max_pl = x->max_pl, max_runs = x->max_runs;

	reset(x);
	x->max_pl = max_pl;
	x->max_runs = max_runs;
	x->an = an;
	if (rq_analysis_subscribe(an, &(struct rq_observer){
		.on_event = index_on_event, .on_settled = index_on_settled,
		.on_run = index_on_run, .ctx = x }))
		x->full = true;
}

void tl_index_detach(struct tl_index *x, struct rq_analysis *an)
{
	if (!an || !rq_analysis_unsubscribe(an, x))
		return;
	x->an = NULL;
}

static int cmp_pl(const void *a, const void *b)
{
	const struct tl_pl *x = a, *y = b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

void tl_index_sort(struct tl_index *x)
{
	if (x->sorted == x->npl)
		return;
	qsort(x->pl, x->npl, sizeof(*x->pl), cmp_pl);
	x->sorted = x->npl;
}

void tl_index_complete(struct tl_index *x)
{
	for (int c = 0; c < x->nr_cpus; c++)
		end_run(x, c, x->last_ts);
	tl_index_sort(x);
	x->complete = true;
}

const struct tl_run *tl_run_at(const struct tl_index *x, int cpu, uint64_t ts, size_t *idx)
{
	const struct tl_cpu *c;
	size_t lo = 0, hi;

	if (cpu < 0 || cpu >= x->nr_cpus) {
		*idx = 0;
		return NULL;
	}
	c = &x->cpu[cpu];
	hi = c->n;
	/* the first run ending after ts */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (c->runs[mid].end <= ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	*idx = lo;
	if (lo < c->n && c->runs[lo].start <= ts)
		return &c->runs[lo];
	if (c->open && c->cur.start <= ts)
		return &c->cur;
	return NULL;
}

size_t tl_pl_at(const struct tl_index *x, uint64_t ts)
{
	return TL_LOWER_BOUND(x->pl, x->sorted, ts, ts);
}

bool tl_pl_find(const struct tl_index *x, uint64_t seq, uint64_t ts, struct rq_placement *out)
{
	size_t i;

	for (i = tl_pl_at(x, ts); i < x->sorted && x->pl[i].ts == ts; i++)
		if (x->pl[i].seq == (uint32_t)seq)
			goto found;
	for (i = x->sorted; i < x->npl; i++)
		if (x->pl[i].ts == ts && x->pl[i].seq == (uint32_t)seq)
			goto found;
	return false;
found:
	tl_pl_expand(x, &x->pl[i], out);
	return true;
}

void tl_pl_expand(const struct tl_index *x, const struct tl_pl *c, struct rq_placement *p)
{
	if (c->more && c->more <= x->nmore) {
		*p = x->more[c->more - 1];
		return;
	}
	memset(p, 0, sizeof(*p));
	p->ts = c->ts;
	p->seq = c->seq;
	p->pid = c->pid;
	strncpy(p->comm, tl_comm(x, c->comm), RQ_COMM_LEN - 1);
	p->cpu = c->cpu;
	p->from_cpu = c->from;
	p->to_cpu = c->to;
	p->writer_pid = c->writer;
	p->path = c->path < RQ_PATH__COUNT ? (enum rq_path)c->path : RQ_PATH_UNKNOWN;
	p->conf = c->conf <= RQ_CONF_UNKNOWN ? (enum rq_confidence)c->conf : RQ_CONF_UNKNOWN;
	p->possible = c->possible;
	p->findings = c->findings;
	p->notes = c->notes;
	p->assume = c->assume;
	p->level = c->level;
	p->delay_ns = c->delay_ns;
	p->settled = true;
	p->parent_cpu_idled = -1;
	p->child_lifetime_ns = -1;
}
