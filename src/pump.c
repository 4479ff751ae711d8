// SPDX-License-Identifier: GPL-2.0
/*
 * pump.c - the one per-CPU merge: sources in, decoded events out to the sinks.
 *
 * Every CPU keeps one record at its head.  The next record is the earliest head (the
 * lower CPU on a tie); the earliest of the other heads is remembered (limit), and while
 * the CPU just advanced stays before it, its records come next without looking at the
 * other CPUs again: a trace is mostly runs of one CPU.  A CPU is advanced only after its
 * record went through every sink, so the record (which points into the source's
 * buffer) is valid while the sinks look at it.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "decode.h"
#include "pump.h"

struct sink {
	rq_sink_fn fn;
	void *data;
};

struct rq_pump {
	struct rq_source src;
	struct rq_decoder *dec;
	int ncpus;
	const struct rq_raw **head;	/* per CPU: the record not yet delivered, NULL none */
	int next;		/* CPU of the next record; -1 none; -2 to pick */
	int pending;		/* CPU whose record was delivered and is still to advance */
	uint64_t limit_ts;	/* the earliest head of the CPUs but next */
	int limit_cpu;
	bool started, end, failed, stop;
	struct sink sinks[RQ_PUMP_MAX_SINKS];
	int nsinks;
	void (*advance_fn)(void *data, uint64_t ts);
	void *advance_data;
	/* lost events per CPU: the marks seen, and what was counted (marks or statistic) */
	unsigned long long *marks, *counted;
	uint64_t lost;
	uint64_t records, last_ts;
	long last_fed;
	char err[384];
};

/* ---- the pump --------------------------------------------------------------------- */

struct rq_pump *rq_pump_new(const struct rq_source *src)
{
	struct rq_pump *p = calloc(1, sizeof(*p));
	int n = src->ncpus > 0 ? src->ncpus : 1;

	if (!p)
		return NULL;
	p->src = *src;
	p->ncpus = src->ncpus > 0 ? src->ncpus : 0;
	p->head = calloc((size_t)n, sizeof(*p->head));
	p->marks = calloc((size_t)n, sizeof(*p->marks));
	p->counted = calloc((size_t)n, sizeof(*p->counted));
	p->dec = src->tep ? rq_decoder_new(src->tep) : NULL;
	if (!p->head || !p->marks || !p->counted || (src->tep && !p->dec)) {
		rq_pump_free(p);
		return NULL;
	}
	p->next = -2;
	p->pending = -1;
	return p;
}

void rq_pump_free(struct rq_pump *p)
{
	if (!p)
		return;
	if (p->dec)
		rq_decoder_free(p->dec);
	free(p->head);
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

static void analysis_sink(void *data, const struct rq_event *ev)
{
	rq_analysis_feed(data, ev);
}

int rq_pump_add_analysis(struct rq_pump *p, struct rq_analysis *an)
{
	return rq_pump_add_sink(p, analysis_sink, an);
}

void rq_pump_on_advance(struct rq_pump *p, void (*fn)(void *data, uint64_t ts), void *data)
{
	p->advance_fn = fn;
	p->advance_data = data;
}

static inline void deliver(struct rq_pump *p, const struct rq_event *ev)
{
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

static bool fail(struct rq_pump *p)
{
	const char *e = p->src.ops->error ? p->src.ops->error(p->src.ctx) : NULL;

	p->failed = true;
	snprintf(p->err, sizeof(p->err), "%s", e && *e ? e : "error while reading the trace");
	return false;
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

/* CPU cpu's new head is still before every other CPU's (the lower CPU on a tie). */
static inline bool stays_first(const struct rq_pump *p, int cpu)
{
	uint64_t ts = p->head[cpu]->ts;

	return ts < p->limit_ts || (ts == p->limit_ts && cpu < p->limit_cpu);
}

static void pick(struct rq_pump *p)
{
	int best = -1, second = -1;
	uint64_t ts = UINT64_MAX, ts2 = UINT64_MAX;

	for (int cpu = 0; cpu < p->ncpus; cpu++) {
		uint64_t t;

		if (!p->head[cpu])
			continue;
		t = p->head[cpu]->ts;
		if (best < 0 || t < ts) {
			second = best;
			ts2 = ts;
			best = cpu;
			ts = t;
		} else if (second < 0 || t < ts2) {
			second = cpu;
			ts2 = t;
		}
	}
	p->next = best;
	p->limit_ts = ts2;
	p->limit_cpu = second < 0 ? INT32_MAX : second;
}

/*
 * Make p->next the CPU of the next record (-1: none now).  A live source is asked for
 * more once every CPU's records are used up.
 */
static bool settle(struct rq_pump *p)
{
	if (!p->started) {
		p->started = true;
		for (int cpu = 0; cpu < p->ncpus; cpu++)
			if (!fill(p, cpu))
				return false;
		p->next = -2;
	}
	if (p->pending >= 0) {
		int cpu = p->pending;

		p->pending = -1;
		if (!fill(p, cpu))
			return false;
		/* still before every other CPU: no need to look at them */
		if (p->head[cpu] && stays_first(p, cpu)) {
			p->next = cpu;
			return true;
		}
		p->next = -2;
	}
	if (p->next == -2)
		pick(p);
	if (p->next < 0 && p->src.ops->refill) {
		int r = p->src.ops->refill(p->src.ctx);

		if (r < 0)
			return fail(p);
		if (r == 0)
			return true;
		for (int cpu = 0; cpu < p->ncpus; cpu++)
			if (!p->head[cpu] && !fill(p, cpu))
				return false;
		pick(p);
	}
	return true;
}

/* The record at CPU cpu's head is taken: its CPU advances at the next settle(). */
static inline void take(struct rq_pump *p, int cpu)
{
	p->last_ts = p->head[cpu]->ts;
	p->head[cpu] = NULL;
	p->pending = cpu;
	p->next = -2;
	p->records++;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* A gap before rec: events lost, or a clock that went backwards on its CPU. */
static void lost_mark(struct rq_pump *p, const struct rq_raw *rec)
{
	/*
	 * What the CPU did in between is unknown, so the engine forgets its runqueue and
	 * marks what follows as after a loss.
	 */
	struct rq_event lost = { .ts = rec->ts, .type = RQ_EV_LOST, .cpu = rec->cpu,
				 .state = rec->backwards ? RQ_LOST_BACKWARDS : 0 };

	/* the total grows only where the marks pass what the CPU's statistic said */
	if (rec->missed > 0) {
		p->marks[rec->cpu] += (unsigned long long)rec->missed;
		if (p->marks[rec->cpu] > p->counted[rec->cpu]) {
			lost.arg = (long long)(p->marks[rec->cpu] - p->counted[rec->cpu]);
			p->lost += (uint64_t)lost.arg;
			p->counted[rec->cpu] = p->marks[rec->cpu];
		}
	}
	deliver(p, &lost);
}

enum rq_pump_status rq_pump_run(struct rq_pump *p, const struct rq_budget *b)
{
	static const struct rq_budget all;
	int (*next)(void *ctx, int cpu, const struct rq_raw **rec) = p->src.ops->next;
	void *ctx = p->src.ctx;
	double until = 0;
	long fed = 0, max_events;
	uint64_t until_ts;
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
	for (;;) {
		const struct rq_raw *rec;
		int cpu = p->pending;

		/* the CPU just delivered advances; while it stays first, it is next again */
		if (cpu >= 0) {
			int got = next(ctx, cpu, &p->head[cpu]);

			p->pending = -1;
			if (__builtin_expect(got <= 0, 0)) {
				p->head[cpu] = NULL;
				if (got < 0) {
					fail(p);
					st = RQ_PUMP_ERROR;
					break;
				}
			} else if (stays_first(p, cpu)) {
				p->next = cpu;
			}
		}
		if (__builtin_expect(p->next < 0, 0)) {
			if (p->failed || !settle(p)) {
				st = RQ_PUMP_ERROR;
				break;
			}
			if (p->next < 0) {
				if (p->src.ops->refill) {
					st = RQ_PUMP_IDLE;
					break;
				}
				p->end = true;
				st = RQ_PUMP_END;
				break;
			}
		}
		cpu = p->next;
		rec = p->head[cpu];
		if (__builtin_expect(rec->ts > until_ts, 0)) {
			st = RQ_PUMP_UNTIL;
			break;
		}
		if (fed >= max_events) {
			st = RQ_PUMP_BUDGET;
			break;
		}
		if (until && !(fed & 63) && fed && now_s() >= until) {
			st = RQ_PUMP_BUDGET;
			break;
		}
		if (__builtin_expect(rec->missed || rec->backwards, 0))
			lost_mark(p, rec);
		if (__builtin_expect(p->dec != NULL, 1)) {
			rq_decode_raw(p->dec, rec->data, rec->size, rec->ts, cpu, &ev);
		} else {
			/* a source without formats: every record is one rqpath does not know */
			memset(&ev, 0, sizeof(ev));
			ev.ts = rec->ts;
			ev.cpu = cpu;
		}
		deliver(p, &ev);
		take(p, cpu);
		fed++;
		if (p->stop) {
			st = RQ_PUMP_STOPPED;
			break;
		}
	}
	p->last_fed = fed;
	if (fed && p->advance_fn)
		p->advance_fn(p->advance_data, p->last_ts);
	return st;
}

void rq_pump_stop(struct rq_pump *p)
{
	p->stop = true;
}

int rq_pump_next_raw(struct rq_pump *p, struct rq_raw *rec)
{
	if (p->failed || !settle(p))
		return -1;
	if (p->next < 0)
		return 0;
	*rec = *p->head[p->next];
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
	if (p->failed || p->end || !settle(p) || p->next < 0)
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
