/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.h - what several of the engine's files share, and nobody else includes: the
 * task, the CPU and the analysis (each part's state in a sub-struct of its own header),
 * the constants and small helpers most parts use, and the functions that more than one
 * other part calls.  What one part alone calls in another is in the private header of
 * the part that defines it:
 *
 *   model.h        model.c: tasks, their attributes, per-CPU runqueues, markers, lost events
 *   cpubits.h      cpubits.c: the CPUs as bitmaps, the wakings' snapshots
 *   classify.h     classify.c: placements: which select_task_rq() path, with what confidence
 *   truth_model.h  truth.c: the kernel's state from the rqpath:truth records
 *   findings.h     findings.c: the judges and the stores of their verdicts
 *   delay_store.h  delay.c: the queue-delay store (delay.h is its public face)
 *
 * analysis.c (rq_analysis_feed(), one handler per event type, and the life cycle),
 * profile.c, describe.c, topology.c, task_info.c: see analysis.h.
 *
 * The four headers whose part's state struct rq_analysis embeds (model.h, cpubits.h,
 * classify.h, truth_model.h) come in two halves: the state, which engine.h includes with
 * RQPATH_ENGINE_STATE_ONLY defined, and the functions, which include engine.h.  A file
 * includes the headers of the parts it calls, in any order.
 */
#ifndef RQPATH_ENGINE_H
#define RQPATH_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analysis.h"

/* each part's state, for struct rq_analysis: the first half of its header */
#define RQPATH_ENGINE_STATE_ONLY
#include "classify.h"
#include "cpubits.h"
#include "model.h"
#include "truth_model.h"
#undef RQPATH_ENGINE_STATE_ONLY

/*
 * One task as the engine knows it.  Outside the engine (outputs, views) a task is seen
 * through struct rq_task_info (rq_task_info_get()): its identity, attributes, state and
 * counters.  The rest is the model's and the classifier's working state.
 *
 * The fields every event of the task reads or writes come first, in the first two
 * cache lines (a switch, a waking, a wakeup: the pid, its state and queue, its class,
 * its CPUs, its name); the rarer ones (fork, exec, syscalls, stopper moves, NUMA, the
 * counters) after them, so that most events load no other line of the task.  CPU numbers
 * that are only ever set to a CPU of the trace or -1 are 16 bits (RQ_MAX_CPUS is 4096);
 * those a record sets unchecked are int.
 */
struct rq_task {
	/* ---- every event: the first cache line */
	int pid;
	uint8_t state;		/* enum rq_task_state */
	int8_t policy;		/* RQ_POLICY_UNKNOWN or a policy number (0-7) */
	bool idle_cgroup;	/* under a cgroup with cpu.idle=1 (counts as SCHED_IDLE) */
	bool mask_known;	/* mask is a fact: marker, inheritance from a known one */
	bool on_delayed;	/* in rq_cpu's maybe-delayed set, not its queue */
	bool waking;		/* sched_waking seen, sched_wakeup not yet */
	bool wake_migrated;	/* sched_migrate_task inside the waking window */
	bool stopper_pending;	/* migration/N moved it; exec, affinity or active balance? */
	/* the rarer flags, a bit each */
	bool first_run_pending : 1;	/* forked, not run yet */
	bool stop_class : 1;	/* migration/N: the stopper, a stop-class task (from comm) */
	bool exited : 1;
	bool retired : 1;	/* in the FIFO of dead tasks kept for the views */
	bool fork_selecting : 1;	/* forked, sched_wakeup_new not yet: a move is the fork's */
	bool seen_multi : 1;	/* it ran on two CPUs or more since: a proven multi-CPU set */
	bool mask_changed : 1;	/* affinity or cgroup changed in the trace, value unseen */
	bool tgid_self : 1;	/* its tgid is its pid (else the cold part's tgid; 0 unknown) */
	bool wake_move_held : 1;	/* cold->wake_move_slot >= 0: read at every switch-in */
	int16_t prio;		/* last prio seen in an event (rqe_prio()), -1000 unknown */
	int16_t cpu;		/* last known CPU, -1 unknown */
	int16_t rq_cpu;		/* CPU whose queue (or delayed set) holds it, -1 none */
	int16_t blocked_cpu;	/* where it last blocked (blocked_ts), -1 unknown */
	int16_t waking_cpu;
	int16_t pending_wake_cpu;	/* a migrated wakeup is on its way to this CPU, -1 none */
	/* the CPUs whose curr_task it is (cpubits.c): how many, one of them (-1 none) */
	int16_t ncurr, curr_cpu;
	/* what comm says, worked out when it changes (rqe_comm_changed()), not per event */
	int16_t kthread_cpu;	/* rqe_percpu_kthread_cpu(comm) */
	int16_t seen_cpu;	/* first CPU it ran on since the mask last changed, -1 */
	int rq_index;		/* its place in that list */
	int waker_pid;
	int wake_from;
	/*
	 * when it last blocked: its switch-out, or, when the trace lacks that, the latest
	 * moment it can have left (rqe_left_unseen()); 0: not in the trace
	 */
	uint64_t blocked_ts;
	/*
	 * the CPUs truly idle, busy for the kernel, and of unknown idleness when the
	 * waking was seen: a buffer of the analysis' pool (rqe_snap()) from sched_waking
	 * to sched_wakeup, -1 none
	 */
	int snap;
	uint32_t delay_head;	/* its pending placements in delay.c's pool: index + 1, 0 none */
	/*
	 * the rare fields, out of line: &rqe_cold_none (every field at its default, never
	 * written) until one is first written through rqe_cold()
	 */
	const struct rq_task_cold *cold;
	char comm[RQ_COMM_LEN];
	/*
	 * its allowed CPUs when mask_known: an interned set (rqe_mask_intern()), shared with
	 * every task allowed the same CPUs; an->no_mask (empty) when it never had one
	 */
	const struct rq_cpumask *mask;
	/* ---- the second cache line and on: the queue delay (every switch and placement) */
	struct rq_delay_task delay;	/* its last switch-ins: delay.c */
	/*
	 * counters, 16 bits here: what passes 65535 is carried into the cold part's
	 * (rqe_task_count()); the count is the sum (task_info.c).  A wakeup's two within
	 * the first 128 bytes, with what the wakeup reads of the task: a line not read
	 * otherwise cost a miss a wakeup at 256 CPUs (callgrind)
	 */
	uint16_t nr_wakeups, nr_migrations, nr_forks, nr_execs;

	/* ---- less often: the findings' counters, the hash chain, the rare fields */
	uint16_t nr_findings[RQ_FIND__COUNT];
	struct rq_task *hnext;	/* the hash chain: pids beyond the direct index, foreach */
	uint64_t first_ts;
};

/*
 * What few tasks ever need (forks, execs, syscalls, stopper and NUMA moves, held
 * placements, the exit), out of struct rq_task: allocated at the first write
 * (rqe_cold()), freed with the task; a task that never needed one reads rqe_cold_none.
 * A new per-task field that most tasks leave at its default belongs here.
 */
struct rq_task_cold {
	int ppid;		/* 0 = unknown */
	int tgid;		/* when not tgid_self: 0 = unknown */
	uint32_t delay_wait_head;	/* delay.c: execs whose verdict waits for a marker */
	/*
	 * delay.c: the last switch-ins (ring, RQ_DELAY_RUNS) once the task's own could not
	 * hold them (a gap over 32 bits or a clock going back: struct rq_delay_task)
	 */
	uint64_t runs[RQ_DELAY_RUNS];
	uint8_t nruns_total;	/* mod 256: the next goes to runs[nruns_total % N] */
	uint64_t exit_ts;
	bool stopper_comm_changed;	/* its comm changed since: an exec not in the trace */
	/*
	 * sched_prepare_exec seen, its sched_process_exec not yet: the name change that
	 * follows is that exec's (begin_new_exec()), no sign of an exec the trace lacks
	 */
	bool exec_prepared;
	bool setaffinity_inflight;
	bool numa_swap;
	int stopper_slot;	/* that move, waiting in the analysis' held placements */
	int stopper_later_slot;	/* a later one inside its window: the exec pairs the first */
	int wake_move_slot;	/* no sched_waking: its wakeup's move, held until sched_wakeup */
	/* what the 16-bit counters of struct rq_task carried over */
	uint64_t nr_forks, nr_execs, nr_migrations, nr_wakeups;
	uint64_t nr_findings[RQ_FIND__COUNT];
	uint64_t affinity_change_ts;	/* last sched_setaffinity on it, 0 none */
	int inflight_target;	/* pid the in-flight set* syscall targets */
	int exec_slot;		/* the first of them, held for an example; -1 none */
	long long inflight_policy;
	/* execs judged "unknown" since the mask became unknown, awaiting the next marker */
	uint64_t unknown_execs;
	/* its last exec (at truth_exec_ts) waits for the record that follows it (truth.c) */
	bool truth_exec_wait;
	/*
	 * the recorder's marker for it came while it waited: the task's mask is that
	 * marker's, and settles the exec if the record never comes (rqe_exec_wait_end())
	 */
	bool truth_exec_marked;
	uint64_t truth_exec_ts;
	uint64_t numa_ts;	/* last sched_move_numa/sched_swap_numa naming it */
	int fork_example;	/* index in offcpu-fork examples awaiting first run, -1 */
	int16_t fork_parent_cpu;
	int8_t fork_parent_idled;	/* at its first run: -1 unknown, 1 the parent's CPU idled */
	uint64_t fork_ts;
	int fork_held;		/* its offcpu-fork placement, held until it exits: slot + 1 */
};

extern const struct rq_task_cold rqe_cold_none;
struct rq_task_cold *rqe_cold_new(struct rq_task *t);

/* t's cold part to write, allocated if t has none yet; NULL when out of memory */
static inline struct rq_task_cold *rqe_cold(struct rq_task *t)
{
	return t->cold != &rqe_cold_none ? (struct rq_task_cold *)t->cold : rqe_cold_new(t);
}

/* t's cold part to write when t has one (a slot or a field is set), else NULL */
static inline struct rq_task_cold *rqe_cold_if(const struct rq_task *t)
{
	return t->cold != &rqe_cold_none ? (struct rq_task_cold *)t->cold : NULL;
}

/* *c += n; what does not fit in 16 bits is returned, for the cold part's counter */
static inline uint64_t rqe_add16(uint16_t *c, uint64_t n)
{
	uint64_t v = *c + n;

	if (v <= UINT16_MAX) {
		*c = (uint16_t)v;
		return 0;
	}
	*c = 0;
	return v;
}

/* a 16-bit counter of t += n (nr_wakeups, nr_migrations, nr_findings[i]) */
#define rqe_task_count(t, field, n)							\
	do {										\
		uint64_t carry_ = rqe_add16(&(t)->field, (n));				\
		struct rq_task_cold *c_;						\
											\
		if (carry_ && (c_ = rqe_cold(t)))					\
			c_->field += carry_;						\
	} while (0)

/* Call fn for each task known; stops early when fn returns non-zero. */
int rqe_task_foreach(const struct rq_analysis *an, int (*fn)(const struct rq_task *, void *),
		    void *data);
/* rqe_task_mask() of a task whose mask is no fact (out of line: the rarer case) */
const struct rq_cpumask *rqe_task_mask_unknown(const struct rq_analysis *an,
					       const struct rq_task *t, unsigned int *assume);

/*
 * The page of pid_pages that no known pid is in: every entry of the index points to it
 * until a task with a pid in that range is created, so that rqe_task_find() loads without
 * testing for a missing page.  All NULL, and never written.
 */
extern struct rq_task *const rqe_no_pid_page[RQ_PID_PAGE];

/* rqe_task_find() of a pid not in the direct index */
struct rq_task *rqe_task_find_hashed(const struct rq_analysis *an, int pid);

/*
 * One CPU of the model (struct rq_cpu_summary is what the outputs see of it).  What most
 * events of the CPU read is in its first cache line (the CPUs are allocated on a cache
 * line, 192 bytes each: with 256 CPUs an event then touches mostly the first line of one
 * or two, and those stay in L1); the counters and the rarer fields follow.
 */
struct rq_cpu {
	/*
	 * ---- the first cache line: what most events read or write on their CPU, and a
	 * wakeup on its target (at 256 CPUs only these lines stay in L1; a field here
	 * that an event touches costs nothing, one a line further costs a miss an event)
	 */
	struct rq_task *curr_task;	/* rqe_task_find(curr), kept in step (cpubits.c) */
	struct rq_task **queued;	/* runnable, not running */
	struct rq_task **delayed;	/* blocked fair tasks maybe still enqueued (DELAY_DEQUEUE) */
	uint64_t last_idle_ts;	/* when it was last seen running the idle task */
	int curr;		/* pid running, 0 idle, -1 unknown: set by rqe_set_curr() */
	int nqueued, ndelayed;
	int pending_wakeups;
	int trailing_prev;	/* prev of its last switch until the next task writes, -1 */
	/* the placements from and to it: the low 32 bits, the rest in *_hi (rqe_count32()) */
	uint32_t placements_in, placements_out;
	int16_t llc;		/* first CPU of its LLC group (< RQ_MAX_CPUS) */
	bool known : 1;		/* runqueue known: seen idle, or watched CPU_KNOWN_AFTER ns */
	bool dirty : 1;		/* its bits in idle_bits/busy_bits are stale (cpubits.c) */
	bool watched : 1;	/* watched_since is not 0 (read with last_idle_ts) */
	bool idle_repaired : 1;	/* idle_repairs is not 0 */
	/*
	 * curr_task's class, kept in step by cpubits.c (rqe_task_class_changed()): a judge
	 * or the bits' flush asking whether the CPU's runner makes it busy reads no other
	 * line (at 256 CPUs the runner's was a miss a wakeup)
	 */
	bool curr_idle_class : 1;	/* rqe_task_is_idle_class(curr_task) */
	bool curr_policy_known : 1;	/* curr_task->policy != RQ_POLICY_UNKNOWN */
	/* the lists' capacities, rqe_list_cap(): 1 << n, 0 none yet */
	unsigned int queued_cap : 5, delayed_cap : 5;
	/* ---- the second: a placement's, and the switch's of a CPU not yet known */
	uint64_t watched_since;	/* first switch seen while not known */
	uint64_t idle_since;	/* when the model last saw it go idle (rqe_curr_changed()) */
	uint64_t last_prune;
	uint32_t placements_in_hi, placements_out_hi;
	/* data quality: the model corrected from the records' common_pid */
	uint64_t idle_repairs;	/* of those (repairs), the model had the idle task running */
	uint64_t repairs;	/* curr was wrong (e.g. a switch out of idle missing) */
	/* ---- the rest */
	int core, node;
	int capacity;		/* 0 unknown; from --topology */
	uint64_t lost_events;
	uint64_t switch_mismatches;	/* a sched_switch whose prev was not the model's curr */
	uint64_t clock_backwards;	/* records older than the CPU's previous one */
} __attribute__((aligned(64)));

/* What was fed and classified: the summary's counters. */
struct rqe_stats {
	uint64_t nr_events;
	uint64_t lost_events;
	const char *cut;	/* the recording is cut short: why (rq_analysis_note_cut()) */
	uint64_t first_ts, last_ts;
	uint64_t counts[RQ_EV__COUNT];
	uint64_t path_counts[RQ_PATH__COUNT];
	uint64_t path_conf[RQ_PATH__COUNT][3];	/* per path: exact, inferred, unknown */
	uint64_t conf_counts[3];
	uint64_t nr_placements;
	uint64_t nr_filtered;	/* placements the filter left out (seq numbers go on) */
};

/* What the trace can and cannot support. */
struct rqe_facts {
	bool has_event[RQ_EV__COUNT];
	bool has_markers;
	bool has_topology;
	enum rq_llc_source llc_source;
	bool asym_capacity;	/* CPUs of different capacities: EAS may place wakeups */
	const char *capacity_source;	/* rq_summary's; NULL: "assumed" */
	char eas_event[64];	/* rq_analysis_note_eas(): "" none */
};

/* Data quality beyond the per-CPU repair counters (model.c). */
struct rqe_quality {
	int marker_pid;		/* the recorder: the writer of the first marker, -1 none yet */
	uint64_t markers_ignored;	/* marker lines from another writer: not trusted */
	bool truth_marked;		/* the recorder's truth line says source=bpf */
	uint64_t truth_drops;		/* ... and that many records were dropped */
	uint64_t truth_misses;		/* ... or not made (the programs did not run) */
	uint64_t mask_violations;	/* a task ran outside its marked mask: mask dropped */
	bool lost_on_cpus;	/* some CPU's lost_events is not 0 */
};

/*
 * rq_analysis_subscribe() (analysis.c): the subscribers, and for each hook whether any
 * has it, so that a replay with no subscriber (audit) tests one flag per event
 */
struct rqe_observers {
	struct rq_observer *list;
	int n, cap;
	bool event, placement, settled, run;
};

struct rq_analysis {
	struct rq_analysis_opts opts;
	/* trace identity */
	char source[512];	/* file name or "live" */
	int nr_cpus;
	struct rq_profile profile;
	char error[256];	/* why rq_analysis_begin() failed, for the user */
	struct rqe_stats stats;	/* what was fed and classified (analysis.c, classify.c) */
	struct rq_finding_store findings[RQ_FIND__COUNT];
	struct rqe_scope scope;	/* the filter (classify.h) */
	struct rqe_facts facts;	/* what the trace can and cannot support */
	struct rqe_quality quality;	/* data quality beyond the per-CPU repair counters */
	/* model */
	struct rq_cpu *cpus;
	struct rqe_masks masks;	/* the interned CPU sets (model.h) */
	struct rqe_cpubits bits;	/* the CPUs and LLCs as bitmaps, snapshots (cpubits.h) */
	struct rqe_tasks tasks;	/* the tasks and their memory (model.h) */
	struct rqe_held held;	/* placements held until what follows is known (classify.h) */
	struct rqe_recent recent;	/* recent placements ring (classify.h) */
	struct rq_delay *delay;	/* queue delay of each placement (delay_store.h) */
	struct rqe_observers obs;	/* rq_analysis_subscribe()'s subscribers */
	struct rqe_truth truth;	/* the kernel's state, from rqpath:truth (truth_model.h) */
	/* rq_analysis_summary()'s answer, refilled at each call */
	struct rq_summary summary;
	struct rq_cpu_summary *cpu_summary;
};

/* Whether p is one the filter keeps (classify.c); true without a filter. */
bool rqe_in_scope_slow(const struct rq_analysis *an, const struct rq_placement *p);
static inline bool rqe_in_scope(const struct rq_analysis *an, const struct rq_placement *p)
{
	return !an->scope.filtering || rqe_in_scope_slow(an, p);
}

/* The store a judge counts p's verdict of finding f in: the one reported, or the
 * throwaway one of the placements the filter leaves out. */
static inline struct rq_finding_store *rqe_store(struct rq_analysis *an,
						 const struct rq_placement *p, int f)
{
	return rqe_in_scope(an, p) ? &an->findings[f] : &an->scope.filtered_out[f];
}

/*
 * The task with that pid, or NULL; valid until the next rq_analysis_feed() (it may be
 * evicted) or rq_analysis_free().
 */
static inline struct rq_task *rqe_task_find(const struct rq_analysis *an, int pid)
{
	unsigned int i = (unsigned int)pid;	/* a negative pid is >= RQ_PID_LIMIT */

	if (i >= RQ_PID_LIMIT)
		return rqe_task_find_hashed(an, pid);
	/* a page not allocated is rqe_no_pid_page: NULL there too */
	return an->tasks.pid_pages[i / RQ_PID_PAGE][i % RQ_PID_PAGE];
}

#define NSEC_PER_MSEC 1000000ULL
#define PRIO_UNKNOWN -1000

static inline bool rqe_valid_cpu(const struct rq_analysis *an, int cpu)
{
	/* one compare: a negative cpu is a large unsigned */
	return (unsigned int)cpu < (unsigned int)an->nr_cpus;
}

#define BITS_PER_UL (sizeof(unsigned long) * 8)

static inline size_t rqe_mask_longs(const struct rq_analysis *an)
{
	return ((size_t)an->nr_cpus + BITS_PER_UL - 1) / BITS_PER_UL;
}

static inline bool rqe_bit_test(const unsigned long *bits, int cpu)
{
	return bits[cpu / BITS_PER_UL] & (1UL << (cpu % BITS_PER_UL));
}

/* RT and DL tasks show prio < 100 (DL: -1) in every sched event. */
static inline bool rqe_task_is_rt_or_dl(const struct rq_task *t)
{
	if (t->policy == RQ_SCHED_FIFO || t->policy == RQ_SCHED_RR ||
	    t->policy == RQ_SCHED_DEADLINE)
		return true;
	return t->prio != PRIO_UNKNOWN && t->prio < 100;
}

/*
 * What a known mask (a marker's, or inherited) rests on, 1 << RQ_ASSUME_*: without the
 * sched_setaffinity events a change since the recorder read it is unseen, and without
 * cgroup_attach_task a cpuset move (which changes the allowed CPUs too) is.
 */
static inline unsigned int rqe_mask_unseen(const struct rq_analysis *an)
{
	return (an->facts.has_event[RQ_EV_SETAFFINITY_ENTER] ? 0 : 1u << RQ_ASSUME_MASK_LAST_READ) |
	       (an->facts.has_event[RQ_EV_CGROUP_ATTACH] ? 0 : 1u << RQ_ASSUME_CPUSET_UNSEEN);
}

/*
 * The allowed CPUs a verdict may use for t; *assume gets the RQ_ASSUME_* bits, if any.
 * Every placement asks: a known mask (a marker's, or inherited) is answered inline.
 */
static inline const struct rq_cpumask *rqe_task_mask(const struct rq_analysis *an,
						    const struct rq_task *t, unsigned int *assume)
{
	if (t->mask_known) {
		/* a change since the last /proc read the trace would not show */
		*assume |= rqe_mask_unseen(an);
		return t->mask;
	}
	return rqe_task_mask_unknown(an, t, assume);
}

/*
 * A CPU as idle_cpu() and sched_idle_cpu() would see it, the task being placed (skip)
 * left out.  nr_running counts the running task, the queued ones and the delayed ones
 * (DELAY_DEQUEUE); only the first two are facts here.
 */
struct cpu_look {
	bool known;		/* runqueue and running task known */
	bool idle;		/* idle_cpu(): idle task, nothing queued, no wakeup pending */
	bool pending;		/* a wakeup is on its way to it */
	int ntasks;		/* running + queued */
	int nonidle;		/* of those, not SCHED_IDLE work */
	int unknown;		/* of those, policy unknown */
	int delayed_nonidle;	/* maybe-delayed ones not known to be SCHED_IDLE work */
	unsigned int assume;
};

/* analysis.c: tell the subscribers (struct rq_observer) */
void rqe_notify_placement(struct rq_analysis *an, const struct rq_placement *p);
void rqe_notify_settled(struct rq_analysis *an, const struct rq_placement *p);

/*
 * model.c: busy for the kernel (neither idle_cpu() nor sched_idle_cpu()) by what l says,
 * or by the running task alone when the CPU's runqueue is unknown
 */
bool rqe_look_busy(const struct cpu_look *l, unsigned int *assume);
bool rqe_runner_busy(const struct rq_analysis *an, int cpu, const struct rq_task *skip,
		     struct cpu_look *l);

/*
 * model.c: the switch, the one event that says who runs (rq_analysis_curr()).  Declared
 * here, not in model.h with model.c's other handlers: tests/golden/t_one_curr.sh allows
 * this declaration and analysis.c's call alone.
 */
void rqe_handle_switch(struct rq_analysis *an, const struct rq_event *ev);

/* cpubits.c: t's waking snapshot (rqe_snap_take(), cpubits.h) goes back to the pool */
void rqe_snap_put(struct rq_analysis *an, struct rq_task *t);

/* truth.c: what a record says (struct rq_truth_rec, truth.h), and the model against it */
static inline bool rqe_truth_allows(const struct rq_truth_rec *r, int cpu)
{
	return (unsigned int)cpu < RQ_TRUTH_MASK_WORDS * 64 &&
	       (r->mask[cpu / 64] >> (cpu % 64) & 1);
}
static inline bool rqe_truth_rt_or_dl(const struct rq_truth_rec *r)
{
	return r->policy == RQ_SCHED_FIFO || r->policy == RQ_SCHED_RR ||
	       r->policy == RQ_SCHED_DEADLINE;
}
/*
 * One CPU allowed at an exec's record (rqe_truth_one_cpu() at a waking's or a fork's),
 * by nr_cpus_allowed alone: the task is current there, long
 * after sched_exec(), and on 7.2 a tracepoint's programs run under a migrate_disable() of
 * their own (every exec record of a 7.2.13 guest had the flag; truth.bpf.c no longer
 * sets it there, older files still have it)
 */
static inline bool rqe_truth_exec_one_cpu(const struct rq_truth_rec *r)
{
	return r->nr_cpus_allowed == 1;
}
/*
 * Count where the model and the record disagree (struct rq_truth_summary): whether a
 * selection ran (model_proven, model_runnable: -1 not asked), the CPUs at the waking
 * (snap: the model's snapshot, or NULL), the policy and the mask.
 */
void rqe_truth_compare(struct rq_analysis *an, const struct rq_truth_rec *r,
		       const struct rq_task *t, int model_proven, int model_runnable,
		       const unsigned long *snap, const struct rq_cpumask *mask);

/*
 * classify.c: t's moves held until what follows them is known (a migration/N move, a
 * wakeup's move without sched_waking), resolved: t shows again or the trace ends
 */
void rqe_resolve_stopper(struct rq_analysis *an, struct rq_task *t, bool by_exec);
void rqe_resolve_wake_move(struct rq_analysis *an, struct rq_task *t);

/*
 * Placements held by the analysis, not by every task, until what follows them is
 * known: *slot is the holder's slot (-1 none).  rqe_hold() (classify.h) stores p there;
 * rqe_release() frees it.  A held placement is valid until its slot is released or
 * another is taken.
 */
void rqe_release(struct rq_analysis *an, int *slot);
static inline struct rq_placement *rqe_held(struct rq_analysis *an, int slot)
{
	return &an->held.slots[slot];
}

/*
 * findings.c: t's exec record did not come (by its next exec or the end of the trace):
 * the marker that came while it waited settles the exec
 */
void rqe_exec_wait_end(struct rq_analysis *an, struct rq_task *t);

/*
 * Apply a topology spec (or the file that holds one) to an analysis begun with
 * nr_cpus CPUs.  Returns 0, or -1 with a message in err.  Spec lines (';' or newlines):
 *   llc CPULIST...   smt CPULIST...   node CPULIST...   capacity N...
 */
int rqe_topology_apply(struct rq_analysis *an, const char *spec, char *err, size_t errlen);

#endif
