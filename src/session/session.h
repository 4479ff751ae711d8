/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - one trace run: a source (a trace.dat read by replay.c, or this system
 * recorded live through tracefs by live.c), its pump and the analysis it feeds, owned
 * together.  The commands and the views open a session, subscribe what reads the
 * analysis (observers, writers), run it (within a budget or to the end) and close it:
 *
 *	s = rq_session_open_file(path, &opts, show_progress);
 *	rq_writer_begin(&w, ops, out, rq_session_analysis(s));
 *	if (rq_session_run(s, NULL) == RQ_PUMP_ERROR)
 *		... rq_session_error(s) ...
 *	rq_writer_end(&w);
 *	rq_session_close(s);
 *
 * Opening only creates the analysis: the source is opened (the file read and checked,
 * the recording started) by the first rq_session_run(), so that what subscribes before
 * it sees the analysis as a fresh one and every error of the source is the run's.
 */
#ifndef RQPATH_SESSION_H
#define RQPATH_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis.h"
#include "diff.h"
#include "pump.h"
#include "recorder.h"

struct rq_session;

/* Where a session's records come from. */
struct rq_session_source {
	const char *path;	/* a trace.dat; NULL: record this system (record below) */
	int show_progress;	/* a file run to the end: "reading NN%" on stderr */
	/*
	 * live: the recorder's options and where its statistics go, read at the first
	 * rq_session_run() (so they may be filled in after rq_session_open())
	 */
	const struct rq_record_opts *record;
	struct rq_record_stats *stats;
};

/*
 * A session of src (copied; the strings it points to must outlive the session) with a
 * new analysis of opts.  NULL when out of memory.
 */
struct rq_session *rq_session_open(const struct rq_session_source *src,
				   const struct rq_analysis_opts *opts);
struct rq_session *rq_session_open_file(const char *path, const struct rq_analysis_opts *opts,
					int show_progress);
struct rq_session *rq_session_open_live(const struct rq_record_opts *record,
					struct rq_record_stats *stats,
					const struct rq_analysis_opts *opts);
/* The session's analysis: what observers and writers read (valid until close/restart). */
struct rq_analysis *rq_session_analysis(struct rq_session *s);
/* rq_analysis_subscribe() on the session's analysis: 0, or -1 when out of memory. */
int rq_session_subscribe(struct rq_session *s, const struct rq_observer *o);
/*
 * Feed the analysis: a file within budget b (NULL: to the end), a live recording to its
 * end (b is not used).  RQ_PUMP_BUDGET: more to come; RQ_PUMP_END: the analysis is
 * finished (rq_analysis_finish()); RQ_PUMP_ERROR: rq_session_error() says why.
 */
enum rq_pump_status rq_session_run(struct rq_session *s, const struct rq_budget *b);
/*
 * After RQ_PUMP_ERROR, one line: a file's "NAME: why" (the name escaped, the analysis'
 * own error when it has one), a recording's cause alone.
 */
const char *rq_session_error(const struct rq_session *s);
/* Fraction of a file's records fed so far, 0.0 .. 1.0 (1.0 at the end, 0 live). */
double rq_session_progress(const struct rq_session *s);
/*
 * Start again from the first record with a new analysis of the same options (a file
 * only): the observers of the old analysis are not carried over.  0, or -1 (live, or
 * out of memory).
 */
int rq_session_restart(struct rq_session *s);
void rq_session_close(struct rq_session *s);

/*
 * Audit the trace at path with opts into r (what `rqpath diff` does for each file).  0, or
 * -1 with one line in err, the file name escaped: "NAME: why".
 */
int rq_session_diff_run(struct rq_diff_run *r, const char *path,
			const struct rq_analysis_opts *o, int show_progress, char *err,
			size_t errlen);

#endif
