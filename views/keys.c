// SPDX-License-Identifier: GPL-2.0
/*
 * keys.c - the one key table.  Dispatch, the help view and the bottom help line are
 * all generated from it; add a key here and it is documented everywhere.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "tui.h"

#define CTRL(c) ((c) & 0x1f)

/* View-scoped rows first: the first match wins. */
const struct tui_key tui_keys[] = {
	/* replay control */
	{ ' ', "Space", ACT_PLAY, "replay", "play / pause the replay", "Spc play" },
	{ '+', "+", ACT_FASTER, "replay", "replay faster", "+/- speed" },
	{ '=', "=", ACT_FASTER, "replay", "replay faster", NULL },
	{ '-', "-", ACT_SLOWER, "replay", "replay slower", NULL },
	{ 's', "s", ACT_STEP, "replay", "step to the next placement (pauses)", "s step" },
	{ 'R', "R", ACT_START, "replay",
	  "restart: the replay from the start, every count from 0 (asks first)", "R restart" },
	{ 'E', "E", ACT_FINISH, "replay", "replay to the end of the trace (pauses there)", NULL },
	{ 't', "t", ACT_JUMP_TIME, "replay",
	  "jump to a time: seconds from the start, or +N / -N from here", "t time" },
	/* replay --compare: two traces */
	{ '7', "7", ACT_VIEW_COMPARE, "compare-mode", "compare: BASE against NEW, as rqpath diff",
	  "7 compare" },
	{ 'x', "x", ACT_SWITCH_SIDE, "compare-mode",
	  "switch the trace the other views show (BASE / NEW)", "x BASE/NEW" },
	{ 'r', "r", ACT_NEXT_RUN, "compare-mode",
	  "the next file of the side shown, when it has several runs", NULL },
	/* placements */
	{ 'f', "f/F4", ACT_FILTER, "placements",
	  "filter: pid=N comm=TEXT cpu=N kind=K path=P finding=F possible=F with=F "
	  "node=ID flagged=yes|no (words: comm)",
	  "f filter" },
	{ KEY_F(4), "F4", ACT_FILTER, "placements timeline", NULL, NULL },
	{ 'F', "F", ACT_FILTER_CLEAR, "placements", "clear the filter", "F clear" },
	{ '\n', "Enter", ACT_ENTER, "placements", "show the evidence of this placement",
	  "Enter detail" },
	{ '\n', "Enter", ACT_ENTER, "dashboard", "placements of the path or finding selected",
	  "Enter placements" },
	{ '\n', "Enter", ACT_ENTER, "compare",
	  "the NEW trace's placements of the row's path, kind or finding", "Enter NEW" },
	{ 'b', "b", ACT_ENTER_BASE, "compare", "the BASE trace's placements of the row",
	  "b BASE" },
	{ '\n', "Enter", ACT_ENTER, "tasks", "placements of this task", "Enter placements" },
	/* sort: tasks and placements alike (sort.c), one row each for both views */
	{ '>', ">", ACT_SORT, "tasks placements",
	  "sort by the next column (o too)", "< > O F6 sort" },
	{ 'o', "o", ACT_SORT, "tasks placements", NULL, NULL },
	{ '<', "<", ACT_SORT_PREV, "tasks placements", "sort by the previous column", NULL },
	{ 'O', "O", ACT_SORT_REVERSE, "tasks placements", "reverse the sort", NULL },
	{ KEY_F(6), "F6", ACT_SORT_PICK, "tasks placements",
	  "sort by a column named at a prompt (the current one again reverses)", NULL },
	{ '\n', "Enter", ACT_ENTER, "findings",
	  "placements with this finding (on an example: its detail)", "Enter placements" },
	{ '\n', "Enter", ACT_ENTER, "teach", "placements that took this step",
	  "Enter placements" },
	/* detail */
	{ ']', "]", ACT_NEXT_PLACEMENT, "detail", "next placement of the list it came from (n too)",
	  "[ ] next" },
	{ 'n', "n", ACT_NEXT_PLACEMENT, "detail", NULL, NULL },
	{ '[', "[", ACT_PREV_PLACEMENT, "detail", "previous placement of that list (N too)", NULL },
	{ 'N', "N", ACT_PREV_PLACEMENT, "detail", NULL, NULL },
	/* timeline */
	{ 'z', "z", ACT_ZOOM_IN, "timeline", "zoom in (around the selected placement)",
	  "z/Z zoom" },
	{ 'Z', "Z", ACT_ZOOM_OUT, "timeline", "zoom out", NULL },
	{ KEY_LEFT, "Left/h", ACT_PAN_LEFT, "timeline", "pan left (PgUp: a whole window)",
	  "Left/Right pan" },
	{ 'h', "h", ACT_PAN_LEFT, "timeline", NULL, NULL },
	{ KEY_RIGHT, "Right/l", ACT_PAN_RIGHT, "timeline", "pan right (PgDn: a whole window)",
	  NULL },
	{ 'l', "l", ACT_PAN_RIGHT, "timeline", NULL, NULL },
	{ '[', "[", ACT_PREV_PLACEMENT, "timeline", "previous placement", "[ ] placement" },
	{ ']', "]", ACT_NEXT_PLACEMENT, "timeline", "next placement", NULL },
	{ 'n', "n", ACT_SEARCH_NEXT, "timeline", "next flagged placement (a finding)",
	  "n/N/f finding" },
	{ 'N', "N", ACT_SEARCH_PREV, "timeline", "previous flagged placement", NULL },
	{ 'f', "f/F4", ACT_FILTER, "timeline",
	  "which finding n/N walk (a finding's name or prefix; empty: any)", NULL },
	{ 'F', "F", ACT_FILTER_CLEAR, "timeline", "n/N walk every flagged placement again", NULL },
	{ 'c', "c", ACT_COLOR_BY, "timeline", "lanes by task or by scheduling policy",
	  "c policy" },
	{ '\n', "Enter", ACT_ENTER, "timeline", "the detail of the selected placement",
	  "Enter detail" },
	/* the prompts (/ f t F6): only while one is open (prompt.c) */
	{ 27, "Esc", ACT_P_CANCEL, "prompt", "cancel the prompt", NULL },
	{ '\n', "Enter", ACT_P_RUN, "prompt", "run it", NULL },
	{ '\r', "Enter", ACT_P_RUN, "prompt", NULL, NULL },
	{ KEY_ENTER, "Enter", ACT_P_RUN, "prompt", NULL, NULL },
	{ KEY_UP, "Up/^P", ACT_P_OLDER, "prompt",
	  "the prompt's history, older (the value in force is in it)", NULL },
	{ CTRL('p'), "^P", ACT_P_OLDER, "prompt", NULL, NULL },
	{ KEY_DOWN, "Down/^N", ACT_P_NEWER, "prompt", "the history, newer", NULL },
	{ CTRL('n'), "^N", ACT_P_NEWER, "prompt", NULL, NULL },
	{ KEY_LEFT, "Left/^B", ACT_P_LEFT, "prompt", "a character left", NULL },
	{ CTRL('b'), "^B", ACT_P_LEFT, "prompt", NULL, NULL },
	{ KEY_RIGHT, "Right/^F", ACT_P_RIGHT, "prompt", "a character right", NULL },
	{ CTRL('f'), "^F", ACT_P_RIGHT, "prompt", NULL, NULL },
	{ KEY_HOME, "Home/^A", ACT_P_START, "prompt", "to the start", NULL },
	{ CTRL('a'), "^A", ACT_P_START, "prompt", NULL, NULL },
	{ KEY_END, "End/^E", ACT_P_END, "prompt", "to the end", NULL },
	{ CTRL('e'), "^E", ACT_P_END, "prompt", NULL, NULL },
	{ KEY_BACKSPACE, "Bksp", ACT_P_BKSP, "prompt", "delete the character before", NULL },
	{ 127, "Bksp", ACT_P_BKSP, "prompt", NULL, NULL },
	{ 8, "Bksp", ACT_P_BKSP, "prompt", NULL, NULL },
	{ KEY_DC, "Del/^D", ACT_P_DEL, "prompt", "delete the character under the cursor", NULL },
	{ CTRL('d'), "^D", ACT_P_DEL, "prompt", NULL, NULL },
	{ CTRL('u'), "^U", ACT_P_KILL_START, "prompt", "delete to the start", NULL },
	{ CTRL('k'), "^K", ACT_P_KILL_END, "prompt", "delete to the end", NULL },
	{ CTRL('w'), "^W", ACT_P_KILL_WORD, "prompt", "delete the word before the cursor",
	  NULL },
	/* everywhere */
	/* live: after the views' rows, so the timeline's Z still zooms out there */
	{ 'Z', "Z", ACT_FREEZE, "live",
	  "freeze the screen (recording and analysis go on); again: live again", "Z freeze" },
	{ ' ', "Space", ACT_FREEZE, "live", NULL, NULL },
	{ 'R', "R", ACT_RESET, "live", "reset the counters: count from now on", "R reset" },
	{ '1', "1", ACT_VIEW_DASHBOARD, NULL, "dashboard", "1-6 views" },
	{ '2', "2", ACT_VIEW_PLACEMENTS, NULL, "placements (all)", NULL },
	{ '3', "3", ACT_VIEW_TASKS, NULL, "tasks", NULL },
	{ '4', "4", ACT_VIEW_FINDINGS, NULL, "findings", NULL },
	{ '5', "5", ACT_VIEW_TEACH, NULL, "teach: the select_task_rq() decision tree", NULL },
	{ '6', "6/F5", ACT_VIEW_TIMELINE, NULL,
	  "timeline: what ran on each CPU, and the placements", NULL },
	{ KEY_F(5), "F5", ACT_VIEW_TIMELINE, NULL, NULL, NULL },
	{ '\t', "Tab", ACT_NEXT_VIEW, NULL, "next view", NULL },
	{ KEY_BTAB, "S-Tab", ACT_PREV_VIEW, NULL, "previous view", NULL },
	{ '/', "//F3", ACT_SEARCH, NULL,
	  "search the list (smart case: capitals match exactly; matches highlighted)", "/ search" },
	{ KEY_F(3), "F3", ACT_SEARCH, NULL, NULL, NULL },
	{ 'n', "n", ACT_SEARCH_NEXT, NULL, "next search match (says K of N, and when it wraps)",
	  NULL },
	{ 'N', "N", ACT_SEARCH_PREV, NULL, "previous search match", NULL },
	{ KEY_UP, "Up/k", ACT_UP, NULL, "move up", NULL },
	{ 'k', "k", ACT_UP, NULL, NULL, NULL },
	{ KEY_DOWN, "Down/j", ACT_DOWN, NULL, "move down", NULL },
	{ 'j', "j", ACT_DOWN, NULL, NULL, NULL },
	{ KEY_PPAGE, "PgUp", ACT_PGUP, NULL, "page up", NULL },
	{ KEY_NPAGE, "PgDn", ACT_PGDN, NULL, "page down", NULL },
	{ 'g', "g/Home", ACT_HOME, NULL, "first row (top of the list)", NULL },
	{ KEY_HOME, "Home", ACT_HOME, NULL, NULL, NULL },
	{ 'G', "G/End", ACT_END, NULL, "last row (bottom of the list)", NULL },
	{ KEY_END, "End", ACT_END, NULL, NULL, NULL },
	{ '\n', "Enter", ACT_ENTER, NULL, NULL, NULL },
	{ '\r', "Enter", ACT_ENTER, NULL, NULL, NULL },
	{ KEY_ENTER, "Enter", ACT_ENTER, NULL, NULL, NULL },
	{ 27, "Esc", ACT_BACK, NULL, "back to the previous view (never quits)", "Esc back" },
	{ KEY_BACKSPACE, "Bksp/Left", ACT_BACK, NULL, "back to the previous view", NULL },
	{ KEY_LEFT, "Left", ACT_BACK, NULL, NULL, NULL },
	{ 127, "Bksp", ACT_BACK, NULL, NULL, NULL },
	{ '?', "?/F1", ACT_HELP, NULL, "this help", "? help" },
	{ KEY_F(1), "F1", ACT_HELP, NULL, NULL, NULL },
	{ CTRL('l'), "^L", ACT_REDRAW, NULL, "redraw the screen", NULL },
	{ 'T', "T", ACT_TIME_FORMAT, NULL,
	  "times since the trace start, or absolute (as trace-cmd report)", NULL },
	{ 'q', "q", ACT_QUIT, NULL,
	  "close this view; quit from the first one (live without -o asks)", "q quit" },
	{ KEY_F(10), "F10", ACT_QUIT_ALL, NULL, "quit from any view (live without -o asks)",
	  NULL },
	{ CTRL('c'), "^C", ACT_QUIT_ALL, NULL, "quit at once", NULL },
};

const int tui_nr_keys = sizeof(tui_keys) / sizeof(tui_keys[0]);

bool tui_scope_has(const char *scope, const char *name)
{
	size_t n;

	if (!scope || !name || !*name)
		return false;
	n = strlen(name);
	for (const char *p = scope; (p = strstr(p, name)); p += n)
		if ((p == scope || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return true;
	return false;
}

static bool in_scope(const struct tui *t, const char *scope, const char *view)
{
	if (!scope)
		return true;
	if (!strcmp(scope, "replay"))
		return !t->cur->live;
	if (!strcmp(scope, "live"))
		return t->cur->live;
	if (!strcmp(scope, "compare-mode"))
		return t->cmp != NULL;
	if (!strcmp(scope, "prompt"))	/* tui_prompt_action() only */
		return false;
	return tui_scope_has(scope, view);
}

static const char *top_name(const struct tui *t)
{
	return t->depth ? t->stack[t->depth - 1]->ops->name : NULL;
}

enum tui_action tui_key_action(const struct tui *t, int key)
{
	const char *view = top_name(t);

	for (int i = 0; i < tui_nr_keys; i++)
		if (tui_keys[i].key == key && in_scope(t, tui_keys[i].scope, view))
			return tui_keys[i].act;
	return ACT_NONE;
}

enum tui_action tui_prompt_action(int key)
{
	for (int i = 0; i < tui_nr_keys; i++)
		if (tui_keys[i].key == key && tui_keys[i].scope &&
		    !strcmp(tui_keys[i].scope, "prompt"))
			return tui_keys[i].act;
	return ACT_NONE;
}

const char *tui_key_name(const struct tui *t, enum tui_action act)
{
	const char *view = top_name(t);

	for (int i = 0; i < tui_nr_keys; i++)
		if (tui_keys[i].act == act && in_scope(t, tui_keys[i].scope, view) &&
		    tui_key_action(t, tui_keys[i].key) == act)
			return tui_keys[i].name;
	return "?";
}

void tui_help_line(const struct tui *t, char *buf, size_t size)
{
	const char *view = top_name(t);
	size_t off = 0;

	buf[0] = '\0';
	/* this view's keys, then the global ones, then replay's */
	for (int pass = 0; pass < 3; pass++) {
		for (int i = 0; i < tui_nr_keys; i++) {
			const struct tui_key *k = &tui_keys[i];
			const char *brief = k->brief;
			bool mine;

			if (!k->brief)
				continue;
			if (pass == 0)
				mine = k->scope && strcmp(k->scope, "replay") &&
				       tui_scope_has(k->scope, view);
			else if (pass == 2)
				mine = k->scope && ((!strcmp(k->scope, "replay") && !t->cur->live) ||
						    (!strcmp(k->scope, "live") && t->cur->live));
			else	/* with two traces, their keys come first */
				mine = !k->scope || (!strcmp(k->scope, "compare-mode") && t->cmp);
			if (!mine)
				continue;
			if (pass == 1 && k->act == ACT_BACK && t->depth <= 1)
				continue;
			/* in a nested view q closes it */
			if (k->act == ACT_QUIT && t->depth > 1)
				brief = "q close";
			if (k->act == ACT_SEARCH && !(t->depth && t->stack[t->depth - 1]->ops->match))
				continue;
			/* whole entries only: what does not fit on the line is left out */
			if ((int)(off + 2 + strlen(brief)) > COLS)
				continue;
			off += snprintf(buf + off, size > off ? size - off : 0, "%s%s",
					off ? "  " : "", brief);
			if (off >= size)
				return;
		}
	}
}
