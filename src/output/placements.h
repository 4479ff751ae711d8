/* SPDX-License-Identifier: GPL-2.0 */
/*
 * placements.h - every placement out, one row each, for pandas/DuckDB: CSV or JSON Lines,
 * streamed in constant memory as the replay goes (rqpath(1) PLACEMENTS EXPORT): the
 * writers placements-csv and placements-jsonl (writer.h).  A row is written when the
 * placement is settled (its queue delay known), the rest at rq_analysis_finish().
 */
#ifndef RQPATH_PLACEMENTS_H
#define RQPATH_PLACEMENTS_H

#include <stdio.h>

#include "analysis.h"

enum rq_placements_format { RQ_PLACEMENTS_CSV, RQ_PLACEMENTS_JSONL };

/* The writers' private state. */
struct rq_placements_out {
	enum rq_placements_format fmt;
	unsigned long long rows;
};

#endif
