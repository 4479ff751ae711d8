/* SPDX-License-Identifier: GPL-2.0 */
/*
 * html.h - `rqpath audit FILE --format html` (the html writer, writer.h): one self-contained page (inline SVG, CSS
 * and a little JavaScript, nothing fetched) with the per-CPU timeline, placements by
 * path, findings over time, queue delays and the full text report.
 *
 * Bounded whatever the trace length: the timeline is collected into RQ_HTML_CELLS
 * columns over all CPUs (at least RQ_HTML_MIN_COLS per CPU; two neighbours merge whenever
 * the trace outgrows them) and embedded at two zoom levels, at most RQ_HTML_COLS columns
 * and all of them, run-length coded; the page's script draws the level that fits the
 * view (re-aggregation on zoom).  Flagged and other placements are kept as marks, at
 * most RQ_HTML_FLAGGED and RQ_HTML_PLAIN: once full, every other one is dropped and
 * only every 2nd, 4th, ... is taken (spread over the whole trace); the findings strip
 * under the CPUs counts every flagged placement per column.
 */
#ifndef RQPATH_HTML_H
#define RQPATH_HTML_H

#include <stdio.h>

#include "analysis.h"
#include "timeline.h"

#define RQ_HTML_CELLS 76800
#define RQ_HTML_MIN_COLS 2400
#define RQ_HTML_MAX_COLS 9600
#define RQ_HTML_COLS 1200
#define RQ_HTML_FLAGGED 2000
#define RQ_HTML_PLAIN 600

struct rq_html_col {
	uint64_t busy_ns;	/* time a task (not idle) ran */
	int top_pid;		/* the task that ran longest in it (approximately, once merged) */
	uint64_t top_ns;
	char top_comm[RQ_COMM_LEN];
	uint32_t placed;	/* placements onto this CPU */
};

struct rq_html_mark {
	uint64_t ts;
	int pid, from, to;
	enum rq_path path;
	unsigned int findings;
	int64_t delay;
	char comm[RQ_COMM_LEN];
	char why[512];		/* all of rq_placement_describe() (report.c: 512) */
};

/* The html writer's state. */
struct rq_html {
	struct rq_runs runs;	/* first: the run callback finds the struct from it */
	struct rq_analysis *an;
	int nr_cpus;
	int nb;			/* columns per CPU (even) */
	uint64_t t0, width;	/* first timestamp, ns per bucket */
	uint64_t last_ts;	/* the trace's last timestamp (at the end) */
	struct rq_html_col *cols;	/* [nr_cpus * nb] */
	uint32_t (*found)[RQ_FIND__COUNT];	/* [nb]: flagged placements per column */
	struct rq_html_mark *flagged, *plain;	/* the marks kept */
	int nflagged, nplain;
	uint64_t seen_flagged, seen_plain;	/* placements of each kind so far */
	uint64_t stride_flagged, stride_plain;	/* one in this many is kept */
	int failed;		/* allocation failure: the page says the timeline is missing */
};

#endif
