/* SPDX-License-Identifier: GPL-2.0 */
/*
 * truth.h - the kernel's own scheduler state at a placement, as the BPF side of the
 * recorder reads it (design.md "Kernel truth").  One record per tracepoint hit
 * of interest: the task's state (task_struct) and the runqueue state of each CPU
 * (struct rq, reached through prev->se.cfs_rq->rq at sched_switch), i.e. what
 * select_task_rq() reads when it decides.
 *
 * This struct is the seam between three parts, each owned by one file:
 *   - the BPF program fills it (src/input/bpf/truth.bpf.c) into a BPF ring buffer;
 *   - the recorder writes it into the trace.dat as the event rqpath:truth (a buffer of
 *     its own in the file, typed fields, so trace-cmd report prints it) and the pump
 *     hands it back out of a file as an RQ_EV_TRUTH event whose .truth points at it;
 *   - the engine uses it (src/engine/) to prove or refute a selection and to judge
 *     idle/busy/SCHED_IDLE-only CPUs from the kernel's state, not the model's.
 *
 * The layout is fixed (no pointers, explicit padding, little- or host-endian as the
 * file says): the BPF program and user space share it, and so does the file's format.
 */
#ifndef RQPATH_TRUTH_H
#define RQPATH_TRUTH_H

#include <stdint.h>

/*
 * Entries a record carries the runqueue state of: the CPUs the decision could use (the
 * LLCs of task_cpu(p) and of the CPU the program runs on, those the task may run on),
 * each entry naming its CPU; more candidates than this: RQ_TRUTH_CUT.  Records of
 * rqpath before the LLC-sized ones (no ids field in the file) hold CPUs 0..nr_cpus-1.
 */
#define RQ_TRUTH_MAX_CPUS 64
/* Words of the task's cpus_ptr kept, and the machine size the BPF side covers (1024). */
#define RQ_TRUTH_MASK_WORDS 16
#define RQ_TRUTH_CPUS_LIMIT (RQ_TRUTH_MASK_WORDS * 64)

/* Where the record was taken (the tp_btf program it came from). */
enum rq_truth_point {
	RQ_TRUTH_WAKING = 1,	 /* sched_waking: before try_to_wake_up() selects */
	RQ_TRUTH_WAKEUP = 2,	 /* sched_wakeup: after the enqueue (no longer recorded) */
	RQ_TRUTH_FORK = 3,	 /* sched_process_fork: the child, not yet placed */
	RQ_TRUTH_WAKEUP_NEW = 4, /* sched_wakeup_new: the child, placed */
	RQ_TRUTH_EXEC = 5,	 /* sched_process_exec (after sched_exec() ran) */
};

/* rq_truth_rec.flags */
#define RQ_TRUTH_ON_RQ		0x01 /* p->on_rq != 0: ttwu_runnable(), no CPU selected */
#define RQ_TRUTH_DELAYED	0x02 /* p->se.sched_delayed: a delayed-dequeue entity */
#define RQ_TRUTH_MIGRATE_OFF	0x04 /* p->migration_disabled */
#define RQ_TRUTH_CUT		0x08 /* more candidate CPUs than entries (or than 1024) */
#define RQ_TRUTH_NO_IDLE_COUNT	0x10 /* this kernel's cfs_rq has no SCHED_IDLE count: h_nr_idle 0 */
#define RQ_TRUTH_NO_DELAYED	0x20 /* this kernel has no delayed dequeue (before 6.12) */

/* rq_truth_cpu.known */
#define RQ_TRUTH_RQ_UNKNOWN	0	/* no sched_switch seen on that CPU since attach */
#define RQ_TRUTH_RQ_KNOWN	1

/* One CPU's runqueue at the moment of the record.  Counts saturate at 255. */
struct rq_truth_cpu {
	uint32_t curr_pid;	/* rq->curr->pid (0: the idle task) */
	uint8_t known;		/* RQ_TRUTH_RQ_* */
	uint8_t curr_policy;	/* rq->curr->policy */
	uint8_t nr_running;	/* rq->nr_running */
	uint8_t h_nr_idle;	/* rq->cfs.h_nr_idle: SCHED_IDLE-only when == nr_running > 0 */
	uint8_t ttwu_pending;	/* rq->ttwu_pending: a wakeup queued onto it */
	uint8_t pad;
	uint16_t cpu;		/* the CPU this entry is of */
};

struct rq_truth_rec {
	uint64_t ts;		/* bpf_ktime_get_ns(): CLOCK_MONOTONIC = trace clock "mono" */
	uint32_t pid;		/* the task woken, forked or exec'd (the child at fork) */
	uint32_t policy;	/* p->policy (SCHED_NORMAL 0, ..., SCHED_IDLE 5) */
	uint32_t nr_cpus_allowed; /* p->nr_cpus_allowed */
	uint32_t task_cpu;	/* task_cpu(p): the CPU it last ran on (prev) */
	uint16_t cpu;		/* the CPU the tracepoint fired on */
	uint8_t point;		/* enum rq_truth_point */
	uint8_t flags;		/* RQ_TRUTH_* */
	uint16_t nr_cpus;	/* entries of cpus[] that are filled (sorted by cpu once read) */
	uint8_t mask_words;	/* words of mask[] read (the machine's CPUs / 64, rounded up) */
	uint8_t pad;
	uint64_t mask[RQ_TRUTH_MASK_WORDS]; /* p->cpus_ptr, CPU n is bit n%64 of word n/64 */
	struct rq_truth_cpu cpus[RQ_TRUTH_MAX_CPUS];
};

_Static_assert(sizeof(struct rq_truth_cpu) == 12, "rq_truth_cpu is part of a file format");
_Static_assert(sizeof(struct rq_truth_rec) == 32 + 8 * RQ_TRUTH_MASK_WORDS +
	       RQ_TRUTH_MAX_CPUS * 12,
	       "rq_truth_rec is part of a file format");

#endif
