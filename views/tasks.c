// SPDX-License-Identifier: GPL-2.0
/*
 * tasks.c - every task the model knows: pid, comm, policy, allowed CPUs, forks, execs,
 * wakeups, migrations and findings; Enter lists that task's placements.  Sorted by any
 * column (sort.c: < > o O F6); counts sort largest first, names, pids and the number of
 * allowed CPUs smallest first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "escape.h"
#include "tui.h"

enum task_sort { SORT_PID, SORT_COMM, SORT_POLICY, SORT_ALLOWED, SORT_FORKS, SORT_EXECS,
		 SORT_WAKEUPS, SORT_MIGRATIONS, SORT_FINDINGS, SORT__COUNT };
static const char *const sort_names[SORT__COUNT] = { "pid", "comm", "policy", "allowed",
						     "forks", "execs", "wakeups", "migrations",
						     "findings" };

struct tasks_state {
	struct rq_task_info *rows;	/* copies: rebuilt after every feed */
	int nrows, cap;
	uint64_t generation;
	bool built;
	struct tui_sort sort;
	int sel_pid;
};


static uint64_t nr_findings(const struct rq_task_info *t)
{
	uint64_t n = 0;

	for (int f = 0; f < RQ_FIND__COUNT; f++)
		n += t->nr_findings[f];
	return n;
}

static int collect(const struct rq_task_info *t, void *data)
{
	struct tasks_state *s = data;

	if (s->nrows == s->cap) {
		int cap = s->cap ? s->cap * 2 : 256;
		struct rq_task_info *r = realloc(s->rows, cap * sizeof(*r));

		if (!r)
			return 1;
		s->rows = r;
		s->cap = cap;
	}
	s->rows[s->nrows++] = *t;
	return 0;
}


static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? 1 : a > b ? -1 : 0;	/* descending */
}

/* Allowed CPUs: fewer first; an unknown mask last. */
static int nr_allowed(const struct rq_task_info *t)
{
	int n = 0;

	if (!t->mask_known)
		return 1 << 30;
	for (int c = 0; c < t->mask->nbits; c++)
		n += rq_cpumask_test(t->mask, c);
	return n;
}

static int cmp_task(const void *pa, const void *pb, void *data)
{
	const struct tui_sort *k = data;
	const struct rq_task_info *a = pa;
	const struct rq_task_info *b = pb;
	int c = 0;

	switch (k->col) {
	case SORT_COMM:
		c = strncmp(a->comm, b->comm, RQ_COMM_LEN);
		break;
	case SORT_POLICY:
		c = strcmp(rq_policy_name(a->policy), rq_policy_name(b->policy));
		break;
	case SORT_ALLOWED:
		c = (nr_allowed(a) > nr_allowed(b)) - (nr_allowed(a) < nr_allowed(b));
		break;
	case SORT_FORKS:
		c = cmp_u64(a->nr_forks, b->nr_forks);
		break;
	case SORT_EXECS:
		c = cmp_u64(a->nr_execs, b->nr_execs);
		break;
	case SORT_WAKEUPS:
		c = cmp_u64(a->nr_wakeups, b->nr_wakeups);
		break;
	case SORT_MIGRATIONS:
		c = cmp_u64(a->nr_migrations, b->nr_migrations);
		break;
	case SORT_FINDINGS:
		c = cmp_u64(nr_findings(a), nr_findings(b));
		break;
	default:
		break;
	}
	if (!c)
		c = (a->pid > b->pid) - (a->pid < b->pid);
	return k->reverse ? -c : c;
}

static void rebuild(struct view *v)
{
	struct tasks_state *s = v->priv;

	if (s->built && !v->stale && s->generation == v->t->generation)
		return;
	v->stale = false;
	s->nrows = 0;
	if (tui_side_an(v->t->cur))
		rq_task_info_foreach(tui_side_an(v->t->cur), collect, s);
	if (s->nrows)
		qsort_r(s->rows, s->nrows, sizeof(s->rows[0]), cmp_task, &s->sort);
	s->built = true;
	s->generation = v->t->generation;
	if (s->sel_pid) {
		for (int i = 0; i < s->nrows; i++) {
			if (s->rows[i].pid == s->sel_pid) {
				v->sel = i;
				break;
			}
		}
	}
}

static int tasks_open(struct view *v, const void *arg)
{
	return 0;
}

/* Column widths: comm and allowed CPUs take what is left over 80 columns. */
static void widths(int *commw, int *maskw)
{
	int extra = COLS - 80;

	if (extra < 0)
		extra = 0;
	*commw = 15 + (extra > 17 ? 17 : extra);
	extra -= *commw - 15;
	*maskw = 7 + (extra > 25 ? 25 : extra);
}

/* One task's row. */
static void tasks_row(struct view *v, int y, int i, bool sel)
{
	struct tasks_state *s = v->priv;
	const struct rq_task_info *t = &s->rows[i];
	int x, commw, maskw;
	char buf[512];
	char mask[128] = "?", marks[8];
	unsigned int bits = 0;

	if (t->mask_known)
		rq_cpumask_format(t->mask, mask, sizeof(mask));
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		if (t->nr_findings[f])
			bits |= 1u << f;
	pl_finding_marks(bits, 0, marks);
	widths(&commw, &maskw);
	tui_list_bar(y, sel);
	snprintf(buf, sizeof(buf), "%7d ", t->pid);
	x = tui_puts(y, 0, -1, buf);
	if (t->exited && !sel)
		attron(tui_attr(C_DIM));
	tui_puts_untrusted(y, x, commw, t->comm, strnlen(t->comm, RQ_COMM_LEN));
	if (t->exited && !sel)
		attroff(tui_attr(C_DIM));
	x += commw + 1;
	x += tui_puts(y, x, 6, rq_policy_name(t->policy));
	x = 7 + 1 + commw + 1 + 6 + 1;
	tui_puts(y, x, maskw, mask);
	x += maskw + 1;
	snprintf(buf, sizeof(buf), "%6llu %5llu %8llu %5llu %8llu %s",
		 (unsigned long long)t->nr_forks, (unsigned long long)t->nr_execs,
		 (unsigned long long)t->nr_wakeups, (unsigned long long)t->nr_migrations,
		 (unsigned long long)nr_findings(t), marks);
	tui_puts(y, x, -1, buf);
	if (sel)
		attroff(tui_attr(C_SELECT));
}

static void tasks_draw(struct view *v, int y0, int h)
{
	struct tasks_state *s = v->priv;
	int list_h = h - 2, commw, maskw;
	char buf[512];

	rebuild(v);
	widths(&commw, &maskw);
	tui_list_clamp(v, s->nrows, list_h);
	snprintf(buf, sizeof(buf), " %d task%s, sorted by %s%s (< > column, O reverse, F6)",
		 s->nrows, s->nrows == 1 ? "" : "s", sort_names[s->sort.col],
		 s->sort.reverse ? ", reversed" : "");
	tui_puts(y0, 0, -1, buf);
	/* the sort column's title carries the direction */
	{
		const struct tui_col cols[] = {
			{ "pid", 7, true }, { "comm", commw, false }, { "policy", 6, false },
			{ "allowed", maskw, false }, { "forks", 6, true }, { "execs", 5, true },
			{ "wakeups", 8, true }, { "migr", 5, true }, { "findings", 8, true },
			{ rq_finding_letters, RQ_FIND__COUNT, false },
		};

		tui_sort_header(v->t, &s->sort, cols, sizeof(cols) / sizeof(cols[0]), buf,
				sizeof(buf));
	}
	attron(tui_attr(C_HEADER) | A_UNDERLINE);
	tui_clear_row(y0 + 1, 0);
	tui_puts(y0 + 1, 0, -1, buf);
	attroff(tui_attr(C_HEADER) | A_UNDERLINE);
	tui_list_draw(v, y0 + 2, list_h, s->nrows, tasks_row);
	if (!s->nrows)
		tui_puts(y0 + 3, 2, -1, "no tasks yet");
	s->sel_pid = s->nrows ? s->rows[v->sel].pid : 0;
}

static int tasks_rows(struct view *v)
{
	rebuild(v);
	return ((struct tasks_state *)v->priv)->nrows;
}

static bool tasks_match(struct view *v, int row, const char *needle, bool icase)
{
	const struct rq_task_info *tk = &((struct tasks_state *)v->priv)->rows[row];
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", tk->pid);
	return tui_name_has(tk->comm, strnlen(tk->comm, RQ_COMM_LEN), needle, icase) ||
	       strstr(pid, needle);
}

static enum view_key tasks_key(struct view *v, enum tui_action act)
{
	struct tasks_state *s = v->priv;
	struct pl_filter f;

	rebuild(v);
	if (tui_list_key(v, act, s->nrows)) {
		s->sel_pid = s->nrows ? s->rows[v->sel].pid : 0;
		return VK_REDRAW;
	}
	switch (act) {
	case ACT_SORT:
	case ACT_SORT_PREV:
	case ACT_SORT_REVERSE:
	case ACT_SORT_PICK:
		return tui_sort_key(v, &s->sort, sort_names, SORT__COUNT, act);
	case ACT_ENTER:
		if (!s->nrows)
			return VK_NONE;
		pl_filter_clear(&f);
		f.pid = s->rows[v->sel].pid;
		tui_push(v->t, VIEW_PLACEMENTS, &f);
		return VK_REDRAW;
	default:
		return VK_UNHANDLED;
	}
}

static void tasks_done(struct view *v)
{
	free(((struct tasks_state *)v->priv)->rows);
}

const struct view_ops tasks_ops = {
	.name = "tasks",
	.title = "tasks",
	.private_size = sizeof(struct tasks_state),
	.open = tasks_open,
	.done = tasks_done,
	.draw = tasks_draw,
	.key = tasks_key,
	.rows = tasks_rows,
	.match = tasks_match,
	.search_what = " (comm, pid)",
	.help = "every task: policy, allowed CPUs, forks, execs, wakeups, migrations, findings",
};
