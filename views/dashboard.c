// SPDX-License-Identifier: GPL-2.0
/*
 * dashboard.c - the default view: the source, what the trace cannot show, a per-CPU
 * strip, placements by kind and path as bars with their denominators, the four findings
 * with their exact / inferred / possible / not-judged split (and, with kernel truth, how
 * many made no selection) and a rate sparkline, and
 * (when the screen has room) the tasks with the most findings.  A cursor moves over the
 * paths and the findings; Enter lists their placements.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "tui.h"

/* The rows the cursor moves over: the paths shown, then the four findings. */
struct dash_state {
	int path_ids[RQ_PATH__COUNT];
	int npaths;
};

static int nselectable(const struct dash_state *s)
{
	return s->npaths + RQ_FIND__COUNT;
}

static void fmt_count(uint64_t n, char *buf, size_t size)
{
	if (n >= 10000000000ULL)
		snprintf(buf, size, "%lluG", (unsigned long long)(n / 1000000000ULL));
	else if (n >= 10000000ULL)
		snprintf(buf, size, "%lluM", (unsigned long long)(n / 1000000ULL));
	else
		snprintf(buf, size, "%llu", (unsigned long long)n);
}

static void draw_info(struct view *v, int y)
{
	struct tui *t = v->t;
	const struct rq_summary *sum = rq_analysis_summary(tui_side_an(t->cur));
	char ev[32], rate[32], line[256], lost[32], truth[64] = "";
	double span = 0;
	int x;

	tui_clear_row(y, 0);
	x = tui_puts(y, 0, -1, " kernel ");
	x += tui_puts_untrusted(y, x, 24, sum->profile.release[0] ? sum->profile.release : "?",
				sum->profile.release[0] ? strlen(sum->profile.release) : 1);
	/* the tracepoint events, the kernel-truth records apart (as record and audit say) */
	fmt_count(sum->nr_events - sum->truth_records, ev, sizeof(ev));
	if (sum->truth_records) {
		char n[32];

		fmt_count(sum->truth_records, n, sizeof(n));
		snprintf(truth, sizeof(truth), "  (+%s truth records)", n);
	}
	fmt_count(sum->lost_events, lost, sizeof(lost));
	if (t->cur->live) {
		if (t->test_mode)
			snprintf(rate, sizeof(rate), "-");
		else
			snprintf(rate, sizeof(rate), "%.0f/s", t->rec.rate);
	} else {
		if (sum->last_ts > sum->first_ts)
			span = (sum->last_ts - sum->first_ts) / 1e9;
		if (span > 0)
			snprintf(rate, sizeof(rate), "%.0f/s",
				 (sum->nr_events - sum->truth_records) / span);
		else
			snprintf(rate, sizeof(rate), "-");
	}
	snprintf(line, sizeof(line), "  %d CPUs  %s events (%s)  %s lost", sum->nr_cpus, ev, rate,
		 lost);
	x += tui_puts(y, x, -1, line);
	if (sum->lost_events) {
		/* live, the remedy is at hand: a bigger ring buffer per CPU */
		const char *mark = t->cur->live ? " ! raise --buffer-kb" : " !";

		attron(tui_attr(C_FINDING));
		x += tui_puts(y, x, -1, mark);
		attroff(tui_attr(C_FINDING));
	}
	/* after the lost count and its advice: on a narrow screen this is cut first */
	x += tui_puts(y, x, -1, truth);
	if (t->cur->live) {
		if (!t->test_mode) {
			snprintf(line, sizeof(line), "  elapsed %.0fs", tui_wall_elapsed(t));
		} else {
			line[0] = '\0';
		}
	} else {
		char a[48];

		if (t->abs_time)
			snprintf(line, sizeof(line), "  at %ss", tui_fmt_ts(t, tui_position(t), 0, a,
									  sizeof(a)));
		else if (t->cur->trace_last)
			snprintf(line, sizeof(line), "  at %.3f/%.3fs",
				 tui_rel(t, tui_position(t)), tui_rel(t, t->cur->trace_last));
		else
			snprintf(line, sizeof(line), "  at %.3fs",
				 tui_rel(t, tui_position(t)));
	}
	tui_puts(y, x, -1, line);
}

/*
 * One line of what this trace cannot show, so the numbers below are read with it:
 * attribute markers, topology, the kernel profile, and the model repairs per CPU.
 */
static void draw_limits(struct view *v, int y)
{
	const struct rq_summary *sum = rq_analysis_summary(tui_side_an(v->t->cur));
	char line[512], rep[256] = "";
	uint64_t repairs = 0, mism = 0;
	size_t off = 0;
	bool warn;

	for (int c = 0; sum->cpus && c < sum->nr_cpus; c++) {
		repairs += sum->cpus[c].repairs;
		mism += sum->cpus[c].switch_mismatches;
	}
	if (repairs || mism) {
		off += snprintf(rep, sizeof(rep), "repaired:");
		for (int c = 0; c < sum->nr_cpus && off < sizeof(rep); c++)
			if (sum->cpus[c].repairs || sum->cpus[c].switch_mismatches)
				off += snprintf(rep + off, sizeof(rep) - off, " cpu%d %llu/%llu", c,
						(unsigned long long)sum->cpus[c].repairs,
						(unsigned long long)sum->cpus[c].switch_mismatches);
		snprintf(rep + off, off < sizeof(rep) ? sizeof(rep) - off : 0,
			 " (runs/switches)");
	} else {
		snprintf(rep, sizeof(rep), "no model repairs");
	}
	snprintf(line, sizeof(line), " %s  %s  %s  %s",
		 sum->has_markers ? "markers: affinity, policy" :
				   "no markers: affinity, policy assumed",
		 sum->llc_source == RQ_LLC_CACHE ? "LLC: sysfs" :
		 sum->llc_source == RQ_LLC_PACKAGE ? "LLC: package" :
						    "no topology: one LLC assumed",
		 !sum->profile.release[0] ? "kernel unknown: profile assumed" :
		 sum->profile.overridden ? "profile: overridden" : "profile: from release",
		 rep);
	warn = !sum->has_markers || sum->llc_source == RQ_LLC_ASSUMED || !sum->profile.release[0] ||
	       repairs || mism;
	tui_clear_row(y, 0);
	if (warn)
		attron(tui_attr(C_MAYBE));
	tui_puts(y, 0, -1, line);
	if (warn)
		attroff(tui_attr(C_MAYBE));
}

/* One CPU cell: "cpu0 comm:pid q1 in out" into w columns (compact below 60). */
static void draw_cpu(struct view *v, int y, int x, int w, int cpu)
{
	const struct rq_analysis *an = tui_side_an(v->t->cur);
	const struct rq_summary *sum = an ? rq_analysis_summary(an) : NULL;
	const struct rq_cpu_summary *c = &sum->cpus[cpu];
	int namew = w < 60 ? 17 : 23;
	char buf[64];
	int used;

	snprintf(buf, sizeof(buf), "cpu%-2d ", cpu);
	used = tui_puts(y, x, w, buf);
	if (c->curr <= 0) {
		attron(tui_attr(C_DIM));
		tui_puts(y, x + used, namew, c->curr == 0 ? "<idle>" : "?");
		attroff(tui_attr(C_DIM));
	} else {
		struct rq_task_info tk;
		int n = 0;

		snprintf(buf, sizeof(buf), ":%d", c->curr);
		if (rq_task_info_get(an, c->curr, &tk))
			n = tui_puts_untrusted(y, x + used, namew - 1 - (int)strlen(buf), tk.comm,
					       strnlen(tk.comm, RQ_COMM_LEN));
		tui_puts(y, x + used + n, namew - n, n ? buf : buf + 1);
	}
	used += namew;
	if (c->nqueued)
		snprintf(buf, sizeof(buf), "q%-2d", c->nqueued);
	else
		snprintf(buf, sizeof(buf), "   ");
	used += tui_puts(y, x + used, w - used, buf);
	if (w < 60)
		snprintf(buf, sizeof(buf), " %6llu %6llu", (unsigned long long)c->placements_in,
			 (unsigned long long)c->placements_out);
	else
		snprintf(buf, sizeof(buf), "  in %-8llu out %-8llu",
			 (unsigned long long)c->placements_in,
			 (unsigned long long)c->placements_out);
	tui_puts(y, x + used, w - used, buf);
}

/* Rows the CPU strip needs with ncol columns. */
static int cpu_columns(int n, int rows_avail)
{
	if (n <= rows_avail || COLS < 80)
		return 1;
	return COLS / 40;
}

static int draw_cpus(struct view *v, int y, int rows)
{
	const struct rq_summary *sum = rq_analysis_summary(tui_side_an(v->t->cur));
	int n = sum->nr_cpus, ncol, colw, per_col;

	if (!sum->cpus || n <= 0) {
		tui_puts(y, 1, -1, "(no CPU data yet)");
		return y + 1;
	}
	ncol = cpu_columns(n, rows);
	colw = COLS / ncol;
	per_col = (n + ncol - 1) / ncol;
	if (rows > per_col)
		rows = per_col;
	for (int r = 0; r < rows; r++) {
		for (int c = 0; c < ncol; c++) {
			int cpu = c * per_col + r;

			if (cpu >= n)
				continue;
			if (r == rows - 1 && rows < per_col && c == ncol - 1) {
				char more[48];

				snprintf(more, sizeof(more), " ... %d more CPUs",
					 n - ncol * (rows - 1) - (ncol - 1));
				tui_puts(y + r, c * colw, colw, more);
				continue;
			}
			draw_cpu(v, y + r, c * colw + 1, colw - 2, cpu);
		}
	}
	return y + rows;
}

static uint64_t kind_total(const struct rq_summary *sum, int kind)
{
	uint64_t n = 0;

	for (int i = 0; i < RQ_PATH__COUNT; i++)
		if ((int)rq_paths[i].kind == kind)
			n += sum->path_counts[i];
	return n;
}

static const char *const kind_plural[RQ_KIND__COUNT] = {
	"forks", "execs", "wakeups", "balance", "newidle", "stopper", "affinity", "numa",
	"unknown"
};

static void select_row(int y, bool sel)
{
	if (!sel)
		return;
	attron(tui_attr(C_SELECT));
	for (int i = 0; i < COLS; i++)
		mvaddch(y, i, ' ');
}

static int draw_paths(struct view *v, int y, int ymax)
{
	struct dash_state *s = v->priv;
	const struct rq_summary *sum = rq_analysis_summary(tui_side_an(v->t->cur));
	uint64_t max = 0;
	int shown = 0, nonzero = 0;

	for (int i = 0; i < RQ_PATH__COUNT; i++) {
		if (sum->path_counts[i] > max)
			max = sum->path_counts[i];
		if (sum->path_counts[i])
			nonzero++;
	}
	if (!nonzero) {
		tui_puts(y, 1, -1, "(no placements yet)");
		return y + 1;
	}
	/* grouped by kind, in the order of enum rq_kind */
	for (int k = 0; k < RQ_KIND__COUNT; k++) {
		uint64_t total = kind_total(sum, k);

		for (int i = 0; i < RQ_PATH__COUNT; i++) {
			char buf[96], of[48];
			bool sel;

			if ((int)rq_paths[i].kind != k || !sum->path_counts[i])
				continue;
			if (y >= ymax)
				continue;
			if (y == ymax - 1 && nonzero - shown > 1) {
				snprintf(buf, sizeof(buf), " ... %d more paths: see 2 (placements)",
					 nonzero - shown);
				tui_puts(y++, 1, -1, buf);
				shown = nonzero;
				continue;
			}
			sel = v->sel == s->npaths;
			s->path_ids[s->npaths++] = i;
			select_row(y, sel);
			snprintf(of, sizeof(of), "of %llu %s", (unsigned long long)total,
				 kind_plural[k]);
			snprintf(buf, sizeof(buf), " %-8s %-16s %7llu %-16s", rq_kind_names[k],
				 rq_paths[i].id, (unsigned long long)sum->path_counts[i], of);
			tui_puts(y, 0, -1, buf);
			if (sel)
				attroff(tui_attr(C_SELECT));
			tui_bar(y, 52, COLS - 53, sum->path_counts[i], max);
			y++;
			shown++;
		}
	}
	return y;
}

/* What a finding is counted out of: its candidates, and their name. */
static uint64_t finding_of(const struct rq_summary *sum, int f, const char **what)
{
	*what = rq_kind_plural[rq_finding_of[f]];
	return kind_total(sum, rq_finding_of[f]);
}

/* One finding's row, each column a string: the widths come from the widest of them. */
struct find_row {
	char cnt[24], ofs[80], e[24], i[24], p[24], nj[24];
	bool none;		/* its verdict: not judged (rq_finding_not_judged()) */
};

static void find_row(const struct rq_summary *sum, int f, struct find_row *r)
{
	const struct rq_finding_store *fs = &sum->findings[f];
	const char *what;
	uint64_t of = finding_of(sum, f, &what);

	r->none = rq_finding_not_judged(fs);
	if (r->none)
		snprintf(r->cnt, sizeof(r->cnt), "-");
	else
		snprintf(r->cnt, sizeof(r->cnt), "%llu", (unsigned long long)fs->count);
	snprintf(r->ofs, sizeof(r->ofs), "of %llu %s", (unsigned long long)of, what);
	/* kernel truth: would count, but no selection ran; beside the count, as in findings */
	if (fs->no_selection)
		snprintf(r->ofs + strlen(r->ofs), sizeof(r->ofs) - strlen(r->ofs),
			 " (%llu no selection)", (unsigned long long)fs->no_selection);
	/* the split is the verdicts' work: until it adds up, say it is not known */
	if (fs->exact + fs->inferred == fs->count) {
		snprintf(r->e, sizeof(r->e), "%llu", (unsigned long long)fs->exact);
		snprintf(r->i, sizeof(r->i), "%llu", (unsigned long long)fs->inferred);
	} else {
		snprintf(r->e, sizeof(r->e), "?");
		snprintf(r->i, sizeof(r->i), "?");
	}
	snprintf(r->p, sizeof(r->p), "%llu", (unsigned long long)fs->possible);
	snprintf(r->nj, sizeof(r->nj), "%llu", (unsigned long long)fs->not_judged);
}

static int widest(int w, const char *s)
{
	int n = (int)strlen(s);

	return n > w ? n : w;
}

/* The widths of the findings' columns: count, of, and the four verdict numbers. */
struct find_cols {
	int cnt, ofs, num;
};

static struct find_cols find_cols(const struct rq_summary *sum)
{
	struct find_cols c = { 6, 15, 5 };
	struct find_row r;

	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		find_row(sum, f, &r);
		c.cnt = widest(c.cnt, r.cnt);
		c.ofs = widest(c.ofs, r.ofs);
		c.num = widest(widest(widest(widest(c.num, r.e), r.i), r.p), r.nj);
	}
	return c;
}

/* Where the rate column starts: after the widest row. */
static int find_spark_x(const struct find_cols *c)
{
	return 20 + c->cnt + 2 + c->ofs + 4 * (c->num + 1) + 2;
}

/* The column header on the findings' rule, over columns as wide as they are. */
static void find_header(const struct tui *t, int y)
{
	struct find_cols c = find_cols(rq_analysis_summary(tui_side_an(t->cur)));
	char hdr[160];

	snprintf(hdr, sizeof(hdr), " %*s  %-*s %*s %*s %*s %*s", c.cnt, "count", c.ofs, "of",
		 c.num, "exact", c.num, "infer", c.num, "poss", c.num, "n/j");
	tui_puts(y, 20, -1, hdr);
	if (t->cur->hist.used && COLS > find_spark_x(&c) + 11)
		tui_puts(y, find_spark_x(&c) + 1, -1, " rate over the trace ");
}

static int draw_findings(struct view *v, int y, int ymax)
{
	struct dash_state *s = v->priv;
	struct tui *t = v->t;
	const struct rq_summary *sum = rq_analysis_summary(tui_side_an(t->cur));
	struct find_cols c = find_cols(sum);

	for (int f = 0; f < RQ_FIND__COUNT && y < ymax; f++) {
		const struct rq_finding_store *fs = &sum->findings[f];
		char buf[320];
		struct find_row r;
		bool sel = v->sel == s->npaths + f;
		int sw, x;

		find_row(sum, f, &r);
		select_row(y, sel);
		if (fs->count && !sel)
			attron(tui_attr(C_FINDING));
		if (r.none)
			snprintf(buf, sizeof(buf), " %-18s %*s  %-*s not judged: %s",
				 rq_finding_ids[f], c.cnt, r.cnt, c.ofs, r.ofs, r.nj);
		else
			snprintf(buf, sizeof(buf), " %-18s %*s  %-*s %*s %*s %*s %*s",
				 rq_finding_ids[f], c.cnt, r.cnt, c.ofs, r.ofs, c.num, r.e, c.num,
				 r.i, c.num, r.p, c.num, r.nj);
		tui_puts(y, 0, -1, buf);
		if (fs->count && !sel)
			attroff(tui_attr(C_FINDING));
		if (sel)
			attroff(tui_attr(C_SELECT));
		x = find_spark_x(&c);
		sw = COLS - x - 2;
		if (sw > TUI_HIST)
			sw = TUI_HIST;
		if (t->cur->hist.used > 0 && sw > 4) {
			tui_puts(y, x, 1, tui_g.vline);
			tui_spark(y, x + 1, sw, t->cur->hist.n[f], t->cur->hist.used);
		}
		y++;
	}
	return y;
}

struct top_ctx {
	struct rq_task_info best[64];	/* copies: ti lives only during the walk */
	int n, want;
};

static uint64_t task_findings(const struct rq_task_info *t)
{
	uint64_t n = 0;

	for (int f = 0; f < RQ_FIND__COUNT; f++)
		n += t->nr_findings[f];
	return n;
}

/* More findings first, then the smaller pid. */
static bool before(const struct rq_task_info *a, const struct rq_task_info *b)
{
	uint64_t fa = task_findings(a), fb = task_findings(b);

	return fa > fb || (fa == fb && a->pid < b->pid);
}

static int top_add(const struct rq_task_info *t, void *data)
{
	struct top_ctx *c = data;
	int i;

	if (!task_findings(t))
		return 0;
	if (c->n == c->want && !before(t, &c->best[c->n - 1]))
		return 0;
	if (c->n < c->want)
		c->n++;
	for (i = c->n - 1; i > 0 && before(t, &c->best[i - 1]); i--)
		c->best[i] = c->best[i - 1];
	c->best[i] = *t;
	return 0;
}

/* With rows to spare (a tall terminal): the tasks with the most findings. */
static void draw_top_tasks(struct view *v, int y, int ymax)
{
	struct top_ctx c = { .want = ymax - y - 1 };

	if (c.want < 1)
		return;
	if (c.want > 64)
		c.want = 64;
	rq_task_info_foreach(tui_side_an(v->t->cur), top_add, &c);
	tui_rule(v->t, y++, "tasks with the most findings (key 3: all tasks)");
	if (!c.n)
		tui_puts(y, 1, -1, "(no task has a finding)");
	for (int k = 0; k < c.n && y < ymax; k++, y++) {
		const struct rq_task_info *tk = &c.best[k];
		char buf[160], marks[8];
		unsigned int bits = 0;
		int x;

		for (int f = 0; f < RQ_FIND__COUNT; f++)
			if (tk->nr_findings[f])
				bits |= 1u << f;
		pl_finding_marks(bits, 0, marks);
		snprintf(buf, sizeof(buf), " %7d ", tk->pid);
		x = tui_puts(y, 0, -1, buf);
		x += tui_puts_untrusted(y, x, 16, tk->comm, strnlen(tk->comm, RQ_COMM_LEN));
		snprintf(buf, sizeof(buf), " %8llu findings %s  forks %llu  wakeups %llu  "
			 "migrations %llu", (unsigned long long)task_findings(tk), marks,
			 (unsigned long long)tk->nr_forks, (unsigned long long)tk->nr_wakeups,
			 (unsigned long long)tk->nr_migrations);
		tui_puts(y, 26, -1, buf);
	}
}

static void dashboard_draw(struct view *v, int y0, int h)
{
	const struct rq_summary *sum;
	struct dash_state *s = v->priv;
	struct tui *t = v->t;
	int y = y0, ymax = y0 + h;
	int ncpu_rows, left, npaths, pend;

	if (!tui_side_an(t->cur)) {
		tui_puts(y, 1, -1, "no data");
		return;
	}
	sum = rq_analysis_summary(tui_side_an(t->cur));
	s->npaths = 0;
	draw_info(v, y++);
	draw_limits(v, y++);
	/* findings take 5 rows, the two other rules 2; CPUs get what the paths leave */
	left = ymax - y - 5 - 2;
	npaths = 0;
	for (int i = 0; i < RQ_PATH__COUNT; i++)
		npaths += sum->path_counts[i] != 0;
	if (npaths < 1)
		npaths = 1;
	ncpu_rows = sum->nr_cpus;
	{
		int ncol = cpu_columns(ncpu_rows, left - npaths);

		ncpu_rows = (ncpu_rows + ncol - 1) / ncol;
	}
	if (ncpu_rows > left - npaths)
		ncpu_rows = left - npaths;
	if (ncpu_rows < left / 3 + 1)
		ncpu_rows = left / 3 + 1;
	if (ncpu_rows < 1)
		ncpu_rows = 1;
	tui_rule(t, y++, "CPUs: running task, queued, placements in / out");
	y = draw_cpus(v, y, ncpu_rows < sum->nr_cpus ? ncpu_rows : sum->nr_cpus);
	tui_rule(t, y++, "placements by kind and select_task_rq path (Enter: list them)");
	/* the findings sit under the paths; rows left over go to the top tasks */
	pend = draw_paths(v, y, ymax - 5);
	y = ymax - 5;
	if (ymax - pend - 5 >= 5)
		y = pend + 1;
	tui_rule(t, y, "findings");
	attron(tui_attr(C_HEADER));
	find_header(t, y);
	attroff(tui_attr(C_HEADER));
	y++;
	y = draw_findings(v, y, ymax);
	if (ymax - y >= 4)
		draw_top_tasks(v, y + 1, ymax);
	if (v->sel >= nselectable(s))
		v->sel = nselectable(s) - 1;
}

static int dashboard_open(struct view *v, const void *arg)
{
	return 0;
}

static enum view_key dashboard_key(struct view *v, enum tui_action act)
{
	struct dash_state *s = v->priv;
	struct pl_filter f;
	int n = nselectable(s);

	switch (act) {
	case ACT_UP:
	case ACT_DOWN:
	case ACT_HOME:
	case ACT_END:
	case ACT_PGUP:
	case ACT_PGDN:
		v->height = n;
		tui_list_key(v, act, n);
		return VK_REDRAW;
	case ACT_ENTER:
		pl_filter_clear(&f);
		if (v->sel < s->npaths)
			f.path = s->path_ids[v->sel];
		else
			f.with = v->sel - s->npaths;	/* proven, then possible */
		tui_push(v->t, VIEW_PLACEMENTS, &f);
		return VK_REDRAW;
	default:
		return VK_UNHANDLED;
	}
}

const struct view_ops dashboard_ops = {
	.name = "dashboard",
	.title = "dashboard",
	.private_size = sizeof(struct dash_state),
	.open = dashboard_open,
	.draw = dashboard_draw,
	.key = dashboard_key,
	.help = "the source, what the trace cannot show, each CPU, placements by path, the "
		"findings",
};
