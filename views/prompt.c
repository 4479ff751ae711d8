// SPDX-License-Identifier: GPL-2.0
/*
 * prompt.c - the one-line editor at the bottom (search, filter, time).
 *
 * Like readline and tig: the prompt starts empty; Up/Down walk this prompt's history
 * (the last values entered, plus the value in force, e.g. the current filter); Left,
 * Right, Home/Ctrl-A, End/Ctrl-E move; Backspace, Delete, Ctrl-U (to the start), Ctrl-K
 * (to the end) and Ctrl-W (the word before the cursor) delete; Enter runs it, Esc
 * cancels.  Text is UTF-8 as typed (the terminal sends a character's bytes one key each):
 * the cursor and the deletions move by whole characters, and the line is drawn as names
 * are (tui_display()), by columns.
 */
#include <stdio.h>
#include <string.h>
#include <curses.h>

#include "escape.h"

#include "tui.h"

static struct prompt_hist *hist_for(struct tui *t, const char *label)
{
	struct prompt_hist *free_slot = NULL;

	for (int i = 0; i < TUI_PROMPT_KINDS; i++) {
		struct prompt_hist *h = &t->prompt.hist[i];

		if (h->label[0] && !strcmp(h->label, label))
			return h;
		if (!h->label[0] && !free_slot)
			free_slot = h;
	}
	if (!free_slot)
		free_slot = &t->prompt.hist[0];
	memset(free_slot, 0, sizeof(*free_slot));
	snprintf(free_slot->label, sizeof(free_slot->label), "%s", label);
	return free_slot;
}

/* Newest first: 0 is the last value entered. */
static void hist_add(struct prompt_hist *h, const char *text)
{
	if (!text[0] || (h->n && !strcmp(h->items[0], text)))
		return;
	memmove(&h->items[1], &h->items[0],
		sizeof(h->items[0]) * (TUI_PROMPT_HIST - 1));
	snprintf(h->items[0], sizeof(h->items[0]), "%s", text);
	if (h->n < TUI_PROMPT_HIST)
		h->n++;
}

void tui_prompt(struct tui *t, const char *label, const char *current, tui_prompt_fn done,
		void *data)
{
	struct prompt_hist *h = hist_for(t, label);

	/* the value in force (a filter set by Enter on a finding) is recallable too */
	if (current && current[0])
		hist_add(h, current);
	t->prompt.active = true;
	t->prompt.h = h;
	t->prompt.at = -1;
	snprintf(t->prompt.label, sizeof(t->prompt.label), "%s", label);
	t->prompt.buf[0] = '\0';
	t->prompt.len = t->prompt.pos = 0;
	t->prompt.done = done;
	t->prompt.data = data;
}

static void set_text(struct tui *t, const char *s)
{
	snprintf(t->prompt.buf, sizeof(t->prompt.buf), "%s", s);
	t->prompt.len = t->prompt.pos = strlen(t->prompt.buf);
}

static void delete_range(struct tui *t, int a, int b)
{
	if (a < 0)
		a = 0;
	if (b > t->prompt.len)
		b = t->prompt.len;
	if (a >= b)
		return;
	memmove(t->prompt.buf + a, t->prompt.buf + b, t->prompt.len - b + 1);
	t->prompt.len -= b - a;
	t->prompt.pos = a;
}

static bool continuation(const struct tui *t, int i)
{
	return i > 0 && i < t->prompt.len && ((unsigned char)t->prompt.buf[i] & 0xc0) == 0x80;
}

/* The start of the character before byte i (a UTF-8 sequence, or one stray byte). */
static int char_before(const struct tui *t, int i)
{
	int j = i - 1;

	while (j > 0 && i - j < 4 && continuation(t, j))
		j--;
	return j < 0 ? 0 : j;
}

/* The end of the character at byte i. */
static int char_after(const struct tui *t, int i)
{
	size_t n;

	if (i >= t->prompt.len)
		return t->prompt.len;
	n = rq_utf8_len((const unsigned char *)t->prompt.buf + i, (size_t)(t->prompt.len - i));
	return i + (n ? (int)n : 1);
}

void tui_prompt_key(struct tui *t, int ch)
{
	struct prompt_hist *h = t->prompt.h;
	int p = t->prompt.pos;

	/* the editing keys come from the key table (scope "prompt"), as the help lists them */
	switch (tui_prompt_action(ch)) {
	case ACT_P_CANCEL:
		t->prompt.active = false;
		return;
	case ACT_P_RUN:
		t->prompt.active = false;
		if (h)
			hist_add(h, t->prompt.buf);
		if (t->prompt.done)
			t->prompt.done(t, t->prompt.buf, t->prompt.data);
		return;
	case ACT_P_OLDER:
		if (h && t->prompt.at + 1 < h->n)
			set_text(t, h->items[++t->prompt.at]);
		return;
	case ACT_P_NEWER:
		if (h && t->prompt.at > 0)
			set_text(t, h->items[--t->prompt.at]);
		else if (t->prompt.at == 0) {
			t->prompt.at = -1;
			set_text(t, "");
		}
		return;
	case ACT_P_LEFT:
		t->prompt.pos = char_before(t, p);
		return;
	case ACT_P_RIGHT:
		t->prompt.pos = char_after(t, p);
		return;
	case ACT_P_START:
		t->prompt.pos = 0;
		return;
	case ACT_P_END:
		t->prompt.pos = t->prompt.len;
		return;
	case ACT_P_BKSP:
		delete_range(t, char_before(t, p), p);
		return;
	case ACT_P_DEL:
		delete_range(t, p, char_after(t, p));
		return;
	case ACT_P_KILL_START:
		delete_range(t, 0, p);
		return;
	case ACT_P_KILL_END:
		delete_range(t, p, t->prompt.len);
		return;
	case ACT_P_KILL_WORD: {
		int a = p;

		while (a > 0 && t->prompt.buf[a - 1] == ' ')
			a--;
		while (a > 0 && t->prompt.buf[a - 1] != ' ')
			a--;
		delete_range(t, a, p);
		return;
	}
	default:
		break;
	}
	/* printable ASCII, or a byte of a UTF-8 character (0x80-0xff; keys are above) */
	if (((ch >= 0x20 && ch < 0x7f) || (ch >= 0x80 && ch <= 0xff)) &&
	    t->prompt.len < (int)sizeof(t->prompt.buf) - 1) {
		memmove(t->prompt.buf + p + 1, t->prompt.buf + p, t->prompt.len - p + 1);
		t->prompt.buf[p] = (char)ch;
		t->prompt.len++;
		t->prompt.pos++;
	}
}

/* Columns the bytes [a, b) of the prompt take as drawn. */
static int cells(const struct tui *t, int a, int b)
{
	char shown[sizeof(t->prompt.buf) * 4];

	tui_display(t->prompt.buf + a, (size_t)(b - a), shown, sizeof(shown));
	return tui_width(shown);
}

/* The prompt on row y: the label, the text (scrolled to keep the cursor in view). */
void tui_prompt_draw(struct tui *t, int y)
{
	int x = tui_puts(y, 0, -1, t->prompt.label);
	int w = COLS - x - 1, start = 0, at, end;
	char shown[sizeof(t->prompt.buf) * 4];

	if (w < 1)
		return;
	/* whole characters off the left until the cursor's column is on the screen */
	while (start < t->prompt.pos && cells(t, start, t->prompt.pos) > w - 1)
		start = char_after(t, start);
	tui_puts_untrusted(y, x, w, t->prompt.buf + start, (size_t)(t->prompt.len - start));
	at = x + cells(t, start, t->prompt.pos);
	attron(A_REVERSE);
	if (t->prompt.pos < t->prompt.len) {
		end = char_after(t, t->prompt.pos);
		tui_display(t->prompt.buf + t->prompt.pos, (size_t)(end - t->prompt.pos), shown,
			    sizeof(shown));
		tui_puts(y, at, COLS - at, shown);
	} else {
		mvaddch(y, at, ' ');
	}
	attroff(A_REVERSE);
}
