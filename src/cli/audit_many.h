/* SPDX-License-Identifier: GPL-2.0 */
/*
 * audit_many.h - `rqpath audit A.dat B.dat ... --format jsonl`: one JSON object per file,
 * in order, audited by worker processes (as many at once as there are CPUs).
 */
#ifndef RQPATH_AUDIT_MANY_H
#define RQPATH_AUDIT_MANY_H

#include <stdio.h>

#include "analysis.h"
#include "writer.h"

struct audit_many_job {
	const struct rq_writer_ops *ops;	/* a per-file writer: jsonl */
	const char *profile;	/* --profile, or NULL */
	bool no_truth;		/* --no-truth */
	const char *topology;	/* --topology, or NULL */
	const struct rq_filter *filter;	/* -p, --comm, -C, --from/--to, or NULL */
	/*
	 * --fail-on: 1 if a rule tripped for this analysis of file (each says so on stderr,
	 * naming file), else 0; tripped gets the JSON array's contents of their names
	 */
	int (*check)(const struct rq_analysis *an, const char *file, void *ctx, char *tripped,
		     size_t size);
	void *ctx;
	int workers;		/* 0: the number of CPUs online */
};

/*
 * Print one line per file to out, with "tripped": the --fail-on rules that tripped for it
 * ([] if none or no rules); returns the worst exit status of all (0, 1 or 2).
 */
int audit_many(char **files, int nfiles, const struct audit_many_job *job, FILE *out);

#endif
