// SPDX-License-Identifier: GPL-2.0
/*
 * search.c - / n N in every list view that can match its rows (view_ops.match).
 *
 * Smart case as in vim and less: a pattern without capitals matches either case, one
 * with a capital matches exactly.  Every move says "match K of N", and says so when
 * it wrapped around the end of the list.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>
#include <curses.h>

#include "tui.h"

bool tui_search_icase(const char *needle)
{
	for (const char *p = needle; *p; p++)
		if (*p >= 'A' && *p <= 'Z')
			return false;
	return true;
}

bool tui_text_has(const char *hay, const char *needle, bool icase)
{
	return icase ? strcasestr(hay, needle) != NULL : strstr(hay, needle) != NULL;
}

static bool step(struct view *v, int dir)
{
	struct tui *t = v->t;
	bool icase = tui_search_icase(t->search);
	int n = v->ops->rows(v), total = 0, k_sel = 0, found = -1;
	bool wrapped = false;

	if (!t->search[0]) {
		tui_message(t, "no search yet: / searches");
		return false;
	}
	/* a long list keeps its matches: a bisection, not a scan */
	if (v->ops->find) {
		found = v->ops->find(v, v->sel, dir, t->search, icase, &k_sel, &total, &wrapped);
		if (found == -1) {
			tui_message(t, "not found: %s", t->search);
			return false;
		}
		if (found >= 0)
			goto show;
		found = -1;
		k_sel = total = 0;
		wrapped = false;
	}
	for (int k = 1; k <= n && found < 0; k++) {
		int i = v->sel + dir * k;

		if (v->ops->match(v, ((i % n) + n) % n, t->search, icase)) {
			found = ((i % n) + n) % n;
			wrapped = i >= n || i < 0;
		}
	}
	if (found < 0) {
		tui_message(t, "not found: %s", t->search);
		return false;
	}
	for (int i = 0; i < n; i++) {
		if (v->ops->match(v, i, t->search, icase)) {
			total++;
			if (i <= found)
				k_sel++;
		}
	}
show:
	v->sel = found;
	tui_list_clamp(v, n, v->height);
	if (wrapped)
		tui_message(t, "search wrapped to the %s: match %d of %d for /%s",
			    dir > 0 ? "top" : "bottom", k_sel, total, t->search);
	else
		tui_message(t, "match %d of %d for /%s", k_sel, total, t->search);
	return true;
}

static void search_done(struct tui *t, const char *text, void *data)
{
	struct view *v = tui_top(t);
	int old;

	if (!text[0] || !v || v != data || v->ops->rows(v) <= 0)
		return;
	snprintf(t->search, sizeof(t->search), "%s", text);
	/* from the row before the selection, so the selected row itself can match */
	old = v->sel;
	v->sel--;
	if (!step(v, 1))
		v->sel = old;
}

/* VK_UNHANDLED unless act is a search key and this view searches. */
enum view_key tui_search_key(struct view *v, enum tui_action act)
{
	char label[64];

	if (!v->ops->match || !v->ops->rows)
		return VK_UNHANDLED;
	switch (act) {
	case ACT_SEARCH:
		snprintf(label, sizeof(label), "search %s%s: ", v->ops->name,
			 v->ops->search_what ? v->ops->search_what : "");
		tui_prompt(v->t, label, v->t->search, search_done, v);
		return VK_REDRAW;
	case ACT_SEARCH_NEXT:
		if (v->ops->rows(v) > 0)
			step(v, 1);
		return VK_REDRAW;
	case ACT_SEARCH_PREV:
		if (v->ops->rows(v) > 0)
			step(v, -1);
		return VK_REDRAW;
	default:
		return VK_UNHANDLED;
	}
}

/*
 * less's idea: every occurrence of the last search in the rows of the list that match
 * it is drawn in TUI_MATCH_ATTR, on the screen as the view drew it (so what is
 * highlighted is what the user reads: the escaped comm, the pid, the path).
 */
void tui_search_highlight(struct view *v)
{
	struct tui *t = v->t;
	bool icase = tui_search_icase(t->search);
	wchar_t needle[sizeof(t->search)];
	size_t nl;
	int n;

	/* the pattern as characters (it may be UTF-8), compared with the cells' characters */
	nl = mbstowcs(needle, t->search, sizeof(t->search));
	if (nl == (size_t)-1 || !nl || !v->ops->match || !v->ops->rows || !v->list_y ||
	    v->height <= 0)
		return;
	n = v->ops->rows(v);
	for (int i = 0; i < v->height && v->top + i < n; i++) {
		int y = v->list_y + i;
		wchar_t row[512];
		int col[512], w = COLS < 512 ? COLS : 512, nc = 0;

		if (y >= LINES - 1 || !v->ops->match(v, v->top + i, t->search, icase))
			continue;
		/* one entry per character: a wide one takes two cells, its first is its column */
		for (int x = 0; x < w; x++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t a;
			short pair;

			row[nc] = L' ';
			if (mvin_wch(y, x, &cc) != ERR &&
			    getcchar(&cc, wc, &a, &pair, NULL) != ERR && wc[0])
				row[nc] = wc[0];
			col[nc++] = x;
			if (wcwidth(row[nc - 1]) == 2)
				x++;
		}
		for (int c = 0; c + (int)nl <= nc; c++) {
			size_t k;

			for (k = 0; k < nl; k++) {
				wchar_t a = row[c + k], b = needle[k];

				if (icase)
					a = towlower(a), b = towlower(b);
				if (a != b)
					break;
			}
			if (k < nl)
				continue;
			for (k = 0; k < nl; k++) {
				cchar_t cc;
				wchar_t wc[CCHARW_MAX + 1];
				attr_t a;
				short pair;

				if (mvin_wch(y, col[c + k], &cc) == ERR ||
				    getcchar(&cc, wc, &a, &pair, NULL) == ERR)
					continue;
				setcchar(&cc, wc, a | TUI_MATCH_ATTR, pair, NULL);
				mvadd_wch(y, col[c + k], &cc);
			}
			c += (int)nl - 1;
		}
	}
}
