// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - a source, its pump and the analysis it feeds, owned together (session.h):
 * a trace.dat through replay.c, a live recording through live.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "escape.h"
#include "live.h"
#include "replay.h"
#include "session.h"

struct rq_session {
	struct rq_session_source src;
	char *path;		/* src.path's copy */
	struct rq_analysis_opts opts;
	struct rq_analysis *an;
	struct rq_replay *replay;	/* a file run within budgets: open after the first */
	bool done;		/* RQ_PUMP_END or RQ_PUMP_ERROR returned: the run is over */
	bool failed;
	char err[2048];
};

struct rq_session *rq_session_open(const struct rq_session_source *src,
				   const struct rq_analysis_opts *opts)
{
	struct rq_session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->src = *src;
	s->opts = *opts;
	if (src->path) {
		s->path = strdup(src->path);
		s->src.path = s->path;
	}
	s->an = rq_analysis_new(opts);
	if ((src->path && !s->path) || !s->an) {
		rq_session_close(s);
		return NULL;
	}
	return s;
}

struct rq_session *rq_session_open_file(const char *path, const struct rq_analysis_opts *opts,
					int show_progress)
{
	struct rq_session_source src = { .path = path, .show_progress = show_progress };

	return rq_session_open(&src, opts);
}

struct rq_session *rq_session_open_live(const struct rq_record_opts *record,
					struct rq_record_stats *stats,
					const struct rq_analysis_opts *opts)
{
	struct rq_session_source src = { .record = record, .stats = stats };

	return rq_session_open(&src, opts);
}

struct rq_analysis *rq_session_analysis(struct rq_session *s)
{
	return s->an;
}

int rq_session_subscribe(struct rq_session *s, const struct rq_observer *o)
{
	return rq_analysis_subscribe(s->an, o);
}

/* A file's error line: its name escaped, then the analysis' error or why. */
static void file_error(struct rq_session *s, const char *why)
{
	char esc[1024], cause[512];

	rq_escape_c(s->path, strlen(s->path), esc, sizeof(esc));
	if (rq_analysis_error(s->an)[0])
		rq_escape_c(rq_analysis_error(s->an), strlen(rq_analysis_error(s->an)), cause,
			    sizeof(cause));
	else
		strlcpy(cause, why, sizeof(cause));
	snprintf(s->err, sizeof(s->err), "%s: %s", esc, cause);
}

/* A file within budget b: opened and begun at the first call. */
static enum rq_pump_status run_file_steps(struct rq_session *s, const struct rq_budget *b)
{
	enum rq_pump_status st;
	char why[512];

	if (!s->replay) {
		s->replay = rq_replay_open(s->path, why, sizeof(why));
		if (!s->replay) {
			file_error(s, why);
			return RQ_PUMP_ERROR;
		}
		if (rq_replay_begin(s->replay, s->an)) {
			snprintf(why, sizeof(why), "cannot set up the analysis: %s",
				 strerror(errno));
			file_error(s, why);
			return RQ_PUMP_ERROR;
		}
	}
	st = rq_replay_run(s->replay, b);
	if (st == RQ_PUMP_ERROR)
		file_error(s, rq_replay_error(s->replay));
	return st;
}

/* A whole file, in one call: rq_replay_file() (with its progress line). */
static enum rq_pump_status run_file(struct rq_session *s)
{
	char why[512];

	if (rq_replay_file(s->path, s->an, s->src.show_progress, why, sizeof(why))) {
		file_error(s, why);
		return RQ_PUMP_ERROR;
	}
	return RQ_PUMP_END;
}

static enum rq_pump_status run_live(struct rq_session *s)
{
	if (rq_record_analyse(s->src.record, s->src.stats, s->an, s->err, sizeof(s->err)))
		return RQ_PUMP_ERROR;
	return RQ_PUMP_END;
}

enum rq_pump_status rq_session_run(struct rq_session *s, const struct rq_budget *b)
{
	enum rq_pump_status st;

	if (s->done)
		return s->failed ? RQ_PUMP_ERROR : RQ_PUMP_END;
	if (!s->path)
		st = run_live(s);
	else if (b || s->replay)
		st = run_file_steps(s, b);
	else
		st = run_file(s);
	if (st != RQ_PUMP_BUDGET) {
		s->done = true;
		s->failed = st == RQ_PUMP_ERROR;
	}
	return st;
}

const char *rq_session_error(const struct rq_session *s)
{
	return s->failed ? s->err : "error while reading the trace";
}

double rq_session_progress(const struct rq_session *s)
{
	if (s->done)
		return s->failed ? 0.0 : 1.0;
	return s->replay ? rq_replay_progress(s->replay) : 0.0;
}

int rq_session_restart(struct rq_session *s)
{
	struct rq_analysis *an;

	if (!s->path)
		return -1;
	an = rq_analysis_new(&s->opts);
	if (!an)
		return -1;
	rq_replay_close(s->replay);
	s->replay = NULL;
	rq_analysis_free(s->an);
	s->an = an;
	s->done = s->failed = false;
	s->err[0] = '\0';
	return 0;
}

void rq_session_close(struct rq_session *s)
{
	if (!s)
		return;
	rq_replay_close(s->replay);
	if (s->an)
		rq_analysis_free(s->an);
	free(s->path);
	free(s);
}

int rq_session_diff_run(struct rq_diff_run *r, const char *path,
			const struct rq_analysis_opts *o, int show_progress, char *err,
			size_t errlen)
{
	struct rq_session *s = rq_session_open_file(path, o, show_progress);

	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	if (rq_session_run(s, NULL) == RQ_PUMP_ERROR) {
		snprintf(err, errlen, "%s", rq_session_error(s));
		rq_session_close(s);
		return -1;
	}
	rq_diff_run_from(r, s->an);
	rq_session_close(s);
	return 0;
}
