// SPDX-License-Identifier: GPL-2.0
/*
 * replay.c - a trace.dat (v6/v7, compressed or not) into the engine.
 *
 * tracedat.c reads the file (headers, formats, pages, CPUs merged by timestamp) with
 * every record checked against its page; this file decodes the records (decode.c),
 * turns missed-event marks and clocks going backwards into RQ_EV_LOST and feeds the
 * engine, in steps so that the TUI can show the replay as it goes.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "decode.h"
#include "msg.h"
#include "replay.h"
#include "tracedat.h"

/*
 * libtraceevent 1.7.1 leaks a strdup()ed token while parsing some print formats (the
 * LISA traces), and libtracecmd 3.1.6 (the test helpers' oracle) the trace clock name
 * of every v7 file.  Not ours to fix, so keep LeakSanitizer (ASan builds, the fuzzer)
 * quiet about leaks allocated inside those libraries.
 */
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

struct rq_replay {
	char path[4096];
	struct rq_td *td;
	struct rq_decoder *dec;
	int nr_cpus;
	int version;
	bool finished;
	bool failed;
	unsigned long long stats_overrun;
	/*
	 * Lost events, per CPU: the overrun statistic and the page marks describe the
	 * same losses, so the total counts the larger of the two, never their sum.
	 * counted[] is what the engine was told so far, marks[] the marks seen so far.
	 */
	unsigned long long *counted, *marks;
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
	/* one read-ahead thread keeps up with several CPUs' data: more only compete */
	return n < 1 ? 1 : n > 4 ? 4 : n;
}

struct rq_replay *rq_replay_open(const char *path, char *err, size_t errlen)
{
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
	r->dec = rq_decoder_new(rq_td_tep(r->td));
	if (!r->dec) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	r->stats_overrun = rq_td_stats_overrun(r->td);
	r->counted = calloc((size_t)r->nr_cpus, sizeof(*r->counted));
	r->marks = calloc((size_t)r->nr_cpus, sizeof(*r->marks));
	if (!r->counted || !r->marks) {
		snprintf(err, errlen, "out of memory");
		goto fail;
	}
	for (int cpu = 0; cpu < r->nr_cpus; cpu++)
		r->counted[cpu] = rq_td_stats_overrun_cpu(r->td, cpu);
	/* this thread decodes and runs the engine; the others read and decompress ahead */
	rq_td_start_workers(r->td, rq_replay_threads() - 1);
	return r;
fail:
	rq_replay_close(r);
	return NULL;
}

int rq_replay_begin(struct rq_replay *r, struct rq_analysis *an)
{
	const char *uname = rq_td_uname(r->td);
	char release[128] = "";

	/* the UNAME option is "sysname nodename release version machine" */
	if (uname[0] && sscanf(uname, "%*s %*s %127s", release) != 1)
		release[0] = '\0';
	if (rq_analysis_begin(an, r->path, r->nr_cpus, release, rq_decoder_available(r->dec)))
		return -1;
	an->lost_events = r->stats_overrun;
	return 0;
}

long rq_replay_step(struct rq_replay *r, struct rq_analysis *an, long max_events)
{
	long fed = 0;
	struct rq_event ev;

	if (r->finished)
		return 0;
	if (r->failed)
		return -1;
	while (max_events <= 0 || fed < max_events) {
		struct rq_td_rec rec;
		int got = rq_td_next(r->td, &rec);

		if (got < 0) {
			r->failed = true;
			snprintf(r->err, sizeof(r->err), "%s", rq_td_error(r->td));
			return -1;
		}
		if (!got) {
			r->finished = true;
			rq_analysis_finish(an);
			break;
		}
		/*
		 * A gap before this record (events lost), or a clock that went backwards on
		 * this CPU: what the CPU did in between is unknown, so the engine forgets
		 * its runqueue and marks what follows as after a loss.
		 */
		if (rec.missed || rec.backwards) {
			struct rq_event lost = { .ts = rec.ts, .type = RQ_EV_LOST, .cpu = rec.cpu,
						 .state = rec.backwards ? RQ_LOST_BACKWARDS : 0 };

			/* the total grows only where the marks pass the CPU's statistic */
			if (rec.missed > 0 && rec.cpu < r->nr_cpus) {
				r->marks[rec.cpu] += (unsigned long long)rec.missed;
				if (r->marks[rec.cpu] > r->counted[rec.cpu]) {
					lost.arg = (long long)(r->marks[rec.cpu] - r->counted[rec.cpu]);
					r->counted[rec.cpu] = r->marks[rec.cpu];
				}
			}
			rq_analysis_feed(an, &lost);
		}
		rq_decode_raw(r->dec, rec.data, rec.size, rec.ts, rec.cpu, &ev);
		rq_analysis_feed(an, &ev);
		fed++;
	}
	return fed;
}

uint64_t rq_replay_next_ts(const struct rq_replay *r)
{
	return r->finished || r->failed ? UINT64_MAX : rq_td_peek_ts(r->td);
}

double rq_replay_progress(const struct rq_replay *r)
{
	return r->finished ? 1.0 : rq_td_progress(r->td);
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
	rq_decoder_free(r->dec);
	rq_td_close(r->td);
	free(r->counted);
	free(r->marks);
	free(r);
}

int rq_replay_file(const char *path, struct rq_analysis *an, int show_progress, char *err,
		   size_t errlen)
{
	struct rq_replay *r = rq_replay_open(path, err, errlen);
	long n;
	int last_pct = -1;

	if (!r)
		return -1;
	if (rq_replay_begin(r, an)) {
		snprintf(err, errlen, "cannot set up the analysis: %s", strerror(errno));
		rq_replay_close(r);
		return -1;
	}
	while ((n = rq_replay_step(r, an, 65536)) > 0) {
		int pct = (int)(rq_replay_progress(r) * 100);

		if (show_progress && pct != last_pct) {
			rq_progress("reading %3d%%", pct);
			last_pct = pct;
		}
	}
	if (show_progress && last_pct >= 0)
		rq_progress(NULL);
	if (n < 0)
		snprintf(err, errlen, "%s", rq_replay_error(r));
	rq_replay_close(r);
	return n < 0 ? -1 : 0;
}
