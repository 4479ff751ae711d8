// SPDX-License-Identifier: GPL-2.0
/*
 * session.c - a source, its pump and the analysis it feeds, owned together (session.h):
 * a trace.dat through replay.c, a live recording through the recorder (recorder.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include <bsd/string.h>

#include "escape.h"
#include "replay.h"
#include "session.h"

struct rq_session {
	struct rq_session_source src;
	char *path;		/* src.path's copy, NULL live */
	struct rq_analysis_opts opts;
	struct rq_analysis *an;
	struct rq_replay *replay;	/* a file once started */
	struct rq_recorder *recorder;	/* live from its start until its end */
	bool started;		/* rq_session_start() ran (whatever it returned) */
	bool more;		/* live: the last step's budget ran out with records waiting */
	bool done;		/* RQ_PUMP_END or RQ_PUMP_ERROR returned: the run is over */
	bool failed;
	char err[2048];		/* the error line; live, also the recorder's (given at start) */
	char cause[512];	/* a file's: the error without the file's name */
};

void rq_session_set_threads(int n)
{
	rq_replay_set_threads(n);
}

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

	strlcpy(s->cause, rq_analysis_error(s->an)[0] ? rq_analysis_error(s->an) : why,
		sizeof(s->cause));
	rq_escape_c(s->path, strlen(s->path), esc, sizeof(esc));
	if (rq_analysis_error(s->an)[0])
		rq_escape_c(rq_analysis_error(s->an), strlen(rq_analysis_error(s->an)), cause,
			    sizeof(cause));
	else
		strlcpy(cause, why, sizeof(cause));
	snprintf(s->err, sizeof(s->err), "%s: %s", esc, cause);
}

/* A file: opened, checked and the fresh analysis begun. */
static int start_file(struct rq_session *s)
{
	char why[512];

	s->replay = rq_replay_open(s->path, why, sizeof(why));
	if (!s->replay) {
		file_error(s, why);
		return -1;
	}
	if (rq_replay_begin(s->replay, s->an)) {
		snprintf(why, sizeof(why), "cannot set up the analysis: %s", strerror(errno));
		file_error(s, why);
		rq_replay_close(s->replay);
		s->replay = NULL;
		return -1;
	}
	return 0;
}

/*
 * The live pump's one sink of the session: whichever analysis the session holds, so a
 * restart swaps the analysis without touching the pump.
 */
static void feed_live(void *data, const struct rq_event *ev)
{
	struct rq_session *s = data;

	rq_analysis_feed(s->an, ev);
}

/* s->an (fresh) begun with what this kernel records, as a replay of the file begins it. */
static int begin_live(struct rq_session *s, struct rq_analysis *an)
{
	struct rq_pump *pump = rq_recorder_pump(s->recorder);
	struct utsname u;

	if (uname(&u))
		u.release[0] = '\0';
	if (rq_analysis_begin(an, "live", rq_pump_cpus(pump), u.release,
			      rq_pump_available(pump))) {
		snprintf(s->err, sizeof(s->err), "cannot set up the analysis: %s",
			 strerror(errno));
		return -1;
	}
	return 0;
}

/* Live: the recording started, the analysis begun and fed by the recorder's pump. */
static int start_live(struct rq_session *s)
{
	s->recorder = rq_recorder_start(s->src.record, s->src.stats, s->err, sizeof(s->err));
	if (!s->recorder)
		return -1;
	if (begin_live(s, s->an) ||
	    rq_pump_add_sink(rq_recorder_pump(s->recorder), feed_live, s)) {
		if (!s->err[0])
			snprintf(s->err, sizeof(s->err), "out of memory");
		rq_recorder_finish(s->recorder, -1);
		s->recorder = NULL;
		return -1;
	}
	return 0;
}

int rq_session_start(struct rq_session *s)
{
	int ret;

	if (s->started)
		return s->failed ? -1 : 0;
	s->started = true;
	ret = s->path ? start_file(s) : start_live(s);
	if (ret)
		s->done = s->failed = true;
	return ret;
}

struct rq_pump *rq_session_pump(struct rq_session *s)
{
	if (s->replay)
		return rq_replay_pump(s->replay);
	return s->recorder ? rq_recorder_pump(s->recorder) : NULL;
}

struct rq_recorder *rq_session_recorder(struct rq_session *s)
{
	return s->recorder;
}

uint64_t rq_session_next_ts(const struct rq_session *s)
{
	return s->replay ? rq_replay_next_ts(s->replay) : UINT64_MAX;
}

bool rq_session_more(const struct rq_session *s)
{
	return s->more;
}

/* A file within budget b. */
static enum rq_pump_status run_file_steps(struct rq_session *s, const struct rq_budget *b)
{
	enum rq_pump_status st = rq_replay_run(s->replay, b);

	if (st == RQ_PUMP_ERROR)
		file_error(s, rq_replay_error(s->replay));
	return st;
}

/* A whole file not started, in one call: rq_replay_file() (with its progress line). */
static enum rq_pump_status run_file(struct rq_session *s)
{
	char why[512];

	s->started = true;
	if (rq_replay_file(s->path, s->an, s->src.show_progress, why, sizeof(why))) {
		file_error(s, why);
		return RQ_PUMP_ERROR;
	}
	return RQ_PUMP_END;
}

/* The recording stopped, drained and written, the analysis finished; ret < 0: it failed. */
static enum rq_pump_status finish_live(struct rq_session *s, int ret)
{
	ret = rq_recorder_finish(s->recorder, ret);
	s->recorder = NULL;
	s->more = false;
	if (ret) {
		if (!s->err[0])
			snprintf(s->err, sizeof(s->err), "recording failed");
		return RQ_PUMP_ERROR;
	}
	rq_analysis_finish(s->an);
	return RQ_PUMP_END;
}

/* Live: one step of the recording within b, or (b NULL) every step to its end. */
static enum rq_pump_status run_live(struct rq_session *s, const struct rq_budget *b)
{
	const struct rq_budget slice = { .max_seconds = 0.25 };
	int ret;

	if (b) {
		ret = rq_recorder_step(s->recorder, b);
		if (ret > 0) {
			s->more = ret == 2;
			return RQ_PUMP_BUDGET;
		}
		return finish_live(s, ret);
	}
	while ((ret = rq_recorder_step(s->recorder, &slice)) > 0)
		if (ret == 1)
			rq_recorder_wait(s->recorder);
	return finish_live(s, ret < 0 ? -1 : 0);
}

enum rq_pump_status rq_session_run(struct rq_session *s, const struct rq_budget *b)
{
	enum rq_pump_status st;

	if (s->done)
		return s->failed ? RQ_PUMP_ERROR : RQ_PUMP_END;
	if (s->path && !s->started && !b)
		st = run_file(s);
	else if (rq_session_start(s))
		st = RQ_PUMP_ERROR;
	else
		st = s->path ? run_file_steps(s, b) : run_live(s, b);
	if (st == RQ_PUMP_END || st == RQ_PUMP_ERROR) {
		s->done = true;
		s->failed = st == RQ_PUMP_ERROR;
	}
	return st;
}

enum rq_pump_status rq_session_stop(struct rq_session *s)
{
	if (!s->recorder)
		return rq_session_run(s, NULL);
	s->done = true;
	s->failed = finish_live(s, 0) == RQ_PUMP_ERROR;
	return s->failed ? RQ_PUMP_ERROR : RQ_PUMP_END;
}

const char *rq_session_error(const struct rq_session *s)
{
	return s->failed ? s->err : "error while reading the trace";
}

const char *rq_session_cause(const struct rq_session *s)
{
	if (!s->failed)
		return "error while reading the trace";
	return s->path ? s->cause : s->err;
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

	if (!s->path && !s->recorder)
		return -1;
	an = rq_analysis_new(&s->opts);
	if (!an)
		return -1;
	if (!s->path) {
		/* live: counting from now, the tasks' attributes and the topology told again */
		if (begin_live(s, an)) {
			rq_analysis_free(an);
			return -1;
		}
		rq_recorder_snapshot(s->recorder);
	} else {
		rq_replay_close(s->replay);
		s->replay = NULL;
		s->started = s->done = s->failed = false;
		s->err[0] = s->cause[0] = '\0';
	}
	rq_analysis_free(s->an);
	s->an = an;
	return 0;
}

void rq_session_close(struct rq_session *s)
{
	if (!s)
		return;
	rq_replay_close(s->replay);
	/* a recording not stopped: its tracefs instance goes, the file is not written */
	if (s->recorder)
		rq_recorder_finish(s->recorder, -1);
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
