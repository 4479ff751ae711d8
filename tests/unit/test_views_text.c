// SPDX-License-Identifier: GPL-2.0
/*
 * test_views_text.c - names on the terminal (views/draw.c, issue 22 item 1): in a UTF-8
 * locale valid UTF-8 is shown and counted in cells (wcwidth), what is not printable or
 * can spoof the screen is escaped; outside one everything but printable ASCII is \xHH;
 * search and filter match what is shown and the C escapes.
 */
#include <locale.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tui.h"

static void text_mode(bool utf8)
{
	struct tui t;

	memset(&t, 0, sizeof(t));
	t.utf8 = utf8;
	tui_draw_init(&t);
}

static int setup_utf8(void **state)
{
	if (!setlocale(LC_ALL, "C.UTF-8"))
		return -1;
	text_mode(true);
	return 0;
}

/* display form and its columns */
static void shown(const char *name, const char *want, int cols)
{
	char buf[256];

	tui_display(name, strlen(name), buf, sizeof(buf));
	assert_string_equal(buf, want);
	assert_int_equal(tui_width(buf), cols);
}

static void utf8_is_shown_and_counted_in_cells(void **state)
{
	shown("\xe6\x97\xa5\xe6\x9c\xac", "\xe6\x97\xa5\xe6\x9c\xac", 4);	/* CJK: 2 each */
	shown("\xef\xbc\xa1" "b", "\xef\xbc\xa1" "b", 3);			/* fullwidth A */
	shown("cafe\xcc\x81", "cafe\xcc\x81", 4);				/* combining: 0 */
	shown("\xf0\x9f\x98\x80!", "\xf0\x9f\x98\x80!", 3);			/* emoji: 2 */
	shown("\xce\xa9mega", "\xce\xa9mega", 5);
}

static void what_cannot_print_or_spoofs_is_escaped(void **state)
{
	shown("bad\xff\xfe", "bad\\xff\\xfe", 11);			/* not UTF-8 */
	shown("ab\xe6\x97\xa5\xe3", "ab\xe6\x97\xa5\\xe3", 8);		/* cut in a character */
	shown("ctl\033[2J\n", "ctl\\x1b[2J\\n", 12);			/* controls */
	shown("a\\b", "a\\\\b", 4);					/* backslash, unambiguous */
	shown("rlo\xe2\x80\xae" "exe", "rlo\\u202eexe", 12);		/* bidi override */
	shown("x\xe2\x80\x8b" "y", "x\\u200by", 8);			/* zero width space */
	shown("t\xf3\xa0\x81\x81x", "t\\U000e0041x", 12);		/* tag */
	shown("\xe3\x85\xa4", "\\u3164", 6);				/* Hangul filler */
	shown("\xe2\x9d\xa4\xef\xb8\x8f", "\xe2\x9d\xa4\\ufe0f", 7);	/* variation selector */
	shown("\xcc\x81start", "\\u0301start", 11);			/* mark with no base */
	/* two marks kept on one letter, the third escaped */
	shown("e\xcc\x81\xcc\x82\xcc\x83", "e\xcc\x81\xcc\x82\\u0303", 7);
	shown("\xc2\x9b", "\\u009b", 6);				/* C1 CSI */
}

static void columns_pad_by_cells(void **state)
{
	char buf[64];

	assert_string_equal(tui_pad("\xe6\x97\xa5", 5, true, buf, sizeof(buf)), "   \xe6\x97\xa5");
	assert_string_equal(tui_pad("e\xcc\x81", 3, false, buf, sizeof(buf)), "e\xcc\x81  ");
	assert_string_equal(tui_pad("toolong", 3, false, buf, sizeof(buf)), "toolong");
}

static void search_matches_shown_and_escaped(void **state)
{
	static const char name[] = "ab\xe6\x97\xa5\xe6\x9c\xac";

	assert_true(tui_name_has(name, strlen(name), "\xe6\x97\xa5\xe6\x9c\xac", false));
	assert_true(tui_name_has(name, strlen(name), "\\xe6\\x97", false));
	assert_false(tui_name_has(name, strlen(name), "\xe6\x9c\xac\xe6\x97\xa5", false));
}

static void outside_utf8_everything_is_ascii(void **state)
{
	text_mode(false);
	shown("\xe6\x97\xa5!", "\\xe6\\x97\\xa5!", 13);
	shown("rlo\xe2\x80\xae", "rlo\\xe2\\x80\\xae", 15);
	text_mode(true);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(utf8_is_shown_and_counted_in_cells),
		cmocka_unit_test(what_cannot_print_or_spoofs_is_escaped),
		cmocka_unit_test(columns_pad_by_cells),
		cmocka_unit_test(search_matches_shown_and_escaped),
		cmocka_unit_test(outside_utf8_everything_is_ascii),
	};

	return cmocka_run_group_tests(tests, setup_utf8, NULL);
}
