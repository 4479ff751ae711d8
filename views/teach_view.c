// SPDX-License-Identifier: GPL-2.0
/*
 * teach_view.c - the whole select_task_rq() decision tree (src/output/teach.h) with this
 * trace's counts on each step, and an explanation panel for the selected step.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "teach.h"
#include "tui.h"

static int teach_open(struct view *v, const void *arg)
{
	return 0;
}

static void draw_tree(struct view *v, int y0, int h, int w)
{
	struct tui *t = v->t;
	char buf[256], pre[128], taken[24], maybe[24];

	attron(tui_attr(C_HEADER) | A_UNDERLINE);
	tui_clear_row(y0, 0);
	snprintf(buf, sizeof(buf), "%8s %8s  %s", "through", "maybe",
		 "step of select_task_rq()   ! finding here  +N? maybe");
	tui_puts(y0, 0, w, buf);
	attroff(tui_attr(C_HEADER) | A_UNDERLINE);
	h--;
	y0++;
	v->list_y = y0;
	tui_list_clamp(v, rq_teach_nr_nodes, h);
	for (int i = 0; i < h && v->top + i < rq_teach_nr_nodes; i++) {
		int k = v->top + i, x;
		const struct rq_teach_node *n = &rq_teach_nodes[k];
		struct rq_teach_count c;
		bool sel = k == v->sel, have = rq_teach_count(tui_side_an(t->cur), k, &c);

		taken[0] = maybe[0] = '\0';
		if (have && n->taken[0] >= 0)
			snprintf(taken, sizeof(taken), "%llu", (unsigned long long)c.taken);
		if (have && c.maybe)
			snprintf(maybe, sizeof(maybe), "+%llu?", (unsigned long long)c.maybe);
		if (sel) {
			attron(tui_attr(C_SELECT));
			for (int col = 0; col < w; col++)
				mvaddch(y0 + i, col, ' ');
		}
		snprintf(buf, sizeof(buf), "%8s %8s ", taken, maybe);
		x = tui_puts(y0 + i, 0, w, buf);
		/* the step number rqpath explain prints, and f node=N takes */
		snprintf(buf, sizeof(buf), "%2d ", k + 1);
		if (!sel)
			attron(tui_attr(C_DIM));
		x += tui_puts(y0 + i, x, w - x, buf);
		if (!sel)
			attroff(tui_attr(C_DIM));
		if (!sel && c.finding)
			attron(tui_attr(C_FINDING));
		x += tui_puts(y0 + i, x, w - x, c.finding ? "! " : "  ");
		if (!sel && c.finding)
			attroff(tui_attr(C_FINDING));
		rq_teach_tree_prefix(k, t->utf8, pre, sizeof(pre));
		x += tui_puts(y0 + i, x, w - x, pre);
		if (!sel && have && !c.taken && !c.maybe)
			attron(tui_attr(C_DIM));
		if (!sel && n->depth == 0)
			attron(A_BOLD);
		tui_puts(y0 + i, x, w - x, n->title);
		if (!sel && n->depth == 0)
			attroff(A_BOLD);
		if (!sel && have && !c.taken && !c.maybe)
			attroff(tui_attr(C_DIM));
		if (sel)
			attroff(tui_attr(C_SELECT));
	}
	v->height = h;
}

static void draw_panel(struct view *v, int y0, int h, int x0, int w)
{
	const struct rq_teach_node *n = &rq_teach_nodes[v->sel];
	struct rq_teach_count c;
	int y = y0, ymax = y0 + h;
	char buf[256];
	bool have = rq_teach_count(tui_side_an(v->t->cur), v->sel, &c);

	attron(tui_attr(C_HEADER));
	tui_puts(y++, x0, w, n->title);
	attroff(tui_attr(C_HEADER));
	/* one line of facts: kernel function, this trace's counts, the finding */
	buf[0] = '\0';
	if (n->kernel_fn[0])
		snprintf(buf, sizeof(buf), "%s", n->kernel_fn);
	if (have && (n->taken[0] >= 0 || c.maybe)) {
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%llu through",
			 buf[0] ? "  " : "", (unsigned long long)c.taken);
		if (c.maybe)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ", %llu maybe",
				 (unsigned long long)c.maybe);
	}
	if (n->finding >= 0) {
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%sfinding %s",
			 buf[0] ? "  " : "", rq_finding_ids[n->finding]);
		if (have)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), ": %llu",
				 (unsigned long long)c.finding);
	}
	if (buf[0] && y < ymax) {
		if (c.finding)
			attron(tui_attr(C_FINDING));
		tui_puts(y++, x0, w, buf);
		if (c.finding)
			attroff(tui_attr(C_FINDING));
	}
	tui_wrap(&y, ymax, x0, w - 1, n->text, 0);
}

static void teach_draw(struct view *v, int y0, int h)
{
	if (COLS >= 120) {
		int tw = COLS - 40 < 86 ? COLS - 40 : 86;

		if (tw < COLS * 3 / 5)
			tw = COLS * 3 / 5;

		draw_tree(v, y0, h, tw);
		for (int i = 0; i < h; i++)
			tui_puts(y0 + i, tw, 1, tui_g.vline);
		draw_panel(v, y0, h, tw + 2, COLS - tw - 2);
	} else {
		int ph = h / 2;

		if (ph < 8)
			ph = 8;
		draw_tree(v, y0, h - ph, COLS);
		tui_rule(v->t, y0 + h - ph, "");
		draw_panel(v, y0 + h - ph + 1, ph - 1, 1, COLS - 1);
	}
}

static int teach_rows(struct view *v)
{
	return rq_teach_nr_nodes;
}

static bool teach_match(struct view *v, int row, const char *needle, bool icase)
{
	const struct rq_teach_node *n = &rq_teach_nodes[row];

	return tui_text_has(n->title, needle, icase) || tui_text_has(n->kernel_fn, needle, icase) ||
	       tui_text_has(n->id, needle, icase);
}

static enum view_key teach_key(struct view *v, enum tui_action act)
{
	const struct rq_teach_node *n;
	struct pl_filter f;

	if (tui_list_key(v, act, rq_teach_nr_nodes))
		return VK_REDRAW;
	if (act != ACT_ENTER)
		return VK_UNHANDLED;
	n = &rq_teach_nodes[v->sel];
	pl_filter_clear(&f);
	f.node = v->sel;
	if (n->taken[0] < 0) {
		struct rq_teach_count c;

		/* nothing taken for certain: the placements that may have taken it */
		if (!rq_teach_count(tui_side_an(v->t->cur), v->sel, &c) || !c.maybe) {
			tui_message(v->t, "no placement took this step, or may have");
			return VK_REDRAW;
		}
		f.node_maybe = true;
	}
	tui_push(v->t, VIEW_PLACEMENTS, &f);
	return VK_REDRAW;
}

const struct view_ops teach_ops = {
	.name = "teach",
	.title = "teach",
	.open = teach_open,
	.draw = teach_draw,
	.key = teach_key,
	.rows = teach_rows,
	.match = teach_match,
	.search_what = " (step, kernel function, node id)",
	.help = "the select_task_rq() decision tree with this trace's counts, explained",
};
