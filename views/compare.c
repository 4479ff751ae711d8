// SPDX-License-Identifier: GPL-2.0
/*
 * compare.c - `rqpath replay BASE... --compare NEW...`: two traces in one TUI, and the
 * compare view, the rows of `rqpath diff` (src/output/diff.c computes them; this file only
 * draws them) with a cursor.  Enter opens the NEW trace's placements of the selected
 * path, kind or finding, b the BASE trace's; x (any view) switches the trace the other
 * views show.
 *
 * Each trace is a struct tui_side (t->side[0] BASE, t->side[1] NEW: an, idx, rp, path, the
 * replay clock); the views read the one t->cur points to and tui_compare_swap() points it
 * at the other.  The views' private state belongs to a trace (row pointers, index
 * positions), so a swap frees it and the views open afresh on the other trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curses.h>

#include "diff.h"
#include "escape.h"
#include "session.h"
#include "tlindex.h"
#include "tui.h"

struct tui_compare {
	const char *const *files[2];
	int nfiles[2];
	struct rq_diff_run *runs;	/* nfiles[0] BASE runs, then nfiles[1] NEW runs */
	bool have[2];			/* the first run of each side, from its loaded trace */
	int run[2];			/* the file of each side loaded (r walks them) */
	struct rq_diff diff;
	bool computed;
};

static const char *const side_names[2] = { "BASE", "NEW" };

struct tui_compare *tui_compare_new(const char *const *base, int nbase,
				    const char *const *new, int nnew, const char *topology,
				    bool no_truth,
				    char *err, size_t errlen)
{
	struct rq_analysis_opts o = { .topology = topology, .no_truth = no_truth };
	struct tui_compare *c = calloc(1, sizeof(*c));

	if (!c || !(c->runs = calloc((size_t)(nbase + nnew), sizeof(*c->runs)))) {
		free(c);
		snprintf(err, errlen, "replay: out of memory");
		return NULL;
	}
	c->files[0] = base;
	c->files[1] = new;
	c->nfiles[0] = nbase;
	c->nfiles[1] = nnew;
	/* the further runs of each side: their numbers only, as rqpath diff reads them */
	for (int s = 0; s < 2; s++) {
		for (int i = 1; i < c->nfiles[s]; i++) {
			struct rq_diff_run *r = &c->runs[s ? nbase + i : i];

			if (rq_session_diff_run(r, c->files[s][i], &o, isatty(STDERR_FILENO),
						err, errlen)) {
				tui_compare_free(c);
				return NULL;
			}
		}
	}
	return c;
}

void tui_compare_free(struct tui_compare *c)
{
	if (!c)
		return;
	rq_diff_free(&c->diff);
	free(c->runs);
	free(c);
}

const char *tui_compare_path(const struct tui_compare *c, int side)
{
	return c->files[side][c->run[side]];
}

int tui_compare_side(const struct tui *t)
{
	return (int)(t->cur - t->side);
}

/* The views' state points into the trace they showed: they start over. */
static void views_reset(struct tui *t)
{
	t->play.playing = false;
	t->generation++;
	for (int i = 0; i < VIEW__COUNT; i++) {
		struct view *v = &t->views[i];

		if (i == VIEW_COMPARE || i == VIEW_HELP || !v->priv)
			continue;
		if (v->ops && v->ops->done)
			v->ops->done(v);
		free(v->priv);
		v->priv = NULL;
		v->top = v->sel = 0;
	}
	t->depth = 0;
	t->dirty = true;
}

void tui_compare_swap(struct tui *t)
{
	t->cur = &t->side[!tui_compare_side(t)];
	views_reset(t);
}

bool tui_compare_show(struct tui *t, int side)
{
	if (side == tui_compare_side(t))
		return true;
	if (t->play.loading) {
		tui_message(t, "%s is still loading: the other trace waits until it is read",
			    side_names[tui_compare_side(t)]);
		return false;
	}
	tui_compare_swap(t);
	return true;
}

void tui_compare_next_run(struct tui *t)
{
	struct tui_compare *c = t->cmp;
	int s = tui_compare_side(t), n = c->nfiles[s];
	enum tui_view_id bottom = t->depth ? (enum tui_view_id)(t->stack[0] - t->views) :
				  VIEW_DASHBOARD;
	char name[256];

	if (n < 2) {
		tui_message(t, "%s is one file: r walks the files of a side given several",
			    side_names[s]);
		return;
	}
	if (t->play.loading) {
		tui_message(t, "%s is still loading", side_names[s]);
		return;
	}
	c->run[s] = (c->run[s] + 1) % n;
	views_reset(t);
	if (tui_replay_load(t, c->files[s][c->run[s]]))
		return;		/* the message says why; the views show an empty trace */
	tui_switch(t, bottom, NULL);
	tui_esc(t->cur->path, name, sizeof(name));
	tui_message(t, "%s run %d of %d: %s", side_names[s], c->run[s] + 1, n, name);
}

void tui_compare_take(struct tui *t)
{
	struct tui_compare *c = t->cmp;
	int s = tui_compare_side(t);

	if (c->have[s] || !tui_side_an(t->cur) || !t->cur->at_end || t->play.loading)
		return;
	rq_diff_run_from(&c->runs[(s ? c->nfiles[0] : 0) + c->run[s]], tui_side_an(t->cur));
	c->have[s] = true;
}

/* Both sides read: the rows, once (a restart with g does not change them). */
static bool compute(struct tui *t)
{
	struct tui_compare *c = t->cmp;

	if (c->computed)
		return true;
	tui_compare_take(t);
	if (!c->have[0] || !c->have[1])
		return false;
	if (rq_diff_compute(&c->diff, c->runs, c->nfiles[0], c->runs + c->nfiles[0],
			    c->nfiles[1], NULL)) {
		rq_diff_free(&c->diff);
		tui_message(t, "compare: out of memory");
		return false;
	}
	c->computed = true;
	t->generation++;
	return true;
}

/* ---- the view --------------------------------------------------------------------- */

/* A line of the table: a section's title (row -1), or a row of the diff. */
struct cline {
	int row;
	const char *title;
};

struct cmp_state {
	struct cline *lines;
	int nlines;
	bool built;
	bool ranges;		/* the screen is wide enough for each side's range */
};

static int build(struct view *v)
{
	struct cmp_state *s = v->priv;
	const struct rq_diff *d = &v->t->cmp->diff;
	const char *last = "";

	if (s->built)
		return 0;
	free(s->lines);
	s->lines = calloc((size_t)(2 * d->nrows + 1), sizeof(*s->lines));
	s->nlines = 0;
	if (!s->lines)
		return -1;
	for (int i = 0; i < d->nrows; i++) {
		/* the rows the text shows: per placement (rq_diff_row_shown()) */
		if (!rq_diff_row_shown(d, &d->rows[i]))
			continue;
		if (strcmp(last, rq_diff_section_title(&d->rows[i]))) {
			last = rq_diff_section_title(&d->rows[i]);
			s->lines[s->nlines++] = (struct cline){ -1,
								rq_diff_section_title(&d->rows[i]) };
		}
		s->lines[s->nlines++] = (struct cline){ i, NULL };
	}
	s->built = true;
	if (v->sel < 1)
		v->sel = 1;
	return 0;
}

static int compare_open(struct view *v, const void *arg)
{
	if (!v->t->cmp) {
		tui_message(v->t, "no compare: start with rqpath replay BASE.dat --compare "
			    "NEW.dat");
		return -1;
	}
	return 0;
}

static void compare_done(struct view *v)
{
	free(((struct cmp_state *)v->priv)->lines);
}

/* "BASE fixtures/a.dat  6.18.0, 2 CPUs, 0.058 s, 1976 events" and the runs beyond it */
static void draw_side(struct view *v, int y, int side)
{
	struct tui_compare *c = v->t->cmp;
	const struct rq_diff_run *r = &c->runs[(side ? c->nfiles[0] : 0) + c->run[side]];
	const char *path = c->files[side][c->run[side]];
	char info[400], more[48] = "", kernel[200];
	int x;

	tui_clear_row(y, 0);
	if (side == tui_compare_side(v->t))
		attron(A_BOLD);
	x = tui_puts(y, 0, -1, side ? " NEW  " : " BASE ");
	if (side == tui_compare_side(v->t))
		attroff(A_BOLD);
	if (c->nfiles[side] > 1)
		snprintf(more, sizeof(more), " run %d/%d", c->run[side] + 1, c->nfiles[side]);
	/* the kernel release comes from the file: escaped; on a wide screen only (the notes
	 * say when the kernels differ) */
	rq_escape_c(r->kernel[0] ? r->kernel : "?", r->kernel[0] ? strlen(r->kernel) : 1,
		    kernel, sizeof(kernel));
	snprintf(info, sizeof(info), "%s  %s%s%d CPUs, %.3f s, %llu events", more,
		 COLS >= 120 ? kernel : "", COLS >= 120 ? ", " : "", r->cpus, r->duration_s,
		 (unsigned long long)r->events);
	x += tui_puts_untrusted(y, x, COLS - x - tui_width(info) - 1 > 12 ?
				COLS - x - tui_width(info) - 1 : 12, path, strlen(path));
	tui_puts(y, x, -1, info);
}

/* changed stands out; within noise and too few (no claim either way) are dim */
static enum tui_color verdict_color(const struct rq_diff_row *r)
{
	return r->verdict == RQ_DIFF_CHANGED ? C_FINDING :
	       r->verdict == RQ_DIFF_NOISE || r->verdict == RQ_DIFF_TOO_FEW ||
	       r->verdict == RQ_DIFF_NO_NOISE ? C_DIM : C_NORMAL;
}

static void draw_line(struct view *v, int y, const struct cline *l, bool sel, bool ranges)
{
	const struct rq_diff *d = &v->t->cmp->diff;
	const struct rq_diff_row *r;
	char label[64], b[32], n[32], ch[32], line[160];

	tui_clear_row(y, 0);
	if (l->row < 0) {
		attron(tui_attr(C_HEADER) | A_BOLD);
		tui_puts(y, 0, -1, " ");
		tui_puts(y, 1, -1, l->title);
		attroff(tui_attr(C_HEADER) | A_BOLD);
		return;
	}
	r = &d->rows[l->row];
	rq_diff_row_label(r, label, sizeof(label));
	snprintf(line, sizeof(line), "  %-28.28s %11s %11s %9s  ", label,
		 rq_diff_fmt_side(r, 0, b, sizeof(b)), rq_diff_fmt_side(r, 1, n, sizeof(n)),
		 rq_diff_fmt_change(r, ch, sizeof(ch)));
	tui_list_bar(y, sel);
	tui_puts(y, 0, -1, line);
	if (!sel)
		attron(tui_attr(verdict_color(r)));
	/* the verdict's 14 columns: the note at the top gives the runs */
	tui_puts(y, (int)strlen(line), -1, r->verdict == RQ_DIFF_NO_NOISE ? "no noise est." :
		 rq_diff_verdict_text(r));
	if (!sel)
		attroff(tui_attr(verdict_color(r)));
	/* a wide screen has room for each side's range */
	if (ranges && COLS >= 120 && r->verdict != RQ_DIFF_NA) {
		char b2[32], n2[32], p[32];

		rq_diff_fmt_value(r, r->base.min, b, sizeof(b));
		rq_diff_fmt_value(r, r->base.max, b2, sizeof(b2));
		rq_diff_fmt_value(r, r->new.min, n, sizeof(n));
		rq_diff_fmt_value(r, r->new.max, n2, sizeof(n2));
		snprintf(line, sizeof(line), "%s..%s | %s..%s%s", b, b2, n, n2,
			 rq_diff_fmt_p(r, p, sizeof(p)));
		tui_puts(y, 80, COLS - 80, line);
	}
	if (sel)
		attroff(tui_attr(C_SELECT));
}

/* What Enter and b open for a row: the placements of its path, kind or finding. */
static bool row_filter(const struct rq_diff_row *r, struct pl_filter *f, char *what,
		       size_t size)
{
	pl_filter_clear(f);
	/* a possible row lists the possible ones (possible=F), the others the proven ones */
	if (!strcmp(r->metric, "possible")) {
		for (int i = 0; i < RQ_FIND__COUNT; i++)
			if (!strcmp(r->key, rq_finding_ids[i]))
				f->possible = i;
		snprintf(what, size, "%s, possible", r->key);
		return f->possible >= 0;
	}
	if (!strcmp(r->metric, "no_selection")) {
		snprintf(what, size, "the no selection ones are not listed: the kernel's state shows "
			 "no CPU was selected for them (audit --placements lists them)");
		return false;
	}
	if (!strcmp(r->metric, "not_judged")) {
		snprintf(what, size, "the not judged ones are not listed: an unknown fact kept "
			 "them from a verdict");
		return false;
	}
	if (!strcmp(r->key, "all")) {
		snprintf(what, size, "every placement");
		return true;
	}
	if (!strcmp(r->key, "flagged") || !strcmp(r->key, "unflagged")) {
		f->flagged = r->key[0] == 'f';
		snprintf(what, size, "the placements %s", f->flagged ? "with a finding" :
			 "without a finding");
		return true;
	}
	for (int k = 0; k < RQ_KIND__COUNT; k++)
		if ((!strcmp(r->section, "kind") || !strcmp(r->section, "delay")) &&
		    !strcmp(r->key, rq_kind_names[k]))
			f->kind = k;
	for (int p = 0; p < RQ_PATH__COUNT; p++)
		if (strcmp(r->section, "kind") && !strcmp(r->key, rq_paths[p].id))
			f->path = p;
	for (int i = 0; i < RQ_FIND__COUNT; i++)
		if (!strcmp(r->key, rq_finding_ids[i]))
			f->finding = i;
	snprintf(what, size, "%s", r->key);
	return f->kind >= 0 || f->path >= 0 || f->finding >= 0;
}

static void draw_status(struct view *v, int y, const struct rq_diff_row *r, bool ranges)
{
	char line[256], what[128], f[200], b[32], b2[32], n[32], n2[32], p[32];
	struct pl_filter pf;

	tui_clear_row(y, 0);
	if (!r)
		return;
	if (ranges && r->verdict != RQ_DIFF_NA && COLS < 120) {
		rq_diff_fmt_value(r, r->base.min, b, sizeof(b));
		rq_diff_fmt_value(r, r->base.max, b2, sizeof(b2));
		rq_diff_fmt_value(r, r->new.min, n, sizeof(n));
		rq_diff_fmt_value(r, r->new.max, n2, sizeof(n2));
		snprintf(line, sizeof(line), " range: base %s .. %s, new %s .. %s%s", b, b2, n, n2,
			 rq_diff_fmt_p(r, p, sizeof(p)));
	} else if (row_filter(r, &pf, what, sizeof(what))) {
		pl_filter_format(&pf, f, sizeof(f));
		if (f[0])
			snprintf(line, sizeof(line), " Enter: NEW's placements %s   b: BASE's", f);
		else
			snprintf(line, sizeof(line), " Enter: NEW's placements, all   b: BASE's");
	} else {
		snprintf(line, sizeof(line), " %s", what);
	}
	attron(tui_attr(C_DIM));
	tui_puts(y, 0, -1, line);
	attroff(tui_attr(C_DIM));
}

static void compare_row(struct view *v, int y, int i, bool sel)
{
	struct cmp_state *s = v->priv;

	draw_line(v, y, &s->lines[i], sel, s->ranges);
}

static void compare_draw(struct view *v, int y0, int h)
{
	struct cmp_state *s = v->priv;
	struct tui_compare *c = v->t->cmp;
	const struct rq_diff *d = &c->diff;
	bool ranges = c->nfiles[0] > 1 || c->nfiles[1] > 1;
	char buf[200];
	int y = y0, list_h;

	v->list_y = 0;
	if (!compute(v->t)) {
		tui_clear_row(y0 + 1, 0);
		snprintf(buf, sizeof(buf), " reading %s (%.0f%%): the table comes when both traces "
			 "are read to their end (G)", side_names[tui_compare_side(v->t)],
			 v->t->cur->progress * 100);
		tui_puts(y0 + 1, 0, -1, buf);
		return;
	}
	if (build(v))
		return;
	draw_side(v, y++, 0);
	draw_side(v, y++, 1);
	for (int i = 0; i < d->nnotes && y < y0 + 4; i++) {
		tui_clear_row(y, 0);
		/* a note may quote a kernel release from a file: not trusted text */
		tui_puts(y, 0, -1, " note: ");
		tui_puts_untrusted(y++, 7, COLS - 7, d->notes[i], strlen(d->notes[i]));
	}
	attron(tui_attr(C_HEADER) | A_UNDERLINE);
	tui_clear_row(y, 0);
	snprintf(buf, sizeof(buf), "  %-28s %11s %11s %9s  %-14s%s", "", ranges ? "base median" :
		 "base", ranges ? "new median" : "new", "change", "verdict",
		 ranges && COLS >= 120 ? "base range | new range" : "");
	tui_puts(y++, 0, -1, buf);
	attroff(tui_attr(C_HEADER) | A_UNDERLINE);
	list_h = y0 + h - 1 - y;
	s->ranges = ranges;
	tui_list_draw(v, y, list_h, s->nlines, compare_row);
	draw_status(v, y0 + h - 1, s->nlines && s->lines[v->sel].row >= 0 ?
		    &d->rows[s->lines[v->sel].row] : NULL, ranges);
}

static void drill(struct view *v, int side)
{
	struct cmp_state *s = v->priv;
	struct tui *t = v->t;
	const struct rq_diff_row *r;
	struct pl_filter f;
	char what[128];

	if (!s->nlines || s->lines[v->sel].row < 0)
		return;
	r = &t->cmp->diff.rows[s->lines[v->sel].row];
	if (!row_filter(r, &f, what, sizeof(what))) {
		tui_message(t, "%s", what);
		return;
	}
	if (!tui_compare_show(t, side))
		return;
	/* the compare view under the list: Esc comes back to it */
	t->depth = 0;
	tui_push(t, VIEW_COMPARE, NULL);
	tui_push(t, VIEW_PLACEMENTS, &f);
	tui_message(t, "%s: %s (Esc: back to the compare table)", side_names[side], what);
}

static enum view_key compare_key(struct view *v, enum tui_action act)
{
	struct cmp_state *s = v->priv;
	int old = v->sel;

	if (!v->t->cmp->computed || build(v))
		return VK_UNHANDLED;
	if (tui_list_key(v, act, s->nlines)) {
		/* the cursor skips the section titles, in the direction it moved */
		int dir = v->sel < old || act == ACT_END ? -1 : 1;

		if (act == ACT_HOME)
			dir = 1;
		while (v->sel > 0 && v->sel < s->nlines - 1 && s->lines[v->sel].row < 0)
			v->sel += dir;
		if (s->lines[v->sel].row < 0)
			v->sel = v->sel + 1 < s->nlines ? v->sel + 1 : old;
		tui_list_clamp(v, s->nlines, v->height > 0 ? v->height : 10);
		return VK_REDRAW;
	}
	switch (act) {
	case ACT_NONE:		/* a click selected a line */
		if (s->nlines && s->lines[v->sel].row < 0)
			v->sel = v->sel + 1 < s->nlines ? v->sel + 1 : v->sel;
		return VK_REDRAW;
	case ACT_ENTER:
		drill(v, 1);
		return VK_REDRAW;
	case ACT_ENTER_BASE:
		drill(v, 0);
		return VK_REDRAW;
	default:
		return VK_UNHANDLED;
	}
}

static int compare_rows(struct view *v)
{
	if (!v->t->cmp->computed || build(v))
		return 0;
	return ((struct cmp_state *)v->priv)->nlines;
}

static bool compare_match(struct view *v, int row, const char *needle, bool icase)
{
	struct cmp_state *s = v->priv;
	char label[64];

	if (s->lines[row].row < 0)
		return false;
	rq_diff_row_label(&v->t->cmp->diff.rows[s->lines[row].row], label, sizeof(label));
	return tui_text_has(label, needle, icase);
}

const struct view_ops compare_ops = {
	.name = "compare",
	.title = "compare",
	.private_size = sizeof(struct cmp_state),
	.open = compare_open,
	.done = compare_done,
	.draw = compare_draw,
	.key = compare_key,
	.rows = compare_rows,
	.match = compare_match,
	.search_what = " (path, kind, finding)",
	.help = "BASE against NEW, as rqpath diff: per kind, path and finding, the change "
		"and its verdict",
};
