// SPDX-License-Identifier: GPL-2.0
/*
 * findings.c - the four findings, grouped: counts, what they mean, and the examples the
 * engine kept.  Enter on a finding lists its placements; on an example, its detail.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "escape.h"
#include "teach.h"
#include "tui.h"

#define FROWS (RQ_FIND__COUNT * (RQ_MAX_EXAMPLES + 3))

struct frow {
	int finding;
	int example;		/* -1: the header, -2: the description, -3: blank */
};

struct findings_state {
	struct frow rows[FROWS];
	int nrows;
};


static void rebuild(struct view *v)
{
	struct findings_state *s = v->priv;
	const struct rq_analysis *an = tui_side_an(v->t->cur);
	const struct rq_summary *sum = an ? rq_analysis_summary(an) : NULL;

	s->nrows = 0;
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		s->rows[s->nrows++] = (struct frow){ f, -1 };
		s->rows[s->nrows++] = (struct frow){ f, -2 };
		for (int e = 0; an && e < sum->findings[f].nexamples; e++)
			s->rows[s->nrows++] = (struct frow){ f, e };
	}
}

static int findings_open(struct view *v, const void *arg)
{
	rebuild(v);
	return 0;
}

static void draw_row(struct view *v, int y, const struct frow *r, bool sel)
{
	const struct rq_summary *sum = rq_analysis_summary(tui_side_an(v->t->cur));
	const struct rq_finding_store *fs = &sum->findings[r->finding];
	char buf[256], extra[96] = "";
	int x;

	tui_list_bar(y, sel);
	if (r->example == -1) {
		if (r->finding == RQ_FIND_OFFCPU_FORK)
			snprintf(extra, sizeof(extra), " of %llu forks",
				 (unsigned long long)fs->of);
		/* the proven count first; what the trace cannot prove has its own number */
		if (fs->possible)
			snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
				 " (+%llu possible)", (unsigned long long)fs->possible);
		/* kernel truth: would count, but the task was on a runqueue (ttwu_runnable) */
		if (fs->no_selection)
			snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
				 " (%llu no selection)", (unsigned long long)fs->no_selection);
		if ((fs->not_judged || fs->unknown) && !rq_finding_not_judged(fs))
			snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
				 " (%llu not judged)", (unsigned long long)(fs->not_judged > fs->unknown ?
							       fs->not_judged : fs->unknown));
		if (!sel)
			attron(fs->count ? tui_attr(C_FINDING) : tui_attr(C_HEADER));
		/* its verdict: a count, or "not judged" (never a bare 0 then) */
		if (rq_finding_not_judged(fs))
			snprintf(buf, sizeof(buf), "%s %-18s not judged: %llu%s", tui_g.mark,
				 rq_finding_ids[r->finding], (unsigned long long)fs->not_judged, extra);
		else
			snprintf(buf, sizeof(buf), "%s %-18s %llu%s", tui_g.mark,
				 rq_finding_ids[r->finding], (unsigned long long)fs->count, extra);
		tui_puts(y, 0, -1, buf);
		if (!sel)
			attroff(fs->count ? tui_attr(C_FINDING) : tui_attr(C_HEADER));
	} else if (r->example == -2) {
		tui_puts(y, 2, -1, rq_findings[r->finding].title);
		if (!fs->nexamples)
			tui_puts(y, 2 + tui_width(rq_findings[r->finding].title), -1,
				 "; no examples");
	} else {
		const struct rq_placement *p = &fs->examples[r->example];
		char why[RQ_WHY_LEN + 256];

		char ts[48];

		snprintf(buf, sizeof(buf), "  %s %7d ",
			 tui_fmt_ts(v->t, p->ts, tui_time_width(v->t), ts, sizeof(ts)), p->pid);
		x = tui_puts(y, 0, -1, buf);
		tui_puts_untrusted(y, x, 15, p->comm, strnlen(p->comm, RQ_COMM_LEN));
		x += 16;
		if (p->from_cpu >= 0)
			snprintf(buf, sizeof(buf), "%d%s%d ", p->from_cpu, tui_g.arrow, p->to_cpu);
		else
			snprintf(buf, sizeof(buf), "?%s%d ", tui_g.arrow, p->to_cpu);
		x += tui_puts(y, x, -1, buf);
		rq_placement_describe(p, why, sizeof(why));
		tui_puts_untrusted(y, x, COLS - x, why, strlen(why));
	}
	if (sel)
		attroff(tui_attr(C_SELECT));
}

static void findings_row(struct view *v, int y, int i, bool sel)
{
	draw_row(v, y, &((struct findings_state *)v->priv)->rows[i], sel);
}

static void findings_draw(struct view *v, int y0, int h)
{
	struct findings_state *s = v->priv;

	rebuild(v);
	if (!tui_side_an(v->t->cur))
		return;
	tui_list_draw(v, y0, h, s->nrows, findings_row);
}

static int findings_rows(struct view *v)
{
	rebuild(v);
	return ((struct findings_state *)v->priv)->nrows;
}

/* A finding matches by its id and title, an example by comm, pid and CPUs. */
static bool findings_match(struct view *v, int row, const char *needle, bool icase)
{
	const struct frow *r = &((struct findings_state *)v->priv)->rows[row];
	char pid[16];
	const struct rq_placement *p;

	if (r->example == -1)
		return tui_text_has(rq_finding_ids[r->finding], needle, icase);
	if (r->example == -2)
		return tui_text_has(rq_findings[r->finding].title, needle, icase);
	if (r->example < 0 || !tui_side_an(v->t->cur))
		return false;
	p = &rq_analysis_summary(tui_side_an(v->t->cur))->findings[r->finding].examples[r->example];
	snprintf(pid, sizeof(pid), "%d", p->pid);
	return tui_name_has(p->comm, strnlen(p->comm, RQ_COMM_LEN), needle, icase) ||
	       strstr(pid, needle);
}

static enum view_key findings_key(struct view *v, enum tui_action act)
{
	struct findings_state *s = v->priv;
	const struct frow *r;
	struct pl_filter f;

	rebuild(v);
	if (tui_list_key(v, act, s->nrows))
		return VK_REDRAW;
	if (act != ACT_ENTER || !s->nrows || !tui_side_an(v->t->cur))
		return VK_UNHANDLED;
	r = &s->rows[v->sel];
	if (r->example >= 0) {
		const struct rq_finding_store *fs =
			&rq_analysis_summary(tui_side_an(v->t->cur))->findings[r->finding];

		tui_open_placement(v->t, &fs->examples[r->example]);
	} else {
		/* proven and possible together, in two sections */
		pl_filter_clear(&f);
		f.with = r->finding;
		tui_push(v->t, VIEW_PLACEMENTS, &f);
	}
	return VK_REDRAW;
}

const struct view_ops findings_ops = {
	.name = "findings",
	.title = "findings",
	.private_size = sizeof(struct findings_state),
	.open = findings_open,
	.draw = findings_draw,
	.key = findings_key,
	.rows = findings_rows,
	.match = findings_match,
	.search_what = " (finding, comm, pid)",
	.help = "the four findings with their counts and the examples kept",
};
