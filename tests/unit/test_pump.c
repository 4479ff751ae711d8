// SPDX-License-Identifier: GPL-2.0
/*
 * test_pump.c - the one per-CPU merge (src/input/pump.c) over a made-up source: time order
 * with ties to the lower CPU, lost events counted once against a CPU's statistic, the
 * budget (events, trace time, a sink's stop), a live source's rounds, the decaying rate.
 * The expected orders and counts are written out by hand from the records below.  Every
 * test of a file-like source runs twice: in the caller's thread, and with the pump's
 * worker thread (rq_pump_start_worker()), which must give the same events, statuses and
 * counts; a long source with marks and an error at its end checks
 * the worker's batches against the caller's thread record by record.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pump.h"

#define MAXREC 8

struct fake_rec {
	uint64_t ts;
	long long missed;
};

struct fake {
	int ncpus;
	struct fake_rec rec[3][MAXREC];
	int n[3];		/* records of each CPU */
	int avail[3];		/* live: records readable so far */
	int pos[3];
	int rounds;		/* live: refills that make one more record of each CPU readable */
	bool live;
	int data;
	struct rq_raw out[3];
};

static int fake_next(void *ctx, int cpu, const struct rq_raw **out)
{
	struct fake *f = ctx;
	int lim = f->live ? f->avail[cpu] : f->n[cpu];
	struct rq_raw *r = &f->out[cpu];

	if (f->pos[cpu] >= lim)
		return 0;
	r->ts = f->rec[cpu][f->pos[cpu]].ts;
	r->missed = f->rec[cpu][f->pos[cpu]].missed;
	r->cpu = cpu;
	r->data = &f->data;
	r->size = 4;
	r->backwards = false;
	f->pos[cpu]++;
	*out = r;
	return 1;
}

static int fake_refill(void *ctx)
{
	struct fake *f = ctx;
	int any = 0;

	if (!f->rounds)
		return 0;
	f->rounds--;
	for (int cpu = 0; cpu < f->ncpus; cpu++)
		if (f->avail[cpu] < f->n[cpu]) {
			f->avail[cpu]++;
			any = 1;
		}
	return any;
}

static const struct rq_source_ops file_like = { .next = fake_next };
static const struct rq_source_ops live_like = { .next = fake_next, .refill = fake_refill };

struct seen {
	int n;
	uint64_t ts[32];
	int cpu[32];
	int type[32];
	long long arg[32];
	struct rq_pump *p;
	int stop_at;		/* rq_pump_stop() after this many events (0: never) */
};

static void sink(void *data, const struct rq_event *ev)
{
	struct seen *s = data;

	if (s->n < 32) {
		s->ts[s->n] = ev->ts;
		s->cpu[s->n] = ev->cpu;
		s->type[s->n] = ev->type;
		s->arg[s->n] = ev->arg;
	}
	s->n++;
	if (s->stop_at && s->n == s->stop_at)
		rq_pump_stop(s->p);
}

static bool with_worker;	/* the second run of the tests: a worker merges and decodes */

static struct rq_pump *make(struct fake *f, const struct rq_source_ops *ops, struct seen *s)
{
	struct rq_source src = { .ops = ops, .ctx = f, .ncpus = f->ncpus, .tep = NULL };
	struct rq_pump *p = rq_pump_new(&src);

	assert_non_null(p);
	memset(s, 0, sizeof(*s));
	s->p = p;
	assert_int_equal(rq_pump_add_sink(p, sink, s), 0);
	/* a live source is never read by a worker: its refills belong to the caller */
	if (with_worker)
		assert_int_equal(rq_pump_start_worker(p), ops->refill ? -1 : 0);
	return p;
}

/*
 * CPU0 1 3 5 5, CPU1 2 4 5 6, CPU2 nothing: 1 2 3 4 5(0) 5(0) 5(1) 6; CPU1 reaches 5
 * right after its 4, while CPU0 waits at 5: the tie goes to CPU0.
 */
static void merges_by_time_lower_cpu_first(void **state)
{
	struct fake f = { .ncpus = 3, .n = { 4, 4, 0 },
			  .rec = { { { 1, 0 }, { 3, 0 }, { 5, 0 }, { 5, 0 } },
				   { { 2, 0 }, { 4, 0 }, { 5, 0 }, { 6, 0 } } } };
	static const uint64_t ts[] = { 1, 2, 3, 4, 5, 5, 5, 6 };
	static const int cpu[] = { 0, 1, 0, 1, 0, 0, 1, 1 };
	struct seen s;
	struct rq_pump *p = make(&f, &file_like, &s);

	(void)state;
	assert_int_equal(rq_pump_next_ts(p), 1);
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_END);
	assert_int_equal(s.n, 8);
	for (int i = 0; i < 8; i++) {
		assert_int_equal(s.ts[i], ts[i]);
		assert_int_equal(s.cpu[i], cpu[i]);
		assert_int_equal(s.type[i], RQ_EV_OTHER);
	}
	assert_int_equal(rq_pump_records(p), 8);
	assert_int_equal(rq_pump_next_ts(p), UINT64_MAX);
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_END);
	rq_pump_free(p);
}

/*
 * CPU0's statistic says 10 lost; its pages mark 4, then 8 more (12 in all): the total
 * is 12, not 22; the first mark is within the statistic (a mark, 0 more), the second
 * passes it by 2.  CPU1 marks an unknown number (-1): a mark, nothing counted.
 */
static void lost_events_are_counted_once(void **state)
{
	struct fake f = { .ncpus = 2, .n = { 3, 2 },
			  .rec = { { { 10, 0 }, { 20, 4 }, { 30, 8 } },
				   { { 15, 0 }, { 25, -1 } } } };
	struct seen s;
	bool w = with_worker;
	struct rq_pump *p;
	long long told = 10;

	with_worker = false;
	p = make(&f, &file_like, &s);
	with_worker = w;

	(void)state;
	assert_int_equal(rq_pump_note_overrun(p, 0, 10, false, 0), 10);
	assert_int_equal(rq_pump_note_overrun(p, 0, 10, false, 0), 0);
	if (with_worker)	/* the statistic of the file is told before the worker starts */
		assert_int_equal(rq_pump_start_worker(p), 0);
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_END);
	/* 5 records and 3 marks, each mark just before its record */
	assert_int_equal(s.n, 8);
	for (int i = 0; i < s.n; i++) {
		if (s.type[i] != RQ_EV_LOST)
			continue;
		assert_int_equal(s.type[i + 1], RQ_EV_OTHER);
		assert_int_equal(s.ts[i], s.ts[i + 1]);
		assert_int_equal(s.cpu[i], s.cpu[i + 1]);
		told += s.arg[i];
	}
	assert_int_equal(s.type[2], RQ_EV_LOST);	/* 10 15 | 20 */
	assert_int_equal(s.arg[2], 0);
	assert_int_equal(s.type[4], RQ_EV_LOST);	/* 25 on CPU1, unknown */
	assert_int_equal(s.arg[4], 0);
	assert_int_equal(s.type[6], RQ_EV_LOST);	/* 30 */
	assert_int_equal(s.arg[6], 2);
	assert_int_equal(rq_pump_lost(p), 12);
	assert_int_equal(told, 12);
	/* a statistic read at the end that the marks already counted: nothing more */
	assert_int_equal(rq_pump_note_overrun(p, 0, 12, true, 99), 0);
	assert_int_equal(rq_pump_lost(p), 12);
	/* a statistic read at the end that passes the marks: the excess is told once */
	assert_int_equal(rq_pump_note_overrun(p, 1, 3, true, 99), 3);
	assert_int_equal(s.type[8], RQ_EV_LOST);
	assert_int_equal(s.arg[8], 3);
	assert_int_equal(rq_pump_lost(p), 15);
	rq_pump_free(p);
}

static void runs_to_a_budget(void **state)
{
	struct fake f = { .ncpus = 2, .n = { 4, 4 },
			  .rec = { { { 1, 0 }, { 3, 0 }, { 5, 0 }, { 7, 0 } },
				   { { 2, 0 }, { 4, 0 }, { 6, 0 }, { 8, 0 } } } };
	const struct rq_budget three = { .max_events = 3 };
	const struct rq_budget until5 = { .until_ts = 5 };
	struct seen s;
	struct rq_pump *p = make(&f, &file_like, &s);

	(void)state;
	assert_int_equal(rq_pump_run(p, &three), RQ_PUMP_BUDGET);
	assert_int_equal(s.n, 3);
	assert_int_equal(rq_pump_last_fed(p), 3);
	assert_int_equal(rq_pump_next_ts(p), 4);
	/* up to trace time 5: 4 and 5, then it stops before 6 */
	assert_int_equal(rq_pump_run(p, &until5), RQ_PUMP_UNTIL);
	assert_int_equal(s.n, 5);
	assert_int_equal(rq_pump_last_ts(p), 5);
	/* a sink stops it right after the event it saw */
	s.stop_at = 6;
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_STOPPED);
	assert_int_equal(s.n, 6);
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_END);
	assert_int_equal(s.n, 8);
	assert_int_equal(s.ts[7], 8);
	rq_pump_free(p);
}

/* A live source: a round at a time, idle when nothing new, merged within each round. */
static void live_rounds_go_idle(void **state)
{
	struct fake f = { .ncpus = 2, .n = { 2, 2 }, .live = true, .rounds = 1,
			  .rec = { { { 10, 0 }, { 30, 0 } }, { { 20, 0 }, { 40, 0 } } } };
	struct seen s;
	struct rq_pump *p = make(&f, &live_like, &s);

	(void)state;
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_IDLE);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.ts[0], 10);
	assert_int_equal(s.ts[1], 20);
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_IDLE);
	assert_int_equal(s.n, 2);
	f.rounds = 5;
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_IDLE);
	assert_int_equal(s.n, 4);
	assert_int_equal(s.ts[2], 30);
	assert_int_equal(s.ts[3], 40);
	rq_pump_free(p);
}

/* Two pumps side by side share nothing. */
static void two_pumps_are_independent(void **state)
{
	struct fake a = { .ncpus = 1, .n = { 2 }, .rec = { { { 1, 0 }, { 2, 0 } } } };
	struct fake b = { .ncpus = 1, .n = { 1 }, .rec = { { { 7, 5 } } } };
	struct seen sa, sb;
	struct rq_pump *pa = make(&a, &file_like, &sa), *pb = make(&b, &file_like, &sb);
	const struct rq_budget one = { .max_events = 1 };

	(void)state;
	assert_int_equal(rq_pump_run(pa, &one), RQ_PUMP_BUDGET);
	assert_int_equal(rq_pump_run(pb, NULL), RQ_PUMP_END);
	assert_int_equal(rq_pump_run(pa, NULL), RQ_PUMP_END);
	assert_int_equal(sa.n, 2);
	assert_int_equal(sb.n, 2);
	assert_int_equal(rq_pump_lost(pa), 0);
	assert_int_equal(rq_pump_lost(pb), 5);
	rq_pump_free(pa);
	rq_pump_free(pb);
}

/* 1000/s for 10 s, then nothing: the rate follows up, then decays toward 0. */
static void the_rate_decays(void **state)
{
	double r = 0;

	(void)state;
	for (int i = 0; i < 20; i++)
		r = rq_rate_decay(r, 500, 0.5, 2.0);
	assert_true(r > 990 && r <= 1000);
	r = rq_rate_decay(r, 0, 2.0, 2.0);
	assert_true(r > 360 && r < 370);	/* e^-1 of it */
	for (int i = 0; i < 10; i++)
		r = rq_rate_decay(r, 0, 1.0, 2.0);
	assert_true(r < 3);
	assert_true(rq_rate_decay(5, 100, 0, 2.0) == 5);
}


/*
 * A long source (3 CPUs, 9000 records, more than the worker's batches hold together):
 * every 700th record after a loss, a read error after CPU 1's last.  With and without
 * the worker the sinks see the same events, texts included, through budgets of events,
 * trace time and a sink's stop, and the same error at the same point.
 */
#define LONG_N 9000

struct long_src {
	int pos[3];
	struct rq_raw out[3];
	unsigned char data[3][64];
	bool failed;
};

static int long_next(void *ctx, int cpu, const struct rq_raw **out)
{
	struct long_src *l = ctx;
	int i = l->pos[cpu];
	struct rq_raw *r = &l->out[cpu];

	if (i >= LONG_N / 3) {
		if (cpu == 1) {
			l->failed = true;
			return -1;
		}
		return 0;
	}
	l->pos[cpu]++;
	r->ts = (uint64_t)i * 10 + (uint64_t)cpu * 3 + (cpu == 2 && i % 50 == 0 ? 7 : 0);
	r->cpu = cpu;
	r->missed = i && i % 700 == 0 ? i / 700 : 0;
	r->backwards = false;
	snprintf((char *)l->data[cpu], sizeof(l->data[cpu]), "rec %d/%d", cpu, i);
	r->data = l->data[cpu];
	r->size = (uint32_t)strlen((char *)l->data[cpu]);
	*out = r;
	return 1;
}

static const char *long_error(void *ctx)
{
	return ((struct long_src *)ctx)->failed ? "CPU 1 broke" : "";
}

static const struct rq_source_ops long_ops = { .next = long_next, .error = long_error };

struct trail {
	int n;
	uint64_t sum;		/* a checksum of every event seen, in order */
	int stop_at;
	struct rq_pump *p;
};

static void trail_sink(void *data, const struct rq_event *ev)
{
	struct trail *t = data;

	t->sum = t->sum * 1000003 + ev->ts * 31 + (uint64_t)ev->cpu * 7 + (uint64_t)ev->type +
		 (uint64_t)ev->arg * 131;
	t->n++;
	if (t->stop_at && t->n == t->stop_at)
		rq_pump_stop(t->p);
}

static void run_long(bool worker, struct trail *t, uint64_t *lost, long *records,
		     char *err, size_t errlen)
{
	struct long_src l;
	struct rq_source src = { .ops = &long_ops, .ctx = &l, .ncpus = 3, .tep = NULL };
	struct rq_pump *p;
	const struct rq_budget some = { .max_events = 2500 }, until = { .until_ts = 15000 };
	enum rq_pump_status st;

	memset(&l, 0, sizeof(l));
	memset(t, 0, sizeof(*t));
	p = rq_pump_new(&src);
	assert_non_null(p);
	t->p = p;
	assert_int_equal(rq_pump_add_sink(p, trail_sink, t), 0);
	rq_pump_note_overrun(p, 0, 2, false, 0);
	if (worker)
		assert_int_equal(rq_pump_start_worker(p), 0);
	assert_int_equal(rq_pump_run(p, &some), RQ_PUMP_BUDGET);
	assert_int_equal(rq_pump_last_fed(p), 2500);
	assert_int_equal(rq_pump_run(p, &until), RQ_PUMP_UNTIL);
	assert_true(rq_pump_next_ts(p) > 15000);
	assert_true(rq_pump_last_ts(p) <= 15000);
	t->stop_at = t->n + 1234;
	assert_int_equal(rq_pump_run(p, &some), RQ_PUMP_STOPPED);
	while ((st = rq_pump_run(p, &some)) == RQ_PUMP_BUDGET)
		;
	assert_int_equal(st, RQ_PUMP_ERROR);
	assert_int_equal(rq_pump_run(p, NULL), RQ_PUMP_ERROR);
	assert_int_equal(rq_pump_next_ts(p), UINT64_MAX);
	*lost = rq_pump_lost(p);
	*records = (long)rq_pump_records(p);
	snprintf(err, errlen, "%s", rq_pump_error(p));
	rq_pump_free(p);
}

static void the_worker_gives_the_same_events(void **state)
{
	struct trail a, b;
	uint64_t lost_a, lost_b;
	long rec_a, rec_b;
	char err_a[128], err_b[128];

	(void)state;
	run_long(false, &a, &lost_a, &rec_a, err_a, sizeof(err_a));
	run_long(true, &b, &lost_b, &rec_b, err_b, sizeof(err_b));
	/* CPU 1 fails at its end: the records before it, from every CPU, are delivered */
	assert_true(rec_a > 2 * LONG_N / 3);
	assert_true(a.n > rec_a);	/* and the loss marks */
	assert_int_equal(a.n, b.n);
	assert_true(a.sum == b.sum);
	assert_int_equal(rec_a, rec_b);
	assert_int_equal(lost_a, lost_b);
	/* marks of 1..4 on each CPU after record 700*k; CPU 0's statistic of 2 within them */
	assert_int_equal(lost_a, 3 * (1 + 2 + 3 + 4));
	assert_string_equal(err_a, "CPU 1 broke");
	assert_string_equal(err_b, "CPU 1 broke");
}

/*
 * Many streams (the merge is a tree of losers with keys packed in a word, wide keys when
 * a time does not fit): the pump's order is the one a scan of every head gives, the
 * earliest (ts, stream) first, for 1 to 600 streams, with ties, clocks that go back,
 * times at 0, 2^63 and UINT64_MAX, first heads far apart, and a live source's rounds.
 */
#define MANY_MAX 600
#define MANY_REC 24

struct many {
	int nstreams, nextra;
	int n[MANY_MAX], pos[MANY_MAX], avail[MANY_MAX];
	uint64_t ts[MANY_MAX][MANY_REC];
	bool live;
	int rounds;
	struct rq_raw out[MANY_MAX];
	int data;
};

static uint64_t rnd_state;

static uint64_t rnd(void)
{
	rnd_state = rnd_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return rnd_state >> 33;
}

static int many_next(void *ctx, int s, const struct rq_raw **out)
{
	struct many *m = ctx;
	int lim = m->live ? m->avail[s] : m->n[s];

	if (m->pos[s] >= lim)
		return 0;
	m->out[s] = (struct rq_raw){ .ts = m->ts[s][m->pos[s]], .data = &m->data, .cpu = s,
				     .size = 4 };
	m->pos[s]++;
	*out = &m->out[s];
	return 1;
}

/* live: each round makes 0 to 3 more records of each stream readable */
static int many_refill(void *ctx)
{
	struct many *m = ctx;
	int any = 0;

	if (!m->rounds)
		return 0;
	m->rounds--;
	for (int s = 0; s < m->nstreams; s++) {
		int more = (int)(rnd() % 4), was = m->avail[s];

		m->avail[s] = was + more < m->n[s] ? was + more : m->n[s];
		any |= m->avail[s] > was;
	}
	return any ? 1 : 0;
}

static const struct rq_source_ops many_file = { .next = many_next };
static const struct rq_source_ops many_live = { .next = many_next, .refill = many_refill };

/*
 * kind 0: times on a coarse grid (ties across streams), now and then a step back;
 * 1: as 0, with times at 0, 2^63 and UINT64_MAX here and there; 2: first heads 2^60
 * apart.
 */
static void many_make(struct many *m, int nstreams, int nextra, int kind, uint64_t seed)
{
	memset(m, 0, sizeof(*m));
	rnd_state = seed;
	m->nstreams = nstreams;
	m->nextra = nextra;
	for (int s = 0; s < nstreams; s++) {
		uint64_t t = kind == 2 ? (uint64_t)(s % 4) << 60 : 1000000 + rnd() % 50 * 10;

		m->n[s] = (int)(rnd() % (MANY_REC + 1));
		for (int i = 0; i < m->n[s]; i++) {
			uint64_t r = rnd() % 100;

			t += rnd() % 3 * 10;
			if (r < 5)
				t -= t > 40 ? 40 : t;
			m->ts[s][i] = t;
			if (kind == 1 && r == 7)
				m->ts[s][i] = 0;
			else if (kind == 1 && r == 8)
				m->ts[s][i] = 1ULL << 63;
			else if (kind == 1 && r == 9)
				m->ts[s][i] = UINT64_MAX;
		}
	}
}

/* The pump's order by a scan of every head: the earliest time, the lower stream on a tie. */
static int many_expect(struct many *m, uint64_t *ts, int *st)
{
	const struct rq_raw *head[MANY_MAX] = { 0 };
	int n = 0;

	for (;;) {
		bool any = false;

		for (int s = 0; s < m->nstreams; s++) {
			if (!head[s] && many_next(m, s, &head[s]) <= 0)
				head[s] = NULL;
			any |= head[s] != NULL;
		}
		if (!any) {
			if (!m->live || !m->rounds)
				return n;
			many_refill(m);
			continue;
		}
		/* a live stream without a record waits for the next round (the pump's way) */
		for (;;) {
			int best = -1;

			for (int s = 0; s < m->nstreams; s++)
				if (head[s] && (best < 0 || head[s]->ts < head[best]->ts))
					best = s;
			if (best < 0)
				break;
			ts[n] = head[best]->ts;
			st[n++] = best;
			if (many_next(m, best, &head[best]) <= 0)
				head[best] = NULL;
		}
	}
}

static void many_check(int nstreams, int nextra, int kind, bool live, uint64_t seed)
{
	static struct many m, scan;
	static uint64_t want_ts[MANY_MAX * MANY_REC];
	static int want_st[MANY_MAX * MANY_REC];
	struct rq_source src = { .ops = live ? &many_live : &many_file, .ctx = &m,
				 .ncpus = nstreams - nextra, .nextra = nextra };
	struct rq_pump *p;
	struct rq_raw rec;
	uint64_t after_make;
	int want, got = 0, r;

	many_make(&m, nstreams, nextra, kind, seed);
	m.live = live;
	m.rounds = live ? 40 : 0;
	after_make = rnd_state;
	scan = m;
	want = many_expect(&scan, want_ts, want_st);
	/* the same records and the same rounds for the pump */
	rnd_state = after_make;
	p = rq_pump_new(&src);
	assert_non_null(p);
	do {
		while ((r = rq_pump_next_raw(p, &rec)) > 0) {
			assert_true(got < want);
			assert_true(rec.ts == want_ts[got]);
			assert_int_equal(rec.cpu, want_st[got]);
			got++;
		}
		assert_int_equal(r, 0);
	} while (live && m.rounds);
	assert_int_equal(got, want);
	assert_int_equal(rq_pump_records(p), want);
	rq_pump_free(p);
}

static void many_streams_merge_like_a_scan(void **state)
{
	static const int counts[] = { 1, 2, 3, 5, 8, 9, 37, 64, 257, 600 };

	(void)state;
	for (size_t i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		for (int kind = 0; kind < 3; kind++) {
			many_check(counts[i], 0, kind, false, 7 * i + (uint64_t)kind);
			many_check(counts[i], counts[i] > 1, kind, false, 100 + i);
			many_check(counts[i], 0, kind, true, 200 + 7 * i + (uint64_t)kind);
		}
}

static int worker_on(void **state)
{
	(void)state;
	with_worker = true;
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(merges_by_time_lower_cpu_first),
		cmocka_unit_test(lost_events_are_counted_once),
		cmocka_unit_test(runs_to_a_budget),
		cmocka_unit_test(live_rounds_go_idle),
		cmocka_unit_test(two_pumps_are_independent),
		cmocka_unit_test(the_rate_decays),
		cmocka_unit_test(the_worker_gives_the_same_events),
		cmocka_unit_test(many_streams_merge_like_a_scan),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);

	/* the same tests again, a worker merging and decoding for every file-like pump */
	return failed + cmocka_run_group_tests_name("with a worker", tests, worker_on, NULL);
}
