// SPDX-License-Identifier: GPL-2.0
/*
 * list.c - the list component of the list views (placements, tasks, findings, compare,
 * and the pagers): the cursor and the scroll of a view (v->sel, v->top) moved by the
 * movement keys, clamped to its rows, and the loop that draws the rows shown with the
 * selected one's bar, keeping v->height and v->list_y (what the keys, the search and
 * the mouse read) right.  A view gives its row count and a function drawing one row;
 * its rows(), match(), find() and key() hooks (struct view_ops) do the rest, and
 * search.c and sort.c work on any list.
 */
#include <curses.h>

#include "tui.h"

/*
 * Apply a movement key to *pos (a scroll offset or a selection) with page height h;
 * last is where End goes.  False if act is not a movement.
 */
static bool move_key(int *pos, enum tui_action act, int h, int last)
{
	switch (act) {
	case ACT_UP: (*pos)--; break;
	case ACT_DOWN: (*pos)++; break;
	case ACT_PGUP: *pos -= h - 1; break;
	case ACT_PGDN: *pos += h - 1; break;
	case ACT_HOME: *pos = 0; break;
	case ACT_END: *pos = last; break;
	default: return false;
	}
	return true;
}

/* Scroll a pager view of n lines (moves v->top); false if act is not a move. */
bool tui_pager_key(struct view *v, enum tui_action act, int n)
{
	int h = v->height > 1 ? v->height : 10;

	if (!move_key(&v->top, act, h, n))
		return false;
	tui_pager_clamp(v, n, h);
	return true;
}

void tui_pager_clamp(struct view *v, int n, int h)
{
	if (v->top > n - h)
		v->top = n - h;
	if (v->top < 0)
		v->top = 0;
}

/* Move the selection of a list view of n rows; false if act is not a move. */
bool tui_list_key(struct view *v, enum tui_action act, int n)
{
	int h = v->height > 0 ? v->height : 10;

	if (!move_key(&v->sel, act, h, n - 1))
		return false;
	tui_list_clamp(v, n, h);
	return true;
}

void tui_list_clamp(struct view *v, int n, int h)
{
	if (v->sel >= n)
		v->sel = n - 1;
	if (v->sel < 0)
		v->sel = 0;
	if (h < 1)
		h = 1;
	if (v->sel < v->top)
		v->top = v->sel;
	if (v->sel >= v->top + h)
		v->top = v->sel - h + 1;
	if (v->top > n - h)
		v->top = n - h;
	if (v->top < 0)
		v->top = 0;
}

void tui_list_draw(struct view *v, int y, int h, int n, tui_list_row_fn row)
{
	tui_list_clamp(v, n, h);
	v->height = h;
	v->list_y = y;
	for (int i = 0; i < h && v->top + i < n; i++)
		row(v, y + i, v->top + i, v->top + i == v->sel);
}

void tui_list_bar(int y, bool sel)
{
	if (!sel)
		return;
	attron(tui_attr(C_SELECT));
	for (int c = 0; c < COLS; c++)
		mvaddch(y, c, ' ');
}
