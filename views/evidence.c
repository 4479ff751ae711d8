// SPDX-License-Identifier: GPL-2.0
/*
 * evidence.c - the raw records around a placement, as `trace-cmd report` prints them:
 * the sched_waking / sched_wakeup(_new) / sched_migrate_task of the task and the
 * sched_switch records of the CPUs involved, with the record's owner (comm-pid [cpu]).
 *
 * The trace is read again from its start into a throwaway analysis (the engine's event
 * sink sees each record after the engine handled it, so the writers' names are known)
 * until just after the placement: about 0.3 s for a million events.  Replay only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delay.h"
#include "escape.h"
#include "session.h"
#include "tui.h"

#define EV_BEFORE 18		/* records kept before the placement */
#define EV_AFTER 6		/* and after it */
#define EV_WINDOW_NS 20000000ULL	/* none older than 20 ms */

/*
 * The reader is kept between calls (the detail's [ ] n N step through a list, mostly
 * forward): every record of a kind the evidence can show, with its owner's name as the
 * model knew it then, is kept from EV_KEEP_NS before the last placement asked for, so the
 * next one only reads on from there.  One that needs records already dropped (further
 * back) reads the trace again from its start; a list stepped backwards asks for the
 * evidence of its previous rows all in that one pass (tui_evidence_prefetch).  The last
 * EV_RESULTS answers are kept too.
 */
#define EV_KEEP_NS (4 * EV_WINDOW_NS)
#define EV_RESULTS 64

struct ev_rec {
	struct rq_event ev;	/* ev.str not kept */
	char owner[RQ_COMM_LEN * 4 + 1];
};

struct ev_result {
	uint64_t ts, seq;
	int pid, n;
	char rec[EV_BEFORE + EV_AFTER][TUI_EV_LEN];
};

struct ev_cache {
	char *path;
	struct rq_session *s;	/* the second read of the trace, NULL closed */
	struct rq_analysis *an;
	struct ev_rec *buf;	/* kept records, oldest first, from buf[head] */
	size_t head, n, cap;
	uint64_t dropped_to;	/* records up to this time are gone (0: none dropped) */
	uint64_t read_to;	/* the last record read */
	uint64_t keep_from;	/* records older than this are not kept */
	bool eof;
	uint64_t reads;		/* times the trace was opened (tests: RQPATH_TUI_EV_STATS) */
	struct ev_result results[EV_RESULTS];
	int nresults, next_result;
};

struct ev_ctx {
	const struct rq_placement *p;
	char (*ring)[TUI_EV_LEN];
	int head, n;		/* ring of the records before */
	char (*after)[TUI_EV_LEN];
	int nafter;
	bool past;		/* the placement's own record seen */
	/* the record that showed the judge's idle CPU idle (why_idle_ts): always shown */
	char idle[TUI_EV_LEN];
	int idle_at;		/* ring insertions before it, -1 not seen */
	int ins;		/* ring insertions */
};

static const char *owner(struct rq_analysis *an, int pid, char *buf, size_t size)
{
	struct rq_task_info t;

	if (pid == 0)
		return "<idle>";
	if (!rq_task_info_get(an, pid, &t) || !t.comm[0])
		return "<...>";
	tui_display(t.comm, strnlen(t.comm, RQ_COMM_LEN), buf, size);
	return buf;
}

static void state_str(long long state, char *buf)
{
	static const char bits[] = "SDTtXZPI";
	int n = 0;

	if (!state) {
		strcpy(buf, "R");
		return;
	}
	for (int i = 0; bits[i] && n < 8; i++)
		if (state & (1LL << i))
			buf[n++] = bits[i];
	if (!n)
		buf[n++] = 'R';
	if (state >= 0x100 && n < 8)
		buf[n++] = '+';
	buf[n] = '\0';
}

/* Which events a placement's evidence shows: the one list behind relevant() and kept_kind(). */
enum ev_match {
	EV_MATCH_NONE,		/* never shown */
	EV_MATCH_PID,		/* the placement's task */
	EV_MATCH_PIDS,		/* the task as either side (fork, exec) */
	EV_MATCH_PIDS_CPUS,	/* either side, or on the placement's CPUs (switch) */
	EV_MATCH_ALL,		/* every placement (lost events) */
};

static enum ev_match match_of(const struct rq_event *ev)
{
	switch (ev->type) {
	case RQ_EV_WAKING:
	case RQ_EV_WAKEUP:
	case RQ_EV_WAKEUP_NEW:
	case RQ_EV_MIGRATE:
	case RQ_EV_EXIT:
		return EV_MATCH_PID;
	case RQ_EV_FORK:
	case RQ_EV_EXEC:
		return EV_MATCH_PIDS;
	case RQ_EV_SWITCH:
		return EV_MATCH_PIDS_CPUS;
	case RQ_EV_LOST:
		return EV_MATCH_ALL;
	default:
		return EV_MATCH_NONE;
	}
}

/* The record the judge's "CPU N was idle" rests on (the placement's why_idle_ts). */
static bool idle_proof(const struct rq_placement *p, const struct rq_event *ev)
{
	return p->why_idle_ts && ev->ts == p->why_idle_ts && ev->cpu == p->why_cpu &&
	       match_of(ev) != EV_MATCH_NONE;
}

static bool relevant(const struct rq_placement *p, const struct rq_event *ev)
{
	if (idle_proof(p, ev))
		return true;
	switch (match_of(ev)) {
	case EV_MATCH_PID:
		return ev->pid == p->pid;
	case EV_MATCH_PIDS:
		return ev->pid == p->pid || ev->pid2 == p->pid;
	case EV_MATCH_PIDS_CPUS:
		return ev->pid == p->pid || ev->pid2 == p->pid || ev->cpu == p->to_cpu ||
		       ev->cpu == p->from_cpu;
	case EV_MATCH_ALL:
		return true;
	default:
		return false;
	}
}

static void format(struct ev_ctx *c, const struct ev_rec *r, char *out)
{
	const struct rq_event *ev = &r->ev;
	char a[RQ_COMM_LEN * 4 + 1], b[RQ_COMM_LEN * 4 + 1], who[RQ_COMM_LEN * 4 + 20];
	char body[TUI_EV_LEN], st[12];
	uint64_t us = (ev->ts + 500) / 1000;
	bool mine = ev->ts == c->p->ts && ev->cpu == c->p->cpu && !c->past &&
		    (ev->type == RQ_EV_WAKEUP || ev->type == RQ_EV_WAKEUP_NEW ||
		     ev->type == RQ_EV_MIGRATE);

	tui_display(ev->comm, strnlen(ev->comm, RQ_COMM_LEN), a, sizeof(a));
	tui_display(ev->comm2, strnlen(ev->comm2, RQ_COMM_LEN), b, sizeof(b));
	switch (ev->type) {
	case RQ_EV_WAKING:
		snprintf(body, sizeof(body), "sched_waking:         comm=%s pid=%d prio=%d "
			 "target_cpu=%03d", a, ev->pid, ev->prio, ev->cpu_a);
		break;
	case RQ_EV_WAKEUP:
	case RQ_EV_WAKEUP_NEW:
		snprintf(body, sizeof(body), "%-21s %s:%d [%d] CPU:%03d",
			 ev->type == RQ_EV_WAKEUP ? "sched_wakeup:" : "sched_wakeup_new:", a,
			 ev->pid, ev->prio, ev->cpu_a);
		break;
	case RQ_EV_MIGRATE:
		snprintf(body, sizeof(body), "sched_migrate_task:   comm=%s pid=%d prio=%d "
			 "orig_cpu=%d dest_cpu=%d", a, ev->pid, ev->prio, ev->cpu_a, ev->cpu_b);
		break;
	case RQ_EV_SWITCH:
		state_str(ev->state, st);
		snprintf(body, sizeof(body), "sched_switch:         %s:%d [%d] %s ==> %s:%d [%d]",
			 a, ev->pid, ev->prio, st, b, ev->pid2, ev->prio2);
		break;
	case RQ_EV_FORK:
		snprintf(body, sizeof(body), "sched_process_fork:   comm=%s pid=%d child_comm=%s "
			 "child_pid=%d", a, ev->pid, b, ev->pid2);
		break;
	case RQ_EV_EXEC:
		snprintf(body, sizeof(body), "sched_process_exec:   pid=%d old_pid=%d", ev->pid,
			 ev->pid2);
		break;
	case RQ_EV_EXIT:
		snprintf(body, sizeof(body), "sched_process_exit:   comm=%s pid=%d prio=%d", a,
			 ev->pid, ev->prio);
		break;
	case RQ_EV_LOST:
		snprintf(body, sizeof(body), "[LOST %lld EVENTS]", ev->arg);
		break;
	default:
		body[0] = '\0';
	}
	if (mine)
		c->past = true;
	/* 16 columns, as trace-cmd report, counted on the screen (a name may be UTF-8) */
	tui_pad(ev->type == RQ_EV_LOST ? "" : r->owner, 16, true, who, sizeof(who));
	snprintf(out, TUI_EV_LEN, "%s%s-%-5d [%03d] %5llu.%06llu: %s", mine ? ">" : " ", who,
		 ev->common_pid, ev->cpu, (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000), body);
}

/* Whether the evidence of any placement could show ev. */
static bool kept_kind(const struct rq_event *ev)
{
	return match_of(ev) != EV_MATCH_NONE;
}

/* A sink of the pump, after the analysis: the owner of a record is already known. */
static void on_event(void *data, const struct rq_event *ev)
{
	struct ev_cache *k = data;
	struct ev_rec *r;

	k->read_to = ev->ts;
	if (!kept_kind(ev))
		return;
	if (ev->ts < k->keep_from) {
		if (ev->ts > k->dropped_to)
			k->dropped_to = ev->ts;
		return;
	}
	/* the oldest go as the window moves on (the buffer stays about EV_KEEP_NS long) */
	while (k->n && k->buf[k->head].ev.ts < k->keep_from) {
		if (k->buf[k->head].ev.ts > k->dropped_to)
			k->dropped_to = k->buf[k->head].ev.ts;
		k->head++;
		k->n--;
	}
	if (k->head + k->n == k->cap) {
		/* slide to the start, or grow */
		if (k->head > k->cap / 2) {
			memmove(k->buf, k->buf + k->head, k->n * sizeof(*k->buf));
			k->head = 0;
		} else {
			size_t cap = k->cap ? k->cap * 2 : 4096;
			struct ev_rec *nb = realloc(k->buf, cap * sizeof(*nb));

			if (!nb) {
				/* out of memory: the oldest half goes */
				k->dropped_to = k->buf[k->head + k->n / 2].ev.ts;
				k->head += k->n / 2;
				k->n -= k->n / 2;
				memmove(k->buf, k->buf + k->head, k->n * sizeof(*k->buf));
				k->head = 0;
			} else {
				k->buf = nb;
				k->cap = cap;
			}
		}
	}
	r = &k->buf[k->head + k->n++];
	r->ev = *ev;
	r->ev.str = NULL;
	r->ev.str_len = 0;
	{
		char who[sizeof(r->owner)];

		snprintf(r->owner, sizeof(r->owner), "%s",
			 owner(rq_session_analysis(k->s), ev->common_pid, who, sizeof(who)));
	}
}

static void cache_close(struct ev_cache *k)
{
	rq_session_close(k->s);
	k->s = NULL;
	k->head = k->n = 0;
	k->dropped_to = k->read_to = k->keep_from = 0;
	k->eof = false;
}

void tui_evidence_free(struct tui *t)
{
	struct ev_cache *k = t->evidence;

	if (!k)
		return;
	cache_close(k);
	free(k->buf);
	free(k->path);
	free(k);
	t->evidence = NULL;
}

static int cache_open(struct ev_cache *k, const char *path, char *err, size_t errlen)
{
	struct rq_analysis_opts o = { .recent_capacity = 1 };

	cache_close(k);
	if (!k->path || strcmp(k->path, path)) {
		free(k->path);
		k->path = strdup(path);
		k->nresults = 0;
		if (!k->path) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}
	k->s = rq_session_open_file(path, &o, 0);
	if (!k->s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (rq_session_start(k->s)) {
		snprintf(err, errlen, "%s", rq_session_cause(k->s));
		cache_close(k);
		return -1;
	}
	if (rq_pump_add_sink(rq_session_pump(k->s), on_event, k)) {
		snprintf(err, errlen, "out of memory");
		cache_close(k);
		return -1;
	}
	k->reads++;
	return 0;
}

/* The evidence of p from the kept records; the number of records after it found. */
static int collect(struct ev_cache *k, const struct rq_placement *p, struct ev_ctx *c)
{
	c->head = c->n = c->nafter = c->ins = 0;
	c->idle_at = -1;
	c->past = false;
	for (size_t i = 0; i < k->n && c->nafter < EV_AFTER; i++) {
		const struct ev_rec *r = &k->buf[k->head + i];
		const struct rq_event *ev = &r->ev;
		bool proof = idle_proof(p, ev);

		if ((ev->ts + EV_WINDOW_NS < p->ts && !proof) || !relevant(p, ev))
			continue;
		if (ev->ts <= p->ts && !c->past) {
			format(c, r, c->ring[c->head]);
			if (proof) {
				memcpy(c->idle, c->ring[c->head], TUI_EV_LEN);
				c->idle_at = c->ins;
			}
			c->head = (c->head + 1) % EV_BEFORE;
			c->ins++;
			if (c->n < EV_BEFORE)
				c->n++;
		} else {
			format(c, r, c->after[c->nafter++]);
		}
	}
	/* pushed out of the ring by later records: it takes the oldest one's place */
	if (c->idle_at >= 0 && c->ins - c->idle_at > EV_BEFORE)
		memcpy(c->ring[c->head], c->idle, TUI_EV_LEN);
	return c->nafter;
}

int tui_evidence(struct tui *t, const char *path, const struct rq_placement *p,
		 char (*rec)[TUI_EV_LEN], int max, char *err, size_t errlen)
{
	char before[EV_BEFORE][TUI_EV_LEN], after[EV_AFTER][TUI_EV_LEN];
	struct ev_ctx c = { .p = p, .ring = before, .after = after };
	const struct rq_budget step = { .max_events = 4096 };
	struct ev_cache *k = t->evidence;
	struct ev_result *res;
	enum rq_pump_status st;
	int out = 0;

	/* the TUI's own reader, no file static: a second TUI session has its own */
	if (!k) {
		k = t->evidence = calloc(1, sizeof(*k));
		if (!k) {
			snprintf(err, errlen, "out of memory");
			return -1;
		}
	}

	if (k->path && !strcmp(k->path, path)) {
		for (int i = 0; i < k->nresults; i++) {
			res = &k->results[i];
			if (res->ts == p->ts && res->seq == p->seq && res->pid == p->pid) {
				for (int j = 0; j < res->n && out < max; j++)
					memcpy(rec[out++], res->rec[j], TUI_EV_LEN);
				return out;
			}
		}
	}
	/* records it needs were dropped, or another file: from the start */
	if (!k->s || !k->path || strcmp(k->path, path) ||
	    (k->dropped_to && p->ts <= k->dropped_to + EV_WINDOW_NS)) {
		if (cache_open(k, path, err, errlen))
			return -1;
	}
	/* what is older than this placement's window, and then some, goes */
	k->keep_from = p->ts > EV_KEEP_NS ? p->ts - EV_KEEP_NS : 0;
	while (k->n && k->buf[k->head].ev.ts < k->keep_from) {
		if (k->buf[k->head].ev.ts > k->dropped_to)
			k->dropped_to = k->buf[k->head].ev.ts;
		k->head++;
		k->n--;
	}
	/* read on until the records after it are in, or its window has passed */
	while (collect(k, p, &c) < EV_AFTER && !k->eof) {
		uint64_t next = rq_session_next_ts(k->s);

		if (next == UINT64_MAX || (k->read_to && k->read_to > p->ts + EV_WINDOW_NS) ||
		    next > p->ts + EV_WINDOW_NS) {
			if (next == UINT64_MAX)
				k->eof = true;
			break;
		}
		st = rq_session_run(k->s, &step);
		if (st == RQ_PUMP_END || st == RQ_PUMP_ERROR)
			k->eof = true;
	}
	for (int i = 0; i < c.n && out < max; i++)
		memcpy(rec[out++], before[(c.head - c.n + i + EV_BEFORE) % EV_BEFORE], TUI_EV_LEN);
	for (int i = 0; i < c.nafter && out < max; i++)
		memcpy(rec[out++], after[i], TUI_EV_LEN);
	res = &k->results[k->next_result];
	k->next_result = (k->next_result + 1) % EV_RESULTS;
	if (k->nresults < EV_RESULTS)
		k->nresults++;
	*res = (struct ev_result){ .ts = p->ts, .seq = p->seq, .pid = p->pid };
	for (int j = 0; j < out && j < EV_BEFORE + EV_AFTER; j++, res->n++)
		memcpy(res->rec[j], rec[j], TUI_EV_LEN);
	if (getenv("RQPATH_TUI_EV_STATS"))
		fprintf(stderr, "evidence: trace read %llu time(s)\n",
			(unsigned long long)k->reads);
	return out;
}

bool tui_evidence_near(struct tui *t, const char *path, const struct rq_placement *p)
{
	struct ev_cache *k = t->evidence;

	if (!k || !k->path || strcmp(k->path, path))
		return false;
	for (int i = 0; i < k->nresults; i++)
		if (k->results[i].ts == p->ts && k->results[i].seq == p->seq &&
		    k->results[i].pid == p->pid)
			return true;
	return k->s && !(k->dropped_to && p->ts <= k->dropped_to + EV_WINDOW_NS);
}

static int cmp_pl_ts(const void *a, const void *b)
{
	const struct rq_placement *x = *(const struct rq_placement *const *)a;
	const struct rq_placement *y = *(const struct rq_placement *const *)b;

	return (x->ts > y->ts) - (x->ts < y->ts);
}

void tui_evidence_prefetch(struct tui *t, const char *path, const struct rq_placement *ps,
			   int n)
{
	const struct rq_placement *order[TUI_EV_PREFETCH];
	char rec[EV_BEFORE + EV_AFTER][TUI_EV_LEN], err[160];

	if (n > TUI_EV_PREFETCH)
		n = TUI_EV_PREFETCH;
	for (int i = 0; i < n; i++)
		order[i] = &ps[i];
	/* earliest first: one read from the start serves them all */
	qsort(order, n, sizeof(order[0]), cmp_pl_ts);
	for (int i = 0; i < n; i++)
		if (tui_evidence(t, path, order[i], rec, EV_BEFORE + EV_AFTER, err, sizeof(err)) < 0)
			return;
}
