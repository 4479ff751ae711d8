/* SPDX-License-Identifier: GPL-2.0 */
/*
 * diff.h - before and after: compare the audits of BASE and NEW traces (one or more runs
 * per side).  Per path placements per second and share, per finding count, rate,
 * possible and queue delay; min/median/max per side and a verdict per row.  Renderers
 * write text (80 columns), JSON (schema rqpath.diff/1) or CSV to the FILE* given.
 */
#ifndef RQPATH_DIFF_H
#define RQPATH_DIFF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"

/* What one trace contributes to a diff: the numbers, taken from a finished analysis. */
struct rq_diff_run {
	char source[512];
	char kernel[128];
	int cpus;
	double duration_s;	/* last - first timestamp */
	uint64_t events, lost_events, placements;
	uint64_t path_counts[RQ_PATH__COUNT];
	uint64_t f_count[RQ_FIND__COUNT], f_possible[RQ_FIND__COUNT];
	uint64_t f_inferred[RQ_FIND__COUNT], f_not_judged[RQ_FIND__COUNT];
	/* queue delay: n, p50 and p99 (ns) of each finding's placements and of all */
	uint64_t f_delay_n[RQ_FIND__COUNT], f_delay_p50[RQ_FIND__COUNT],
		 f_delay_p99[RQ_FIND__COUNT];
	uint64_t all_delay_n[2], all_delay_p50[2];	/* unflagged, flagged */
};

/* Fill r from an analysis that has seen the whole trace (rq_analysis_finish() done). */
void rq_diff_run_from(struct rq_diff_run *r, struct rq_analysis *an);

/*
 * Audit the trace at path with opts into r (what `rqpath diff` does for each file).  0, or
 * -1 with one line in err, the file name escaped: "NAME: why".
 */
int rq_diff_run_file(struct rq_diff_run *r, const char *path, const struct rq_analysis_opts *o,
		     int show_progress, char *err, size_t errlen);

enum rq_diff_verdict { RQ_DIFF_UNCHANGED, RQ_DIFF_NOISE, RQ_DIFF_CHANGED, RQ_DIFF_NA };
extern const char *const rq_diff_verdict_names[4];

struct rq_diff_stat {
	int n;			/* runs with a value (delay rows: runs with samples) */
	double *values;		/* per run, NAN where absent */
	double min, median, max;
};

struct rq_diff_row {
	const char *section;	/* "kind", "placements", "share", "finding", "delay" */
	char name[48];		/* "all", "fork fork-local", "offcpu-fork", ... */
	char key[40];		/* the path or finding id ("all", "flagged", ...) */
	const char *metric;	/* "per_s", "share_pct", "count", "possible", "p50_ns", ... */
	const char *unit;	/* "1/s", "%", "", "ns" */
	struct rq_diff_stat base, new;
	double change;		/* new median - base median */
	double change_pct;	/* relative to the base median; NAN if that is 0 */
	enum rq_diff_verdict verdict;
};

struct rq_diff {
	int nbase, nnew;
	const struct rq_diff_run *base, *new;
	int nrows;
	struct rq_diff_row *rows;
	int nnotes;
	char notes[8][200];	/* what differs between the traces, stated at the top */
};

/* Compute the rows; 0, or -1 on allocation failure.  The runs must outlive d. */
int rq_diff_compute(struct rq_diff *d, const struct rq_diff_run *base, int nbase,
		    const struct rq_diff_run *new, int nnew);
void rq_diff_free(struct rq_diff *d);

enum rq_diff_format { RQ_DIFF_TEXT, RQ_DIFF_JSON, RQ_DIFF_CSV, RQ_DIFF_HTML };
/* 0, or -1 if the output could not be written. */
int rq_diff_write(FILE *f, const struct rq_diff *d, enum rq_diff_format fmt);

/* The row a --fail-on RULE names: the per-second rate of a finding or path id; NULL if none. */
const struct rq_diff_row *rq_diff_find_rate(const struct rq_diff *d, const char *id);

/*
 * The text table's pieces, for other front ends (the TUI's compare view) to show the same
 * numbers: a value of row r (median, min or max), its change, the section's title and
 * the row's label ("offcpu-fork per s").
 */
char *rq_diff_fmt_value(const struct rq_diff_row *r, double v, char *buf, size_t size);
char *rq_diff_fmt_change(const struct rq_diff_row *r, char *buf, size_t size);
const char *rq_diff_section_title(const struct rq_diff_row *r);
void rq_diff_row_label(const struct rq_diff_row *r, char *buf, size_t size);

#endif
