/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay.h - a trace.dat (v6 or v7, compressed or not) through the pump (pump.h) into
 * the engine.
 */
#ifndef RQPATH_REPLAY_H
#define RQPATH_REPLAY_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "pump.h"

struct rq_replay;

/*
 * Threads a replay opened after this call may use: 1 (everything in the caller's
 * thread), N >= 2 (one reads, merges and decodes into batches that the caller's thread
 * feeds to the sinks, N - 2 more read and decompress ahead; the output is the same for
 * any N), 0 (the default: as many as the CPUs this process may run on, at most 4).
 */
void rq_replay_set_threads(int n);
/* The number rq_replay_open() will use. */
int rq_replay_threads(void);

/* Open and validate path.  NULL on error with one clear line in err. */
struct rq_replay *rq_replay_open(const char *path, char *err, size_t errlen);
/* Tell an (fresh) analysis what the file holds: CPUs, kernel release, events. */
int rq_replay_begin(struct rq_replay *r, struct rq_analysis *an);
/*
 * The pump reading the file (pump.h): add more sinks (after rq_replay_begin(), which
 * adds the analysis first).
 */
struct rq_pump *rq_replay_pump(struct rq_replay *r);
/*
 * Feed the analysis (and the other sinks) within budget b (NULL: to the end).  At the
 * end (RQ_PUMP_END) rq_analysis_finish() has been called.
 */
enum rq_pump_status rq_replay_run(struct rq_replay *r, const struct rq_budget *b);
/* After RQ_PUMP_ERROR: what went wrong, one line. */
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
