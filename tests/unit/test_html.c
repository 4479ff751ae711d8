// SPDX-License-Identifier: GPL-2.0
/*
 * test_html.c - the HTML report with hostile task and file names: markup in a comm or in
 * the source name never reaches the page as markup (nor closes the script element that
 * carries the timeline's data), and control bytes never at all.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "writer.h"
#include "synth.h"

static void hostile_names_escaped(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18.44");
	struct rq_writer w;
	char *page = NULL;
	size_t len = 0;
	FILE *f;

	assert_non_null(an);
	snprintf(an->source, sizeof(an->source), "<img src=x onerror=alert(1)>\033[31m.dat");
	f = open_memstream(&page, &len);
	assert_non_null(f);
	assert_int_equal(rq_writer_begin(&w, rq_writer_find("html"), f, an), 0);
	ev_switch(an, 100, 0, 0, 0, 10, "<b>x</b>\"'&");
	ev_switch(an, 200, 1, 0, 0, 30, "<svg onload=1>");
	ev_wakeup_new(an, 300, 0, 10, 20, 1);
	ev_switch(an, 900, 1, 30, 1, 20, "<script>\n");
	ev_switch(an, 950, 0, 10, 1, 40, "</script><b>");
	ev_switch(an, 90000, 0, 40, 1, 10, "<b>x</b>\"'&");
	rq_analysis_finish(an);
	assert_int_equal(rq_writer_end(&w), 0);
	fclose(f);
	assert_null(strstr(page, "<img"));
	assert_null(strstr(page, "<b>x"));
	assert_null(strstr(page, "<svg onload"));
	assert_null(strstr(page, "<script>\\n"));
	/* there, in the script's data, where no name can close the script element */
	assert_non_null(strstr(page, "\\u003csvg onload=1\\u003e"));
	assert_non_null(strstr(page, "\\u003c/script\\u003e"));
	{
		int scripts = 0;

		for (const char *q = page; (q = strstr(q, "</script")); q++)
			scripts++;
		assert_int_equal(scripts, 2);	/* the data's and the code's */
	}
	assert_null(strchr(page, '\033'));
	assert_non_null(strstr(page, "<svg id=\"timeline\""));
	free(page);
	rq_writer_free(&w);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hostile_names_escaped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
