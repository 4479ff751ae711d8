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
	uint64_t truth_records;	/* rqpath:truth records read: no_selection is known */
	uint64_t path_counts[RQ_PATH__COUNT];
	uint64_t f_count[RQ_FIND__COUNT], f_possible[RQ_FIND__COUNT];
	uint64_t f_inferred[RQ_FIND__COUNT], f_not_judged[RQ_FIND__COUNT];
	uint64_t f_judged[RQ_FIND__COUNT];
	uint64_t f_no_selection[RQ_FIND__COUNT];	/* kernel truth: no selection ran */
	bool f_unjudged[RQ_FIND__COUNT];	/* rq_finding_not_judged(): no count, no 0 */
	/* queue delay: n, p50 and p99 (ns) of each finding's placements and of all */
	uint64_t f_delay_n[RQ_FIND__COUNT], f_delay_p50[RQ_FIND__COUNT],
		 f_delay_p99[RQ_FIND__COUNT];
	uint64_t all_delay_n[2], all_delay_p50[2], all_delay_p99[2];	/* unflagged, flagged */
	/* the same of each kind's placements (flagged or not) */
	uint64_t kind_delay_n[RQ_KIND__COUNT], kind_delay_p50[RQ_KIND__COUNT],
		 kind_delay_p99[RQ_KIND__COUNT];
};

/* Fill r from an analysis that has seen the whole trace (rq_analysis_finish() done). */
void rq_diff_run_from(struct rq_diff_run *r, struct rq_analysis *an);

/* A trace file's run: rq_session_diff_run() (src/session/session.h). */

/*
 * A row's verdict.  unchanged: every run of both sides has the same value; n/a: a side has
 * no value.  Otherwise, with RQ_DIFF_MIN_RUNS runs or more on each side, the Mann-Whitney
 * rank test: changed when p <= alpha, else within noise.  With fewer there is no noise
 * estimate: RQ_DIFF_NO_NOISE ("1 run: no noise estimate"), never changed.  too few is
 * no longer given (kept in the names for readers of older output).
 */
enum rq_diff_verdict { RQ_DIFF_UNCHANGED, RQ_DIFF_NOISE, RQ_DIFF_CHANGED, RQ_DIFF_NA,
		       RQ_DIFF_TOO_FEW, RQ_DIFF_NO_NOISE };
extern const char *const rq_diff_verdict_names[6];

/* How the verdict was reached (rq_diff_row.test). */
enum rq_diff_test { RQ_TEST_NONE, RQ_TEST_ONE_RUN, RQ_TEST_MW_EXACT, RQ_TEST_MW_NORMAL };
extern const char *const rq_diff_test_names[4];

#define RQ_DIFF_ALPHA 0.05	/* the default significance level */
#define RQ_DIFF_MIN_COUNT 10	/* the default floor of events of --fail-on below MIN_RUNS */
#define RQ_DIFF_MIN_RUNS 3	/* runs a side for a noise estimate (the rank test) */

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
	enum rq_diff_test test;
	double u, p;		/* the rank test's U (NEW's wins) and p; NAN without one */
	uint64_t events;	/* the most events behind the row in any run (the floor) */
	bool unjudged[2];	/* a finding judged in no run of base, of new: "not judged" */
	char verdict_text[32];	/* RQ_DIFF_NO_NOISE: "1 run: no noise estimate" */
};

struct rq_diff {
	int nbase, nnew;
	double alpha;		/* changed: p <= alpha (rank test) */
	uint64_t min_count;	/* below MIN_RUNS: --fail-on needs this many events */
	bool per_second;	/* text and HTML show the rates per second, not per placement */
	const struct rq_diff_run *base, *new;
	int nrows;
	struct rq_diff_row *rows;
	int nnotes;
	char notes[8][200];	/* what differs between the traces, stated at the top */
};

/* The verdict rules' settings: alpha in (0, 1), min_count >= 1. */
struct rq_diff_opts {
	double alpha;
	uint64_t min_count;
	bool per_second;
};

/*
 * Compute the rows; 0, or -1 on allocation failure.  The runs must outlive d.  o may be
 * NULL: RQ_DIFF_ALPHA and RQ_DIFF_MIN_COUNT.
 */
int rq_diff_compute(struct rq_diff *d, const struct rq_diff_run *base, int nbase,
		    const struct rq_diff_run *new, int nnew, const struct rq_diff_opts *o);
void rq_diff_free(struct rq_diff *d);

enum rq_diff_format { RQ_DIFF_TEXT, RQ_DIFF_JSON, RQ_DIFF_CSV, RQ_DIFF_HTML };
/* The renderers by name ("text", "json", "csv", "html"), as --format says them. */
extern const char *const rq_diff_format_names[4];
/* The format called name into *fmt: 0, or -1 if there is none. */
int rq_diff_format_find(const char *name, enum rq_diff_format *fmt);
/* 0, or -1 if the output could not be written. */
int rq_diff_write(FILE *f, const struct rq_diff *d, enum rq_diff_format fmt);

/* The row of section, key and metric ("delay", "wakeup", "p99_ns"); NULL if none. */
const struct rq_diff_row *rq_diff_find(const struct rq_diff *d, const char *section,
				       const char *key, const char *metric);
/* A number of the JSON and CSV: an integer as one, else the shortest that round-trips. */
void rq_diff_print_num(FILE *f, double v);

/*
 * The text table's pieces, for other front ends (the TUI's compare view) to show the same
 * numbers: a value of row r (median, min or max), its change, the section's title and
 * the row's label ("offcpu-fork per s").
 */
char *rq_diff_fmt_value(const struct rq_diff_row *r, double v, char *buf, size_t size);
char *rq_diff_fmt_change(const struct rq_diff_row *r, char *buf, size_t size);
/* A side's median (0 base, 1 new), or "not judged" where that side judged nothing. */
const char *rq_diff_fmt_side(const struct rq_diff_row *r, int side, char *buf, size_t size);
/* The verdict's words: "not judged" where neither side judged the finding. */
const char *rq_diff_verdict_text(const struct rq_diff_row *r);
/* "; p 0.1" (with " (approx.)" from the normal approximation), or "" without a test. */
char *rq_diff_fmt_p(const struct rq_diff_row *r, char *buf, size_t size);
const char *rq_diff_section_title(const struct rq_diff_row *r);
/*
 * Is row r one the text and HTML show: per placement (a kind's share, a finding per 1000
 * placements, the placements' count), or with d->per_second the rates per second instead.
 * JSON and CSV have every row.
 */
bool rq_diff_row_shown(const struct rq_diff *d, const struct rq_diff_row *r);
/* Is row r 0 in every run of both sides (folded into one line of its section)? */
bool rq_diff_row_zero(const struct rq_diff *d, const struct rq_diff_row *r);
void rq_diff_row_label(const struct rq_diff_row *r, char *buf, size_t size);

#endif
