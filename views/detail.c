// SPDX-License-Identifier: GPL-2.0
/*
 * detail.c - the evidence of one placement: what happened, why rqpath says so, the
 * select_task_rq() decision tree with the branch taken highlighted, why it was
 * flagged, and what the trace cannot tell.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "escape.h"
#include "teach.h"
#include "tlindex.h"
#include "tui.h"

#define DL_MAX 256
#define DL_LEN 320

struct dline {
	enum tui_color color;
	int attr;
	char text[DL_LEN];	/* already safe: program text or escaped */
};

#define DL_EVIDENCE 24

struct detail_state {
	struct rq_placement p;
	bool valid;
	/* the records around it (evidence.c), read once when the detail opens */
	char ev[DL_EVIDENCE][TUI_EV_LEN];
	int nev;		/* -1: not available (live, or the read failed: ev_err) */
	char ev_err[160];
	struct dline lines[DL_MAX];
	int n;
	int width;
};


/* Where the facts go: the detail's lines, or rqpath why's output (tui_detail_facts()). */
struct facts {
	tui_fact_fn fn;
	void *data;
	int width;
};

static void add(struct facts *s, enum tui_color c, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add(struct facts *s, enum tui_color c, const char *fmt, ...)
{
	char line[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	s->fn(c, line, s->data);
}

struct wrap_add {
	struct facts *s;
	enum tui_color c;
	const char *indent;
};

static void wrap_cb(const char *line, int len, void *data)
{
	struct wrap_add *w = data;

	add(w->s, w->c, "%s%.*s", w->indent, len, line);
}

static void add_wrapped(struct facts *s, enum tui_color c, const char *indent,
			const char *text)
{
	struct wrap_add w = { s, c, indent };

	rq_teach_wrap(text, s->width - (int)strlen(indent) - 1, wrap_cb, &w);
}

/*
 * The CPUs at the instant of the placement, as the timeline's index has them: what ran
 * on each and how many waited (the engine's queue), the allowed ones marked; the ones
 * the judges named (the idle CPU found, the CPU chosen) said so.
 */
static void add_cpus(struct facts *s, struct tui *t, const struct rq_placement *p,
		     const struct rq_task_info *tk)
{
	const struct tl_index *x = t->cur->idx;
	bool known = tk && tk->mask_known;
	char name[RQ_COMM_LEN * 4 + 1], what[RQ_COMM_LEN * 4 + 64], q[32];

	if (!x || x->nr_cpus <= 0) {
		add(s, C_DIM, "the CPUs: not known here (live: shown in replay)");
		add(s, C_NORMAL, "%s", "");
		return;
	}
	add(s, C_HEADER, "the CPUs at that instant (%s)", known ?
	    "* allowed to the task" : "allowed CPUs not known: all shown");
	for (int c = 0; c < x->nr_cpus; c++) {
		size_t k;
		const struct tl_run *r = tl_run_at(x, c, p->ts, &k);
		int n = tl_queued_before(x, c, p->ts, NULL);
		bool allowed = known && rq_cpumask_test(tk->mask, c);

		if (!r)
			snprintf(what, sizeof(what), "not known");
		else if (!r->pid)
			snprintf(what, sizeof(what), "idle");
		else
			snprintf(what, sizeof(what), "running %s:%d",
				 tui_display(tl_comm(x, r->comm), strnlen(tl_comm(x, r->comm),
					     RQ_COMM_LEN), name, sizeof(name)), r->pid);
		if (n < 0)
			snprintf(q, sizeof(q), "queue not known");
		else
			snprintf(q, sizeof(q), "%d queued", n);
		add(s, C_NORMAL, " %s cpu%-3d %-30s %-16s%s%s%s", allowed ? "*" : " ", c, what, q,
		    c == p->to_cpu ? " <- chosen" : "",
		    c == p->from_cpu && c != p->to_cpu ? " <- previous" : "",
		    (p->why & (1u << RQ_WHY_IDLE_STACKED | 1u << RQ_WHY_BUSY_RUNNING |
			       1u << RQ_WHY_BUSY_WAITING | 1u << RQ_WHY_BUSY_PENDING)) &&
		    c == p->why_cpu ? " <- idle, the judge found" : "");
	}
	add(s, C_NORMAL, "%s", "");
}

void tui_detail_facts(struct tui *t, const struct rq_placement *p,
		      const char (*ev)[TUI_EV_LEN], int nev, const char *ev_err, int width,
		      tui_fact_fn fn, void *data)
{
	struct facts fs = { fn, data, width }, *s = &fs;
	const struct rq_analysis *an = tui_side_an(t->cur);
	const struct rq_path_info *pi = &rq_paths[p->path];
	struct rq_task_info info;
	const struct rq_task_info *tk = an && rq_task_info_get(an, p->pid, &info) ? &info : NULL;
	char comm[RQ_COMM_LEN * 4 + 1], why[RQ_WHY_LEN + 256], esc[(RQ_WHY_LEN + 256) * 4];
	char from[16], mask[128] = "?", pre[128], ts[48];

	tui_display(p->comm, strnlen(p->comm, RQ_COMM_LEN), comm, sizeof(comm));
	if (p->from_cpu >= 0)
		snprintf(from, sizeof(from), "%d", p->from_cpu);
	else
		snprintf(from, sizeof(from), "?");
	add(s, C_HEADER, "placement #%llu at %ss", (unsigned long long)p->seq,
	    tui_fmt_ts(t, p->ts, 0, ts, sizeof(ts)));
	if (tk && tk->mask_known)
		rq_cpumask_format(tk->mask, mask, sizeof(mask));
	else if (p->truth & RQ_PT_MASK)
		/* the kernel's state gave the count, not which ones (the why says so too) */
		snprintf(mask, sizeof(mask), "%u (kernel state; which not recorded)",
			 p->truth_allowed);
	add(s, C_NORMAL, " task       %d %s  (policy %s, allowed CPUs %s)", p->pid, comm,
	    tk ? rq_policy_name(tk->policy) : "?", mask);
	add(s, C_NORMAL, " decision   %s: CPU %s %s %d   (record written on CPU %d by pid %d)",
	    rq_kind_names[pi->kind], from, tui_g.arrow, p->to_cpu, p->cpu, p->writer_pid);
	add(s, C_NORMAL, " path       %s: %s", pi->id, pi->summary);
	add(s, C_NORMAL, " kernel     %s()", pi->kernel_fn);
	add(s, p->conf == RQ_CONF_EXACT ? C_NORMAL : C_MAYBE, " confidence %s",
	    rq_confidence_names[p->conf]);
	add(s, C_NORMAL, "%s", "");
	add(s, C_HEADER, "why");
	rq_placement_describe(p, why, sizeof(why));
	/* the why text names the task: escape all of it */
	tui_display(why, strlen(why), esc, sizeof(esc));
	add_wrapped(s, C_NORMAL, "   ", esc);
	add(s, C_NORMAL, "%s", "");
	if (p->findings) {
		for (int f = 0; f < RQ_FIND__COUNT; f++) {
			if (!(p->findings & (1u << f)))
				continue;
			add(s, C_FINDING, "flagged: %s, %s", rq_finding_ids[f],
			    rq_findings[f].title);
			add_wrapped(s, C_NORMAL, "   ", rq_findings[f].text);
		}
	} else if (p->possible) {
		for (int f = 0; f < RQ_FIND__COUNT; f++) {
			if (!(p->possible & (1u << f)))
				continue;
			add(s, C_MAYBE, "possible: %s (not counted: the selection is not proven)",
			    rq_finding_ids[f]);
			add_wrapped(s, C_NORMAL, "   ", rq_findings[f].title);
		}
	} else {
		static const char *const words[] = { "no", "one", "two", "three", "four",
						     "five", "six", "seven", "eight" };

		if (RQ_FIND__COUNT < (int)(sizeof(words) / sizeof(words[0])))
			add(s, C_HEADER, "not flagged by any of the %s findings",
			    words[RQ_FIND__COUNT]);
		else
			add(s, C_HEADER, "not flagged by any of the %d findings", RQ_FIND__COUNT);
	}
	add(s, C_NORMAL, "%s", "");
	add_cpus(s, t, p, tk);
	if (nev > 0) {
		add(s, C_HEADER, "the records (as trace-cmd report prints them; > the deciding one)");
		for (int i = 0; i < nev; i++)
			add(s, ev[i][0] == '>' ? C_TAKEN : C_NORMAL, "%s", ev[i]);
		add(s, C_NORMAL, "%s", "");
	} else if (nev < 0 && ev_err && ev_err[0]) {
		add(s, C_DIM, "the records: %s", ev_err);
		add(s, C_NORMAL, "%s", "");
	}
	add(s, C_HEADER, "what the trace cannot tell");
	add_wrapped(s, C_NORMAL, "   ", rq_teach_unknown(p->path, p->conf));
	add(s, C_NORMAL, "%s", "");
	add(s, C_HEADER, "the decision step by step:  %s taken   ? maybe (not traced)   . not taken",
	    tui_g.mark);
	for (int i = 0; i < rq_teach_nr_nodes; i++) {
		const struct rq_teach_node *n = &rq_teach_nodes[i];
		enum rq_teach_mark m = rq_teach_node_mark(i, p->path);
		const char *mk = m == RQ_TEACH_TAKEN ? tui_g.mark : m == RQ_TEACH_MAYBE ? "?" : ".";

		rq_teach_tree_prefix(i, t->utf8, pre, sizeof(pre));
		/* the kernel function of each step on the way; the others stay short */
		add(s, m == RQ_TEACH_TAKEN ? C_TAKEN : m == RQ_TEACH_MAYBE ? C_MAYBE : C_DIM,
		    " %s %s%s%s%s", mk, pre, n->title,
		    m != RQ_TEACH_OFF && n->kernel_fn[0] ? "  " : "",
		    m != RQ_TEACH_OFF ? n->kernel_fn : "");
	}
}

static void line_cb(enum tui_color c, const char *text, void *data)
{
	struct detail_state *s = data;

	if (s->n >= DL_MAX)
		return;
	s->lines[s->n].color = c;
	s->lines[s->n].attr = 0;
	snprintf(s->lines[s->n].text, DL_LEN, "%s", text);
	s->n++;
}

static void build(struct view *v)
{
	struct detail_state *s = v->priv;

	s->n = 0;
	s->width = COLS;
	tui_detail_facts(v->t, &s->p, (const char (*)[TUI_EV_LEN])s->ev, s->nev, s->ev_err,
			 s->width, line_cb, s);
}

/*
 * Open the detail of p, wherever it was chosen (findings, placements, dashboard, [ ],
 * timeline, search): the engine's settled record of it, all its facts as the engine
 * gave them to the index; a placement not settled yet (live, or still loading) as the
 * engine holds it now, in the ring of recent placements or a finding's examples.
 */
void tui_open_placement(struct tui *t, const struct rq_placement *p)
{
	const struct rq_analysis *an = tui_side_an(t->cur);
	const struct rq_summary *sum = an ? rq_analysis_summary(an) : NULL;
	struct rq_placement rec;

	if (t->cur->idx && tl_pl_find(t->cur->idx, p->seq, p->ts, &rec)) {
		tui_push(t, VIEW_DETAIL, &rec);
		return;
	}
	for (unsigned int i = 0; an && i < sum->recent_len; i++) {
		const struct rq_placement *r = rq_recent(an, i);

		if (r && (uint32_t)r->seq == (uint32_t)p->seq && r->ts == p->ts) {
			tui_push(t, VIEW_DETAIL, r);
			return;
		}
	}
	for (int f = 0; an && f < RQ_FIND__COUNT; f++)
		for (int e = 0; e < sum->findings[f].nexamples; e++)
			if ((uint32_t)sum->findings[f].examples[e].seq == (uint32_t)p->seq &&
			    sum->findings[f].examples[e].ts == p->ts) {
				tui_push(t, VIEW_DETAIL, &sum->findings[f].examples[e]);
				return;
			}
	tui_push(t, VIEW_DETAIL, p);
}

static int detail_open(struct view *v, const void *arg)
{
	struct detail_state *s = v->priv;

	if (arg) {
		s->p = *(const struct rq_placement *)arg;
		s->valid = true;
		s->ev_err[0] = '\0';
		if (v->t->cur->live || !v->t->cur->path) {
			s->nev = -1;
			snprintf(s->ev_err, sizeof(s->ev_err), "shown in replay (rqpath replay "
				 "FILE); live, the recording is still being written");
		} else {
			s->nev = tui_evidence(v->t, v->t->cur->path, &s->p, s->ev, DL_EVIDENCE,
					      s->ev_err, sizeof(s->ev_err));
		}
	}
	v->top = v->sel = 0;
	return s->valid ? 0 : -1;
}

static void detail_draw(struct view *v, int y0, int h)
{
	struct detail_state *s = v->priv;

	build(v);
	tui_pager_clamp(v, s->n, h);
	for (int i = 0; i < h && v->top + i < s->n; i++) {
		const struct dline *l = &s->lines[v->top + i];

		attron(tui_attr(l->color));
		tui_puts(y0 + i, 0, -1, l->text);
		attroff(tui_attr(l->color));
	}
}

static enum view_key detail_key(struct view *v, enum tui_action act)
{
	struct detail_state *s = v->priv;

	/* ACT_ENTER is taken here so that it does nothing instead of reaching the list keys */
	if (act == ACT_ENTER)
		return VK_NONE;
	/* [ ] n N: the next or previous placement of the list this detail was opened from */
	if (act == ACT_NEXT_PLACEMENT || act == ACT_PREV_PLACEMENT) {
		struct tui *t = v->t;
		struct view *below = t->depth >= 2 ? t->stack[t->depth - 2] : NULL;
		int dir = act == ACT_NEXT_PLACEMENT ? 1 : -1;
		bool moved;

		if (below && below->ops == &placements_ops)
			moved = pl_step(below, dir);
		else if (below && below->ops == &timeline_ops)
			moved = tl_step(below, dir);
		else {
			tui_message(t, "[ ] step through a list: open the detail from the "
				    "placements or the timeline");
			return VK_REDRAW;
		}
		if (!moved)
			tui_message(t, "%s of the list", dir > 0 ? "end" : "start");
		return VK_REDRAW;
	}
	/* 6 from a placement: the timeline at that placement */
	if (act == ACT_VIEW_TIMELINE) {
		tui_push(v->t, VIEW_TIMELINE, &s->p);
		return VK_REDRAW;
	}
	return tui_pager_key(v, act, s->n) ? VK_REDRAW : VK_UNHANDLED;
}

/* The end of the TUI: the evidence's reader and its records go too. */
static void detail_done(struct view *v)
{
	tui_evidence_free(v->t);
}

const struct view_ops detail_ops = {
	.name = "detail",
	.title = "placement detail",
	.private_size = sizeof(struct detail_state),
	.open = detail_open,
	.done = detail_done,
	.draw = detail_draw,
	.key = detail_key,
	.help = "the evidence of one placement and the select_task_rq() branch it took",
};
