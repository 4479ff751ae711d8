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
#include "replay.h"
#include "tui.h"

#define EV_BEFORE 18		/* records kept before the placement */
#define EV_AFTER 6		/* and after it */
#define EV_WINDOW_NS 20000000ULL	/* none older than 20 ms */

struct ev_ctx {
	const struct rq_placement *p;
	struct rq_analysis *an;
	char (*ring)[TUI_EV_LEN];
	int head, n;		/* ring of the records before */
	char (*after)[TUI_EV_LEN];
	int nafter;
	bool past;		/* the placement's own record seen */
};

static const char *owner(struct rq_analysis *an, int pid, char *buf, size_t size)
{
	const struct rq_task *t;

	if (pid == 0)
		return "<idle>";
	t = rq_task_find(an, pid);
	if (!t || !t->comm[0])
		return "<...>";
	rq_escape_c(t->comm, strnlen(t->comm, RQ_COMM_LEN), buf, size);
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

static bool relevant(const struct rq_placement *p, const struct rq_event *ev)
{
	switch (ev->type) {
	case RQ_EV_WAKING:
	case RQ_EV_WAKEUP:
	case RQ_EV_WAKEUP_NEW:
	case RQ_EV_MIGRATE:
	case RQ_EV_EXIT:
		return ev->pid == p->pid;
	case RQ_EV_FORK:
	case RQ_EV_EXEC:
		return ev->pid == p->pid || ev->pid2 == p->pid;
	case RQ_EV_SWITCH:
		return ev->pid == p->pid || ev->pid2 == p->pid || ev->cpu == p->to_cpu ||
		       ev->cpu == p->from_cpu;
	case RQ_EV_LOST:
		return true;
	default:
		return false;
	}
}

static void format(struct ev_ctx *c, const struct rq_event *ev, char *out)
{
	char who[RQ_COMM_LEN * 4 + 1], a[RQ_COMM_LEN * 4 + 1], b[RQ_COMM_LEN * 4 + 1];
	char body[TUI_EV_LEN], st[12];
	uint64_t us = (ev->ts + 500) / 1000;
	bool mine = ev->ts == c->p->ts && ev->cpu == c->p->cpu && !c->past &&
		    (ev->type == RQ_EV_WAKEUP || ev->type == RQ_EV_WAKEUP_NEW ||
		     ev->type == RQ_EV_MIGRATE);

	rq_escape_c(ev->comm, strnlen(ev->comm, RQ_COMM_LEN), a, sizeof(a));
	rq_escape_c(ev->comm2, strnlen(ev->comm2, RQ_COMM_LEN), b, sizeof(b));
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
	snprintf(out, TUI_EV_LEN, "%s%16s-%-5d [%03d] %5llu.%06llu: %s", mine ? ">" : " ",
		 ev->type == RQ_EV_LOST ? "" : owner(c->an, ev->common_pid, who, sizeof(who)),
		 ev->common_pid, ev->cpu, (unsigned long long)(us / 1000000),
		 (unsigned long long)(us % 1000000), body);
}

static void on_event(const struct rq_event *ev, void *data)
{
	struct ev_ctx *c = data;

	if (ev->ts + EV_WINDOW_NS < c->p->ts || !relevant(c->p, ev))
		return;
	if (ev->ts <= c->p->ts && !c->past) {
		format(c, ev, c->ring[c->head]);
		c->head = (c->head + 1) % EV_BEFORE;
		if (c->n < EV_BEFORE)
			c->n++;
	} else if (c->nafter < EV_AFTER) {
		format(c, ev, c->after[c->nafter++]);
	}
}

int tui_evidence(const char *path, const struct rq_placement *p, char (*rec)[TUI_EV_LEN],
		 int max, char *err, size_t errlen)
{
	struct rq_analysis_opts o = { .recent_capacity = 1 };
	char before[EV_BEFORE][TUI_EV_LEN], after[EV_AFTER][TUI_EV_LEN];
	struct ev_ctx c = { .p = p, .ring = before, .after = after };
	struct rq_replay *r;
	long n;
	int out = 0;

	c.an = rq_analysis_new(&o);
	if (!c.an) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	r = rq_replay_open(path, err, errlen);
	if (!r || rq_replay_begin(r, c.an)) {
		if (r)
			snprintf(err, errlen, "cannot read the trace again");
		rq_replay_close(r);
		rq_analysis_free(c.an);
		return -1;
	}
	c.an->delay->event_sink = on_event;
	c.an->delay->event_ctx = &c;
	while (c.nafter < EV_AFTER) {
		uint64_t next = rq_replay_next_ts(r);

		if (next == UINT64_MAX || next > p->ts + EV_WINDOW_NS)
			break;
		n = rq_replay_step(r, c.an, 4096);
		if (n <= 0)
			break;
	}
	c.an->delay->event_sink = NULL;
	rq_replay_close(r);
	rq_analysis_free(c.an);
	for (int i = 0; i < c.n && out < max; i++)
		memcpy(rec[out++], before[(c.head - c.n + i + EV_BEFORE) % EV_BEFORE], TUI_EV_LEN);
	for (int i = 0; i < c.nafter && out < max; i++)
		memcpy(rec[out++], after[i], TUI_EV_LEN);
	return out;
}
