/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tlindex.h - the TUI's index of the whole trace, built once while it loads: what ran on
 * each CPU and when (for the timeline view), how many tasks its runqueue held, the
 * lost-event gaps, and every placement in 32 bytes (for the timeline and the drill-down
 * past the engine's ring of recent ones).
 *
 * A subscriber of the engine (struct rq_observer): who runs on each CPU (on_run, the
 * model's answer), every event after the engine handled it (queues, lost events,
 * policies), and every placement once settled, with all its facts.  No curses here.
 */
#ifndef RQPATH_TLINDEX_H
#define RQPATH_TLINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis.h"

/*
 * The index of the first of the n sorted entries of arr whose member key is at least v
 * (n if none): the binary search every time-ordered table of the index needs.
 */
#define TL_LOWER_BOUND(arr, n, key, v) ({					\
	size_t lo_ = 0, hi_ = (n);						\
	while (lo_ < hi_) {							\
		size_t mid_ = lo_ + (hi_ - lo_) / 2;				\
		if ((arr)[mid_].key < (v))					\
			lo_ = mid_ + 1;						\
		else								\
			hi_ = mid_;						\
	}									\
	lo_;									\
})

/* One stretch of a CPU: pid 0 the idle task; the time between runs is unknown. */
struct tl_run {
	uint64_t start, end;
	int32_t pid;
	uint32_t comm : 24;	/* tl_comm() id */
	uint32_t policy : 8;	/* the task's policy when it began (TL_POLICY_UNKNOWN) */
};
#define TL_POLICY_UNKNOWN 255

/*
 * A CPU's runqueue from ts on: n tasks queued (runnable, not running), -1 not known; the
 * first of them (pid, 0 none).
 */
struct tl_queue {
	uint64_t ts;
	int32_t n;
	int32_t pid;
};

/*
 * One settled placement (the engine's on_settled record), packed: the common fields here,
 * and the whole record in more[] when it has facts these cannot hold (a remark, an
 * offcpu-fork's outcome, a CPU or seq out of range).  tl_pl_expand() gives the record
 * back as the engine settled it, whichever way it was kept.
 */
#define TL_CONF(c) ((c)->conf)
#define TL_POSSIBLE(c) ((unsigned int)(c)->possible)
struct tl_pl {
	uint64_t ts;
	int64_t delay_ns;	/* queue delay, -1 unknown or did not run */
	uint32_t seq;		/* the engine's seq (low 32 bits; more[] has all of it) */
	int32_t pid;
	int32_t writer;		/* common_pid of the deciding record */
	uint32_t comm;
	uint32_t more;		/* the whole record: index + 1 in more[], 0 none */
	int16_t cpu, from, to;	/* from -1: unknown */
	uint16_t assume;	/* 1 << enum rq_assumption */
	uint8_t path, findings, possible, conf, notes, level;
};

struct tl_lost {
	uint64_t ts;
	int32_t cpu;
	uint32_t n;		/* events lost, 0 unknown */
};

struct tl_cpu {
	struct tl_run *runs;
	size_t n, cap;
	bool open;		/* runs[n] is being written: pid and start set */
	struct tl_run cur;
	struct tl_queue *q;	/* every change of the engine's queue length */
	size_t nq, qcap;
};

struct tl_index {
	const struct rq_analysis *an;
	int nr_cpus;
	struct tl_cpu *cpu;
	struct tl_pl *pl;
	size_t npl, plcap, sorted;	/* pl[0..sorted) is in time order */
	struct rq_placement *more;	/* the records tl_pl cannot hold */
	size_t nmore, morecap;
	struct tl_lost *lost;
	size_t nlost, lostcap;
	char (*comms)[RQ_COMM_LEN];
	uint32_t ncomms, commcap;
	uint32_t *hash;		/* comm id + 1, 0 empty */
	uint32_t hashcap;
	uint64_t first_ts, last_ts;
	bool complete;		/* the trace was read to its end */
	size_t max_pl, max_runs;	/* live: a window, the oldest half dropped; 0 no limit */
	bool full;		/* out of memory: stopped growing */
};

struct tl_index *tl_index_new(void);
void tl_index_free(struct tl_index *x);
/* Start over for a new analysis and subscribe to it. */
void tl_index_attach(struct tl_index *x, struct rq_analysis *an);
/* Live: keep the most recent placements and runs only (bounded memory). */
void tl_index_window(struct tl_index *x, size_t max_pl, size_t max_runs);
/* Unsubscribe from an analysis. */
void tl_index_detach(struct tl_index *x, struct rq_analysis *an);
/* The trace's end was reached: close the runs, sort the placements. */
void tl_index_complete(struct tl_index *x);
/* Placements in time order (sorts what arrived since the last call). */
void tl_index_sort(struct tl_index *x);
const char *tl_comm(const struct tl_index *x, uint32_t id);

/* The run of cpu covering ts, NULL if none; *i gets its index (or where it would be). */
const struct tl_run *tl_run_at(const struct tl_index *x, int cpu, uint64_t ts, size_t *i);
/*
 * Tasks queued on cpu just before ts (what a placement at ts saw): 0 or more, -1 when the
 * engine did not know that runqueue (or nothing was recorded before ts); *first (may be
 * NULL) gets the pid of the first of them (0: none).
 */
int tl_queued_before(const struct tl_index *x, int cpu, uint64_t ts, int *first);
/* The first placement at or after ts (in pl[0..sorted)). */
size_t tl_pl_at(const struct tl_index *x, uint64_t ts);
/* The settled record of placement seq (its low 32 bits) at ts: false if not indexed. */
bool tl_pl_find(const struct tl_index *x, uint64_t seq, uint64_t ts, struct rq_placement *out);
/* The settled record of a placement, as the engine gave it. */
void tl_pl_expand(const struct tl_index *x, const struct tl_pl *c, struct rq_placement *p);

#endif
