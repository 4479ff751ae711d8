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

#include <stdint.h>

#define RQ_COMM_LEN 16

enum rq_event_type {
	RQ_EV_OTHER = 0,	/* a record rqpath does not analyse (still counted) */
	RQ_EV_SWITCH,		/* sched_switch */
	RQ_EV_WAKING,		/* sched_waking */
	RQ_EV_WAKEUP,		/* sched_wakeup */
	RQ_EV_WAKEUP_NEW,	/* sched_wakeup_new */
	RQ_EV_MIGRATE,		/* sched_migrate_task */
	RQ_EV_FORK,		/* sched_process_fork */
	RQ_EV_EXIT,		/* sched_process_exit */
	RQ_EV_FREE,		/* sched_process_free */
	RQ_EV_PREPARE_EXEC,	/* sched_prepare_exec (v6.10+) */
	RQ_EV_EXEC,		/* sched_process_exec */
	RQ_EV_MOVE_NUMA,	/* sched_move_numa */
	RQ_EV_SWAP_NUMA,	/* sched_swap_numa */
	RQ_EV_SETAFFINITY_ENTER,	/* syscalls:sys_enter_sched_setaffinity */
	RQ_EV_SETAFFINITY_EXIT,
	RQ_EV_SETSCHED_ENTER,	/* syscalls:sys_enter_sched_setscheduler */
	RQ_EV_SETSCHED_EXIT,
	RQ_EV_SETATTR_ENTER,	/* syscalls:sys_enter_sched_setattr */
	RQ_EV_SETATTR_EXIT,
	RQ_EV_CGROUP_ATTACH,	/* cgroup:cgroup_attach_task (cpuset and cpu.idle may change) */
	RQ_EV_MARKER,		/* ftrace:print carrying an "rqpath/1 " line (markers.h) */
	RQ_EV_LOST,		/* the ring buffer of .cpu lost .lost events before this point */
	RQ_EV__COUNT
};

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
 *   LOST          arg=number of lost events (0 = an unknown number)
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
};

const char *rq_event_name(enum rq_event_type type);

#endif
