// SPDX-License-Identifier: GPL-2.0
/*
 * test_fifth_finding.c - adding a finding is one row in src/base/findings.def and its
 * judge.  Built against a library compiled with RQ_TEST_FIFTH_FINDING (the Makefile),
 * which adds findings.def's test-only row "test-dummy" (letter T); its judge is here and
 * flags every exec.  Nothing else was edited for it: the enum, the ids, the letters and
 * their legend, the colours, the reports (text, JSON, CSV), the placements export, the
 * queue-delay groups and explain's tree must all carry it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "delay_report.h"
#include "findings.h"
#include "synth.h"
#include "writer.h"
#include "report.h"
#include "teach.h"

/* The judge of the fifth finding: every exec, proven (the classifier calls it). */
void rqe_judge_test_dummy(struct rq_analysis *an, struct rq_placement *p)
{
	struct rq_finding_store *s = &an->findings[RQ_FIND_TEST_DUMMY];

	if (rq_paths[p->path].kind != RQ_KIND_EXEC)
		return;
	s->judged++;
	s->of++;
	rqe_add_finding(an, p, rqe_task_find(an, p->pid), RQ_FIND_TEST_DUMMY);
}

/* What f printed, as a string (the caller frees it). */
static char *output(void (*fn)(FILE *f, void *ctx), void *ctx)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, ctx);
	fclose(f);
	return buf;
}

static void text_report(FILE *f, void *an)
{
	assert_int_equal(rq_report_write(f, an, RQ_FMT_TEXT), 0);
}

static void json_report(FILE *f, void *an)
{
	assert_int_equal(rq_report_write(f, an, RQ_FMT_JSON), 0);
}

static void csv_report(FILE *f, void *an)
{
	assert_int_equal(rq_report_write(f, an, RQ_FMT_CSV), 0);
}

static void explain_tree(FILE *f, void *an)
{
	rq_teach_write(f, an, false, true);
}

static void the_row_is_all_it_takes(void **state)
{
	struct rq_analysis *an = synth_new(2, "6.18");
	struct rq_writer out;
	char *rows = NULL, *text, *json, *csv, *tree;
	size_t rows_len = 0;
	FILE *rf = open_memstream(&rows, &rows_len);
	char label[64];

	assert_int_equal(RQ_FIND__COUNT, 5);
	assert_string_equal(rq_finding_ids[RQ_FIND_TEST_DUMMY], "test-dummy");
	assert_string_equal(rq_finding_letters, "NOIMT");
	assert_non_null(strstr(rq_finding_legend(), "M missed-idle, T test-dummy"));
	assert_non_null(strstr(rq_finding_id_list(), "missed-idle, test-dummy"));
	assert_string_equal(rq_findings[RQ_FIND_TEST_DUMMY].colour, "#009E73");
	assert_int_equal(rq_finding_of[RQ_FIND_TEST_DUMMY], RQ_KIND_EXEC);
	assert_string_equal(rq_delay_others_label(RQ_FIND_TEST_DUMMY, label, sizeof(label)),
			    "other execs");

	assert_int_equal(rq_writer_begin(&out, rq_writer_find("placements-jsonl"), rf, an), 0);
	ev_switch(an, 1 * MS, 0, 0, 0, 700, "x");
	ev_exec(an, 2 * MS, 0, 700, "/bin/true");
	ev_exec(an, 3 * MS, 0, 700, "/bin/true");
	rq_analysis_finish(an);
	assert_int_equal(rq_writer_end(&out), 0);
	rq_writer_free(&out);
	fclose(rf);
	assert_int_equal(rq_analysis_summary(an)->findings[RQ_FIND_TEST_DUMMY].count, 2);

	text = output(text_report, an);
	json = output(json_report, an);
	csv = output(csv_report, an);
	tree = output(explain_tree, an);
	/* a row of the findings table, its examples, the JSON key, the CSV rows */
	assert_non_null(strstr(text, "\n  test-dummy "));
	assert_non_null(strstr(text, "test-dummy: first 2 of 2"));
	assert_non_null(strstr(json, "\"test-dummy\": {\"count\": 2"));
	assert_non_null(strstr(csv, "test-dummy"));
	assert_non_null(strstr(rows, "\"findings\": [\"test-dummy\"]"));
	assert_non_null(strstr(tree, "T test-dummy"));
	free(text);
	free(json);
	free(csv);
	free(tree);
	free(rows);
	rq_analysis_free(an);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_row_is_all_it_takes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
