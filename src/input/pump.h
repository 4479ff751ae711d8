/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pump.h - sources, one pump, sinks.
 *
 * A source yields raw ring-buffer records per CPU, each CPU in its own time order: a
 * trace.dat (rq_source_file(), tracedat.c) or the live tracefs instance of a recording
 * (tracefs.c).  The pump is the only place where the CPUs are merged: it takes the
 * earliest record of all CPUs (the lower CPU on a tie), turns a gap before it (events
 * the ring buffer lost, a clock that went backwards) into an RQ_EV_LOST mark, decodes
 * the record once (decode.c) and hands the event to every sink in the order they were
 * added: the analysis, the recorder's attribute capture, the TUI's observers.
 *
 * rq_pump_run() works to a budget (events, wall time, a trace time not to pass, or a
 * sink calling rq_pump_stop()), so an interactive loop is: keys, pump for <= N ms,
 * draw; the same for a file and for a live recording.  A pump holds no global state:
 * any number of them (two traces side by side) can run in one process.
 */
#ifndef RQPATH_PUMP_H
#define RQPATH_PUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

struct tep_handle;

/*
 * One raw record of one CPU's ring buffer.  32 bytes: a source's cursor keeps it in its
 * first cache line with what its next record needs (tracedat.c).
 */
struct rq_raw {
	uint64_t ts;		/* nanoseconds, trace clock */
	const void *data;	/* the event, common_type first */
	long long missed;	/* lost just before it: 0 none, -1 an unknown number, else N */
	uint32_t size;
	int16_t cpu;		/* the stream: the CPUs (at most 4096), then a source's extra */
	bool backwards;		/* earlier than the previous record of the same CPU */
};

struct rq_source_ops {
	/*
	 * The next record of CPU cpu: 1 with *rec pointing to it (the source's own, valid
	 * until the next call for that CPU: the pump copies nothing), 0 none (for good from
	 * a file; none read yet from a live source), -1 on error.
	 */
	int (*next)(void *ctx, int cpu, const struct rq_raw **rec);
	/*
	 * Live sources only (NULL for a file): read what the ring buffers hold now.
	 * 1 something new, 0 nothing, -1 on error.
	 */
	int (*refill)(void *ctx);
	/* Fraction read, 0.0 .. 1.0 (NULL: unknown). */
	double (*progress)(void *ctx);
	/* After -1: one line. */
	const char *(*error)(void *ctx);
};

struct rq_source {
	const struct rq_source_ops *ops;
	void *ctx;
	int ncpus;
	/*
	 * Streams after the CPUs (next() with cpu = ncpus .. ncpus + nextra - 1): records
	 * that are no CPU's, merged by time like the CPUs' (rqpath:truth, truth_fmt.h).  A
	 * gap in one is no lost event of a CPU: it makes no RQ_EV_LOST mark.
	 */
	int nextra;
	struct tep_handle *tep;	/* the formats the records are decoded with (NULL: none,
				 * every record is RQ_EV_OTHER) */
};

/* A trace.dat as a source: rq_source_file() in tracedat.h. */

/* A sink sees every event, RQ_EV_LOST marks included, in time order. */
typedef void (*rq_sink_fn)(void *data, const struct rq_event *ev);

#define RQ_PUMP_MAX_SINKS 8

struct rq_pump;

/* NULL on allocation failure.  src is copied; what it points to must outlive the pump. */
struct rq_pump *rq_pump_new(const struct rq_source *src);
void rq_pump_free(struct rq_pump *p);
/* Which event types the source's formats have (rq_decoder_available()). */
const bool *rq_pump_available(const struct rq_pump *p);
int rq_pump_cpus(const struct rq_pump *p);

/* Add a sink (called in the order added).  0, or -1 when there are too many. */
int rq_pump_add_sink(struct rq_pump *p, rq_sink_fn fn, void *data);
/* Called once at the end of each rq_pump_run() that delivered events: the last time. */
void rq_pump_on_advance(struct rq_pump *p, void (*fn)(void *data, uint64_t ts), void *data);

/*
 * Lost events known apart from the marks in the pages, per CPU: a file's CPUSTAT
 * "overrun" before the first record, a live buffer's at the end of a recording.  The
 * marks and the statistic describe the same losses: the count grows only where the
 * statistic passes what was counted on that CPU, and the excess goes to the sinks as an
 * RQ_EV_LOST mark (at ts) when emit is true.  Returns the excess.
 */
uint64_t rq_pump_note_overrun(struct rq_pump *p, int cpu, unsigned long long overrun,
			      bool emit, uint64_t ts);
/* Events lost in total, each counted once (marks and statistics). */
uint64_t rq_pump_lost(const struct rq_pump *p);

struct rq_budget {
	long max_events;	/* stop after this many records (<= 0: no limit) */
	double max_seconds;	/* stop after this much wall time (<= 0: no limit) */
	uint64_t until_ts;	/* stop before a record later than this (0: no limit) */
};

enum rq_pump_status {
	RQ_PUMP_BUDGET,		/* the events or the time of the budget are used up */
	RQ_PUMP_UNTIL,		/* the next record is past until_ts */
	RQ_PUMP_STOPPED,	/* a sink called rq_pump_stop() */
	RQ_PUMP_IDLE,		/* a live source has nothing more for now */
	RQ_PUMP_END,		/* a file source is done */
	RQ_PUMP_ERROR,		/* rq_pump_error() says what */
};

/*
 * Merge and decode in a thread of the pump's own, from now on: it fills batches of
 * decoded events ahead while rq_pump_run() hands them to the sinks in the caller's
 * thread (the same events, in the same order, with the same budgets and statuses).  For
 * a file source (no refill), before the first record is read; rq_pump_note_overrun()
 * only before this call or after the end, rq_pump_next_raw() not at all.  0, or -1 (not
 * started: the pump works in the caller's thread as before).
 */
int rq_pump_start_worker(struct rq_pump *p);

/* Merge, decode and deliver records within the budget (NULL: until the end). */
enum rq_pump_status rq_pump_run(struct rq_pump *p, const struct rq_budget *b);
/* From a sink: stop after the event being delivered. */
void rq_pump_stop(struct rq_pump *p);
/* Records delivered by the last rq_pump_run(), and in total. */
long rq_pump_last_fed(const struct rq_pump *p);
uint64_t rq_pump_records(const struct rq_pump *p);
/* Timestamp of the next record (UINT64_MAX: none now, or the end). */
uint64_t rq_pump_next_ts(struct rq_pump *p);
/* Time of the last record delivered (0 none yet). */
uint64_t rq_pump_last_ts(const struct rq_pump *p);
double rq_pump_progress(const struct rq_pump *p);
const char *rq_pump_error(const struct rq_pump *p);

/*
 * The merge without decoding and without sinks, for tools and tests that want the raw
 * records in time order: 1 with *rec, 0 at the end (or nothing now, live), -1 on error.
 * Do not mix with rq_pump_run() on the same pump.
 */
int rq_pump_next_raw(struct rq_pump *p, struct rq_raw *rec);

/*
 * A rate that decays (the live events/s): count more records over dt seconds move rate
 * toward count/dt by 1 - e^(-dt/tau), so a burst fades within a few tau.
 */
double rq_rate_decay(double rate, uint64_t count, double dt, double tau);

#endif
