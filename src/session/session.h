/* SPDX-License-Identifier: GPL-2.0 */
/*
 * session.h - one trace run: a source (a trace.dat read by replay.c, or this system
 * recorded live through tracefs by the recorder), its pump and the analysis it feeds, owned
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
#include <stdint.h>

#include "analysis.h"
#include "diff.h"
#include "pump.h"
#include "recorder.h"

struct rq_session;

/* Threads a file's replay may use (replay.h: rq_replay_set_threads()); 0: automatic. */
void rq_session_set_threads(int n);

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
 * Open the source now: a file read, checked and the analysis begun; live, the recording
 * started and the analysis begun.  What subscribes before sees a fresh analysis.  0, or
 * -1 (rq_session_error() says why).  The first rq_session_run() starts a session not
 * started; start it first to add sinks to its pump or to ask where the trace begins.
 */
int rq_session_start(struct rq_session *s);
/* Once started: the pump feeding the analysis (add sinks, watch its advance), else NULL. */
struct rq_pump *rq_session_pump(struct rq_session *s);
/* Live, once started and until its end: the recording (poll its fds, snapshot), else NULL. */
struct rq_recorder *rq_session_recorder(struct rq_session *s);
/* A started file: the timestamp of the next record not yet fed (UINT64_MAX: none, live). */
uint64_t rq_session_next_ts(const struct rq_session *s);
/*
 * Feed the analysis within budget b: a file's records; live, one step of the recording
 * (rq_session_more(): the budget ran out with records waiting).  b NULL: to the end (a
 * file not started shows its progress when asked to; live, until the recording ends:
 * its duration, its command, a signal).  RQ_PUMP_BUDGET (UNTIL, STOPPED): more to come;
 * RQ_PUMP_END: the analysis is finished (rq_analysis_finish()); RQ_PUMP_ERROR:
 * rq_session_error() says why.
 */
enum rq_pump_status rq_session_run(struct rq_session *s, const struct rq_budget *b);
bool rq_session_more(const struct rq_session *s);
/*
 * End now: live, the recording stopped, drained into the analysis and written, and the
 * analysis finished; a file, read to its end.  RQ_PUMP_END or RQ_PUMP_ERROR.
 */
enum rq_pump_status rq_session_stop(struct rq_session *s);
/*
 * After RQ_PUMP_ERROR, one line: a file's "NAME: why" (the name escaped, the analysis'
 * own error when it has one), a recording's cause alone.
 */
const char *rq_session_error(const struct rq_session *s);
/* The same without a file's name: the analysis' error or why, as said (not escaped). */
const char *rq_session_cause(const struct rq_session *s);
/* Fraction of a file's records fed so far, 0.0 .. 1.0 (1.0 at the end, 0 live). */
double rq_session_progress(const struct rq_session *s);
/*
 * Every count from 0 with a new analysis of the same options: a file from its first
 * record (not started: start or run it again), a running recording from now (the tasks'
 * attributes and the topology written again for it).  The old analysis is freed: detach
 * its observers first; they are not carried over.  0, or -1 (a recording that ended, or
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
