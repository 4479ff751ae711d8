// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - KernelShark's CPU plots in a terminal: one lane per CPU with time across,
 * what ran there (a letter per task, coloured by task; the idle glyph; blank where the
 * trace does not say; x where events were lost), and under it the placements that put
 * a task on that CPU (the CPU it came from, ^ when it stayed, the finding's letter when
 * flagged).  The selected placement's column is marked on the axis and its origin on its
 * CPU; the lines below say what every CPU was doing at that instant.
 *
 * Everything comes from the index built once while loading (tlindex.c): a binary search
 * per lane and column, no rescan per key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "tlindex.h"
#include "tui.h"

#define LANE_LABEL 7		/* "cpu12 " + the rule */
#define NONE ((size_t)-1)

struct tl_state {
	uint64_t t0, span;	/* the window: start and width, ns */
	size_t cur;		/* selected placement (index in idx->pl), NONE */
	int cpu_top;		/* first CPU lane shown */
	int lanes;		/* lanes shown last time */
	bool init;
	bool by_policy;		/* c: lanes by scheduling policy instead of by task */
	int finding;		/* n/N walk this finding's placements, -1 any finding */
	int lane_y;		/* mouse: the first lane's row */
	int near_y, near_n;	/* the list of placements around: first row, rows */
	size_t near_first;	/* its first placement */
};


static struct tl_index *index_of(struct view *v)
{
	struct tl_index *x = v->t->cur->idx;

	if (x)
		tl_index_sort(x);
	return x;
}

static uint64_t trace_end(const struct tl_index *x)
{
	return x->last_ts > x->first_ts ? x->last_ts : x->first_ts + 1;
}

static void clamp(struct tl_state *s, const struct tl_index *x)
{
	uint64_t whole = trace_end(x) - x->first_ts;

	if (s->span > whole)
		s->span = whole;
	if (s->span < 1000)
		s->span = 1000;
	if (s->t0 + s->span > trace_end(x))
		s->t0 = trace_end(x) > s->span ? trace_end(x) - s->span : 0;
	if (s->t0 < x->first_ts)
		s->t0 = x->first_ts;
}

/* Keep the selected placement in the window (centred when it had left it). */
static void follow(struct tl_state *s, const struct tl_index *x)
{
	uint64_t ts;

	if (s->cur == NONE || s->cur >= x->sorted)
		return;
	ts = x->pl[s->cur].ts;
	if (ts < s->t0 || ts >= s->t0 + s->span)
		s->t0 = ts > s->span / 2 ? ts - s->span / 2 : 0;
	clamp(s, x);
}

static size_t find_seq(const struct tl_index *x, const struct rq_placement *p)
{
	size_t i = tl_pl_at(x, p->ts);

	for (; i < x->sorted && x->pl[i].ts == p->ts; i++)
		if (x->pl[i].seq == (uint32_t)p->seq)
			return i;
	return NONE;
}

static int timeline_open(struct view *v, const void *arg)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = index_of(v);

	if (!x)
		return -1;
	if (!s->init || !s->span) {
		s->finding = -1;
		s->t0 = x->first_ts;
		s->span = trace_end(x) - x->first_ts;
		s->cur = x->sorted ? 0 : NONE;
		s->init = x->sorted > 0;
	}
	/* opened on a placement (from its detail or the list): zoom to 2 ms around it */
	if (arg) {
		size_t i = find_seq(x, arg);

		if (i != NONE) {
			s->cur = i;
			s->span = 2000000;
			s->t0 = 0;
			follow(s, x);
		}
	}
	clamp(s, x);
	return 0;
}

/* Which task ran longest in [a, b) on cpu: its run, or NULL (nothing known). */
static const struct tl_run *dominant(const struct tl_index *x, int cpu, uint64_t a, uint64_t b)
{
	const struct tl_cpu *c = &x->cpu[cpu];
	const struct tl_run *best = NULL;
	uint64_t best_len = 0;
	size_t k;

	tl_run_at(x, cpu, a, &k);
	for (int n = 0; k < c->n && c->runs[k].start < b && n < 64; k++, n++) {
		const struct tl_run *r = &c->runs[k];
		uint64_t s = r->start > a ? r->start : a, e = r->end < b ? r->end : b;

		if (e > s && e - s > best_len) {
			best_len = e - s;
			best = r;
		}
	}
	if (c->open && c->cur.start < b) {
		uint64_t s = c->cur.start > a ? c->cur.start : a;

		if (b > s && b - s > best_len)
			best = &c->cur;
	}
	return best;
}

static bool lost_in(const struct tl_index *x, int cpu, uint64_t a, uint64_t b)
{
	size_t lo = TL_LOWER_BOUND(x->lost, x->nlost, ts, a);

	for (; lo < x->nlost && x->lost[lo].ts < b; lo++)
		if (x->lost[lo].cpu == cpu)
			return true;
	return false;
}

static void task_glyph(const struct tl_index *x, const struct tl_run *r, char *g)
{
	const char *comm = tl_comm(x, r->comm);
	unsigned char c = (unsigned char)comm[0];

	g[0] = c > 0x20 && c < 0x7f ? (char)c : '#';
	/* q is the legend's queued (qN): a task named q... (qemu) shows Q */
	if (g[0] == 'q')
		g[0] = 'Q';
	g[1] = '\0';
}

/* By policy: a letter and a colour per scheduling policy. */
static char policy_glyph(unsigned int policy)
{
	switch (policy) {
	case RQ_SCHED_NORMAL: return 'n';
	case RQ_SCHED_BATCH: return 'b';
	case RQ_SCHED_IDLE: return 'i';
	case RQ_SCHED_FIFO: return 'F';
	case RQ_SCHED_RR: return 'R';
	case RQ_SCHED_DEADLINE: return 'D';
	case RQ_SCHED_EXT: return 'e';
	default: return '?';
	}
}

static int policy_attr(unsigned int policy)
{
	switch (policy) {
	case RQ_SCHED_IDLE: return tui_attr(C_MAYBE);
	case RQ_SCHED_BATCH: return tui_attr(C_BAR);
	case RQ_SCHED_FIFO:
	case RQ_SCHED_RR:
	case RQ_SCHED_DEADLINE: return tui_attr(C_FINDING);
	case RQ_SCHED_NORMAL: return tui_attr(C_TAKEN);
	default: return tui_attr(C_NORMAL);
	}
}

static uint64_t col_time(const struct tl_state *s, int i, int w)
{
	return s->t0 + (uint64_t)((unsigned __int128)s->span * (unsigned)i / (unsigned)w);
}

static void draw_lane(struct view *v, int y, int cpu, int w)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = v->t->cur->idx;
	char label[16];

	snprintf(label, sizeof(label), "cpu%-3d", cpu);
	attron(tui_attr(C_HEADER));
	tui_puts(y, 0, LANE_LABEL - 1, label);
	attroff(tui_attr(C_HEADER));
	tui_puts(y, LANE_LABEL - 1, 1, tui_g.vline);
	for (int i = 0; i < w; i++) {
		uint64_t a = col_time(s, i, w), b = col_time(s, i + 1, w);
		const struct tl_run *r;
		char g[8];

		if (b <= a)
			b = a + 1;
		if (lost_in(x, cpu, a, b)) {
			attron(tui_attr(C_FINDING));
			tui_puts(y, LANE_LABEL + i, 1, "x");
			attroff(tui_attr(C_FINDING));
			continue;
		}
		r = dominant(x, cpu, a, b);
		if (!r)
			continue;
		if (r->pid == 0) {
			attron(tui_attr(C_DIM));
			tui_puts(y, LANE_LABEL + i, 1, tui_g.idle);
			attroff(tui_attr(C_DIM));
			continue;
		}
		if (s->by_policy) {
			g[0] = policy_glyph(r->policy);
			g[1] = '\0';
			attron(policy_attr(r->policy));
			tui_puts(y, LANE_LABEL + i, 1, g);
			attroff(policy_attr(r->policy));
			continue;
		}
		task_glyph(x, r, g);
		attron(tui_task_attr(r->pid));
		tui_puts(y, LANE_LABEL + i, 1, g);
		attroff(tui_task_attr(r->pid));
	}
}

/* The placements onto cpu, one mark per column; the selected one reversed. */
static void draw_marks(struct view *v, int y, int cpu, int w)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = v->t->cur->idx;
	size_t k = tl_pl_at(x, s->t0);

	for (int i = 0; i < w; i++) {
		uint64_t b = col_time(s, i + 1, w);
		char mark = 0;
		bool sel = false, flagged = false, origin = false;

		for (int n = 0; k < x->sorted && x->pl[k].ts < b; k++, n++) {
			const struct tl_pl *p = &x->pl[k];

			if (k == s->cur && p->from == cpu && p->from != p->to)
				origin = true;
			if (p->to != cpu)
				continue;
			if (k == s->cur)
				sel = true;
			if (p->findings) {
				for (int f = 0; f < RQ_FIND__COUNT; f++)
					if (p->findings & (1u << f)) {
						mark = rq_finding_letters[f];
						break;
					}
				flagged = true;
			} else if (!flagged && (!mark || sel)) {
				mark = p->from < 0 ? '?' : p->from == p->to ? '^' :
				       p->from < 10 ? (char)('0' + p->from) : '*';
			}
		}
		if (origin && !mark)
			mark = 'o';
		if (!mark)
			continue;
		if (sel || origin)
			attron(tui_attr(C_SELECT));
		else if (flagged)
			attron(tui_attr(C_FINDING));
		mvaddch(y, LANE_LABEL + i, (chtype)mark);
		if (sel || origin)
			attroff(tui_attr(C_SELECT));
		else if (flagged)
			attroff(tui_attr(C_FINDING));
	}
}

static void fmt_span(uint64_t ns, char *buf, size_t size)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, size, "%.3g s", ns / 1e9);
	else if (ns >= 1000000)
		snprintf(buf, size, "%.3g ms", ns / 1e6);
	else
		snprintf(buf, size, "%.3g us", ns / 1e3);
}

static void draw_axis(struct view *v, int y, int w)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = v->t->cur->idx;
	char buf[48];

	int col = -100;

	if (s->cur != NONE && s->cur < x->sorted) {
		uint64_t ts = x->pl[s->cur].ts;

		if (ts >= s->t0 && ts < s->t0 + s->span)
			col = (int)((unsigned __int128)(ts - s->t0) * (unsigned)w / s->span);
	}
	tui_clear_row(y, 0);
	attron(tui_attr(C_HEADER));
	for (int i = 0; i + 12 <= w; i += 16) {
		tui_puts(y, LANE_LABEL + i, 1, "|");
		tui_fmt_ts(v->t, col_time(s, i, w), 0, buf, sizeof(buf));
		/* a label the cursor would cut is left out */
		if (col < i || col > i + 1 + (int)strlen(buf))
			tui_puts(y, LANE_LABEL + i + 1, 13, buf);
	}
	attroff(tui_attr(C_HEADER));
	if (col >= 0) {
		attron(tui_attr(C_SELECT));
		tui_puts(y, LANE_LABEL + col, 1, tui_g.down);
		attroff(tui_attr(C_SELECT));
	}
}

/* What every CPU was doing at the selected placement: the verdict's ground. */
static void draw_instant(struct view *v, int y, int ymax)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = v->t->cur->idx;
	const struct tl_pl *p;
	char buf[256], ts[48], marks[8], from[8];
	int xcol;

	if (s->cur == NONE || s->cur >= x->sorted) {
		tui_puts(y, 1, -1, "no placement selected ([ ] move, n/N flagged ones)");
		return;
	}
	p = &x->pl[s->cur];
	pl_finding_marks(p->findings, 0, marks);
	if (p->from >= 0)
		snprintf(from, sizeof(from), "%d", p->from);
	else
		snprintf(from, sizeof(from), "?");
	snprintf(buf, sizeof(buf), " %ss %s %d ", tui_fmt_ts(v->t, p->ts, 0, ts, sizeof(ts)),
		 rq_kind_names[rq_paths[p->path < RQ_PATH__COUNT ? p->path : RQ_PATH_UNKNOWN].kind],
		 p->pid);
	xcol = tui_puts(y, 0, -1, buf);
	xcol += tui_puts_untrusted(y, xcol, 16, tl_comm(x, p->comm),
				   strnlen(tl_comm(x, p->comm), RQ_COMM_LEN));
	snprintf(buf, sizeof(buf), " cpu %s%s%d  %s  %s", from, tui_g.arrow, p->to,
		 rq_paths[p->path < RQ_PATH__COUNT ? p->path : RQ_PATH_UNKNOWN].id, marks);
	if (p->findings)
		attron(tui_attr(C_FINDING));
	xcol += tui_puts(y, xcol, -1, buf);
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		if (!(p->findings & (1u << f)))
			continue;
		xcol += tui_puts(y, xcol, -1, " ");
		xcol += tui_puts(y, xcol, -1, rq_finding_ids[f]);
	}
	if (p->findings)
		attroff(tui_attr(C_FINDING));
	if (++y >= ymax)
		return;
	/* each CPU at that instant: what ran, and how many waited (the engine's queue) */
	xcol = tui_puts(y, 0, -1, " at that instant:");
	for (int c = 0; c < x->nr_cpus && xcol < COLS - 4; c++) {
		size_t k;
		const struct tl_run *r = tl_run_at(x, c, p->ts, &k);
		int qp[1];
		int q = tl_queued_before(x, c, p->ts, qp);

		snprintf(buf, sizeof(buf), "  cpu%d ", c);
		xcol += tui_puts(y, xcol, -1, buf);
		if (!r) {
			xcol += tui_puts(y, xcol, -1, "unknown");
		} else if (!r->pid) {
			attron(tui_attr(C_TAKEN));
			xcol += tui_puts(y, xcol, -1, "idle");
			attroff(tui_attr(C_TAKEN));
		} else {
			xcol += tui_puts_untrusted(y, xcol, 16, tl_comm(x, r->comm),
						   strnlen(tl_comm(x, r->comm), RQ_COMM_LEN));
			snprintf(buf, sizeof(buf), ":%d", r->pid);
			xcol += tui_puts(y, xcol, -1, buf);
		}
		if (q < 0)
			snprintf(buf, sizeof(buf), " q?");
		else
			snprintf(buf, sizeof(buf), " q%d", q);
		if (q > 0)
			attron(tui_attr(C_FINDING));
		xcol += tui_puts(y, xcol, -1, buf);
		/* who waited: the first one (by the model's name for it), and how many more */
		if (q > 0 && qp[0] > 0) {
			struct rq_task_info tk;
			struct rq_analysis *an = tui_side_an(v->t->cur);
			const char *name = an && rq_task_info_get(an, qp[0], &tk) &&
					   tk.comm[0] ? tk.comm : "?";

			xcol += tui_puts(y, xcol, -1, "[");
			xcol += tui_puts_untrusted(y, xcol, 16, name, strnlen(name, RQ_COMM_LEN));
			snprintf(buf, sizeof(buf), ":%d%s", qp[0], q > 1 ? " +" : "]");
			xcol += tui_puts(y, xcol, -1, buf);
			if (q > 1) {
				snprintf(buf, sizeof(buf), "%d]", q - 1);
				xcol += tui_puts(y, xcol, -1, buf);
			}
		}
		if (q > 0)
			attroff(tui_attr(C_FINDING));
	}
}

static void draw_near(struct view *v, int y, int ymax)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = v->t->cur->idx;
	size_t first, n = (size_t)(ymax - y);

	if (s->cur == NONE || s->cur >= x->sorted)
		return;
	first = s->cur > n / 2 ? s->cur - n / 2 : 0;
	if (first + n > x->sorted)
		first = x->sorted > n ? x->sorted - n : 0;
	s->near_y = y;
	s->near_first = first;
	s->near_n = (int)(x->sorted - first < n ? x->sorted - first : n);
	for (size_t k = first; k < x->sorted && y < ymax; k++, y++) {
		const struct tl_pl *p = &x->pl[k];
		char buf[160], ts[48], marks[8], from[8];
		bool sel = k == s->cur;
		int xc;

		if (p->from >= 0)
			snprintf(from, sizeof(from), "%d", p->from);
		else
			snprintf(from, sizeof(from), "?");
		pl_finding_marks(p->findings, 0, marks);
		if (sel) {
			attron(tui_attr(C_SELECT));
			for (int c = 0; c < COLS; c++)
				mvaddch(y, c, ' ');
		} else if (p->findings) {
			attron(tui_attr(C_FINDING));
		}
		snprintf(buf, sizeof(buf), "%s %-8s %7d ",
			 tui_fmt_ts(v->t, p->ts, tui_time_width(v->t), ts, sizeof(ts)),
			 rq_kind_names[rq_paths[p->path < RQ_PATH__COUNT ? p->path :
						RQ_PATH_UNKNOWN].kind], p->pid);
		xc = tui_puts(y, 0, -1, buf);
		tui_puts_untrusted(y, xc, 15, tl_comm(x, p->comm),
				   strnlen(tl_comm(x, p->comm), RQ_COMM_LEN));
		xc += 16;
		snprintf(buf, sizeof(buf), "%3s%s%-3d %-16s %s", from, tui_g.arrow, p->to,
			 rq_paths[p->path < RQ_PATH__COUNT ? p->path : RQ_PATH_UNKNOWN].id, marks);
		tui_puts(y, xc, -1, buf);
		if (sel)
			attroff(tui_attr(C_SELECT));
		else if (p->findings)
			attroff(tui_attr(C_FINDING));
	}
}

/* Whether n/N stop at c: any finding, or the one chosen with f. */
static bool flagged(const struct tl_state *s, const struct tl_pl *c)
{
	return s->finding < 0 ? c->findings != 0 : (c->findings & (1u << s->finding)) != 0;
}

static void finding_done(struct tui *t, const char *text, void *data)
{
	struct view *v = data;
	struct tl_state *s = v->priv;
	size_t len = strlen(text);
	int found = -1, nfound = 0;

	if (!len) {
		s->finding = -1;
		tui_message(t, "n/N walk every flagged placement");
		return;
	}
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		if (!strncmp(text, rq_finding_ids[f], len) && !nfound++)
			found = f;
	if (nfound != 1) {
		tui_message(t, "%s finding '%s' (%s)", nfound ? "more than one" : "no", text,
			    rq_finding_id_list());
		return;
	}
	s->finding = found;
	tui_message(t, "n/N walk the %s placements", rq_finding_ids[found]);
}

static void timeline_draw(struct view *v, int y0, int h)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = index_of(v);
	int w = COLS - LANE_LABEL, lanes, y;
	char buf[256], a[48], b[48], span[32];
	size_t nflag = 0;

	if (!x || (!x->nr_cpus && !x->sorted)) {
		tui_puts(y0 + 1, 2, -1, "no events yet");
		return;
	}
	if (!s->init)
		timeline_open(v, NULL);
	clamp(s, x);
	for (size_t i = 0; i < x->sorted; i++)
		nflag += flagged(s, &x->pl[i]);
	fmt_span(s->span, span, sizeof(span));
	snprintf(buf, sizeof(buf), " %s to %s s (%s)  %zu placements, %zu %s%s",
		 tui_fmt_ts(v->t, s->t0, 0, a, sizeof(a)),
		 tui_fmt_ts(v->t, s->t0 + s->span, 0, b, sizeof(b)), span, x->sorted, nflag,
		 s->finding < 0 ? "flagged" : rq_finding_ids[s->finding],
		 x->full ? "  (index full: out of memory)" :
		 !x->complete && !v->t->cur->live ? "  (index incomplete: G reads to the end)" : "");
	tui_clear_row(y0, 0);
	tui_puts(y0, 0, -1, buf);
	draw_axis(v, y0 + 1, w);
	/* lanes get what the axis, the rule, the two lines of the instant and the legend leave */
	lanes = (h - 2 - 4) / 2;
	if (lanes < 1)
		lanes = 1;
	if (lanes > x->nr_cpus)
		lanes = x->nr_cpus;
	if (s->cpu_top > x->nr_cpus - lanes)
		s->cpu_top = x->nr_cpus - lanes;
	if (s->cpu_top < 0)
		s->cpu_top = 0;
	s->lanes = lanes;
	y = y0 + 2;
	s->lane_y = y;
	s->near_n = 0;
	for (int l = 0; l < lanes; l++) {
		int cpu = s->cpu_top + l;

		draw_lane(v, y++, cpu, w);
		draw_marks(v, y++, cpu, w);
	}
	/* rows to spare: the placements around the selected one, as in KernelShark's list */
	if (y0 + h - 4 - y >= 3) {
		tui_rule(v->t, y++, "placements around the selected one ([ ] moves)");
		draw_near(v, y, y0 + h - 4);
	}
	y = y0 + h - 4;
	tui_rule(v->t, y++, "");
	draw_instant(v, y, y0 + h - 1);
	y = y0 + h - 1;
	if (s->by_policy)
		snprintf(buf, sizeof(buf), " %s idle  x lost  n normal b batch i idle F fifo R rr "
			 "D deadline  qN queued", tui_g.idle);
	else
		snprintf(buf, sizeof(buf), " %s idle x lost a-z task ^ stayed 0-9 from CPU "
			 "o origin %s flagged qN queued", tui_g.idle, rq_finding_letters);
	attron(tui_attr(C_DIM));
	tui_puts(y, 0, -1, buf);
	attroff(tui_attr(C_DIM));
	if (x->nr_cpus > lanes) {
		snprintf(buf, sizeof(buf), " CPUs %d-%d of %d (Up/Down)", s->cpu_top,
			 s->cpu_top + lanes - 1, x->nr_cpus);
		tui_puts(y0, COLS - (int)strlen(buf) - 1, -1, buf);
	}
}

/* The next placement from cur in dir that has the finding n/N walk; NONE if none. */
static size_t next_flagged(const struct tl_state *s, const struct tl_index *x, size_t cur,
			   int dir, bool *wrapped)
{
	size_t n = x->sorted;

	*wrapped = false;
	if (!n)
		return NONE;
	for (size_t k = 1; k <= n; k++) {
		size_t i;

		if (cur == NONE)
			i = dir > 0 ? k - 1 : n - k;
		else
			i = (cur + n + (dir > 0 ? k : n - k)) % n;
		if (flagged(s, &x->pl[i])) {
			*wrapped = cur != NONE && (dir > 0 ? i <= cur : i >= cur);
			return i;
		}
	}
	return NONE;
}

static void open_detail(struct view *v)
{
	struct tl_state *s = v->priv;
	struct rq_placement p;

	tl_pl_expand(v->t->cur->idx, &v->t->cur->idx->pl[s->cur], &p);
	tui_open_placement(v->t, &p);
}

bool tl_step(struct view *v, int dir)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = index_of(v);

	if (!x || s->cur == NONE || (dir < 0 && s->cur == 0) || s->cur + dir >= x->sorted)
		return false;
	s->cur += dir;
	follow(s, x);
	open_detail(v);
	tui_message(v->t, "placement %zu of %zu of the trace", s->cur + 1, x->sorted);
	return true;
}

static enum view_key timeline_key(struct view *v, enum tui_action act)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = index_of(v);
	uint64_t centre;
	bool wrapped;
	size_t i;

	if (!x)
		return VK_UNHANDLED;
	centre = s->cur != NONE && s->cur < x->sorted &&
		 x->pl[s->cur].ts >= s->t0 && x->pl[s->cur].ts < s->t0 + s->span ?
		 x->pl[s->cur].ts : s->t0 + s->span / 2;
	switch (act) {
	case ACT_ZOOM_IN:
	case ACT_ZOOM_OUT: {
		/* the centre keeps its column */
		unsigned __int128 frac = ((unsigned __int128)(centre - s->t0) << 20) /
					 (s->span ? s->span : 1);

		s->span = act == ACT_ZOOM_IN ? s->span / 2 : s->span * 2;
		clamp(s, x);
		s->t0 = centre > (uint64_t)((frac * s->span) >> 20) ?
			centre - (uint64_t)((frac * s->span) >> 20) : 0;
		clamp(s, x);
		return VK_REDRAW;
	}
	case ACT_PAN_LEFT:
	case ACT_PGUP:
		s->t0 -= s->t0 > s->span / (act == ACT_PGUP ? 1 : 8) ?
			 s->span / (act == ACT_PGUP ? 1 : 8) : s->t0;
		clamp(s, x);
		return VK_REDRAW;
	case ACT_PAN_RIGHT:
	case ACT_PGDN:
		s->t0 += s->span / (act == ACT_PGDN ? 1 : 8);
		clamp(s, x);
		return VK_REDRAW;
	case ACT_HOME:
		s->t0 = x->first_ts;
		clamp(s, x);
		return VK_REDRAW;
	case ACT_END:
		s->t0 = trace_end(x);
		clamp(s, x);
		return VK_REDRAW;
	case ACT_UP:
		s->cpu_top--;
		return VK_REDRAW;
	case ACT_DOWN:
		s->cpu_top++;
		return VK_REDRAW;
	case ACT_PREV_PLACEMENT:
	case ACT_NEXT_PLACEMENT:
		if (!x->sorted)
			return VK_NONE;
		if (s->cur == NONE || s->cur >= x->sorted)
			s->cur = tl_pl_at(x, s->t0);
		else if (act == ACT_NEXT_PLACEMENT && s->cur + 1 < x->sorted)
			s->cur++;
		else if (act == ACT_PREV_PLACEMENT && s->cur > 0)
			s->cur--;
		if (s->cur >= x->sorted)
			s->cur = x->sorted - 1;
		follow(s, x);
		return VK_REDRAW;
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV: {
		size_t k = 0, n = 0;

		i = next_flagged(s, x, s->cur, act == ACT_SEARCH_NEXT ? 1 : -1, &wrapped);
		if (i == NONE) {
			tui_message(v->t, "no %s placement in the trace",
				    s->finding < 0 ? "flagged" : rq_finding_ids[s->finding]);
			return VK_REDRAW;
		}
		s->cur = i;
		for (size_t j = 0; j < x->sorted; j++) {
			n += flagged(s, &x->pl[j]);
			if (j == i)
				k = n;
		}
		follow(s, x);
		tui_message(v->t, "%s%s placement %zu of %zu",
			    wrapped ? (act == ACT_SEARCH_NEXT ? "wrapped to the start: " :
				       "wrapped to the end: ") : "",
			    s->finding < 0 ? "flagged" : rq_finding_ids[s->finding], k, n);
		return VK_REDRAW;
	}
	case ACT_COLOR_BY:
		s->by_policy = !s->by_policy;
		tui_message(v->t, "lanes by %s", s->by_policy ? "scheduling policy" : "task");
		return VK_REDRAW;
	case ACT_FILTER:
		tui_prompt(v->t, "n/N walk (a finding, empty: any): ",
			   s->finding < 0 ? NULL : rq_finding_ids[s->finding], finding_done, v);
		return VK_REDRAW;
	case ACT_FILTER_CLEAR:
		s->finding = -1;
		tui_message(v->t, "n/N walk every flagged placement");
		return VK_REDRAW;
	case ACT_ENTER:
		if (s->cur != NONE && s->cur < x->sorted)
			open_detail(v);
		return VK_REDRAW;
	default:
		return VK_UNHANDLED;
	}
}

/*
 * The mouse: a click on a lane or on its marks selects the placement onto that CPU in
 * that column (a flagged one first, as the mark shows), or a row of the list below; a
 * double click opens its detail, as Enter does.
 */
static bool timeline_mouse(struct view *v, int y, int xc, bool open)
{
	struct tl_state *s = v->priv;
	struct tl_index *x = index_of(v);
	int w = COLS - LANE_LABEL, l = (y - s->lane_y) / 2, i = xc - LANE_LABEL;
	size_t pick = NONE;

	if (!x)
		return false;
	if (s->near_n && y >= s->near_y && y < s->near_y + s->near_n) {
		pick = s->near_first + (size_t)(y - s->near_y);
	} else if (y >= s->lane_y && l < s->lanes && i >= 0 && i < w) {
		int cpu = s->cpu_top + l;
		uint64_t a = col_time(s, i, w), b = col_time(s, i + 1, w);

		for (size_t k = tl_pl_at(x, a); k < x->sorted && x->pl[k].ts < b; k++) {
			if (x->pl[k].to != cpu)
				continue;
			if (pick == NONE || (x->pl[k].findings && !x->pl[pick].findings))
				pick = k;
		}
	}
	if (pick == NONE || pick >= x->sorted)
		return false;
	s->cur = pick;
	follow(s, x);
	if (open)
		open_detail(v);
	return true;
}

const struct view_ops timeline_ops = {
	.mouse = timeline_mouse,
	.name = "timeline",
	.title = "timeline",
	.private_size = sizeof(struct tl_state),
	.open = timeline_open,
	.draw = timeline_draw,
	.key = timeline_key,
	.help = "one lane per CPU over time: what ran, idle, lost events, the placements",
};
