// SPDX-License-Identifier: GPL-2.0
/*
 * dashboard.c - the default view: the source, a per-CPU strip, placements by kind and
 * path as bars, and the four findings with a rate sparkline.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "tui.h"

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
	const struct rq_analysis *an = t->an;
	char ev[32], rate[32], line[256], lost[32];
	double span = 0;
	int x;

	tui_clear_row(y, 0);
	x = tui_puts(y, 0, -1, " kernel ");
	x += tui_puts_untrusted(y, x, 24, an->profile.release[0] ? an->profile.release : "?",
				an->profile.release[0] ? strlen(an->profile.release) : 1);
	fmt_count(an->nr_events, ev, sizeof(ev));
	fmt_count(an->lost_events, lost, sizeof(lost));
	if (t->live) {
		if (t->test_mode)
			snprintf(rate, sizeof(rate), "-");
		else
			snprintf(rate, sizeof(rate), "%.0f/s", t->rate);
	} else {
		if (an->last_ts > an->first_ts)
			span = (an->last_ts - an->first_ts) / 1e9;
		if (span > 0)
			snprintf(rate, sizeof(rate), "%.0f/s", an->nr_events / span);
		else
			snprintf(rate, sizeof(rate), "-");
	}
	snprintf(line, sizeof(line), "  %d CPUs  %s events (%s)  %s lost", an->nr_cpus, ev, rate,
		 lost);
	x += tui_puts(y, x, -1, line);
	if (an->lost_events) {
		attron(tui_attr(C_FINDING));
		tui_puts(y, x, -1, " !");
		attroff(tui_attr(C_FINDING));
		x += 2;
	}
	if (t->live) {
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
		else if (t->trace_last)
			snprintf(line, sizeof(line), "  at %.3f/%.3fs",
				 tui_rel(t, tui_position(t)), tui_rel(t, t->trace_last));
		else
			snprintf(line, sizeof(line), "  at %.3fs",
				 tui_rel(t, tui_position(t)));
	}
	tui_puts(y, x, -1, line);
}

/* One CPU cell: "cpu0 comm:pid q1 in out" into w columns (compact below 60). */
static void draw_cpu(struct view *v, int y, int x, int w, int cpu)
{
	const struct rq_analysis *an = v->t->an;
	const struct rq_cpu *c = &an->cpus[cpu];
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
		const struct rq_task *tk = rq_task_find(an, c->curr);
		int n = 0;

		snprintf(buf, sizeof(buf), ":%d", c->curr);
		if (tk)
			n = tui_puts_untrusted(y, x + used, namew - 1 - (int)strlen(buf), tk->comm,
					       strnlen(tk->comm, RQ_COMM_LEN));
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
	const struct rq_analysis *an = v->t->an;
	int n = an->nr_cpus, ncol, colw, per_col;

	if (!an->cpus || n <= 0) {
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

static int draw_paths(struct view *v, int y, int ymax)
{
	const struct rq_analysis *an = v->t->an;
	uint64_t max = 0;
	int shown = 0, nonzero = 0;

	for (int i = 0; i < RQ_PATH__COUNT; i++) {
		if (an->path_counts[i] > max)
			max = an->path_counts[i];
		if (an->path_counts[i])
			nonzero++;
	}
	if (!nonzero) {
		tui_puts(y, 1, -1, "(no placements yet)");
		return y + 1;
	}
	/* grouped by kind, in the order of enum rq_kind */
	for (int k = 0; k < RQ_KIND__COUNT; k++) {
		for (int i = 0; i < RQ_PATH__COUNT; i++) {
			char buf[64];

			if ((int)rq_paths[i].kind != k || !an->path_counts[i])
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
			snprintf(buf, sizeof(buf), " %-8s %-16s %9llu ", rq_kind_names[k],
				 rq_paths[i].id, (unsigned long long)an->path_counts[i]);
			tui_puts(y, 0, -1, buf);
			tui_bar(y, 38, COLS - 39, an->path_counts[i], max);
			y++;
			shown++;
		}
	}
	return y;
}

static int draw_findings(struct view *v, int y, int ymax)
{
	struct tui *t = v->t;
	const struct rq_analysis *an = t->an;

	for (int f = 0; f < RQ_FIND__COUNT && y < ymax; f++) {
		const struct rq_finding_store *s = &an->findings[f];
		char buf[96], extra[64] = "";
		int sw;

		if (f == RQ_FIND_OFFCPU_FORK)
			snprintf(extra, sizeof(extra), "of %llu forks", (unsigned long long)s->of);
		else if (f == RQ_FIND_NEEDLESS_CALLBACK && s->unknown)
			snprintf(extra, sizeof(extra), "%llu unknown",
				 (unsigned long long)s->unknown);
		else if (an->findings[f].not_judged)
			snprintf(extra, sizeof(extra), "%llu not judged",
				 (unsigned long long)an->findings[f].not_judged);
		if (s->count)
			attron(tui_attr(C_FINDING));
		snprintf(buf, sizeof(buf), " %-18s %9llu", rq_finding_ids[f],
			 (unsigned long long)s->count);
		tui_puts(y, 0, -1, buf);
		if (s->count)
			attroff(tui_attr(C_FINDING));
		tui_puts(y, 30, 20, extra);
		sw = COLS - 52;
		if (sw > TUI_HIST)
			sw = TUI_HIST;
		if (t->hist.used > 0 && sw > 4) {
			tui_puts(y, 50, 1, tui_g.vline);
			tui_spark(y, 51, sw, t->hist.n[f], t->hist.used);
		}
		y++;
	}
	return y;
}

static void dashboard_draw(struct view *v, int y0, int h)
{
	struct tui *t = v->t;
	int y = y0, ymax = y0 + h;
	int ncpu_rows, left, npaths;

	if (!t->an) {
		tui_puts(y, 1, -1, "no data");
		return;
	}
	draw_info(v, y++);
	/* findings take 5 rows, the two other rules 2; CPUs get what the paths leave */
	left = ymax - y - 5 - 2;
	npaths = 0;
	for (int i = 0; i < RQ_PATH__COUNT; i++)
		npaths += t->an->path_counts[i] != 0;
	if (npaths < 1)
		npaths = 1;
	ncpu_rows = t->an->nr_cpus;
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
	y = draw_cpus(v, y, ncpu_rows < t->an->nr_cpus ? ncpu_rows : t->an->nr_cpus);
	tui_rule(t, y++, "placements by kind and select_task_rq path");
	y = draw_paths(v, y, ymax - 5);
	y = ymax - 5;
	tui_rule(t, y, "findings");
	if (t->hist.used && COLS > 80) {
		attron(tui_attr(C_HEADER));
		tui_puts(y, 51, -1, " rate over the trace ");
		attroff(tui_attr(C_HEADER));
	}
	y++;
	draw_findings(v, y, ymax);
}

const struct view_ops dashboard_ops = {
	.name = "dashboard",
	.title = "dashboard",
	.draw = dashboard_draw,
	.help = "the source, each CPU, placements by kind and path, the four findings",
};
