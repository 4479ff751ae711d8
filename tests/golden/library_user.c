// SPDX-License-Identifier: GPL-2.0
/*
 * library_user.c - a program that uses build/librqpath.a and nothing else of rqpath
 * (no views, no command line): t_library.sh builds it and compares its report with
 * `rqpath audit`.  Usage: library_user FILE.dat [text|json|csv|summary]
 * It reads the engine only through the public API: the summary (rq_analysis_summary())
 * for the "summary" lines, the report functions for the rest.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "recorder.h"
#include "replay.h"
#include "report.h"

/* One line for the trace, one per finding: the numbers t_library.sh checks against JSON. */
static void print_summary(const struct rq_analysis *an)
{
	const struct rq_summary *s = rq_analysis_summary(an);

	printf("trace %d %llu %llu %llu\n", s->nr_cpus, (unsigned long long)s->nr_events,
	       (unsigned long long)s->lost_events, (unsigned long long)s->nr_placements);
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		const struct rq_finding_store *fs = &s->findings[f];

		printf("%s %llu %llu %llu %llu %llu %llu\n", rq_finding_ids[f],
		       (unsigned long long)fs->count, (unsigned long long)fs->exact,
		       (unsigned long long)fs->inferred, (unsigned long long)fs->possible,
		       (unsigned long long)fs->not_judged, (unsigned long long)fs->judged);
	}
}

int main(int argc, char **argv)
{
	bool summary = argc > 2 && !strcmp(argv[2], "summary");
	enum rq_format fmt = RQ_FMT_JSON;
	struct rq_analysis *an;
	char err[1024];
	int ret = 0;

	if (argc < 2)
		return 2;
	if (argc > 2)
		fmt = !strcmp(argv[2], "text") ? RQ_FMT_TEXT :
		      !strcmp(argv[2], "csv") ? RQ_FMT_CSV : RQ_FMT_JSON;
	if (argc > 3) {
		/* never run by the test: it only makes the recorder part of the link */
		struct rq_record_opts ro = { .output = argv[3], .duration = 1 };
		struct rq_record_stats st;

		return rq_record_run(&ro, &st, err, sizeof(err)) ? 2 : 0;
	}
	an = rq_analysis_new(NULL);
	if (!an)
		return 2;
	if (rq_replay_file(argv[1], an, 0, err, sizeof(err))) {
		fprintf(stderr, "library_user: %s\n", err);
		ret = 2;
	} else if (summary) {
		print_summary(an);
	} else if (rq_report_write(stdout, an, fmt)) {
		ret = 2;
	}
	rq_analysis_free(an);
	return ret;
}
