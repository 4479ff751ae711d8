// SPDX-License-Identifier: GPL-2.0
/*
 * sort.c - the sort keys of the tasks and placements lists (htop's F6 / < / > idea):
 * > (and o) sorts by the next column, < by the previous one, O reverses, F6 asks for a
 * column by name at a prompt, and naming the column already in force reverses it.
 * The view keeps a struct tui_sort and shows it in its column titles (tui_sort_title).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <curses.h>

#include "tui.h"

/* The one sort prompt open at a time. */
static struct {
	struct view *v;
	struct tui_sort *s;
	const char *const *names;
	int n;
} pick;

static void pick_done(struct tui *t, const char *text, void *data)
{
	int found = -1, nfound = 0;
	size_t len = strlen(text);

	if (!len || data != pick.v || !pick.s)
		return;
	for (int c = 0; c < pick.n; c++) {
		if (!strcasecmp(text, pick.names[c])) {
			found = c;
			nfound = 1;
			break;
		}
		if (!strncasecmp(text, pick.names[c], len)) {
			if (!nfound++)
				found = c;
		}
	}
	if (nfound != 1) {
		tui_message(t, "sort: %s column '%s'", nfound ? "more than one" : "no", text);
		return;
	}
	if (found == pick.s->col) {
		pick.s->reverse = !pick.s->reverse;
	} else {
		pick.s->col = found;
		pick.s->reverse = false;
	}
	pick.v->stale = true;
	tui_message(t, "sorted by %s%s", pick.names[found], pick.s->reverse ? ", reversed" : "");
}

enum view_key tui_sort_key(struct view *v, struct tui_sort *s, const char *const *names, int n,
			   enum tui_action act)
{
	char label[96], all[80] = "";
	size_t off = 0;

	switch (act) {
	case ACT_SORT:
		s->col = (s->col + 1) % n;
		s->reverse = false;
		break;
	case ACT_SORT_PREV:
		s->col = (s->col + n - 1) % n;
		s->reverse = false;
		break;
	case ACT_SORT_REVERSE:
		s->reverse = !s->reverse;
		break;
	case ACT_SORT_PICK:
		pick.v = v;
		pick.s = s;
		pick.names = names;
		pick.n = n;
		for (int c = 0; c < n && off < sizeof(all); c++)
			off += snprintf(all + off, sizeof(all) - off, "%s%s", c ? " " : "",
					names[c]);
		snprintf(label, sizeof(label), "sort by (%s): ", all);
		tui_prompt(v->t, label, names[s->col], pick_done, v);
		return VK_REDRAW;
	default:
		return VK_UNHANDLED;
	}
	tui_message(v->t, "sorted by %s%s (< > column, O reverses, F6 names one)", names[s->col],
		    s->reverse ? ", reversed" : "");
	return VK_RESCAN;
}

/*
 * The column titles, one blank apart; the sort column gets the arrow in its padding
 * (right-aligned titles) or in the blank before it, so no column moves.
 */
void tui_sort_header(const struct tui *t, const struct tui_sort *s, const struct tui_col *cols,
		     int n, char *buf, size_t size)
{
	const char *arrow = s->reverse ? (t->utf8 ? "\u25b2" : "^") : (t->utf8 ? "\u25bc" : "v");
	size_t off = 0;

	buf[0] = '\0';
	for (int c = 0; c < n && off < size; c++) {
		const struct tui_col *k = &cols[c];
		int pad = k->width - tui_width(k->title);
		bool sorted = c == s->col;
		const char *sep = c ? " " : "";

		if (pad < 0)
			pad = 0;
		if (sorted && k->right && pad >= 1) {
			off += snprintf(buf + off, size - off, "%s%*s%s%s", sep, pad - 1, "", arrow,
					k->title);
			continue;
		}
		if (sorted)
			sep = arrow;
		if (k->right)
			off += snprintf(buf + off, size - off, "%s%*s%s", sep, pad, "", k->title);
		else
			off += snprintf(buf + off, size - off, "%s%s%*s", sep, k->title,
					c == n - 1 ? 0 : pad, "");
	}
}
