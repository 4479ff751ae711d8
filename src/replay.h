/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - read a trace.dat (v6 or v7, compressed or not) with libtracecmd and
 * feed its events, merged across CPUs in timestamp order, to the engine.
 */
#ifndef RQPATH_REPLAY_H
#define RQPATH_REPLAY_H

#include <stdint.h>

#include "analysis.h"

struct rq_replay;

/*
 * Threads a replay opened after this call may use: 1 (everything in the caller's
 * thread), N (N - 1 threads read and decompress ahead; the output is the same for any
 * N), 0 (the default: as many as the CPUs this process may run on, at most 4).
 */
void rq_replay_set_threads(int n);
/* The number rq_replay_open() will use. */
int rq_replay_threads(void);

/* Open and validate path.  NULL on error with one clear line in err. */
struct rq_replay *rq_replay_open(const char *path, char *err, size_t errlen);
/* Tell an (fresh) analysis what the file holds: CPUs, kernel release, events. */
int rq_replay_begin(struct rq_replay *r, struct rq_analysis *an);
/*
 * Feed up to max_events records (<= 0: all).  Returns the number fed, 0 at the end
 * of the trace (after which rq_analysis_finish() has been called), -1 on error.
 */
long rq_replay_step(struct rq_replay *r, struct rq_analysis *an, long max_events);
/* After rq_replay_step() returned -1: what went wrong, one line. */
const char *rq_replay_error(const struct rq_replay *r);
/* Timestamp of the next record not yet fed (UINT64_MAX at the end). */
uint64_t rq_replay_next_ts(const struct rq_replay *r);
/* Fraction of the file's records fed so far, 0.0 .. 1.0 (by bytes, an estimate). */
double rq_replay_progress(const struct rq_replay *r);
const char *rq_replay_path(const struct rq_replay *r);
int rq_replay_file_version(const struct rq_replay *r);
void rq_replay_close(struct rq_replay *r);

/* Open path, replay it all into an (fresh) analysis.  0, or -1 with err set. */
int rq_replay_file(const char *path, struct rq_analysis *an, int show_progress, char *err,
		   size_t errlen);

#endif
