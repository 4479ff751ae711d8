// SPDX-License-Identifier: GPL-2.0
/*
 * draw.c - glyphs (UTF-8 or ASCII), colors (or monochrome attributes) and text output
 * that never lets a byte of a task or file name reach the terminal unescaped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <curses.h>

#include "escape.h"
#include "teach.h"
#include "tui.h"

static const char *const spark_utf8[8] = {
	"\u2581", "\u2582", "\u2583", "\u2584", "\u2585", "\u2586", "\u2587", "\u2588"
};
static const char *const spark_ascii[8] = { "_", ".", ".", "-", "-", "=", "*", "#" };
static const char *const part_utf8[8] = {
	" ", "\u258f", "\u258e", "\u258d", "\u258c", "\u258b", "\u258a", "\u2589"
};
static const char *const part_ascii[8] = { " ", " ", " ", " ", "#", "#", "#", "#" };

struct tui_glyphs tui_g;
static bool have_colors;
/* The terminal shows UTF-8 (tui->utf8): names keep their characters, else all is ASCII. */
static bool text_utf8;
static int attrs[C__COUNT];

void tui_draw_init(struct tui *t)
{
	text_utf8 = t->utf8;
	if (t->utf8) {
		tui_g = (struct tui_glyphs){ "\u2500", "\u2502", "\u251c\u2500", "\u2514\u2500",
					     "\u2192", "\u2588", "\u25b6", "\u2016", "\u25ba",
					     "\u2026", "\u00b7", "\u25bc", spark_utf8, part_utf8 };
	} else {
		tui_g = (struct tui_glyphs){ "-", "|", "+-", "`-", "->", "#", ">", "||", ">",
					     "~", ".", "v", spark_ascii, part_ascii };
	}
	/* monochrome first; colors override where the terminal has them */
	attrs[C_NORMAL] = A_NORMAL;
	attrs[C_TITLE] = A_REVERSE;
	attrs[C_HEADER] = A_BOLD;
	attrs[C_SELECT] = A_REVERSE;
	attrs[C_FINDING] = A_BOLD;
	attrs[C_TAKEN] = A_BOLD;
	attrs[C_MAYBE] = A_NORMAL;
	attrs[C_DIM] = A_DIM;
	attrs[C_BAR] = A_NORMAL;
	if (!t->color)
		return;
	start_color();
	use_default_colors();
	init_pair(1, COLOR_WHITE, COLOR_BLUE);
	init_pair(2, COLOR_CYAN, -1);
	init_pair(3, COLOR_BLACK, COLOR_CYAN);
	init_pair(4, COLOR_RED, -1);
	init_pair(5, COLOR_GREEN, -1);
	init_pair(6, COLOR_YELLOW, -1);
	init_pair(7, COLOR_BLUE, -1);
	attrs[C_TITLE] = COLOR_PAIR(1) | A_BOLD;
	attrs[C_HEADER] = COLOR_PAIR(2) | A_BOLD;
	attrs[C_SELECT] = COLOR_PAIR(3);
	attrs[C_FINDING] = COLOR_PAIR(4) | A_BOLD;
	attrs[C_TAKEN] = COLOR_PAIR(5) | A_BOLD;
	attrs[C_MAYBE] = COLOR_PAIR(6);
	attrs[C_BAR] = COLOR_PAIR(7);
	/* task colours of the timeline */
	init_pair(8, COLOR_GREEN, -1);
	init_pair(9, COLOR_CYAN, -1);
	init_pair(10, COLOR_MAGENTA, -1);
	init_pair(11, COLOR_YELLOW, -1);
	init_pair(12, COLOR_BLUE, -1);
	init_pair(13, COLOR_WHITE, -1);
	have_colors = true;
}

int tui_attr(enum tui_color c)
{
	return attrs[c];
}

int tui_task_attr(int pid)
{
	if (!have_colors)
		return pid % 2 ? A_BOLD : A_NORMAL;
	return COLOR_PAIR(8 + (unsigned int)pid % 6);
}

/* Columns of the character at s (n bytes, valid UTF-8): wcwidth(), -1 if unprintable. */
static int char_cells(const char *s, size_t n)
{
	mbstate_t st;
	wchar_t wc;

	if ((unsigned char)*s < 0x80)
		return (unsigned char)*s >= 0x20 && *s != 0x7f ? 1 : -1;
	memset(&st, 0, sizeof(st));
	if (mbrtowc(&wc, s, n, &st) != n)
		return -1;
	return wcwidth(wc);
}

/* Bytes of the character at s: its UTF-8 sequence, or 1 for a byte that is none. */
static size_t char_bytes(const char *s)
{
	size_t n = rq_utf8_len((const unsigned char *)s, strnlen(s, 4));

	return n ? n : 1;
}

int tui_width(const char *s)
{
	int w = 0;

	while (*s) {
		size_t n = char_bytes(s);
		int c = text_utf8 ? char_cells(s, n) : 1;

		w += c > 0 ? c : 0;
		s += n;
	}
	return w;
}

/* Byte length of the prefix of s that fits in w columns; *cols: its columns. */
static size_t fit(const char *s, int w, int *cols)
{
	size_t i = 0;
	int used = 0;

	while (s[i]) {
		size_t n = char_bytes(s + i);
		int c = text_utf8 ? char_cells(s + i, n) : 1;

		if (c < 0)
			c = 0;
		if (used + c > w)
			break;
		used += c;
		i += n;
	}
	if (cols)
		*cols = used;
	return i;
}

int tui_puts(int y, int x, int w, const char *s)
{
	int maxw = COLS - x, used;
	size_t n;

	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return 0;
	if (w > maxw || w < 0)
		w = maxw;
	/* program text is printable ASCII or UTF-8; refuse control bytes anyway */
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			return tui_puts_untrusted(y, x, w, s, strlen(s));
	if (tui_width(s) > w && w > 1) {
		n = fit(s, w - 1, &used);
		mvaddnstr(y, x, s, (int)n);
		addstr(tui_g.cut);
		return used + 1;
	}
	n = fit(s, w, &used);
	mvaddnstr(y, x, s, (int)n);
	return used;
}

/*
 * Combining marks kept on one character: more are escaped, since stacked marks draw over
 * the rows above and below (and a cell of ncurses holds only a few).
 */
#define MAX_COMBINING 2

/*
 * Append escape e (ASCII) to buf at *o, or false when it does not fit.
 */
static bool put_esc(char *buf, size_t size, size_t *o, const char *e)
{
	size_t n = strlen(e);

	if (*o + n >= size)
		return false;
	memcpy(buf + *o, e, n);
	*o += n;
	return true;
}

const char *tui_display(const char *s, size_t len, char *buf, size_t size)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t o = 0;
	int marks = -1;		/* combining marks on the last character; -1: none to carry */

	if (!size)
		return buf;
	if (!text_utf8)
		return rq_escape_c(s, len, buf, size);
	for (size_t i = 0; s && i < len && u[i];) {
		size_t n = rq_utf8_len(u + i, len - i);
		unsigned int cp = n ? rq_utf8_cp(u + i, n) : 0;
		char e[16];
		int c;

		/* ASCII controls, backslash and bytes that are not UTF-8: as rq_escape_c() */
		if (!n || u[i] < 0x20 || u[i] == 0x7f || u[i] == '\\') {
			rq_escape_c(s + i, 1, e, sizeof(e));
			if (!put_esc(buf, size, &o, e))
				break;
			i++;
			marks = -1;
			continue;
		}
		c = char_cells(s + i, n);
		/*
		 * \uXXXX for what reorders, hides or fakes text (rq_unsafe_codepoint(): bidi,
		 * zero-width, invisible fillers, tags), what the locale cannot print, variation
		 * selectors (terminals disagree on the width of the character before them), a
		 * combining mark with nothing to combine with, and too many marks on one.
		 */
		if (rq_unsafe_codepoint(cp) || c < 0 || (cp >= 0xfe00 && cp <= 0xfe0f) ||
		    (cp >= 0xe0100 && cp <= 0xe01ef) ||
		    (c == 0 && (marks < 0 || marks >= MAX_COMBINING))) {
			rq_escape_cp(cp, e);
			if (!put_esc(buf, size, &o, e))
				break;
			i += n;
			marks = -1;
			continue;
		}
		if (o + n >= size)
			break;
		memcpy(buf + o, s + i, n);
		o += n;
		i += n;
		marks = c == 0 ? marks + 1 : 0;
	}
	buf[o] = '\0';
	return buf;
}

const char *tui_esc(const char *s, char *buf, size_t size)
{
	return tui_display(s, strnlen(s, 4096), buf, size);
}

bool tui_name_has(const char *name, size_t len, const char *needle, bool icase)
{
	char shown[RQ_COMM_LEN * 12 + 1], hex[RQ_COMM_LEN * 4 + 1];
	size_t i;

	/* printable ASCII but \ is shown as it is, and its escapes are itself */
	for (i = 0; i < len && i < RQ_COMM_LEN * 4 && name[i]; i++)
		if (name[i] < 0x20 || name[i] > 0x7e || name[i] == '\\')
			break;
	if (i == len || (i < len && !name[i])) {
		memcpy(shown, name, i);
		shown[i] = '\0';
		return tui_text_has(shown, needle, icase);
	}
	/* what the screen shows (UTF-8), or the C escapes of the bytes (\xe6...) */
	tui_display(name, len, shown, sizeof(shown));
	rq_escape_c(name, len, hex, sizeof(hex));
	return tui_text_has(shown, needle, icase) || tui_text_has(hex, needle, icase);
}

const char *tui_pad(const char *s, int cols, bool right, char *buf, size_t size)
{
	int pad = cols - tui_width(s);

	if (pad < 0)
		pad = 0;
	snprintf(buf, size, "%*s%s%*s", right ? pad : 0, "", s, right ? 0 : pad, "");
	return buf;
}

int tui_puts_untrusted(int y, int x, int w, const char *s, size_t len)
{
	char buf[2048];

	if (y < 0 || y >= LINES || x < 0 || x >= COLS)
		return 0;
	/* escaped text holds no control byte: tui_puts() clips it by columns */
	tui_display(s, len, buf, sizeof(buf));
	return tui_puts(y, x, w, buf);
}

void tui_clear_row(int y, int x)
{
	if (y < 0 || y >= LINES || x >= COLS)
		return;
	move(y, x);
	clrtoeol();
}

void tui_rule(struct tui *t, int y, const char *title)
{
	int x = 0;

	attron(tui_attr(C_HEADER));
	tui_clear_row(y, 0);
	if (title && *title) {
		x += tui_puts(y, x, -1, tui_g.hline);
		x += tui_puts(y, x, -1, " ");
		x += tui_puts(y, x, -1, title);
		x += tui_puts(y, x, -1, " ");
	}
	for (; x < COLS; x++)
		tui_puts(y, x, 1, tui_g.hline);
	attroff(tui_attr(C_HEADER));
}

void tui_bar(int y, int x, int w, uint64_t value, uint64_t max)
{
	uint64_t eighths;
	int full, part;

	if (w <= 0 || !max)
		return;
	eighths = (uint64_t)((long double)value * w * 8 / max);
	if (value && !eighths)
		eighths = 1;
	full = (int)(eighths / 8);
	part = (int)(eighths % 8);
	attron(tui_attr(C_BAR));
	for (int i = 0; i < full && i < w; i++)
		tui_puts(y, x + i, 1, tui_g.bar_full);
	if (full < w && part)
		tui_puts(y, x + full, 1, tui_g.bar_part[part]);
	if (value && !full && !strcmp(tui_g.bar_part[part], " "))
		tui_puts(y, x, 1, tui_g.bar_full);	/* never let a non-zero count vanish */
	attroff(tui_attr(C_BAR));
}

void tui_spark(int y, int x, int w, const uint32_t *vals, int n)
{
	uint64_t cell[256], max = 0;

	if (w <= 0 || n <= 0)
		return;
	if (w > 256)
		w = 256;
	if (w > n)
		w = n;
	for (int c = 0; c < w; c++) {
		int a = c * n / w, b = (c + 1) * n / w;

		cell[c] = 0;
		for (int k = a; k < b; k++)
			cell[c] += vals[k];
		if (cell[c] > max)
			max = cell[c];
	}
	for (int c = 0; c < w; c++) {
		int lvl;

		if (!cell[c]) {
			tui_puts(y, x + c, 1, " ");
			continue;
		}
		lvl = max ? (int)((cell[c] * 7 + max - 1) / max) : 0;
		if (lvl > 7)
			lvl = 7;
		tui_puts(y, x + c, 1, tui_g.spark[lvl]);
	}
}

struct wrap_ctx {
	int *y, ymax, x, skip, n;
};

static void wrap_cb(const char *line, int len, void *data)
{
	struct wrap_ctx *cx = data;
	char buf[512];

	if (cx->n++ < cx->skip)
		return;
	if (*cx->y >= cx->ymax)
		return;
	if (len >= (int)sizeof(buf))
		len = sizeof(buf) - 1;
	memcpy(buf, line, len);
	buf[len] = '\0';
	tui_puts(*cx->y, cx->x, COLS - cx->x, buf);
	(*cx->y)++;
}

int tui_wrap(int *y, int ymax, int x, int w, const char *text, int skip)
{
	struct wrap_ctx c = { y, ymax, x, skip, 0 };

	return rq_teach_wrap(text, w, wrap_cb, &c);
}

