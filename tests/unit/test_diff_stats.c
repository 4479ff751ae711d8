// SPDX-License-Identifier: GPL-2.0
/*
 * test_diff_stats.c - rqpath diff's verdicts on synthetic runs with known answers
 * (src/output/diff.c, issue 22 item 7).  Each run lasts 1 s, so a rate is its count.
 *  - fewer than 3 runs a side: "1 run: no noise estimate" ("2 runs: ..."), never
 *    "changed" (0 -> 20, 0/1 -> 200/300 neither); equal values "unchanged"; no p;
 *    a finding per 1000 placements; a row 0 in every run is all-zero;
 *  - the rates per second are shown only with per_second, per placement otherwise;
 *  - 3 and 3 runs, every new run above every base run: U = 9, p = 2/C(6,3) = 0.1 exactly
 *    (by hand: 2 of the 20 splits are as extreme): "within noise" at alpha 0.05,
 *    "changed" at 0.1;
 *  - 4 and 4 runs separated: p = 2/C(8,4) = 2/70: "changed";
 *  - 3 and 3 interleaved (1 3 5 | 2 4 6): U = 6, p = 0.7 (14 of 20 splits have
 *    |U - 4.5| >= 1.5): "within noise";
 *  - a delay p99 row from the runs' quantiles, its rank test;
 *  - JSON/CSV numbers exactly: 1374052.5 and 1/3 print as themselves.
 */
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diff.h"

static int finding(const char *id)
{
	for (int i = 0; i < RQ_FIND__COUNT; i++)
		if (!strcmp(rq_finding_ids[i], id))
			return i;
	fail_msg("no finding %s", id);
	return -1;
}

/* A run of 1 s with count proven findings id and placements of that many plus 100. */
static struct rq_diff_run run(const char *id, uint64_t count, uint64_t p99_us)
{
	struct rq_diff_run r;
	int f = finding(id);

	memset(&r, 0, sizeof(r));
	snprintf(r.source, sizeof(r.source), "synthetic");
	r.cpus = 2;
	r.duration_s = 1.0;
	r.placements = 100 + count;
	r.f_count[f] = count;
	if (p99_us) {
		r.f_delay_n[f] = 50;
		r.f_delay_p50[f] = p99_us * 500;
		r.f_delay_p99[f] = p99_us * 1000;
	}
	return r;
}

static const struct rq_diff_row *row(const struct rq_diff *d, const char *section,
				     const char *key, const char *metric)
{
	const struct rq_diff_row *r = rq_diff_find(d, section, key, metric);

	assert_non_null(r);
	return r;
}

static void fewer_than_three_runs_is_no_noise_estimate(void **state)
{
	struct rq_diff_run b = run("idle-stacking", 0, 0), n = run("idle-stacking", 2, 0);
	struct rq_diff_run b2[2] = { run("idle-stacking", 0, 0), run("idle-stacking", 1, 0) };
	struct rq_diff_run n2[2] = { run("idle-stacking", 200, 0), run("idle-stacking", 300, 0) };
	struct rq_diff d;
	const struct rq_diff_row *r;

	assert_int_equal(rq_diff_compute(&d, &b, 1, &n, 1, NULL), 0);
	r = row(&d, "finding", "idle-stacking", "per_s");
	assert_int_equal(r->verdict, RQ_DIFF_NO_NOISE);
	assert_string_equal(rq_diff_verdict_text(r), "1 run: no noise estimate");
	assert_int_equal(r->test, RQ_TEST_ONE_RUN);
	assert_true(isnan(r->p));
	assert_int_equal(r->events, 2);
	assert_int_equal(row(&d, "finding", "missed-idle", "per_s")->verdict, RQ_DIFF_UNCHANGED);
	/* per 1000 placements: 2 of 102 */
	r = row(&d, "finding", "idle-stacking", "per_1k");
	assert_true(fabs(r->new.median - 2000.0 / 102) < 1e-9);
	assert_true(rq_diff_row_zero(&d, row(&d, "finding", "missed-idle", "count")));
	assert_false(rq_diff_row_zero(&d, row(&d, "finding", "idle-stacking", "count")));
	rq_diff_free(&d);

	/* 0 -> 20 in one run: still no claim, whatever the count */
	n = run("idle-stacking", 20, 0);
	assert_int_equal(rq_diff_compute(&d, &b, 1, &n, 1, NULL), 0);
	assert_int_equal(row(&d, "finding", "idle-stacking", "per_s")->verdict, RQ_DIFF_NO_NOISE);
	rq_diff_free(&d);
	/* two runs a side, far apart: no noise estimate either, never changed */
	assert_int_equal(rq_diff_compute(&d, b2, 2, n2, 2, NULL), 0);
	r = row(&d, "finding", "idle-stacking", "count");
	assert_int_equal(r->verdict, RQ_DIFF_NO_NOISE);
	assert_string_equal(rq_diff_verdict_text(r), "2 runs: no noise estimate");
	for (int i = 0; i < d.nrows; i++)
		assert_int_not_equal(d.rows[i].verdict, RQ_DIFF_CHANGED);
	rq_diff_free(&d);
}

/* text shows per placement, or per second when asked; JSON and CSV every row */
static void per_second_is_asked_for(void **state)
{
	struct rq_diff_run b = run("offcpu-fork", 10, 0), n = run("offcpu-fork", 20, 0);
	struct rq_diff d;

	assert_int_equal(rq_diff_compute(&d, &b, 1, &n, 1, NULL), 0);
	assert_false(rq_diff_row_shown(&d, row(&d, "finding", "offcpu-fork", "per_s")));
	assert_true(rq_diff_row_shown(&d, row(&d, "finding", "offcpu-fork", "per_1k")));
	assert_true(rq_diff_row_shown(&d, row(&d, "finding", "offcpu-fork", "count")));
	rq_diff_free(&d);
	assert_int_equal(rq_diff_compute(&d, &b, 1, &n, 1,
					 &(struct rq_diff_opts){ 0.05, 10, true }), 0);
	assert_true(rq_diff_row_shown(&d, row(&d, "finding", "offcpu-fork", "per_s")));
	assert_false(rq_diff_row_shown(&d, row(&d, "finding", "offcpu-fork", "per_1k")));
	rq_diff_free(&d);
}

static void three_and_three_separated(void **state)
{
	struct rq_diff_run b[3] = { run("offcpu-fork", 10, 0), run("offcpu-fork", 11, 0),
				    run("offcpu-fork", 12, 0) };
	struct rq_diff_run n[3] = { run("offcpu-fork", 20, 0), run("offcpu-fork", 22, 0),
				    run("offcpu-fork", 21, 0) };
	struct rq_diff d;
	const struct rq_diff_row *r;

	assert_int_equal(rq_diff_compute(&d, b, 3, n, 3, NULL), 0);
	r = row(&d, "finding", "offcpu-fork", "count");
	assert_int_equal(r->test, RQ_TEST_MW_EXACT);
	assert_true(r->u == 9);
	assert_true(fabs(r->p - 0.1) < 1e-15);
	assert_int_equal(r->verdict, RQ_DIFF_NOISE);	/* 0.1 > 0.05 */
	rq_diff_free(&d);
	assert_int_equal(rq_diff_compute(&d, b, 3, n, 3, &(struct rq_diff_opts){ 0.1, 10, false }), 0);
	assert_int_equal(row(&d, "finding", "offcpu-fork", "count")->verdict, RQ_DIFF_CHANGED);
	rq_diff_free(&d);
}

static void four_and_four_separated(void **state)
{
	struct rq_diff_run b[4] = { run("offcpu-fork", 10, 0), run("offcpu-fork", 11, 0),
				    run("offcpu-fork", 12, 0), run("offcpu-fork", 13, 0) };
	struct rq_diff_run n[4] = { run("offcpu-fork", 5, 0), run("offcpu-fork", 6, 0),
				    run("offcpu-fork", 7, 0), run("offcpu-fork", 8, 0) };
	struct rq_diff d;
	const struct rq_diff_row *r;

	assert_int_equal(rq_diff_compute(&d, b, 4, n, 4, NULL), 0);
	r = row(&d, "finding", "offcpu-fork", "count");
	assert_true(r->u == 0);
	assert_true(fabs(r->p - 2.0 / 70) < 1e-15);
	assert_int_equal(r->verdict, RQ_DIFF_CHANGED);
	assert_true(r->change < 0);
	rq_diff_free(&d);
}

static void interleaved_is_noise(void **state)
{
	struct rq_diff_run b[3] = { run("missed-idle", 1, 100), run("missed-idle", 3, 300),
				    run("missed-idle", 5, 500) };
	struct rq_diff_run n[3] = { run("missed-idle", 2, 200), run("missed-idle", 4, 400),
				    run("missed-idle", 6, 600) };
	struct rq_diff d;
	const struct rq_diff_row *r;

	assert_int_equal(rq_diff_compute(&d, b, 3, n, 3, NULL), 0);
	r = row(&d, "finding", "missed-idle", "count");
	assert_true(r->u == 6);
	assert_true(fabs(r->p - 0.7) < 1e-15);
	assert_int_equal(r->verdict, RQ_DIFF_NOISE);
	/* the delay rows: the runs' p99 (ns) are tested the same way */
	r = row(&d, "delay", "missed-idle", "p99_ns");
	assert_true(r->base.median == 300000 && r->new.median == 400000);
	assert_true(fabs(r->p - 0.7) < 1e-15);
	rq_diff_free(&d);
}

static char *printed(double v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	rq_diff_print_num(f, v);
	fclose(f);
	return buf;
}

static void numbers_print_exactly(void **state)
{
	static const double values[] = { 1374052.5, 1.0 / 3, 0.1, 2851.881318350, 1e20,
					 -7.25e-9 };
	static const char *const want[] = { "1374052.5", "0.3333333333333333", "0.1",
					    "2851.88131835", "1e+20",
					    "-7.25e-09" };

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char *s = printed(values[i]);

		assert_string_equal(s, want[i]);
		assert_true(strtod(s, NULL) == values[i]);
		free(s);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fewer_than_three_runs_is_no_noise_estimate),
		cmocka_unit_test(per_second_is_asked_for),
		cmocka_unit_test(three_and_three_separated),
		cmocka_unit_test(four_and_four_separated),
		cmocka_unit_test(interleaved_is_noise),
		cmocka_unit_test(numbers_print_exactly),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
