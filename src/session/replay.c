// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - a trace.dat (v6/v7, compressed or not) into the engine.
 *
 * tracedat.c reads the file (headers, formats, each CPU's pages) with every record
 * checked against its page; the pump (pump.c) merges the CPUs, decodes each record
 * once and feeds the engine and any other sink, to a budget, so that the TUI can show
 * the replay as it goes.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "analysis.h"
#include "decode.h"
#include "msg.h"
#include "pump.h"
#include "replay.h"
#include "tracedat.h"

/*
 * libtraceevent 1.7.1 leaks a strdup()ed token while parsing some print formats (the
 * LISA traces), and libtracecmd 3.1.6 (the test helpers' oracle) the trace clock name
 * of every v7 file.  Not ours to fix, so keep LeakSanitizer (ASan builds, the fuzzer)
 * quiet about leaks allocated inside those libraries.  Only in sanitizer builds: the
 * release library defines no global symbol outside rq_ (tests/golden/t_library.sh).
 */
#if defined(__SANITIZE_ADDRESS__)
#define RQ_ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RQ_ASAN_BUILD 1
#endif
#endif

#ifdef RQ_ASAN_BUILD
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:tracecmd_parse_trace_clock\n"
	       "leak:libtracecmd.so\n"
	       "leak:libtraceevent.so\n"
	       "leak:__vfscanf_internal\n";
}

/* ...and do not print the list of suppressions used: stderr is one line on errors. */
const char *__lsan_default_options(void);
const char *__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif

struct rq_replay {
	char path[4096];
	struct rq_td *td;
	struct rq_pump *pump;
	struct rq_analysis *an;	/* the sink rq_replay_begin() added */
	int nr_cpus;
	int version;
	bool finished;
	bool failed;
	char err[384];
};

static int replay_threads;	/* rq_replay_set_threads(): 0 auto */

void rq_replay_set_threads(int n)
{
	replay_threads = n < 0 ? 0 : n;
}

int rq_replay_threads(void)
{
	cpu_set_t set;
	int n = replay_threads;

	if (n > 0)
		return n;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	n = CPU_COUNT(&set);
	/* the decoding worker and one or two read-ahead threads: more only compete */
	return n < 1 ? 1 : n > 4 ? 4 : n;
}

struct rq_replay *rq_replay_open(const char *path, char *err, size_t errlen)
{
	struct rq_source src;
	struct rq_replay *r;

	r = calloc(1, sizeof(*r));
	if (!r) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	strlcpy(r->path, path, sizeof(r->path));
	r->td = rq_td_open(path, rq_decode_wants, err, errlen);
	if (!r->td)
		goto fail;
	r->version = rq_td_version(r->td);
	r->nr_cpus = rq_td_cpus(r->td);
	if (r->nr_cpus <= 0 || r->nr_cpus > RQ_MAX_CPUS) {
		snprintf(err, errlen, "corrupt trace.dat: it declares %d CPUs", r->nr_cpus);
		goto fail;
	}
	rq_source_file(&src, r->td);
	r->pump = rq_pump_new(&src);
	if (!r->pump) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	/* the marks in the pages count only where they pass each CPU's statistic */
	for (int cpu = 0; cpu < r->nr_cpus; cpu++)
		rq_pump_note_overrun(r->pump, cpu, rq_td_stats_overrun_cpu(r->td, cpu), false, 0);
	/*
	 * Two threads or more: one reads, merges and decodes into batches, this one only
	 * runs the engine; any more read and decompress the CPUs' data ahead of it.  The
	 * read-ahead starts first: the pump's worker reads the file as soon as it runs, and
	 * a block it read before the read-ahead took its CPU's cursor would be read twice.
	 */
	if (rq_replay_threads() >= 2) {
		rq_td_start_workers(r->td, rq_replay_threads() - 2);
		rq_pump_start_worker(r->pump);
	}
	return r;
fail:
	rq_replay_close(r);
	return NULL;
}

/*
 * The pre-check of a file's rqpath:truth records (truth.c's self-check): the start of
 * the file, up to this many checks of each kind or this many events, replayed into an
 * analysis of its own, so that records it refuses are refused from the first one on.
 */
#define TRUTH_PRECHECK_FACTS 500
#define TRUTH_PRECHECK_EVENTS (4u << 20)

static bool precheck_done(const struct rq_analysis *pre)
{
	const struct rq_summary *s = rq_analysis_summary(pre);

	if (s->nr_events >= TRUTH_PRECHECK_EVENTS)
		return true;
	for (int k = 0; k < RQ_TCHK__COUNT; k++)
		if (s->truth.checked[k] < TRUTH_PRECHECK_FACTS)
			return false;
	return true;
}

/* Which fields of the file's truth records the pre-check refuses (rq_tchk_kind bits). */
static unsigned int truth_precheck(struct rq_replay *r, const struct rq_analysis *an,
				   const char *release)
{
	struct rq_analysis_opts o = *rq_analysis_opts(an);
	struct rq_budget step = { .max_events = 65536 };
	struct rq_analysis *pre;
	struct rq_replay *again;
	unsigned int rejected = 0;
	char err[256];

	if (o.no_truth || !rq_pump_available(r->pump)[RQ_EV_TRUTH])
		return 0;
	o.recent_capacity = RQ_RECENT_NONE;
	pre = rq_analysis_new(&o);
	again = pre ? rq_replay_open(r->path, err, sizeof(err)) : NULL;
	if (again && !rq_analysis_begin(pre, r->path, r->nr_cpus, release,
					rq_pump_available(again->pump)) &&
	    !rq_pump_add_analysis(again->pump, pre)) {
		while (rq_pump_run(again->pump, &step) == RQ_PUMP_BUDGET && !precheck_done(pre))
			;
		rejected = rq_analysis_summary(pre)->truth.rejected;
	}
	/* a pre-check that could not run refuses nothing: the replay's own check still runs */
	rq_replay_close(again);
	if (pre)
		rq_analysis_free(pre);
	return rejected;
}

int rq_replay_begin(struct rq_replay *r, struct rq_analysis *an)
{
	const char *uname = rq_td_uname(r->td);
	char release[128] = "";

	/* the UNAME option is "sysname nodename release version machine" */
	if (uname[0] && sscanf(uname, "%*s %*s %127s", release) != 1)
		release[0] = '\0';
	if (rq_analysis_begin(an, r->path, r->nr_cpus, release, rq_pump_available(r->pump)))
		return -1;
	rq_analysis_note_truth_rejected(an, truth_precheck(r, an, release));
	rq_analysis_note_eas(an, rq_td_eas_event(r->td));
	/* what the file's statistics say was lost before any mark in the pages */
	rq_analysis_note_lost(an, rq_td_stats_overrun(r->td));
	rq_analysis_note_cut(an, rq_td_cut(r->td));
	if (rq_pump_add_analysis(r->pump, an))
		return -1;
	r->an = an;
	return 0;
}

struct rq_pump *rq_replay_pump(struct rq_replay *r)
{
	return r->pump;
}

enum rq_pump_status rq_replay_run(struct rq_replay *r, const struct rq_budget *b)
{
	enum rq_pump_status st;

	if (r->finished)
		return RQ_PUMP_END;
	if (r->failed)
		return RQ_PUMP_ERROR;
	st = rq_pump_run(r->pump, b);
	if (st == RQ_PUMP_ERROR) {
		r->failed = true;
		snprintf(r->err, sizeof(r->err), "%s", rq_pump_error(r->pump));
	} else if (st == RQ_PUMP_END) {
		r->finished = true;
		if (r->an)
			rq_analysis_finish(r->an);
	}
	return st;
}

uint64_t rq_replay_next_ts(const struct rq_replay *r)
{
	return r->finished || r->failed ? UINT64_MAX : rq_pump_next_ts(r->pump);
}

double rq_replay_progress(const struct rq_replay *r)
{
	return r->finished ? 1.0 : rq_pump_progress(r->pump);
}

const char *rq_replay_error(const struct rq_replay *r)
{
	return r->failed ? r->err : "error while reading the trace";
}

const char *rq_replay_path(const struct rq_replay *r)
{
	return r->path;
}

int rq_replay_file_version(const struct rq_replay *r)
{
	return r->version;
}

void rq_replay_close(struct rq_replay *r)
{
	if (!r)
		return;
	rq_pump_free(r->pump);
	rq_td_close(r->td);
	free(r);
}

int rq_replay_file(const char *path, struct rq_analysis *an, int show_progress, char *err,
		   size_t errlen)
{
	struct rq_replay *r = rq_replay_open(path, err, errlen);
	struct rq_budget step = { .max_events = 65536 };
	enum rq_pump_status st;
	int last_pct = -1;

	if (!r)
		return -1;
	if (rq_replay_begin(r, an)) {
		snprintf(err, errlen, "cannot set up the analysis: %s", strerror(errno));
		rq_replay_close(r);
		return -1;
	}
	while ((st = rq_replay_run(r, &step)) == RQ_PUMP_BUDGET) {
		int pct = (int)(rq_replay_progress(r) * 100);

		if (show_progress && pct != last_pct) {
			rq_progress("reading %3d%%", pct);
			last_pct = pct;
		}
	}
	if (show_progress && last_pct >= 0)
		rq_progress(NULL);
	if (st == RQ_PUMP_ERROR)
		snprintf(err, errlen, "%s", rq_replay_error(r));
	rq_replay_close(r);
	return st == RQ_PUMP_ERROR ? -1 : 0;
}
