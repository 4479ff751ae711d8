// SPDX-License-Identifier: GPL-2.0
/*
 * delay.c - queue delay of each placement and the quantile sketches (delay.h).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "classify.h"
#include "delay.h"
#include "delay_store.h"
#include "engine.h"

/* ---- the sketch ------------------------------------------------------------ */

/* The bucket of v by its definition: floor(log_GAMMA(v / LINEAR)), clamped. */
static unsigned int bucket_of_log(uint64_t v)
{
	double i;

	if (v < RQ_SKETCH_LINEAR)
		return (unsigned int)v;
	i = floor(log((double)v / RQ_SKETCH_LINEAR) / log(RQ_SKETCH_GAMMA));
	if (i < 0)
		i = 0;
	if (i > RQ_SKETCH_BUCKETS - RQ_SKETCH_LINEAR - 1)
		i = RQ_SKETCH_BUCKETS - RQ_SKETCH_LINEAR - 1;
	return RQ_SKETCH_LINEAR + (unsigned int)i;
}

/*
 * The same bucket without a log() per value.  bound[b] is the smallest value of bucket b
 * (found once with bucket_of_log(), so the two agree on every value); a value's top
 * SUB_BITS bits below its leading one pick a first guess (guess[]: the bucket of the
 * smallest value with those bits), which is at most one bucket low since 2^(1/128)
 * is less than GAMMA.  Values below SMALL have a table of their own.
 */
#define SUB_BITS 7
#define SMALL_BITS 12			/* values below 4096: small[] */
#define NGUESS ((64 - SMALL_BITS) << SUB_BITS)

static struct {
	uint64_t bound[RQ_SKETCH_BUCKETS];
	uint16_t small[1u << SMALL_BITS];
	uint16_t guess[NGUESS];
} *btab;
static pthread_once_t btab_once = PTHREAD_ONCE_INIT;

static inline unsigned int bucket_walk(uint64_t v, unsigned int b)
{
	while (b < RQ_SKETCH_BUCKETS - 1 && v >= btab->bound[b + 1])
		b++;
	return b;
}

static void btab_build(void)
{
	typeof(btab) t = malloc(sizeof(*t));

	if (!t)
		return;
	for (unsigned int b = 0; b < RQ_SKETCH_LINEAR; b++)
		t->bound[b] = b;
	for (unsigned int b = RQ_SKETCH_LINEAR; b < RQ_SKETCH_BUCKETS; b++) {
		/* the boundary by the formula, then by the definition (two log()s, mostly) */
		double x = RQ_SKETCH_LINEAR * pow(RQ_SKETCH_GAMMA, (double)(b - RQ_SKETCH_LINEAR));
		uint64_t v = (uint64_t)ceil(x);

		if (v < t->bound[b - 1] + 1)
			v = t->bound[b - 1] + 1;
		while (v > t->bound[b - 1] + 1 && bucket_of_log(v - 1) >= b)
			v--;
		while (bucket_of_log(v) < b)
			v++;
		t->bound[b] = v;
	}
	btab = t;
	for (unsigned int v = 0, b = 0; v < (1u << SMALL_BITS); v++)
		t->small[v] = (uint16_t)(b = bucket_walk(v, b));
	for (unsigned int i = 0, b = 0; i < NGUESS; i++) {
		unsigned int e = SMALL_BITS + (i >> SUB_BITS), m = i & ((1u << SUB_BITS) - 1);
		uint64_t lo = (uint64_t)((1u << SUB_BITS) | m) << (e - SUB_BITS);

		t->guess[i] = (uint16_t)(b = bucket_walk(lo, b));
	}
}

static inline unsigned int bucket_of(uint64_t v)
{
	unsigned int e;

	if (v < (1u << SMALL_BITS))
		return btab ? btab->small[v] : bucket_of_log(v);
	if (!btab)
		return bucket_of_log(v);
	e = 63 - (unsigned int)__builtin_clzll(v);
	return bucket_walk(v, btab->guess[((e - SMALL_BITS) << SUB_BITS) |
					  ((v >> (e - SUB_BITS)) & ((1u << SUB_BITS) - 1))]);
}

/* For the tests: whether bucket_of() agrees with the definition on v. */
bool rq_sketch_bucket_check(uint64_t v)
{
	pthread_once(&btab_once, btab_build);
	return bucket_of(v) == bucket_of_log(v);
}

/* The value a bucket stands for: itself below LINEAR, else its geometric middle. */
static uint64_t bucket_value(unsigned int b)
{
	if (b < RQ_SKETCH_LINEAR)
		return b;
	return (uint64_t)llround(RQ_SKETCH_LINEAR *
				 pow(RQ_SKETCH_GAMMA, (double)(b - RQ_SKETCH_LINEAR) + 0.5));
}

static int to_buckets(struct rq_sketch *s)
{
	if (s->buckets)
		return 0;
	pthread_once(&btab_once, btab_build);
	s->buckets = calloc(RQ_SKETCH_BUCKETS, sizeof(*s->buckets));
	if (!s->buckets)
		return -1;
	for (uint32_t i = 0; i < s->nexact; i++)
		s->buckets[bucket_of(s->exact[i])]++;
	free(s->exact);
	s->exact = NULL;
	s->nexact = 0;
	return 0;
}

/* The first value (the exact buffer is allocated), or the first past the buffer (fold). */
static __attribute__((noinline)) int sketch_add_slow(struct rq_sketch *s, uint64_t v)
{
	if (!s->buckets) {
		if (!s->exact) {
			s->exact = malloc(RQ_SKETCH_EXACT * sizeof(*s->exact));
			if (!s->exact)
				return -1;
		}
		if (s->nexact < RQ_SKETCH_EXACT) {
			s->exact[s->nexact++] = v;
			s->sorted = false;
			return 0;
		}
		if (to_buckets(s))
			return -1;
	}
	s->buckets[bucket_of(v)]++;
	return 0;
}

/*
 * Add v; *b is v's bucket once computed (-1 before), so that one value added to several
 * sketches is bucketed once.  Inline: a sketch takes a value per placement.
 */
static inline int sketch_add(struct rq_sketch *s, uint64_t v, int *b)
{
	if (!s->n || v < s->min)
		s->min = v;
	if (v > s->max)
		s->max = v;
	s->n++;
	s->total += v;
	if (s->buckets) {
		if (*b < 0)
			*b = (int)bucket_of(v);
		s->buckets[*b]++;
		return 0;
	}
	if (s->exact && s->nexact < RQ_SKETCH_EXACT) {
		s->exact[s->nexact++] = v;
		s->sorted = false;
		return 0;
	}
	return sketch_add_slow(s, v);
}

int rq_sketch_add(struct rq_sketch *s, uint64_t v)
{
	int b = -1;

	return sketch_add(s, v, &b);
}

int rq_sketch_merge(struct rq_sketch *dst, const struct rq_sketch *src)
{
	uint64_t n = dst->n;

	if (!src->n)
		return 0;
	if (!src->buckets) {
		for (uint32_t i = 0; i < src->nexact; i++)
			if (rq_sketch_add(dst, src->exact[i]))
				return -1;
		return 0;
	}
	if (to_buckets(dst))
		return -1;
	for (unsigned int b = 0; b < RQ_SKETCH_BUCKETS; b++)
		dst->buckets[b] += src->buckets[b];
	dst->n = n + src->n;
	dst->total += src->total;
	if (!n || src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
	return 0;
}

static int cmp_u64p(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

bool rq_sketch_is_exact(const struct rq_sketch *s)
{
	return !s->buckets;
}

uint64_t rq_sketch_quantile(struct rq_sketch *s, double q)
{
	uint64_t rank, seen = 0, v;

	if (!s->n)
		return 0;
	rank = (uint64_t)ceil(q * (double)s->n - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > s->n)
		rank = s->n;
	if (rank == s->n)
		return s->max;
	if (!s->buckets) {
		if (!s->sorted) {
			qsort(s->exact, s->nexact, sizeof(*s->exact), cmp_u64p);
			s->sorted = true;
		}
		return s->exact[rank - 1];
	}
	for (unsigned int b = 0; b < RQ_SKETCH_BUCKETS; b++) {
		seen += s->buckets[b];
		if (seen < rank)
			continue;
		v = bucket_value(b);
		return v < s->min ? s->min : v > s->max ? s->max : v;
	}
	return s->max;
}

static int hist_bin(uint64_t v, int lo, int per, int nbins)
{
	double x = v ? (log10((double)v) - lo) * per : -1;
	int b = x < 0 ? 0 : (int)floor(x);

	return b >= nbins ? nbins - 1 : b;
}

void rq_sketch_histogram(const struct rq_sketch *s, int lo, int per, int nbins,
			 uint64_t *counts)
{
	memset(counts, 0, (size_t)nbins * sizeof(*counts));
	if (!s->buckets) {
		for (uint32_t i = 0; i < s->nexact; i++)
			counts[hist_bin(s->exact[i], lo, per, nbins)]++;
		return;
	}
	for (unsigned int b = 0; b < RQ_SKETCH_BUCKETS; b++)
		if (s->buckets[b])
			counts[hist_bin(bucket_value(b), lo, per, nbins)] += s->buckets[b];
}

void rq_sketch_free(struct rq_sketch *s)
{
	free(s->exact);
	free(s->buckets);
	memset(s, 0, sizeof(*s));
}

/* ---- pending placements ---------------------------------------------------- */

struct rq_delay *rqe_delay_new(struct rq_analysis *an)
{
	struct rq_delay *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->an = an;
	d->added = calloc(RQ_PATH__COUNT * 2, sizeof(*d->added));
	d->path = calloc(RQ_PATH__COUNT, sizeof(*d->path));
	d->finding = calloc(RQ_FIND__COUNT, sizeof(*d->finding));
	d->kind = calloc(RQ_KIND__COUNT * 2, sizeof(*d->kind));
	if (!d->added || !d->path || !d->finding || !d->kind) {
		rqe_delay_free(d);
		return NULL;
	}
	return d;
}

static void free_sketches(struct rq_sketch *s, int n)
{
	for (int i = 0; s && i < n; i++)
		rq_sketch_free(&s[i]);
}

void rqe_delay_free(struct rq_delay *d)
{
	if (!d)
		return;
	free_sketches(d->added, RQ_PATH__COUNT * 2);
	free_sketches(d->path, RQ_PATH__COUNT);
	free_sketches(d->finding, RQ_FIND__COUNT);
	free_sketches(d->kind, RQ_KIND__COUNT * 2);
	free_sketches(d->all, 2);
	free(d->added);
	free(d->path);
	free(d->finding);
	free(d->kind);
	free(d->pool);
	free(d->full);
	free(d);
}

void rqe_delay_keep_full(struct rq_analysis *an, bool on)
{
	an->delay->keep_full = on;
}

/* Of the unmeasured delays, those after lost events: the rest have a cause of their own. */
static uint64_t unmeasured_lost(const struct rq_delay *d)
{
	uint64_t other = d->unmeasured_late + d->unmeasured_other;

	return d->unmeasured > other ? d->unmeasured - other : 0;
}

/*
 * The groups (per path, per kind, every placement) from the path sketches, merged again
 * if values came since the last read: a sketch answers the same whatever the order of
 * its values, so a group merged at the end is the group that took each value.
 */
static void groups_merge(const struct rq_delay *dc)
{
	struct rq_delay *d = (struct rq_delay *)dc;	/* the groups are a cache */

	if (d->merged == d->nadded || !d->added)
		return;
	free_sketches(d->path, RQ_PATH__COUNT);
	free_sketches(d->kind, RQ_KIND__COUNT * 2);
	free_sketches(d->all, 2);
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		for (int flagged = 0; flagged < 2; flagged++) {
			const struct rq_sketch *s = &d->added[p * 2 + flagged];

			if (!s->n)
				continue;
			if (rq_sketch_merge(&d->path[p], s) ||
			    rq_sketch_merge(&d->kind[rq_paths[p].kind * 2 + flagged], s) ||
			    rq_sketch_merge(&d->all[flagged], s))
				d->no_memory++;
		}
	}
	d->merged = d->nadded;
}

struct rq_sketch *rq_delay_kind(const struct rq_delay *d, int kind, bool flagged)
{
	if (kind < 0 || kind >= RQ_KIND__COUNT)
		return NULL;
	groups_merge(d);
	return &d->kind[kind * 2 + flagged];
}

struct rq_sketch *rq_delay_path(const struct rq_delay *d, int path)
{
	if (path < 0 || path >= RQ_PATH__COUNT)
		return NULL;
	groups_merge(d);
	return &d->path[path];
}

struct rq_sketch *rq_delay_finding(const struct rq_delay *d, int finding)
{
	return finding >= 0 && finding < RQ_FIND__COUNT ? &d->finding[finding] : NULL;
}

struct rq_sketch *rq_delay_all(const struct rq_delay *d, bool flagged)
{
	groups_merge(d);
	return (struct rq_sketch *)&d->all[flagged];
}

void rq_delay_counts(const struct rq_delay *d, struct rq_delay_counts *out)
{
	*out = (struct rq_delay_counts){
		.not_run = d->not_run,
		.unmeasured = d->unmeasured,
		.lost = unmeasured_lost(d),
		.late = d->unmeasured_late,
		.other = d->unmeasured_other,
	};
}

static void sketch_put(struct rq_delay *d, struct rq_sketch *s, uint64_t v, int *b)
{
	if (sketch_add(s, v, b))
		d->no_memory++;
}

/* A measured delay v goes into its path's sketch (the groups follow) and its findings'. */
static void account(struct rq_delay *d, unsigned int path, unsigned int findings, uint64_t v)
{
	int b = -1;

	sketch_put(d, &d->added[path * 2 + (findings != 0)], v, &b);
	d->nadded++;
	for (; findings; findings &= findings - 1) {
		unsigned int f = (unsigned int)__builtin_ctz(findings);

		if (f >= RQ_FIND__COUNT)
			break;
		sketch_put(d, &d->finding[f], v, &b);
	}
}

/* The delay is not known: the task did not run again (-1), or events were lost (lost). */
static int64_t not_measured(struct rq_delay *d, int64_t delay, bool lost)
{
	if (lost) {
		d->unmeasured++;
		return -1;
	}
	d->not_run++;
	return delay;
}

/* The examples of q's findings (found or possible) that are q: the record as it stands. */
static void examples_update(struct rq_analysis *an, const struct rq_placement *q)
{
	unsigned int f;

	for (unsigned int b = q->findings; b; b &= b - 1) {
		struct rq_finding_store *s = rqe_store(an, q, (int)(f = (unsigned int)__builtin_ctz(b)));

		if (f >= RQ_FIND__COUNT)
			break;
		for (int i = 0; i < s->nexamples; i++)
			if (s->examples[i].seq == q->seq)
				s->examples[i] = *q;
	}
	for (unsigned int b = q->possible; b; b &= b - 1) {
		struct rq_finding_store *s = rqe_store(an, q, (int)(f = (unsigned int)__builtin_ctz(b)));

		if (f >= RQ_FIND__COUNT)
			break;
		for (int i = 0; i < s->npossible; i++)
			if (s->possible_examples[i].seq == q->seq)
				s->possible_examples[i] = *q;
	}
}

/*
 * A placement with all its facts: its findings' examples become this record, and the
 * subscribers get it (on_settled).
 */
static void delay_publish(struct rq_analysis *an, struct rq_placement *q)
{
	q->settled = true;
	examples_update(an, q);
	if (an->obs.settled)
		rqe_notify_settled(an, q);
}

/* Is t the child placed by the fork placement p (the task still has that pid)? */
static struct rq_task *offcpu_child(struct rq_analysis *an, const struct rq_placement *p)
{
	struct rq_task *t;

	if (rq_paths[p->path].kind != RQ_KIND_FORK)
		return NULL;
	t = rqe_task_find(an, p->pid);
	return t && t->cold->fork_ts == p->ts ? t : NULL;
}

/*
 * The outcome of a fork placed off its parent's CPU, from what the model saw: did the
 * parent's CPU go idle before the child first ran, and how long the child lived.
 */
static void fork_outcome(const struct rq_analysis *an, const struct rq_task *t,
			 struct rq_placement *q)
{
	const struct rq_task_cold *c = t->cold;

	q->parent_cpu_idled = c->fork_parent_idled;
	/* never ran: going idle meanwhile is still a fact, staying busy is not */
	if (t->first_run_pending && rqe_valid_cpu(an, c->fork_parent_cpu) &&
	    an->cpus[c->fork_parent_cpu].idle_since >= c->fork_ts)
		q->parent_cpu_idled = 1;
	q->child_lifetime_ns = t->exited ? (int64_t)(c->exit_ts - c->fork_ts) : -1;
}

/* A placement's delay is known: its outcome too, but an offcpu-fork's child still lives. */
static void settled(struct rq_delay *d, const struct rq_placement *p, int64_t delay)
{
	struct rq_analysis *an = d->an;
	struct rq_placement q = *p;
	struct rq_task *t;

	q.delay_ns = delay;
	if ((q.findings & (1u << RQ_FIND_OFFCPU_FORK)) && (t = offcpu_child(an, &q))) {
		fork_outcome(an, t, &q);
		if (!t->exited && !d->finishing && rqe_cold(t)) {
			int slot = t->cold->fork_held - 1;

			if (!rqe_hold(an, &slot, &q)) {
				rqe_cold_if(t)->fork_held = slot + 1;
				examples_update(an, &q);	/* what is known so far */
				return;
			}
		}
	}
	delay_publish(an, &q);
}

/* A forked child exits (or is gone): its offcpu-fork placement is settled. */
void rqe_fork_child_gone(struct rq_analysis *an, struct rq_task *t)
{
	int slot = t->cold->fork_held - 1;
	struct rq_placement q;

	if (!t->cold->fork_held)
		return;
	q = *rqe_held(an, slot);
	rqe_cold_if(t)->fork_held = 0;
	rqe_release(an, &slot);
	fork_outcome(an, t, &q);
	delay_publish(an, &q);
}

/* Whether a placement's whole record is kept until it is settled. */
static inline bool whole(const struct rq_delay *d, const struct rq_placement *p)
{
	return d->keep_full || p->findings || p->possible || (p->notes & RQ_NOTE_MASK_UNKNOWN);
}

/* A placement's delay is known (ns), or is not (-1: unmeasured or never ran). */
static void settle_one(struct rq_delay *d, const struct rq_placement *p, int64_t delay, bool lost)
{
	if (delay >= 0 && !lost)
		account(d, p->path, p->findings, (uint64_t)delay);
	else
		delay = not_measured(d, delay, lost);
	if (whole(d, p))
		settled(d, p, delay);
}

/* Twice the pool (and full[] with it), its new entries on the free list; 0 or -1. */
static __attribute__((noinline)) int pool_grow(struct rq_delay *d)
{
	uint32_t ncap = d->pool_cap ? d->pool_cap * 2 : 256;
	struct rq_delay_pending *np = reallocarray(d->pool, ncap, sizeof(*np));

	if (!np)
		return -1;
	d->pool = np;
	if (d->full) {
		struct rq_placement *nf = reallocarray(d->full, ncap, sizeof(*nf));

		if (!nf)
			return -1;
		d->full = nf;
	}
	for (uint32_t i = ncap; i > d->pool_cap; i--) {
		np[i - 1].used = false;
		np[i - 1].next = d->free_head;
		d->free_head = i;
	}
	d->pool_cap = ncap;
	return 0;
}

/* A free pool entry, its index; -1 when memory runs out.  The caller fills it (keep()). */
static inline int pool_get(struct rq_delay *d)
{
	uint32_t i;

	if (!d->free_head && pool_grow(d))
		return -1;
	i = d->free_head - 1;
	d->free_head = d->pool[i].next;
	d->pool_used++;
	return (int)i;
}

static void pool_put(struct rq_delay *d, uint32_t i)
{
	d->pool[i].used = false;
	d->pool[i].next = d->free_head;
	d->free_head = i + 1;
	d->pool_used--;
}

/* e keeps what the statistics and the sinks need of placement p. */
static inline void pending_fill(struct rq_delay_pending *e, const struct rq_placement *p, bool wait)
{
	e->used = true;
	e->tainted = false;
	e->full = false;
	e->wait = wait;
	e->ts = p->ts;
	e->seq = p->seq;
	e->findings = p->findings;
	e->pid = p->pid;
	e->to_cpu = p->to_cpu;
	e->path = (uint8_t)p->path;
	e->next = 0;
}

/* A sink wants whole placements: full[i] keeps p; false if there is no memory for it. */
static __attribute__((noinline)) bool keep_full(struct rq_delay *d, int i,
						const struct rq_placement *p)
{
	if (!d->full)
		d->full = calloc(d->pool_cap, sizeof(*d->full));
	if (!d->full)
		return false;
	d->full[i] = *p;
	return true;
}

/*
 * Pool entry i keeps placement p, first on the list *head (index + 1): all of it while a
 * sink wants whole placements, else what the statistics and the finish need.
 */
static void keep(struct rq_delay *d, int i, const struct rq_placement *p, bool wait,
		 uint32_t *head)
{
	struct rq_delay_pending *e = &d->pool[i];

	pending_fill(e, p, wait);
	e->full = whole(d, p) && keep_full(d, i, p);
	e->next = *head;
	*head = (uint32_t)i + 1;
}

/* Run r of t, 0 the oldest kept (nruns_total wraps at 256, a multiple of the ring). */
_Static_assert((256 % RQ_DELAY_RUNS) == 0, "RQ_DELAY_RUNS must divide 256");
static uint64_t run_at(const struct rq_task *t, unsigned int r)
{
	const struct rq_delay_task *dt = &t->delay;
	uint64_t v = dt->last_run;

	if (__builtin_expect(dt->spilled, 0))
		return t->cold->runs[(unsigned int)(t->cold->nruns_total - dt->nruns + r) %
				     RQ_DELAY_RUNS];
	for (unsigned int k = 0; k + 1 + r < dt->nruns; k++)
		v -= dt->gap[k];
	return v;
}

/*
 * The ring moves to the cold part: a gap too wide for 32 bits, or a clock going back.
 * Out of memory: only the newest run is kept (a late placement may then be unmeasured).
 */
static __attribute__((noinline)) void runs_spill(struct rq_task *t)
{
	struct rq_task_cold *c = rqe_cold(t);
	struct rq_delay_task *dt = &t->delay;

	if (!c) {
		dt->nruns = 0;	/* run_push() counts the newest */
		return;
	}
	for (unsigned int r = 0; r < dt->nruns; r++)
		c->runs[r] = run_at(t, r);
	c->nruns_total = dt->nruns;
	dt->spilled = true;
}

/* t switched in at ts: the newest of its runs */
static void run_push(struct rq_task *t, uint64_t ts)
{
	struct rq_delay_task *dt = &t->delay;

	if (!dt->spilled && dt->nruns) {
		if (ts >= dt->last_run && ts - dt->last_run <= UINT32_MAX) {
			for (unsigned int k = RQ_DELAY_RUNS - 2; k > 0; k--)
				dt->gap[k] = dt->gap[k - 1];
			dt->gap[0] = (uint32_t)(ts - dt->last_run);
		} else {
			runs_spill(t);
		}
	}
	if (dt->spilled) {
		struct rq_task_cold *c = rqe_cold_if(t);

		c->runs[c->nruns_total++ % RQ_DELAY_RUNS] = ts;
	}
	dt->last_run = ts;
	if (dt->nruns < RQ_DELAY_RUNS)
		dt->nruns++;
}

void rqe_delay_placed(struct rq_analysis *an, const struct rq_placement *p)
{
	struct rq_delay *d = an->delay;
	struct rq_task *t;
	struct rq_delay_task *dt;
	struct rq_task_cold *c;
	int i;

	if (!d)
		return;
	t = rqe_task_find(an, p->pid);
	if (!t) {
		d->unmeasured_other++;
		settle_one(d, p, -1, true);
		return;
	}
	dt = &t->delay;
	/*
	 * An exec judged once the recorder's next marker gives the mask: the sinks (the
	 * placements export, the timeline) get it then, with its verdict.  Its delay is 0.
	 */
	if (p->notes & RQ_NOTE_MASK_UNKNOWN) {
		c = rqe_cold(t);
		i = c ? pool_get(d) : -1;
		if (i < 0) {
			d->no_memory++;
			settle_one(d, p, 0, false);
			return;
		}
		keep(d, i, p, true, &c->delay_wait_head);
		return;
	}
	/*
	 * Emitted late (a migration/N move is classified once what followed is known): the
	 * task may have run since.  The first switch-in at or after the placement counts;
	 * if the ring no longer reaches back that far, the delay is not known.
	 */
	if (dt->nruns && run_at(t, dt->nruns - 1) >= p->ts) {
		for (unsigned int r = 0; r < dt->nruns; r++) {
			if (run_at(t, r) < p->ts)
				continue;
			if (r == 0 && dt->nruns == RQ_DELAY_RUNS)
				break;	/* an earlier run may have been pushed out */
			settle_one(d, p, (int64_t)(run_at(t, r) - p->ts), false);
			return;
		}
		d->unmeasured_late++;
		settle_one(d, p, -1, true);
		return;
	}
	/* already running (exec, a wakeup of a running task): it waited for nothing */
	if (dt->running) {
		settle_one(d, p, 0, false);
		return;
	}
	i = pool_get(d);
	if (i < 0) {
		d->no_memory++;
		d->unmeasured_other++;
		settle_one(d, p, -1, true);
		return;
	}
	keep(d, i, p, false, &t->delay_head);
}

/* Settle pending placement e for a sink: the whole placement (full), or one made of e. */
static __attribute__((noinline)) void settle_pending_sink(struct rq_delay *d,
							  const struct rq_delay_pending *e,
							  const struct rq_placement *full,
							  int64_t delay, bool lost)
{
	struct rq_placement p;

	if (full) {
		settle_one(d, full, delay, lost);
		return;
	}
	memset(&p, 0, sizeof(p));
	p.parent_cpu_idled = -1;
	p.child_lifetime_ns = -1;
	p.pid = e->pid;
	p.from_cpu = -1;
	p.ts = e->ts;
	p.seq = e->seq;
	p.findings = e->findings;
	p.to_cpu = e->to_cpu;
	p.path = e->path;
	settle_one(d, &p, delay, lost);
}

/* Settle pending placement e; without a sink only the statistics take it. */
static inline void settle_pending(struct rq_delay *d, const struct rq_delay_pending *e,
				  const struct rq_placement *full, int64_t delay, bool lost)
{
	if (full || d->keep_full)
		settle_pending_sink(d, e, full, delay, lost);
	else if (delay >= 0 && !lost)
		account(d, e->path, e->findings, (uint64_t)delay);
	else
		not_measured(d, delay, lost);
}

/* Settle pool entry i and free it. */
static void settle_entry(struct rq_delay *d, uint32_t i, int64_t delay, bool lost)
{
	struct rq_delay_pending *e = &d->pool[i];

	settle_pending(d, e, e->full ? &d->full[i] : NULL, delay, lost);
	pool_put(d, i);
}

/*
 * Take the oldest entry off a task's list (index + 1).  New entries go at the head, so
 * the oldest is the tail: the lists are a few entries long.
 */
static uint32_t pop_oldest(struct rq_delay *d, uint32_t *head)
{
	uint32_t i, prev = 0;

	for (i = *head; d->pool[i - 1].next; i = d->pool[i - 1].next)
		prev = i;
	if (prev)
		d->pool[prev - 1].next = 0;
	else
		*head = 0;
	return i;
}

/* Apply a marker's verdict to a waiting exec (the same change settle_unknown_execs counts). */
void rqe_exec_fix_apply(struct rq_placement *p, const struct rq_exec_fix *fix)
{
	p->notes &= ~RQ_NOTE_MASK_UNKNOWN;
	if (fix->truth) {
		p->truth |= fix->truth;
		p->truth_policy = fix->truth_policy;
		p->truth_allowed = fix->truth_allowed;
	}
	if (!fix->one_cpu)
		return;
	p->assume |= (uint16_t)fix->assume;
	if (p->path == RQ_PATH_EXEC_LOCAL) {
		p->path = RQ_PATH_EXEC_AFFINE;
		p->conf = fix->assume ? RQ_CONF_INFERRED : RQ_CONF_EXACT;
	}
	if (fix->needless) {
		p->findings |= 1u << RQ_FIND_NEEDLESS_CALLBACK;
		p->late_findings |= 1u << RQ_FIND_NEEDLESS_CALLBACK;
		p->why |= 1u << (!fix->truth ? RQ_WHY_NEEDLESS_MARKER :
				 fix->rt ? RQ_WHY_NEEDLESS_RT : RQ_WHY_NEEDLESS_FAIR);
		p->why_cpu = fix->cpu;
	}
}

void rqe_delay_execs_settled(struct rq_analysis *an, struct rq_task *t,
			    const struct rq_exec_fix *fix)
{
	struct rq_delay *d = an->delay;
	struct rq_task_cold *c = rqe_cold_if(t);

	if (!d || !c)
		return;
	/* the oldest first, as ran() does */
	while (c->delay_wait_head) {
		uint32_t i = pop_oldest(d, &c->delay_wait_head);
		struct rq_delay_pending *e = &d->pool[i - 1];

		if (fix && e->full) {
			rqe_exec_fix_apply(&d->full[i - 1], fix);
			e->findings = d->full[i - 1].findings;
			e->path = (uint8_t)d->full[i - 1].path;
		} else if (fix) {
			struct rq_placement q = { .path = e->path, .findings = e->findings,
						  .notes = RQ_NOTE_MASK_UNKNOWN };
			/* kept compact: only what it keeps (path, findings) is taken back */

			rqe_exec_fix_apply(&q, fix);
			e->findings = q.findings;
			e->path = (uint8_t)q.path;
		}
		settle_entry(d, i - 1, 0, false);
	}
}

/* t runs from ts (it was not running): what waited for it is settled. */
static __attribute__((noinline)) void ran(struct rq_delay *d, struct rq_task *t, uint64_t ts)
{
	struct rq_delay_task *dt = &t->delay;
	uint32_t i, next, prev = 0;

	dt->running = true;
	run_push(t, ts);
	if (!t->delay_head)
		return;
	/* the oldest first: the list is newest first, turn it around */
	for (i = t->delay_head, t->delay_head = 0; i; i = next) {
		next = d->pool[i - 1].next;
		d->pool[i - 1].next = prev;
		prev = i;
	}
	for (i = prev; i; i = next) {
		struct rq_delay_pending *e = &d->pool[i - 1];

		next = e->next;
		settle_entry(d, i - 1, (int64_t)(ts - e->ts), e->tainted);
	}
}

/* Events were lost on cpu: a switch-in may be in the gap, what waits there is unmeasured. */
void rqe_delay_lost(struct rq_analysis *an, int cpu)
{
	struct rq_delay *d = an->delay;

	for (uint32_t i = 0; i < d->pool_cap; i++)
		if (d->pool[i].used && d->pool[i].to_cpu == cpu)
			d->pool[i].tainted = true;
}

/*
 * The model says cpu runs next from ts on, and no longer prev (analysis.c: the one
 * place that follows who runs).  A task that starts to run settles what waited for it;
 * a forked child's first run settles whether its parent's CPU went idle meanwhile.
 */
void rqe_curr_changed(struct rq_analysis *an, int cpu, int prev, int next, uint64_t ts)
{
	struct rq_task *t;

	if (next == 0)
		an->cpus[cpu].idle_since = ts;
	if (prev > 0 && (t = rqe_task_find(an, prev)))
		t->delay.running = false;
	if (next <= 0 || !(t = rqe_task_find(an, next)))
		return;
	if (t->first_run_pending) {
		t->first_run_pending = false;
		struct rq_task_cold *c = rqe_cold(t);

		if (c && !rqe_valid_cpu(an, c->fork_parent_cpu))
			c->fork_parent_idled = -1;
		else if (c)
			c->fork_parent_idled =
				an->cpus[c->fork_parent_cpu].idle_since >= c->fork_ts;
	}
	if (!t->delay.running)
		ran(an->delay, t, ts);
}

struct seq_idx {
	uint64_t seq;
	uint32_t i;
};

static int cmp_seq(const void *a, const void *b)
{
	const struct seq_idx *x = a, *y = b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* The forked children still alive at the end: their offcpu-fork placements, in order. */
static void forks_finish(struct rq_analysis *an)
{
	struct seq_idx *order;
	struct rq_task **tasks;
	uint32_t n = 0;

	for (int i = 0; i < an->held.n; i++)
		n++;
	if (!n)
		return;
	order = calloc(n, sizeof(*order));
	tasks = calloc(n, sizeof(*tasks));
	n = 0;
	for (unsigned int b = 0; order && tasks && b < an->tasks.task_hash_size; b++)
		for (struct rq_task *t = an->tasks.task_hash[b]; t; t = t->hnext)
			if (t->cold->fork_held) {
				order[n] = (struct seq_idx){
					rqe_held(an, t->cold->fork_held - 1)->seq, n };
				tasks[n++] = t;
			}
	if (order && tasks) {
		qsort(order, n, sizeof(*order), cmp_seq);
		for (uint32_t k = 0; k < n; k++)
			rqe_fork_child_gone(an, tasks[order[k].i]);
	}
	free(order);
	free(tasks);
}

void rqe_delay_task_gone(struct rq_analysis *an, struct rq_task *t)
{
	/* its pending placements stay in the pool, settled by rqe_delay_finish() */
	if (an->delay)
		rqe_fork_child_gone(an, t);
}

void rqe_delay_finish(struct rq_analysis *an)
{
	struct rq_delay *d = an->delay;
	struct seq_idx *order;
	uint32_t n = 0;

	if (!d)
		return;
	/* from here on nothing waits: an offcpu-fork's child that lives on lives on */
	d->finishing = true;
	forks_finish(an);
	if (!d->pool_used)
		return;
	/* the pending ones in placement order */
	order = calloc(d->pool_used, sizeof(*order));
	for (uint32_t i = 0; order && i < d->pool_cap; i++)
		if (d->pool[i].used)
			order[n++] = (struct seq_idx){ d->pool[i].seq, i };
	if (order) {
		qsort(order, n, sizeof(*order), cmp_seq);
		/* an exec still waiting for its verdict ran (delay 0) and stays not judged */
		for (uint32_t k = 0; k < n; k++)
			settle_entry(d, order[k].i, d->pool[order[k].i].wait ? 0 : -1, false);
	} else {
		for (uint32_t i = 0; i < d->pool_cap; i++)
			if (d->pool[i].used)
				settle_entry(d, i, d->pool[i].wait ? 0 : -1, false);
	}
	free(order);
	free(d->pool);
	free(d->full);
	d->full = NULL;
	d->pool = NULL;
	d->pool_cap = d->pool_used = d->free_head = 0;
	/* the tasks' heads point into the freed pool: clear them */
	for (unsigned int b = 0; b < an->tasks.task_hash_size; b++)
		for (struct rq_task *t = an->tasks.task_hash[b]; t; t = t->hnext)
		{
			t->delay_head = 0;
			if (rqe_cold_if(t))
				rqe_cold_if(t)->delay_wait_head = 0;
		}
}

/* ---- comparison groups ----------------------------------------------------- */

int rq_delay_others(const struct rq_delay *d, int finding, struct rq_sketch *out)
{
	memset(out, 0, sizeof(*out));
	if (finding < 0 || finding >= RQ_FIND__COUNT)
		return -1;
	for (int k = 0; k < RQ_KIND__COUNT; k++)
		if ((rq_finding_kinds[finding] & (1u << k)) &&
		    rq_sketch_merge(out, rq_delay_kind(d, k, false)))
			return -1;
	return 0;
}
