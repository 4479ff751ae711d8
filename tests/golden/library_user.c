// SPDX-License-Identifier: GPL-2.0
/*
 * library_user.c - a program that uses build/librqpath.a and nothing else of rqpath
 * (no views, no command line): t_library.sh builds it and compares its report with
 * `rqpath audit`.  Usage: library_user FILE.dat [text|json|csv]
 */
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "record.h"
#include "replay.h"
#include "report.h"

int main(int argc, char **argv)
{
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
	} else if (rq_report_write(stdout, an, fmt)) {
		ret = 2;
	}
	rq_analysis_free(an);
	return ret;
}
