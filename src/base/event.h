/* SPDX-License-Identifier: GPL-2.0 */
/*
 * event.h - the one normalized scheduler event that every source produces.
 *
 * The live recorder and the trace.dat replay both turn tracepoint records into a
 * struct rq_event (decode.c); everything after that (model, classifier, findings,
 * views) never knows where an event came from.
 */
#ifndef RQPATH_EVENT_H
#define RQPATH_EVENT_H

#include <stdbool.h>
#include <stdint.h>

#include "truth.h"

#define RQ_COMM_LEN 16

/* One type per row of events.def, in its order; OTHER and LOST are not tracepoints. */
enum rq_event_type {
	RQ_EV_OTHER = 0,	/* a record rqpath does not analyse (still counted) */
#define RQ_EVENT(id, ...) RQ_EV_##id,
#include "events.def"
#undef RQ_EVENT
	RQ_EV_LOST,		/* the ring buffer of .cpu lost .lost events before this point */
	RQ_EV__COUNT
};

/* RQ_EV_LOST: the gap is a clock that went backwards on that CPU (data quality) */
#define RQ_LOST_BACKWARDS 1

/* common_flags bits (include/linux/trace_events.h, enum trace_flag_type). */
#define RQ_FLAG_IRQS_OFF	0x01
#define RQ_FLAG_HARDIRQ		0x08
#define RQ_FLAG_SOFTIRQ		0x10
#define RQ_FLAG_NMI		0x40

/*
 * Field use per type (unused fields are zero):
 *   SWITCH        pid=prev_pid comm=prev_comm prio=prev_prio state=prev_state
 *                 pid2=next_pid comm2=next_comm prio2=next_prio
 *   WAKING/WAKEUP/WAKEUP_NEW  pid comm prio cpu_a=target_cpu
 *   MIGRATE       pid comm prio cpu_a=orig_cpu cpu_b=dest_cpu
 *   FORK          pid=parent comm=parent_comm pid2=child comm2=child_comm
 *   EXIT/FREE     pid comm prio
 *   PREPARE_EXEC  pid comm(old) str=filename
 *   EXEC          pid pid2=old_pid str=filename
 *   MOVE/SWAP_NUMA pid (and pid2 for the swap partner) cpu_a=src cpu_b=dst
 *   SET*_ENTER    pid=target (0 = self) arg=policy (setscheduler only)
 *   SET*_EXIT     arg=return value
 *   CGROUP_ATTACH pid comm
 *   MARKER        str=the text after "rqpath/1 "
 *   TRUTH         truth=the record (truth.h), valid only while the event is handled
 *   LOST          arg=number of lost events (0 = an unknown number); state=
 *                 RQ_LOST_BACKWARDS when the CPU's clock went backwards instead
 */
struct rq_event {
	uint64_t ts;		/* nanoseconds, trace clock */
	enum rq_event_type type;
	int cpu;		/* ring buffer the record was written to */
	int common_pid;		/* the writer: current, or the interrupted task */
	uint8_t flags;		/* common_flags */
	uint8_t preempt_count;	/* common_preempt_count */
	int pid;
	int pid2;
	int prio;
	int prio2;
	int cpu_a;
	int cpu_b;
	long long state;
	long long arg;
	char comm[RQ_COMM_LEN];
	char comm2[RQ_COMM_LEN];
	const char *str;	/* valid only while the event is being handled */
	int str_len;
	const struct rq_truth_rec *truth; /* RQ_EV_TRUTH only */
};

/* One row of events.def, for code that walks the table at run time (events.c). */
struct rq_event_info {
	const char *system;
	const char *name;
	enum rq_event_type type;
	bool recorded;		/* rqpath record enables it */
	const char *loses;	/* what a trace without it cannot show */
};

extern const struct rq_event_info rq_event_table[];
extern const int rq_event_table_len;

/* "sched_switch", "print"; "other" and "lost" for the two types that are no tracepoint. */
const char *rq_event_name(enum rq_event_type type);
/* The first event (table order) finding needs that counts[] has none of, else RQ_EV_OTHER. */
enum rq_event_type rq_finding_lacks(int finding, const uint64_t counts[RQ_EV__COUNT]);

/*
 * Does ev show its writer (common_pid, 0 the idle task) running on its CPU, as the model
 * reads it (rqpath-paths(7), Model repair)?  Not a switch (it names its prev itself), not a
 * marker (the recorder's note, not its work), not a record of NMI context (an NMI may
 * land inside a context switch).  A hard or soft interrupt's record does: its common_pid
 * is the task it interrupted, which ran.  The engine corrects the running task from these,
 * and everything that asks who ran (the timeline, the queue delay) asks the engine.
 */
static inline bool rq_event_shows_runner(const struct rq_event *ev)
{
	return ev->type != RQ_EV_SWITCH && ev->type != RQ_EV_MARKER && ev->common_pid >= 0 &&
	       !(ev->flags & RQ_FLAG_NMI);
}

/* For includers of events.def: keep a row only when it is recorded. */
#define RQ_IF_RECORDED_1(...) __VA_ARGS__
#define RQ_IF_RECORDED_0(...)

#endif
