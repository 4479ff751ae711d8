// SPDX-License-Identifier: GPL-2.0
/*
 * script.c - scripted keys for the screen tests (tig's TIG_SCRIPT idea).
 *
 * RQPATH_TUI_SCRIPT=FILE runs the TUI without a terminal: curses draws into a virtual
 * screen (output to /dev/null, size from RQPATH_TUI_SIZE=WxH, default 80x24), the keys
 * come from FILE, one step per line, and after each step, once loading or playback has
 * come to rest, the screen is written as text to RQPATH_TUI_DUMP (default stdout):
 *
 *	=== N: the step's line
 *	<one line per screen row, trailing blanks removed>
 *
 * A step line is keys: printable characters stand for themselves, <Name> for the others
 * (Enter Esc Tab BTab Space Up Down Left Right PgUp PgDn Home End Bksp F1 F3 F4 F5 F6
 * F10 lt C-x; mouse: Click:Y:X DClick:Y:X WheelUp:Y:X WheelDown:Y:X), and ":resize WxH"
 * resizes the screen, ":dump" only dumps, ":idle" does the background work of the views
 * (the sort orders of a long list) to its end and dumps, ":dump-match" dumps with the
 * search's highlighted matches (TUI_MATCH_ATTR) between « and ».  Lines starting with #
 * and empty lines are skipped.  The end of the file quits, as q would.
 * RQPATH_TUI_STEP_MS=1 adds each step's time, from its first key to its screen at rest,
 * to its header (make bench).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <wchar.h>
#include <curses.h>

#include "tui.h"

#define SCRIPT_MAX_KEYS 512

struct tui_script {
	FILE *in, *out;
	int keys[SCRIPT_MAX_KEYS];
	short my[SCRIPT_MAX_KEYS], mx[SCRIPT_MAX_KEYS];	/* mouse events: where */
	int nkeys, pos;
	int step;		/* steps read so far; 0 = none yet */
	char line[1024];
	bool pending;		/* a step whose screen is not dumped yet */
	bool marks;		/* this step's dump shows the search highlights */
	bool timed;		/* RQPATH_TUI_STEP_MS: each step's time in its header */
	double started;		/* when the step's first key was handled */
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static const struct {
	const char *name;
	int key;
} key_names[] = {
	{ "Enter", '\n' }, { "Esc", 27 }, { "Tab", '\t' }, { "BTab", KEY_BTAB },
	{ "Space", ' ' }, { "Up", KEY_UP }, { "Down", KEY_DOWN }, { "Left", KEY_LEFT },
	{ "Right", KEY_RIGHT }, { "PgUp", KEY_PPAGE }, { "PgDn", KEY_NPAGE },
	{ "Home", KEY_HOME }, { "End", KEY_END }, { "Bksp", KEY_BACKSPACE },
	{ "F1", KEY_F(1) }, { "F3", KEY_F(3) }, { "F4", KEY_F(4) }, { "F5", KEY_F(5) },
	{ "F6", KEY_F(6) }, { "F10", KEY_F(10) }, { "lt", '<' },
};

int tui_script_open(struct tui *t, const char *path, char *err, size_t errlen)
{
	struct tui_script *s = calloc(1, sizeof(*s));
	const char *dump = getenv("RQPATH_TUI_DUMP");

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	s->in = fopen(path, "r");
	if (!s->in) {
		snprintf(err, errlen, "cannot read the key script RQPATH_TUI_SCRIPT");
		free(s);
		return -1;
	}
	s->out = dump && *dump ? fopen(dump, "w") : stdout;
	if (!s->out) {
		snprintf(err, errlen, "cannot write the screen dump RQPATH_TUI_DUMP");
		fclose(s->in);
		free(s);
		return -1;
	}
	s->timed = getenv("RQPATH_TUI_STEP_MS") && *getenv("RQPATH_TUI_STEP_MS");
	t->script = s;
	return 0;
}

void tui_script_close(struct tui *t)
{
	struct tui_script *s = t->script;

	if (!s)
		return;
	fclose(s->in);
	if (s->out != stdout)
		fclose(s->out);
	else
		fflush(stdout);
	free(s);
	t->script = NULL;
}

/* The size asked for in RQPATH_TUI_SIZE ("WxH"), 80x24 when unset or unreadable. */
void tui_script_size(int *w, int *h)
{
	const char *e = getenv("RQPATH_TUI_SIZE");

	*w = 80;
	*h = 24;
	if (e && sscanf(e, "%dx%d", w, h) != 2) {
		*w = 80;
		*h = 24;
	}
	if (*w < 20 || *w > 1000 || *h < 5 || *h > 500) {
		*w = 80;
		*h = 24;
	}
}

static void dump(struct tui_script *s)
{
	char row[8192];

	if (s->timed)
		fprintf(s->out, "=== %d: %s [%.1f ms]\n", s->step, s->line, now_ms() - s->started);
	else
		fprintf(s->out, "=== %d: %s\n", s->step, s->line);
	for (int y = 0; y < LINES; y++) {
		size_t len = 0, keep = 0;
		bool in = false;

		for (int x = 0; x < COLS; x++) {
			cchar_t cc;
			wchar_t wc[CCHARW_MAX + 1];
			attr_t a = 0;
			short pair;
			char mb[MB_LEN_MAX * (CCHARW_MAX + 1) + 1];
			size_t n;

			if (mvin_wch(y, x, &cc) == ERR ||
			    getcchar(&cc, wc, &a, &pair, NULL) == ERR || !wc[0]) {
				wc[0] = L' ';
				wc[1] = L'\0';
			}
			n = wcstombs(mb, wc, sizeof(mb));
			if (n == (size_t)-1) {
				mb[0] = '?';
				n = 1;
			}
			if (s->marks && in != ((a & TUI_MATCH_ATTR) == TUI_MATCH_ATTR) &&
			    len + 2 < sizeof(row)) {
				in = !in;
				memcpy(row + len, in ? "\u00ab" : "\u00bb", 2);
				len += 2;
				keep = len;
			}
			if (len + n >= sizeof(row))
				break;
			memcpy(row + len, mb, n);
			len += n;
			if (!(n == 1 && mb[0] == ' '))
				keep = len;
		}
		if (in && len + 2 < sizeof(row)) {
			memcpy(row + len, "\u00bb", 2);
			keep = len + 2;
		}
		fprintf(s->out, "%.*s\n", (int)keep, row);
	}
	fflush(s->out);
}

/* Mouse events in a script: <Click:Y:X> <DClick:Y:X> <WheelUp:Y:X> <WheelDown:Y:X>. */
#define SCRIPT_MOUSE 0x10000
static const char *const mouse_names[] = { "Click", "DClick", "WheelUp", "WheelDown" };

static int parse_key(const char **p, short *my, short *mx)
{
	const char *s = *p, *end;
	size_t n;

	if (*s != '<' || !(end = strchr(s, '>')) || end == s + 1) {
		*p = s + 1;
		return (unsigned char)*s;
	}
	n = end - s - 1;
	*p = end + 1;
	for (int m = 0; m < 4; m++) {
		size_t l = strlen(mouse_names[m]);
		int y, x;

		if (n > l && !strncmp(s + 1, mouse_names[m], l) && s[1 + l] == ':' &&
		    sscanf(s + 2 + l, "%d:%d", &y, &x) == 2) {
			*my = (short)y;
			*mx = (short)x;
			return SCRIPT_MOUSE + m;
		}
	}
	if (n == 3 && !strncasecmp(s + 1, "C-", 2))
		return s[3] & 0x1f;
	for (size_t i = 0; i < sizeof(key_names) / sizeof(key_names[0]); i++)
		if (strlen(key_names[i].name) == n && !strncasecmp(s + 1, key_names[i].name, n))
			return key_names[i].key;
	*p = s + 1;		/* not a name: a plain '<' */
	return '<';
}

/* Read the next step; false at the end of the script. */
static bool next_step(struct tui *t, struct tui_script *s)
{
	while (fgets(s->line, sizeof(s->line), s->in)) {
		size_t n = strcspn(s->line, "\r\n");
		const char *p = s->line;
		int w, h;

		s->line[n] = '\0';
		if (!s->line[0] || s->line[0] == '#')
			continue;
		s->step++;
		s->nkeys = s->pos = 0;
		s->pending = true;
		s->marks = false;
		s->started = now_ms();
		if (sscanf(s->line, ":resize %dx%d", &w, &h) == 2) {
			resizeterm(h, w);
			t->dirty = true;
			return true;
		}
		if (!strcmp(s->line, ":dump"))
			return true;
		if (!strcmp(s->line, ":idle")) {
			while (tui_idle(t, 0))
				;
			return true;
		}
		if (!strcmp(s->line, ":dump-match")) {
			s->marks = true;
			return true;
		}
		while (*p && s->nkeys < SCRIPT_MAX_KEYS) {
			s->keys[s->nkeys] = parse_key(&p, &s->my[s->nkeys], &s->mx[s->nkeys]);
			s->nkeys++;
		}
		return true;
	}
	return false;
}

/*
 * Called once per main-loop turn, after drawing, when the TUI is at rest (not loading,
 * not playing): the next key of the step, or ERR after dumping a finished step.
 */
int tui_script_key(struct tui *t)
{
	struct tui_script *s = t->script;

	if (s->pos < s->nkeys) {
		int k = s->keys[s->pos], i = s->pos++;

		if (k >= SCRIPT_MOUSE) {
			tui_mouse(t, s->my[i], s->mx[i], (enum tui_mouse)(k - SCRIPT_MOUSE));
			return ERR;
		}
		return k;
	}
	if (s->pending) {
		dump(s);
		s->pending = false;
	}
	if (!next_step(t, s))
		t->quit = true;
	return ERR;
}
