// SPDX-License-Identifier: GPL-2.0
/*
 * shrink_read.c - a trace.dat cut short while it is replayed: the replay must end with
 * an error ("shrank"), never a signal (rqpath reads with pread(), not mmap()).
 *
 *   shrink_read FILE THREADS
 *
 * Opens FILE (a scratch copy: it is truncated), feeds one event, truncates FILE to its
 * header (the first 8 KiB), then replays the rest.  Prints the error line; exit 0 when
 * the replay failed with a message that says the file shrank, 1 otherwise.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis.h"
#include "replay.h"

int main(int argc, char **argv)
{
	struct rq_analysis *an;
	struct rq_replay *r;
	char err[512];
	long n;

	if (argc != 3) {
		fprintf(stderr, "usage: shrink_read FILE THREADS\n");
		return 2;
	}
	rq_replay_set_threads(atoi(argv[2]));
	an = rq_analysis_new(NULL);
	r = rq_replay_open(argv[1], err, sizeof(err));
	if (!an || !r || rq_replay_begin(r, an)) {
		printf("cannot open: %s\n", r ? "begin failed" : err);
		return 1;
	}
	const struct rq_budget one = { .max_events = 1 };
	enum rq_pump_status st;

	if (rq_replay_run(r, &one) != RQ_PUMP_BUDGET) {
		printf("no first event\n");
		return 1;
	}
	if (truncate(argv[1], 8192)) {
		perror("truncate");
		return 2;
	}
	st = rq_replay_run(r, NULL);
	printf("%s\n", st == RQ_PUMP_ERROR ? rq_replay_error(r) : "replayed to the end");
	n = st == RQ_PUMP_ERROR && strstr(rq_replay_error(r), "shrank") ? 0 : 1;
	rq_replay_close(r);
	rq_analysis_free(an);
	return (int)n;
}
