/* SPDX-License-Identifier: GPL-2.0 */
/*
 * placements.h - every placement out, one row each, for pandas/DuckDB: CSV or JSON Lines,
 * streamed in constant memory as the replay goes (rqpath(1) PLACEMENTS EXPORT).
 */
#ifndef RQPATH_PLACEMENTS_H
#define RQPATH_PLACEMENTS_H

#include <stdbool.h>
#include <stdio.h>

#include "analysis.h"

enum rq_placements_format { RQ_PLACEMENTS_CSV, RQ_PLACEMENTS_JSONL };

struct rq_placements_out {
	FILE *f;
	enum rq_placements_format fmt;
	struct rq_analysis *an;
	unsigned long long rows;
	bool failed;		/* could not subscribe (out of memory) */
};

/*
 * Write the header (CSV) and hook out into an's queue-delay sink: each placement is
 * written once its delay is known, the rest at rq_analysis_finish().  Call before the
 * first event; out must live until then.
 */
void rq_placements_start(struct rq_placements_out *out, FILE *f,
			 enum rq_placements_format fmt, struct rq_analysis *an);
/* Flush; 0, or -1 if anything could not be written. */
int rq_placements_end(struct rq_placements_out *out);

#endif
