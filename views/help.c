// SPDX-License-Identifier: GPL-2.0
/*
 * help.c - every key, generated from the key table in keys.c, and what each view shows.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "tui.h"

#define HL_MAX 160

struct help_state {
	char lines[HL_MAX][160];
	bool head[HL_MAX];
	int n;
};


static void add(struct help_state *s, bool head, const char *text)
{
	size_t n;

	if (s->n >= HL_MAX)
		return;
	n = strnlen(text, sizeof(s->lines[0]) - 1);

	memcpy(s->lines[s->n], text, n);
	s->lines[s->n][n] = '\0';
	s->head[s->n++] = head;
}

static void add_scope(struct help_state *s, const char *scope, const char *title)
{
	char buf[200];

	add(s, true, title);
	for (int i = 0; i < tui_nr_keys; i++) {
		const struct tui_key *k = &tui_keys[i];

		if (!k->help)
			continue;
		if (scope ? !tui_scope_has(k->scope, scope) : k->scope != NULL)
			continue;
		snprintf(buf, sizeof(buf), "  %-10s %s", k->name, k->help);
		add(s, false, buf);
	}
	add(s, false, "");
}

static void build(struct view *v)
{
	static const struct view_ops *const views[] = { &dashboard_ops, &placements_ops,
		&tasks_ops, &findings_ops, &teach_ops, &timeline_ops, &detail_ops, &compare_ops };
	struct help_state *s = v->priv;
	char buf[200];

	s->n = 0;
	add_scope(s, NULL, "keys everywhere");
	if (!v->t->cur->live)
		add_scope(s, "replay", "replay");
	else
		add_scope(s, "live", "live");
	if (v->t->cmp)
		add_scope(s, "compare-mode", "replay --compare (two traces)");
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		bool any = false;

		if (views[i] == &compare_ops && !v->t->cmp)
			continue;
		for (int k = 0; k < tui_nr_keys; k++)
			if (tui_scope_has(tui_keys[k].scope, views[i]->name))
				any = true;
		if (any) {
			snprintf(buf, sizeof(buf), "%s view", views[i]->name);
			add_scope(s, views[i]->name, buf);
		}
	}
	add_scope(s, "prompt", "in a prompt (/ f t F6; text is UTF-8 as typed)");
	add(s, true, "views");
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		if (views[i] == &compare_ops && !v->t->cmp)
			continue;
		snprintf(buf, sizeof(buf), "  %-10s %s", views[i]->name, views[i]->help);
		add(s, false, buf);
	}
	add(s, false, "");
	add(s, true, "marks");
	snprintf(buf, sizeof(buf), "  %-10s findings: %s", rq_finding_letters,
		 rq_finding_legend());
	add(s, false, buf);
	{
		char lower[RQ_FIND__COUNT + 1];

		pl_finding_marks(0, ~0u, lower);
		snprintf(buf, sizeof(buf), "  %-10s lower case: possible (selection not proven, "
			 "not counted)", lower);
		add(s, false, buf);
	}
	add(s, false, "  +N?        N more placements may have taken this step (the trace "
		      "cannot tell)");
	add(s, false, "  exact      findings proven by the events; infer: under an assumption;");
	add(s, false, "  poss n/j   possible (selection not proven); not judged (a state unknown)");
	add(s, false, "  conf       exact: from the event itself; infer: reconstructed; ?: "
		      "unknown");
	add(s, false, "  task and file names are shown C-escaped (\\xHH): they are not "
		      "trusted text");
}

static int help_open(struct view *v, const void *arg)
{
	v->top = 0;
	return 0;
}

static void help_draw(struct view *v, int y0, int h)
{
	struct help_state *s = v->priv;

	build(v);
	tui_pager_clamp(v, s->n, h);
	for (int i = 0; i < h && v->top + i < s->n; i++) {
		if (s->head[v->top + i])
			attron(tui_attr(C_HEADER));
		tui_puts(y0 + i, 1, -1, s->lines[v->top + i]);
		if (s->head[v->top + i])
			attroff(tui_attr(C_HEADER));
	}
}

static enum view_key help_key(struct view *v, enum tui_action act)
{
	struct help_state *s = v->priv;

	/* ACT_HELP is taken here so that it does nothing instead of reaching the list keys */
	if (act == ACT_HELP)
		return VK_NONE;
	return tui_pager_key(v, act, s->n) ? VK_REDRAW : VK_UNHANDLED;
}

const struct view_ops help_ops = {
	.name = "help",
	.title = "help",
	.private_size = sizeof(struct help_state),
	.open = help_open,
	.draw = help_draw,
	.key = help_key,
	.help = "every key and what each view shows",
};
