// SPDX-License-Identifier: GPL-2.0
/*
 * pump.c - the one per-CPU merge: sources in, decoded events out to the sinks.
 *
 * Every CPU keeps one record at its head.  The next record is the earliest head (the
 * lower CPU on a tie): the CPUs' heads are the leaves of a tree of losers by
 * (timestamp, CPU), so that taking the next record and advancing its CPU costs
 * O(log CPUs), not O(CPUs) (a 256-CPU trace changes CPU at nearly every record): the new
 * head plays one match a level up to the root, a compare and two conditional moves on
 * keys packed in a word, no branch to mispredict (a binary heap's sift took a branch a
 * level that went either way at random).  While the CPU just advanced stays
 * before the runner-up, it stays next after one compare.
 * A CPU is advanced only after its record went through every sink, so the record
 * (which points into the source's buffer) is valid while the sinks look at it.
 *
 * With a worker (rq_pump_start_worker()) the same merge and the decoding run in the
 * worker's thread, into batches of events that own their texts; the caller's thread
 * only hands the batches' events to the sinks, with the same budget checks per event.
 */
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "decode.h"
#include "pump.h"

struct sink {
	rq_sink_fn fn;
	void *data;
};

/*
 * With a worker (rq_pump_start_worker()) the merge and the decoding run in a thread of
 * their own, which fills batches of decoded events (a gap's RQ_EV_LOST mark right before
 * its record, a print's text copied into the batch), and rq_pump_run() only hands them
 * to the sinks.  A batch is written by the worker and read by the caller's thread, never
 * both at once: NR_BATCHES of them go round between the two.
 */
#define BATCH_EVENTS 512
#define NR_BATCHES 8
#define ARENA_MIN 16384

enum batch_status { B_MORE, B_END, B_ERROR };

struct batch {
	struct rq_event *ev;
	int n;			/* events in it */
	int pos;		/* the next one to deliver */
	char *arena;		/* the texts of its events (ev->str) */
	struct rq_truth_rec *truth;	/* per event slot: its truth record (ev->truth) */
	size_t used, cap;
	enum batch_status status;	/* after its events: more, the end, an error */
	double progress;	/* the source's, when the batch was filled */
};

struct worker {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t filled, freed;
	struct batch b[NR_BATCHES];
	unsigned int head, tail;	/* batches delivered, batches filled */
	bool quit;
	struct batch *cur;	/* the caller's: being delivered */
};

/* A wide key of the merge (times that do not fit a packed one): (timestamp, stream). */
typedef struct {
	uint64_t ts;
	uint64_t s;		/* the stream, | LT_NONE: no head */
} lt_key;

struct rq_pump {
	struct rq_source src;
	struct rq_decoder *dec;
	int ncpus;
	int nstreams;		/* the CPUs, then the source's extra streams (truth) */
	/* the merge: the worker's while there is one */
	const struct rq_raw **head;	/* per CPU: the record not yet delivered, NULL none */
	int next;		/* CPU of the next record (the tree's winner); -1 none; -2 to
				 * pick */
	int pending;		/* CPU whose record was delivered and is still to advance: the
				 * tree's winner, its key stale until then */
	/*
	 * A tree of losers over the streams' heads (pick()): leaves (a power of two)
	 * leaves, each match's loser at its node (1 .. leaves - 1; node n's children are
	 * 2n and 2n + 1, leaf i is node leaves + i), the winner at 0.
	 */
	unsigned int leaves;
	unsigned int sbits;	/* bits of the stream in a packed key */
	bool wide, based;	/* wide: two-word keys, for good; based: base is set */
	uint64_t base, range;	/* a packed key is (ts - base) << sbits | stream, when
				 * ts - base < range */
	uint64_t *tree;		/* packed keys */
	uint64_t second;	/* the runner-up's (LT_DEAD: none) */
	lt_key *wtree;		/* wide keys */
	lt_key wsecond;
	void *scratch;		/* pick()'s: 2 * leaves wide keys */
	bool started, mfailed;
	char merr[384];		/* the source's error, when mfailed */
	/* lost events per CPU: the marks seen, and what was counted (marks or statistic) */
	unsigned long long *marks, *counted;
	/* the delivery: the caller's thread */
	bool end, failed, stop;
	struct sink sinks[RQ_PUMP_MAX_SINKS];
	int nsinks;
	void (*advance_fn)(void *data, uint64_t ts);
	void *advance_data;
	uint64_t lost;
	uint64_t records, last_ts;
	long last_fed;
	double progress;	/* with a worker: the last batch's */
	struct worker *w;
	char err[384];
};

/* ---- the pump --------------------------------------------------------------------- */

struct rq_pump *rq_pump_new(const struct rq_source *src)
{
	struct rq_pump *p = calloc(1, sizeof(*p));
	int extra = src->nextra > 0 ? src->nextra : 0;
	int n = (src->ncpus > 0 ? src->ncpus : 0) + extra;

	if (!p)
		return NULL;
	if (n < 1)
		n = 1;
	p->src = *src;
	p->ncpus = src->ncpus > 0 ? src->ncpus : 0;
	p->nstreams = p->ncpus + extra;
	p->head = calloc((size_t)n, sizeof(*p->head));
	p->leaves = 2;
	p->sbits = 1;
	while (p->leaves < (unsigned int)n) {
		p->leaves *= 2;
		p->sbits++;
	}
	p->range = (UINT64_C(1) << (64 - p->sbits)) - 1;
	p->tree = calloc(p->leaves, sizeof(*p->tree));
	p->wtree = calloc(p->leaves, sizeof(*p->wtree));
	p->scratch = calloc(2 * p->leaves, sizeof(*p->wtree));
	p->marks = calloc((size_t)n, sizeof(*p->marks));
	p->counted = calloc((size_t)n, sizeof(*p->counted));
	p->dec = src->tep ? rq_decoder_new(src->tep) : NULL;
	if (!p->head || !p->tree || !p->wtree || !p->scratch || !p->marks || !p->counted ||
	    (src->tep && !p->dec)) {
		rq_pump_free(p);
		return NULL;
	}
	p->next = -2;
	p->pending = -1;
	return p;
}

static void stop_worker(struct rq_pump *p);

void rq_pump_free(struct rq_pump *p)
{
	if (!p)
		return;
	stop_worker(p);
	if (p->dec)
		rq_decoder_free(p->dec);
	free(p->head);
	free(p->tree);
	free(p->wtree);
	free(p->scratch);
	free(p->marks);
	free(p->counted);
	free(p);
}

const bool *rq_pump_available(const struct rq_pump *p)
{
	return p->dec ? rq_decoder_available(p->dec) : NULL;
}

int rq_pump_cpus(const struct rq_pump *p)
{
	return p->ncpus;
}

int rq_pump_add_sink(struct rq_pump *p, rq_sink_fn fn, void *data)
{
	if (p->nsinks >= RQ_PUMP_MAX_SINKS)
		return -1;
	p->sinks[p->nsinks].fn = fn;
	p->sinks[p->nsinks].data = data;
	p->nsinks++;
	return 0;
}

void rq_pump_on_advance(struct rq_pump *p, void (*fn)(void *data, uint64_t ts), void *data)
{
	p->advance_fn = fn;
	p->advance_data = data;
}

static inline void deliver(struct rq_pump *p, const struct rq_event *ev)
{
	/* the replay of an audit: one sink (the analysis), no loop */
	if (p->nsinks == 1) {
		p->sinks[0].fn(p->sinks[0].data, ev);
		return;
	}
	for (int i = 0; i < p->nsinks; i++)
		p->sinks[i].fn(p->sinks[i].data, ev);
}

uint64_t rq_pump_note_overrun(struct rq_pump *p, int cpu, unsigned long long overrun,
			      bool emit, uint64_t ts)
{
	struct rq_event lost = { .ts = ts, .type = RQ_EV_LOST, .cpu = cpu, .pid = -1 };
	unsigned long long more;

	if (cpu < 0 || cpu >= p->ncpus || overrun <= p->counted[cpu])
		return 0;
	more = overrun - p->counted[cpu];
	p->counted[cpu] = overrun;
	p->lost += more;
	if (emit) {
		lost.arg = (long long)more;
		deliver(p, &lost);
	}
	return more;
}

uint64_t rq_pump_lost(const struct rq_pump *p)
{
	return p->lost;
}

/* The source failed: its error line, for the merge's side (the worker's, if any). */
static bool fail(struct rq_pump *p)
{
	const char *e = p->src.ops->error ? p->src.ops->error(p->src.ctx) : NULL;

	p->mfailed = true;
	snprintf(p->merr, sizeof(p->merr), "%s", e && *e ? e : "error while reading the trace");
	return false;
}

/* The delivery's side learns of the merge's failure. */
static void failed(struct rq_pump *p, const char *err)
{
	p->failed = true;
	snprintf(p->err, sizeof(p->err), "%s", err);
}

/* Read CPU cpu's next record into its head. */
static inline bool fill(struct rq_pump *p, int cpu)
{
	int got = p->src.ops->next(p->src.ctx, cpu, &p->head[cpu]);

	if (got < 0) {
		p->head[cpu] = NULL;
		return fail(p);
	}
	if (got == 0)
		p->head[cpu] = NULL;
	return true;
}

/*
 * The merge's tree of losers orders the streams' heads by (timestamp, stream): the
 * earlier record first, the lower stream on a tie.  Its keys are packed in one word,
 * (ts - base) << sbits | stream, which a trace's times fit in (p->range is 2^51 ns, 26
 * days, even with 8192 streams; base is half of that before the first heads); a stream
 * without a head is LT_DEAD, after every record.  A head out of that range (a clock
 * that jumped, a damaged page) turns the tree wide for good: keys of two words, the
 * same order, a few more instructions a match.
 */
#define LT_DEAD UINT64_MAX
#define LT_NONE 0x80000000u	/* wide: no head (with the largest timestamp) */

/* Stream s's packed key; false when its head lies out of the keys' range. */
static inline bool narrow_key(const struct rq_pump *p, int s, uint64_t *key)
{
	const struct rq_raw *r = p->head[s];
	uint64_t d;

	if (!r) {
		*key = LT_DEAD;
		return true;
	}
	d = r->ts - p->base;
	*key = d << p->sbits | (uint64_t)s;
	return d < p->range;
}

static inline lt_key wide_key(const struct rq_pump *p, int s)
{
	if (!p->head[s])
		return (lt_key){ UINT64_MAX, LT_NONE | (uint32_t)s };
	return (lt_key){ p->head[s]->ts, (uint32_t)s };
}

/*
 * All ones when a comes before b, else 0: the borrow of the 96-bit a - b, with no
 * branch.
 */
static inline uint64_t wide_before(lt_key a, lt_key b)
{
	unsigned long long d;
	uint64_t lo = (a.s - b.s) >> 63;	/* both below 2^32: the borrow */
	bool c1 = __builtin_usubll_overflow(a.ts, b.ts, &d);
	bool c2 = __builtin_usubll_overflow(d, lo, &d);

	return -(uint64_t)(c1 | c2);
}

/*
 * The record after this one is likely the runner-up's: with many CPUs its cursor was
 * read long ago, and its record (which the source asked the L2 cache for when it read
 * it, tracedat.c) has left L1; ask for both now, a record ahead of the decoder.
 */
static inline void prefetch_head(const struct rq_raw *r)
{
	__builtin_prefetch(r->data);
	__builtin_prefetch((const char *)r->data + r->size - 1);
}

/*
 * The runner-up: the earliest of the losers on the winner's way to the root (each lost
 * to it once), so the earliest head after the winner's.  The key the winner's next head
 * must beat to stay first, and the cursor to ask the cache for.
 */
static inline void narrow_settled(struct rq_pump *p)
{
	const uint64_t *t = p->tree;
	uint64_t w = t[0], s = LT_DEAD;

	if (w == LT_DEAD) {
		p->next = -1;
		return;
	}
	p->next = (int)(w & ((1u << p->sbits) - 1));
	for (size_t n = ((size_t)p->leaves + (size_t)p->next) >> 1; n; n >>= 1)
		s = t[n] < s ? t[n] : s;
	p->second = s;
	if (s != LT_DEAD)
		prefetch_head(p->head[s & ((1u << p->sbits) - 1)]);
}

static inline void wide_settled(struct rq_pump *p)
{
	const lt_key *t = p->wtree;
	lt_key w = t[0], s = { UINT64_MAX, UINT32_MAX };

	if (w.s & LT_NONE) {
		p->next = -1;
		return;
	}
	p->next = (int)w.s;
	for (unsigned int n = (p->leaves + (unsigned int)p->next) >> 1; n; n >>= 1) {
		uint64_t m = wide_before(t[n], s);

		s.ts ^= (t[n].ts ^ s.ts) & m;
		s.s ^= (t[n].s ^ s.s) & m;
	}
	p->wsecond = s;
	if (!(s.s & LT_NONE))
		prefetch_head(p->head[s.s]);
}

/* The wide tree of every stream's head, built anew: O(streams). */
static void pick_wide(struct rq_pump *p)
{
	unsigned int leaves = p->leaves;
	lt_key *win = p->scratch, *t = p->wtree;

	p->wide = true;
	for (unsigned int i = 0; i < leaves; i++)
		win[leaves + i] = i < (unsigned int)p->nstreams ? wide_key(p, (int)i) :
			(lt_key){ UINT64_MAX, LT_NONE | i };
	for (unsigned int n = leaves - 1; n >= 1; n--) {
		lt_key a = win[2 * n], b = win[2 * n + 1];
		bool first = wide_before(a, b);

		win[n] = first ? a : b;
		t[n] = first ? b : a;
	}
	t[0] = win[1];
	wide_settled(p);
}

/*
 * The tree of every stream's head, built anew (the start, a live refill): O(streams).
 * The first one sets the keys' base: half their range before the earliest head, so a
 * clock that goes backwards a little stays in it.
 */
static void pick(struct rq_pump *p)
{
	unsigned int leaves = p->leaves;
	uint64_t *win = p->scratch, *t = p->tree;

	if (p->wide) {
		pick_wide(p);
		return;
	}
	if (!p->based) {
		uint64_t min = UINT64_MAX;

		for (int i = 0; i < p->nstreams; i++)
			if (p->head[i] && p->head[i]->ts < min)
				min = p->head[i]->ts;
		if (min == UINT64_MAX) {
			p->next = -1;	/* nothing yet (live): no base either */
			return;
		}
		p->based = true;
		p->base = min > p->range / 2 ? min - p->range / 2 : 0;
	}
	for (unsigned int i = 0; i < leaves; i++) {
		win[leaves + i] = LT_DEAD;
		if (i < (unsigned int)p->nstreams && !narrow_key(p, (int)i, &win[leaves + i])) {
			pick_wide(p);
			return;
		}
	}
	for (unsigned int n = leaves - 1; n >= 1; n--) {
		uint64_t a = win[2 * n], b = win[2 * n + 1];

		win[n] = a < b ? a : b;
		t[n] = a < b ? b : a;
	}
	t[0] = win[1];
	narrow_settled(p);
}

/*
 * The winner's stream, just delivered, was advanced: its new head (or none) plays its
 * way up from its leaf, one match a level, without a branch (the loser stays, the
 * winner goes on: which one is as good as random with many CPUs, no branch predicts
 * it).
 */
static inline void root_advanced(struct rq_pump *p, int cpu)
{
	if (__builtin_expect(!p->wide, 1)) {
		uint64_t e, *t = p->tree;

		if (__builtin_expect(!narrow_key(p, cpu, &e), 0)) {
			pick_wide(p);
			return;
		}
		/* still before every other head: next again (a trace is mostly runs of one CPU) */
		if (e < p->second) {
			t[0] = e;
			p->next = cpu;
			return;
		}
		for (size_t n = ((size_t)p->leaves + (size_t)cpu) >> 1; n; n >>= 1) {
			uint64_t l = t[n];

			t[n] = l < e ? e : l;
			e = l < e ? l : e;
		}
		t[0] = e;
		narrow_settled(p);
	} else {
		lt_key e = wide_key(p, cpu), *t = p->wtree;

		if (wide_before(e, p->wsecond)) {
			t[0] = e;
			p->next = e.s & LT_NONE ? -1 : cpu;
			return;
		}
		for (unsigned int n = (p->leaves + (unsigned int)cpu) >> 1; n; n >>= 1) {
			lt_key l = t[n];
			uint64_t m = wide_before(l, e), dts = (l.ts ^ e.ts) & m, ds = (l.s ^ e.s) & m;

			t[n].ts = l.ts ^ dts;
			t[n].s = l.s ^ ds;
			e.ts ^= dts;
			e.s ^= ds;
		}
		t[0] = e;
		wide_settled(p);
	}
}

/*
 * Make p->next the CPU of the next record (-1: none now).  A live source is asked for
 * more once every CPU's records are used up.
 */
static bool settle(struct rq_pump *p)
{
	if (!p->started) {
		p->started = true;
		for (int cpu = 0; cpu < p->nstreams; cpu++)
			if (!fill(p, cpu))
				return false;
		p->next = -2;
	}
	if (p->pending >= 0) {
		int cpu = p->pending;

		p->pending = -1;
		if (!fill(p, cpu))
			return false;
		root_advanced(p, cpu);
	}
	if (p->next == -2)
		pick(p);
	if (p->next < 0 && p->src.ops->refill) {
		int r = p->src.ops->refill(p->src.ctx);

		if (r < 0)
			return fail(p);
		if (r == 0)
			return true;
		for (int cpu = 0; cpu < p->nstreams; cpu++)
			if (!p->head[cpu] && !fill(p, cpu))
				return false;
		pick(p);
	}
	return true;
}

/* The record at CPU cpu's head is taken: its CPU advances at the next settle(). */
static inline void take(struct rq_pump *p, int cpu)
{
	p->head[cpu] = NULL;
	p->pending = cpu;
	p->next = -2;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * A gap before rec: events lost, or a clock that went backwards on its CPU.  The mark
 * goes to the sinks right before rec; its arg is what it adds to the lost total.
 */
static void make_mark(struct rq_pump *p, const struct rq_raw *rec, struct rq_event *lost)
{
	/*
	 * What the CPU did in between is unknown, so the engine forgets its runqueue and
	 * marks what follows as after a loss.
	 */
	memset(lost, 0, sizeof(*lost));
	lost->ts = rec->ts;
	lost->type = RQ_EV_LOST;
	lost->cpu = rec->cpu;
	lost->state = rec->backwards ? RQ_LOST_BACKWARDS : 0;
	/* the total grows only where the marks pass what the CPU's statistic said */
	if (rec->missed > 0) {
		p->marks[rec->cpu] += (unsigned long long)rec->missed;
		if (p->marks[rec->cpu] > p->counted[rec->cpu]) {
			lost->arg = (long long)(p->marks[rec->cpu] - p->counted[rec->cpu]);
			p->counted[rec->cpu] = p->marks[rec->cpu];
		}
	}
}

static inline void decode(struct rq_pump *p, const struct rq_raw *rec, int cpu,
			  struct rq_event *ev)
{
	if (__builtin_expect(p->dec != NULL, 1)) {
		rq_decode_raw(p->dec, rec->data, rec->size, rec->ts, cpu, ev);
	} else {
		/* a source without formats: every record is one rqpath does not know */
		memset(ev, 0, sizeof(*ev));
		ev->ts = rec->ts;
		ev->cpu = cpu < p->ncpus ? cpu : -1;
	}
}

/*
 * The next record to deliver: 1 with *cpu (its record at p->head[*cpu]), 0 none (the
 * end, or nothing now from a live source), -1 the source failed (p->mfailed).
 */
static inline int next_record(struct rq_pump *p, int *cpu_out)
{
	int cpu = p->pending;

	/* the CPU just delivered advances; while it stays first, it is next again */
	if (cpu >= 0) {
		int got = p->src.ops->next(p->src.ctx, cpu, &p->head[cpu]);

		p->pending = -1;
		if (__builtin_expect(got <= 0, 0)) {
			p->head[cpu] = NULL;
			if (got < 0) {
				fail(p);
				return -1;
			}
		}
		root_advanced(p, cpu);
	}
	if (__builtin_expect(p->next < 0, 0)) {
		if (p->mfailed || !settle(p))
			return -1;
		if (p->next < 0)
			return 0;
	}
	*cpu_out = p->next;
	return 1;
}

/* The budget's event count, or where its wall time is next looked at (every 64). */
static inline long check_point(long fed, long max_events, double until)
{
	return until && fed + 64 < max_events ? fed + 64 : max_events;
}

/* A run's counters back into the pump, and the advance callback when it delivered any. */
static enum rq_pump_status run_ended(struct rq_pump *p, enum rq_pump_status st,
				     uint64_t records, uint64_t last_ts, long fed)
{
	p->records = records;
	p->last_ts = last_ts;
	p->last_fed = fed;
	if (fed && p->advance_fn)
		p->advance_fn(p->advance_data, last_ts);
	return st;
}

static enum rq_pump_status run_batches(struct rq_pump *p, long max_events, uint64_t until_ts,
				       double until);

enum rq_pump_status rq_pump_run(struct rq_pump *p, const struct rq_budget *b)
{
	static const struct rq_budget all;
	double until = 0;
	long fed = 0, max_events, check;
	uint64_t until_ts, records = p->records, last_ts = p->last_ts;
	enum rq_pump_status st;
	struct rq_event ev;

	if (!b)
		b = &all;
	max_events = b->max_events > 0 ? b->max_events : LONG_MAX;
	until_ts = b->until_ts ? b->until_ts : UINT64_MAX;
	if (b->max_seconds > 0)
		until = now_s() + b->max_seconds;
	p->stop = false;
	if (p->end)
		return RQ_PUMP_END;
	if (p->failed)
		return RQ_PUMP_ERROR;
	if (p->w)
		return run_batches(p, max_events, until_ts, until);
	check = check_point(0, max_events, until);
	for (;;) {
		const struct rq_raw *rec;
		int cpu, got = next_record(p, &cpu);

		if (__builtin_expect(got <= 0, 0)) {
			if (got < 0) {
				failed(p, p->merr);
				st = RQ_PUMP_ERROR;
			} else if (p->src.ops->refill) {
				st = RQ_PUMP_IDLE;
			} else {
				p->end = true;
				st = RQ_PUMP_END;
			}
			break;
		}
		rec = p->head[cpu];
		if (__builtin_expect(rec->ts > until_ts, 0)) {
			st = RQ_PUMP_UNTIL;
			break;
		}
		/* the events of the budget, and every 64 events its wall time */
		if (__builtin_expect(fed >= check, 0)) {
			if (fed >= max_events || now_s() >= until) {
				st = RQ_PUMP_BUDGET;
				break;
			}
			check = check_point(fed, max_events, until);
		}
		if (__builtin_expect(rec->missed || rec->backwards, 0) && cpu < p->ncpus) {
			make_mark(p, rec, &ev);
			p->lost += (uint64_t)ev.arg;
			deliver(p, &ev);
		}
		decode(p, rec, cpu, &ev);
		deliver(p, &ev);
		last_ts = rec->ts;
		take(p, cpu);
		records++;
		fed++;
		if (p->stop) {
			st = RQ_PUMP_STOPPED;
			break;
		}
	}
	return run_ended(p, st, records, last_ts, fed);
}

/* ---- the worker ------------------------------------------------------------------- */

/* Keep ev's text in the batch.  false: the batch has no room left for it. */
static bool keep_text(struct batch *b, struct rq_event *ev)
{
	size_t n = (size_t)ev->str_len;

	if (b->cap - b->used < n + 1) {
		size_t cap = b->cap ? b->cap : ARENA_MIN;
		char *a;

		/* only an empty batch grows (no event points into it yet) */
		if (b->n)
			return false;
		while (cap < n + 1)
			cap *= 2;
		a = realloc(b->arena, cap);
		if (!a)
			return false;
		b->arena = a;
		b->cap = cap;
	}
	memcpy(b->arena + b->used, ev->str, n);
	b->arena[b->used + n] = '\0';
	ev->str = b->arena + b->used;
	b->used += n + 1;
	return true;
}

/* Keep ev's truth record (the decoder's, overwritten by the next) in the batch. */
static bool keep_truth(struct batch *b, struct rq_event *ev)
{
	int i = b->n + (ev != &b->ev[b->n]);

	if (!b->truth) {
		b->truth = malloc(BATCH_EVENTS * sizeof(*b->truth));
		if (!b->truth)
			return false;
	}
	b->truth[i] = *ev->truth;
	ev->truth = &b->truth[i];
	return true;
}

/* The worker's part: fill b with the next decoded events, the merge as rq_pump_run()'s. */
static void fill_batch(struct rq_pump *p, struct batch *b)
{
	b->n = b->pos = 0;
	b->used = 0;
	b->status = B_MORE;
	while (b->n + 2 <= BATCH_EVENTS) {
		const struct rq_raw *rec;
		struct rq_event *ev;
		int cpu, got = next_record(p, &cpu);
		bool gap;

		if (__builtin_expect(got <= 0, 0)) {
			b->status = got < 0 ? B_ERROR : B_END;
			break;
		}
		rec = p->head[cpu];
		gap = (rec->missed || rec->backwards) && cpu < p->ncpus;
		ev = &b->ev[b->n + gap];
		decode(p, rec, cpu, ev);
		if (__builtin_expect(ev->truth != NULL, 0) && !keep_truth(b, ev)) {
			p->mfailed = true;
			snprintf(p->merr, sizeof(p->merr), "out of memory");
			b->status = B_ERROR;
			break;
		}
		if (__builtin_expect(ev->str != NULL, 0) && !keep_text(b, ev)) {
			if (!b->n) {
				p->mfailed = true;
				snprintf(p->merr, sizeof(p->merr), "out of memory");
				b->status = B_ERROR;
			}
			break;	/* the record stays first, for the next batch */
		}
		if (__builtin_expect(gap, 0))
			make_mark(p, rec, &b->ev[b->n]);
		b->n += 1 + gap;
		take(p, cpu);
	}
	b->progress = p->src.ops->progress ? p->src.ops->progress(p->src.ctx) : 0.0;
}

static void *worker_main(void *arg)
{
	struct rq_pump *p = arg;
	struct worker *w = p->w;

	for (;;) {
		struct batch *b;

		pthread_mutex_lock(&w->lock);
		if (w->tail - w->head == NR_BATCHES)
			while (!w->quit && w->tail - w->head > NR_BATCHES / 2)
				pthread_cond_wait(&w->freed, &w->lock);
		if (w->quit) {
			pthread_mutex_unlock(&w->lock);
			break;
		}
		b = &w->b[w->tail % NR_BATCHES];
		pthread_mutex_unlock(&w->lock);
		fill_batch(p, b);
		pthread_mutex_lock(&w->lock);
		w->tail++;
		pthread_cond_signal(&w->filled);
		pthread_mutex_unlock(&w->lock);
		if (b->status != B_MORE)
			break;
	}
	return NULL;
}

static void free_worker(struct worker *w)
{
	for (int i = 0; i < NR_BATCHES; i++) {
		free(w->b[i].ev);
		free(w->b[i].arena);
		free(w->b[i].truth);
	}
	free(w);
}

int rq_pump_start_worker(struct rq_pump *p)
{
	struct worker *w;
	sigset_t all, old;
	int err;

	/* a live source is read where its refills happen: in the caller's thread */
	if (p->w || p->src.ops->refill || p->started || p->end || p->failed)
		return -1;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -1;
	for (int i = 0; i < NR_BATCHES; i++) {
		w->b[i].ev = malloc(BATCH_EVENTS * sizeof(*w->b[i].ev));
		if (!w->b[i].ev) {
			free_worker(w);
			return -1;
		}
	}
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->filled, NULL);
	pthread_cond_init(&w->freed, NULL);
	p->w = w;
	/*
	 * The worker takes no signal (it starts with them all blocked): a SIGINT, SIGWINCH
	 * or SIGCHLD goes to the caller's thread, whose waits it is meant to interrupt.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&w->thread, NULL, worker_main, p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		p->w = NULL;
		pthread_cond_destroy(&w->filled);
		pthread_cond_destroy(&w->freed);
		pthread_mutex_destroy(&w->lock);
		free_worker(w);
		return -1;
	}
	return 0;
}

static void stop_worker(struct rq_pump *p)
{
	struct worker *w = p->w;

	if (!w)
		return;
	pthread_mutex_lock(&w->lock);
	w->quit = true;
	pthread_cond_signal(&w->freed);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->thread, NULL);
	pthread_cond_destroy(&w->filled);
	pthread_cond_destroy(&w->freed);
	pthread_mutex_destroy(&w->lock);
	free_worker(w);
	p->w = NULL;
}

/*
 * The batch with the next event to deliver, waiting for the worker to fill it; NULL at
 * the end (p->end) or after an error (p->failed), once every event before is delivered.
 */
static struct batch *current(struct rq_pump *p)
{
	struct worker *w = p->w;
	struct batch *b = w->cur;

	while (!b || b->pos >= b->n) {
		if (b) {
			if (b->status == B_END) {
				p->end = true;
				return NULL;
			}
			if (b->status == B_ERROR) {
				/* the worker wrote merr before it handed the batch over */
				failed(p, p->merr);
				return NULL;
			}
			pthread_mutex_lock(&w->lock);
			w->head++;
			/*
			 * a worker that found every batch full sleeps until half of them are
			 * free again: one wake-up for NR_BATCHES / 2 batches, not one each
			 */
			if (w->tail - w->head <= NR_BATCHES / 2)
				pthread_cond_signal(&w->freed);
			pthread_mutex_unlock(&w->lock);
		}
		pthread_mutex_lock(&w->lock);
		while (w->head == w->tail)
			pthread_cond_wait(&w->filled, &w->lock);
		b = &w->b[w->head % NR_BATCHES];
		pthread_mutex_unlock(&w->lock);
		w->cur = b;
		p->progress = b->progress;
	}
	return b;
}

/* rq_pump_run() with a worker: the events are decoded already, only the sinks run here. */
static enum rq_pump_status run_batches(struct rq_pump *p, long max_events, uint64_t until_ts,
				       double until)
{
	long fed = 0, check = check_point(0, max_events, until);
	uint64_t records = p->records, last_ts = p->last_ts;
	enum rq_pump_status st;

	for (;;) {
		struct batch *b = current(p);
		const struct rq_event *ev, *end;

		if (!b) {
			st = p->failed ? RQ_PUMP_ERROR : RQ_PUMP_END;
			break;
		}
		ev = b->ev + b->pos;
		end = b->ev + b->n;
		while (ev < end) {
			if (__builtin_expect(ev->ts > until_ts, 0)) {
				st = RQ_PUMP_UNTIL;
				goto out;
			}
			if (__builtin_expect(fed >= check, 0)) {
				if (fed >= max_events || now_s() >= until) {
					st = RQ_PUMP_BUDGET;
					goto out;
				}
				check = check_point(fed, max_events, until);
			}
			/* a mark comes with its record, in the same batch */
			if (__builtin_expect(ev->type == RQ_EV_LOST, 0)) {
				p->lost += (uint64_t)ev->arg;
				deliver(p, ev++);
			}
			deliver(p, ev);
			last_ts = ev->ts;
			ev++;
			records++;
			fed++;
			if (p->stop) {
				b->pos = (int)(ev - b->ev);
				st = RQ_PUMP_STOPPED;
				goto done;
			}
		}
		b->pos = b->n;
		continue;
out:
		b->pos = (int)(ev - b->ev);
		break;
	}
done:
	return run_ended(p, st, records, last_ts, fed);
}

void rq_pump_stop(struct rq_pump *p)
{
	p->stop = true;
}

int rq_pump_next_raw(struct rq_pump *p, struct rq_raw *rec)
{
	if (p->w || p->mfailed || !settle(p))
		return -1;
	if (p->next < 0)
		return 0;
	*rec = *p->head[p->next];
	p->last_ts = rec->ts;
	p->records++;
	take(p, p->next);
	return 1;
}

long rq_pump_last_fed(const struct rq_pump *p)
{
	return p->last_fed;
}

uint64_t rq_pump_records(const struct rq_pump *p)
{
	return p->records;
}

uint64_t rq_pump_next_ts(struct rq_pump *p)
{
	struct batch *b;

	if (p->failed || p->end)
		return UINT64_MAX;
	if (p->w) {
		b = current(p);
		return b ? b->ev[b->pos].ts : UINT64_MAX;
	}
	if (p->mfailed || !settle(p) || p->next < 0)
		return UINT64_MAX;
	return p->head[p->next]->ts;
}

uint64_t rq_pump_last_ts(const struct rq_pump *p)
{
	return p->last_ts;
}

double rq_pump_progress(const struct rq_pump *p)
{
	if (p->end)
		return 1.0;
	if (p->w)
		return p->progress;
	return p->src.ops->progress ? p->src.ops->progress(p->src.ctx) : 0.0;
}

const char *rq_pump_error(const struct rq_pump *p)
{
	return p->failed ? p->err : "error while reading the trace";
}

double rq_rate_decay(double rate, uint64_t count, double dt, double tau)
{
	if (dt <= 0)
		return rate;
	return rate + (1 - exp(-dt / tau)) * ((double)count / dt - rate);
}
