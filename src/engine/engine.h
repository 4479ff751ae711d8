/* SPDX-License-Identifier: GPL-2.0 */
/*
 * engine.h - what the engine's own files share, and nobody else includes: the
 * constants of the model, the small helpers every part uses, and the functions one
 * part calls in another.  The engine is split along its seams:
 *
 *   analysis.c  rq_analysis_feed() (one handler per event type) and the life cycle
 *   model.c     tasks, their attributes, per-CPU runqueues, markers, lost events
 *   classify.c  placements: which select_task_rq() path, with what confidence
 *   findings.c  the judges and the stores of their verdicts
 *   profile.c, describe.c, delay.c, topology.c: see their own headers
 */
#ifndef RQPATH_ENGINE_H
#define RQPATH_ENGINE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "analysis.h"
#include "classify.h"
#include "cpubits.h"
#include "model.h"
#include "truth_model.h"

/*
 * One task as the engine knows it.  Outside the engine (outputs, views) a task is seen
 * through struct rq_task_info (rq_task_info_get()): its identity, attributes, state and
 * counters.  The rest is the model's and the classifier's working state.
 *
 * The fields every event of the task reads or writes come first, in the first two
 * cache lines (a switch, a waking, a wakeup: the pid, its state and queue, its class,
 * its CPUs, its name); the rarer ones (fork, exec, syscalls, stopper moves, NUMA, the
 * counters) after them (issue 23).  CPU numbers that are only ever set to a CPU of the
 * trace or -1 are 16 bits (RQ_MAX_CPUS is 4096); those a record sets unchecked are int.
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

/* A prio from a record, in 16 bits: what prio tests (< 100, PRIO_UNKNOWN) says stays. */
static inline int16_t rqe_prio(int v)
{
	return v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : (int16_t)v;
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

/* The queue-delay store (delay.h), one per analysis. */
struct rq_delay {
	/*
	 * the statistics: a measured delay goes into one sketch, its path's (unflagged or
	 * flagged), and into its findings'; the groups the outputs read (per path, per kind,
	 * every placement) are merged from the path sketches when read (rq_delay_path() ...)
	 */
	struct rq_sketch *added;	/* [RQ_PATH__COUNT * 2]: unflagged, flagged */
	struct rq_sketch *finding;	/* [RQ_FIND__COUNT] */
	struct rq_sketch *path;		/* [RQ_PATH__COUNT] */
	struct rq_sketch *kind;		/* [RQ_KIND__COUNT * 2]: unflagged, flagged */
	struct rq_sketch all[2];	/* every placement: unflagged, flagged */
	uint64_t nadded, merged;	/* values added; nadded when the groups were merged */
	uint64_t not_run;	/* placements whose task had not run again when the trace ended */
	uint64_t unmeasured;	/* the switch-in may be missing: events were lost on the CPU */
	/*
	 * of those, the ones with another cause: a placement classified late (a
	 * migration/N move, once what followed was known) whose first run after it the
	 * ring of recent switch-ins no longer reaches; a task no longer known, or no memory
	 */
	uint64_t unmeasured_late, unmeasured_other;
	uint64_t no_memory;	/* values a sketch could not take (allocation failure) */
	/* pending placements: a pool with a free list, linked per task */
	struct rq_delay_pending *pool;
	struct rq_placement *full;	/* the whole placements, same index, while a sink is set */
	uint32_t pool_cap, pool_used, free_head;	/* free_head: index + 1, 0 none */
	bool keep_full;		/* a subscriber wants whole placements settled (on_settled) */
	bool finishing;		/* rqe_delay_finish(): nothing is held any longer */
	struct rq_analysis *an;
};


/*
 * The page of pid_pages that no known pid is in: every entry of the index points to it
 * until a task with a pid in that range is created, so that rqe_task_find() loads without
 * testing for a missing page.  All NULL, and never written.
 */
extern struct rq_task *const rqe_no_pid_page[RQ_PID_PAGE];

/* rqe_task_find() of a pid not in the direct index */
struct rq_task *rqe_task_find_hashed(const struct rq_analysis *an, int pid);
/* rqe_task_get() of a pid not known yet (pid > 0) */
struct rq_task *rqe_task_new(struct rq_analysis *an, int pid, uint64_t ts);
/* free the memory of every task (rq_analysis_free()) */
void rqe_tasks_free(struct rq_analysis *an);
/* rqe_enqueue() of a full list: double it */

/*
 * One CPU of the model (struct rq_cpu_summary is what the outputs see of it).  What most
 * events of the CPU read is in its first cache line (the CPUs are allocated on a cache
 * line, 192 bytes each: with 256 CPUs an event then touches mostly the first line of one
 * or two, issue 23); the counters and the rarer fields follow.
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
	struct rq_delay *delay;	/* queue delay of each placement (delay.h) */
	struct rqe_observers obs;	/* rq_analysis_subscribe()'s subscribers */
	struct rqe_truth truth;	/* the kernel's state, from rqpath:truth (truth_model.h) */
	/* rq_analysis_summary()'s answer, refilled at each call */
	struct rq_summary summary;
	struct rq_cpu_summary *cpu_summary;
};

/*
 * The task with that pid, or NULL; valid until the next rq_analysis_feed() (it may be
 * evicted) or rq_analysis_free().
 */
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

static inline struct rq_task *rqe_task_find(const struct rq_analysis *an, int pid)
{
	unsigned int i = (unsigned int)pid;	/* a negative pid is >= RQ_PID_LIMIT */

	if (i >= RQ_PID_LIMIT)
		return rqe_task_find_hashed(an, pid);
	/* a page not allocated is rqe_no_pid_page: NULL there too */
	return an->tasks.pid_pages[i / RQ_PID_PAGE][i % RQ_PID_PAGE];
}

/* The task with that pid, created if new; NULL for pid <= 0 or out of memory. */
static inline struct rq_task *rqe_task_get(struct rq_analysis *an, int pid, uint64_t ts)
{
	struct rq_task *t = rqe_task_find(an, pid);

	return t || pid <= 0 ? t : rqe_task_new(an, pid, ts);
}

#define NSEC_PER_MSEC 1000000ULL
/* how long a migration/N move may wait for its exec to show (exec loads the binary) */
#define STOPPER_EXEC_WINDOW (100 * NSEC_PER_MSEC)
/* an affinity syscall this recent explains a stopper or caller-context move */
#define AFFINITY_WINDOW (10 * NSEC_PER_MSEC)
#define NUMA_WINDOW (10 * NSEC_PER_MSEC)
/* exited tasks kept for the views before the oldest is evicted */
#define EXITED_KEEP 4096
#define PRIO_UNKNOWN -1000
/*
 * DELAY_DEQUEUE (v6.12+) leaves a blocked, not yet eligible fair task enqueued until
 * it would be picked; no event says when.  The model counts it as possibly enqueued on
 * its CPU until that CPU goes idle or for this long, about two ticks plus a slice.
 */
#define DELAYED_WINDOW (10 * NSEC_PER_MSEC)
#define SCHED_RESET_ON_FORK 0x40000000
/*
 * A CPU's runqueue is known once the CPU is seen going idle, or after this long of
 * watching its switches: a fair task queued before the trace started would have run
 * (and been seen) by then, since a slice is a few milliseconds.  Inferred.
 */
#define CPU_KNOWN_AFTER (20 * NSEC_PER_MSEC)
/*
 * An exec's rqpath:truth record follows its event (the BPF program of the tracepoint runs
 * after its ftrace probe) by at most this much (truth.c): a microsecond on bare metal, but
 * milliseconds where the virtual CPU is descheduled between the two probes (4.4 ms seen in
 * a 16-vCPU guest of a loaded host), and the recorder's marker may come in between.
 */
#define TRUTH_EXEC_AFTER (20 * NSEC_PER_MSEC)

static inline bool rqe_valid_cpu(const struct rq_analysis *an, int cpu)
{
	/* one compare: a negative cpu is a large unsigned */
	return (unsigned int)cpu < (unsigned int)an->nr_cpus;
}

/*
 * The per-CPU lists hold task pointers and each task knows its index, so that taking
 * a task off is O(1); a task leaves every list before it is freed (evict_task).  A few
 * calls per event: inline.
 */
static inline void rqe_list_del(struct rq_task **list, int *n, struct rq_task *t)
{
	int i = t->rq_index;

	if ((unsigned int)i >= (unsigned int)*n || list[i] != t)
		return;
	list[i] = list[--(*n)];
	list[i]->rq_index = i;
	t->rq_index = -1;
}

/* cpu's idle and busy bits are to be worked out again (cpubits.c) */
static inline void rqe_cpu_dirty(struct rq_analysis *an, int cpu)
{
	struct rq_cpu *c = &an->cpus[cpu];

	if (!c->dirty) {
		c->dirty = true;
		an->bits.dirty[an->bits.ndirty++] = cpu;
	}
}

/* A list's capacity from its bits in struct rq_cpu: 1 << cap, 0 when there is none. */
static inline int rqe_list_cap(unsigned int cap)
{
	return cap ? 1 << cap : 0;
}

/* Double cpu's queue or maybe-delayed set (8 to start with); -1 out of memory. */
int rqe_list_grow(struct rq_cpu *c, bool delayed);

/* The low 32 bits of a count in lo, the rest in hi: the count (hi << 32 | lo). */
static inline void rqe_count32(uint32_t *lo, uint32_t *hi)
{
	if (!++*lo)
		++*hi;
}

/* Take t off whatever runqueue list the model has it on. */
static inline void rqe_remove(struct rq_analysis *an, struct rq_task *t)
{
	struct rq_cpu *c;

	if (!rqe_valid_cpu(an, t->rq_cpu))
		return;
	rqe_cpu_dirty(an, t->rq_cpu);
	c = &an->cpus[t->rq_cpu];
	if (t->on_delayed)
		rqe_list_del(c->delayed, &c->ndelayed, t);
	else
		rqe_list_del(c->queued, &c->nqueued, t);
	t->rq_cpu = -1;
	t->on_delayed = false;
}

/* Put t at the end of cpu's queue, or of its maybe-delayed set. */
static inline void rqe_enqueue(struct rq_analysis *an, struct rq_task *t, int cpu, bool delayed)
{
	struct rq_task **list;
	struct rq_cpu *c;
	int *n;

	rqe_remove(an, t);
	if (!rqe_valid_cpu(an, cpu))
		return;
	c = &an->cpus[cpu];
	n = delayed ? &c->ndelayed : &c->nqueued;
	if (*n == rqe_list_cap(delayed ? c->delayed_cap : c->queued_cap) &&
	    rqe_list_grow(c, delayed))
		return;
	list = delayed ? c->delayed : c->queued;
	rqe_cpu_dirty(an, cpu);
	t->rq_index = *n;
	list[(*n)++] = t;
	t->rq_cpu = cpu;
	t->on_delayed = delayed;
}

/* idle_cpu(): the idle task runs, nothing queued, no wakeup on its way. */
static inline bool rqe_cpu_truly_idle(const struct rq_analysis *an, int cpu)
{
	const struct rq_cpu *c = &an->cpus[cpu];

	return c->known && c->curr == 0 && !c->nqueued && !c->ndelayed && !c->pending_wakeups;
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

static inline void rqe_bit_set(unsigned long *bits, int cpu)
{
	bits[cpu / BITS_PER_UL] |= 1UL << (cpu % BITS_PER_UL);
}

/* RT and DL tasks show prio < 100 (DL: -1) in every sched event. */
static inline bool rqe_task_is_rt_or_dl(const struct rq_task *t)
{
	if (t->policy == RQ_SCHED_FIFO || t->policy == RQ_SCHED_RR ||
	    t->policy == RQ_SCHED_DEADLINE)
		return true;
	return t->prio != PRIO_UNKNOWN && t->prio < 100;
}

static inline bool rqe_task_is_idle_class(const struct rq_task *t)
{
	return t->policy == RQ_SCHED_IDLE || t->idle_cgroup;
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
 * What a known policy rests on, 1 << RQ_ASSUME_*: a policy changes through
 * sched_setscheduler() or sched_setattr(), and the model sees a change only with both
 * syscalls' enter and exit events; without any one of them a change since the policy was
 * learnt is unseen.  That holds for a sched_setscheduler value the trace shows as much as
 * for a /proc read (a marker's) or an inherited one: a later sched_setattr() the trace
 * lacks changes it just as unseen, as a marker's mask rests on cpuset-unseen whatever
 * sched_setaffinity events the trace has.  The truth records' policy is the kernel's:
 * its verdicts never ask here.
 */
static inline unsigned int rqe_policy_unseen(const struct rq_analysis *an)
{
	return an->facts.has_event[RQ_EV_SETSCHED_ENTER] && an->facts.has_event[RQ_EV_SETSCHED_EXIT] &&
	       an->facts.has_event[RQ_EV_SETATTR_ENTER] && an->facts.has_event[RQ_EV_SETATTR_EXIT] ?
	       0 : 1u << RQ_ASSUME_POLICY_LAST_READ;
}

/*
 * Is t SCHED_IDLE work (policy SCHED_IDLE or under a cpu.idle cgroup)?  1 yes, 0 no, -1
 * unknown.  SCHED_IDLE is never assumed: the priority fields cannot show it (a SCHED_IDLE
 * task has prio 120 like a nice-0 SCHED_NORMAL one).  They do show RT and DL, which is
 * an answer "no" resting on RQ_ASSUME_POLICY_PRIO when no policy is known.  An answer
 * from a known policy rests on rqe_policy_unseen(); a cpu.idle cgroup answers "yes"
 * whatever the policy.
 */
static inline int rqe_idle_class(const struct rq_analysis *an, const struct rq_task *t,
			     unsigned int *assume)
{
	if (!t)
		return -1;
	if (t->idle_cgroup)
		return 1;
	if (t->policy != RQ_POLICY_UNKNOWN) {
		*assume |= rqe_policy_unseen(an);
		return t->policy == RQ_SCHED_IDLE;
	}
	if (t->prio != PRIO_UNKNOWN && t->prio < 100) {
		*assume |= 1u << RQ_ASSUME_POLICY_PRIO;
		return 0;
	}
	return -1;
}


/* comm arrays are all RQ_COMM_LEN bytes and NUL-terminated: a fixed copy is enough */
static inline void rqe_copy_comm(char *dst, const char *src)
{
	memcpy(dst, src, RQ_COMM_LEN);
	dst[RQ_COMM_LEN - 1] = '\0';
}

static inline bool rqe_same_llc(const struct rq_analysis *an, int a, int b)
{
	return rqe_valid_cpu(an, a) && rqe_valid_cpu(an, b) && an->cpus[a].llc == an->cpus[b].llc;
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
 * delay.c: the model changed who runs on cpu (prev to next) at ts; a forked child
 * exited or is gone, its offcpu-fork placement is settled
 */
void rqe_curr_changed(struct rq_analysis *an, int cpu, int prev, int next, uint64_t ts);
void rqe_fork_child_gone(struct rq_analysis *an, struct rq_task *t);

/* model.c */
int rqe_grow_hash(struct rq_analysis *an);
int rqe_masks_init(struct rq_analysis *an);
void rqe_masks_free(struct rq_analysis *an);
/* m's set, interned: a counted reference (rqe_mask_put()), or NULL when out of memory */
const struct rq_cpumask *rqe_mask_intern(struct rq_analysis *an, const struct rq_cpumask *m);
void rqe_mask_put(struct rq_analysis *an, const struct rq_cpumask *m);
/*
 * t's mask becomes m's set (-1 when out of memory: t then has none, an->masks.no_mask), or
 * src's own (shared), or none.
 */
int rqe_task_set_mask(struct rq_analysis *an, struct rq_task *t, const struct rq_cpumask *m);
void rqe_task_share_mask(struct rq_analysis *an, struct rq_task *t, const struct rq_task *src);
void rqe_task_drop_mask(struct rq_analysis *an, struct rq_task *t);
void rqe_look_cpu_scan(const struct rq_analysis *an, int cpu, const struct rq_task *skip,
		       struct cpu_look *l, bool busy_enough);
bool rqe_look_busy(const struct cpu_look *l, unsigned int *assume);
/* cpubits.c */
int rqe_cpubits_init(struct rq_analysis *an);
void rqe_cpubits_free(struct rq_analysis *an);
/* Bring idle_bits, busy_bits and unknown_bits up to date (the dirty CPUs). */
void rqe_cpubits_flush(struct rq_analysis *an);
void rqe_snapshot_cpus(struct rq_analysis *an, const struct rq_task *t,
		       unsigned long *idle, unsigned long *busy, unsigned long *unknown);
/*
 * t's waking snapshot, a buffer of the pool held until rqe_snap_put() (the task's next
 * waking reuses it): idle words, busy words, unknown words (rqe_mask_longs() each); NULL
 * when out of memory.  Valid until the next rqe_snap_take() of any task.
 */
unsigned long *rqe_snap_take(struct rq_analysis *an, struct rq_task *t);
void rqe_snap_put(struct rq_analysis *an, struct rq_task *t);
static inline unsigned long *rqe_snap(const struct rq_analysis *an, const struct rq_task *t)
{
	return t->snap < 0 ? NULL : an->bits.snaps + (size_t)t->snap * 3 * rqe_mask_longs(an);
}
/* cpu's curr becomes pid, whose task is t (rqe_task_find(pid), NULL for pid <= 0). */
void rqe_set_curr(struct rq_analysis *an, int cpu, int pid, struct rq_task *t);
/* t's policy or cgroup changed (whether it is SCHED_IDLE work): its CPUs' bits are stale. */
void rqe_task_class_changed(struct rq_analysis *an, const struct rq_task *t);
void rqe_task_created(struct rq_analysis *an, struct rq_task *t);
void rqe_task_evicted(struct rq_analysis *an, struct rq_task *t);
/*
 * The CPUs of LLC id llc as a bitmap (rqe_mask_longs() words), *lo and *hi its first and last
 * word with a CPU; NULL if none (or out of memory).
 */
const unsigned long *rqe_llc_bits(struct rq_analysis *an, int llc, int *lo, int *hi);
bool rqe_runner_busy(const struct rq_analysis *an, int cpu, const struct rq_task *skip,
		     struct cpu_look *l);
void rqe_note_comm(struct rq_task *t, const char *comm);
/* Whoever writes t->comm calls this. */
void rqe_comm_changed(struct rq_task *t);
/* t is the stopper: named migration/N, and nothing known of it (tr, facts) says not */
bool rqe_is_stopper(struct rq_task *t, const struct rq_truth_rec *tr);
void rqe_clear_pending(struct rq_analysis *an, struct rq_task *t);
void rqe_left_unseen(struct rq_task *t, int cpu, uint64_t ts);
/* the idleness of cpu is unknown: neither truly idle nor provably not */
static inline bool rqe_cpu_unknown(const struct rq_cpu *c)
{
	return c->curr < 0 || (c->curr == 0 && !c->known);
}
void rqe_set_pending(struct rq_analysis *an, struct rq_task *t, int cpu);
void rqe_copy_attrs(struct rq_analysis *an, struct rq_task *child, const struct rq_task *parent);
void rqe_repair_from_owner(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_switch(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_fork(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_exit(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_free(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_syscall(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_numa(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_cgroup_attach(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_marker(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_lost(struct rq_analysis *an, const struct rq_event *ev);

/*
 * rqe_look_cpu(busy_enough) then rqe_look_busy() in their common case, without filling a
 * cpu_look: the runqueue is known and its running task (not skip) is not SCHED_IDLE
 * work by its known policy.  false: ask rqe_look_cpu().
 */
static inline bool rqe_busy_by_curr(const struct rq_analysis *an, int cpu,
				    const struct rq_task *skip)
{
	const struct rq_cpu *c = &an->cpus[cpu];

	if (!c->known || c->curr <= 0 || (skip && c->curr == skip->pid))
		return false;
	/* q, rqe_task_find(curr), is curr_task: its class is in c (cpubits.c) */
	return c->curr_task && c->curr_policy_known && !c->curr_idle_class;
}

/*
 * Fill l for cpu.  A judge that only needs to know whether the CPU is busy passes
 * busy_enough: the scan stops at the first task that is not SCHED_IDLE by its known
 * policy (the common case, the running task, makes this O(1) and inline); the counts
 * are then partial, but nonidle > 0 and the verdict rests on no assumption about the
 * others.
 */
static inline void rqe_look_cpu(const struct rq_analysis *an, int cpu,
				const struct rq_task *skip, struct cpu_look *l, bool busy_enough)
{
	const struct rq_cpu *c = &an->cpus[cpu];

	if (busy_enough && rqe_busy_by_curr(an, cpu, skip)) {
		/* what the scan finds at its first task, and where it stops */
		*l = (struct cpu_look){
			.known = true, .pending = c->pending_wakeups > 0, .ntasks = 1, .nonidle = 1,
			/* busy by the running task's known policy: rqe_idle_class() */
			.assume = (c->watched && !c->last_idle_ts ?
				   1u << RQ_ASSUME_CPU_WATCHED : 0) | rqe_policy_unseen(an),
		};
		return;
	}
	rqe_look_cpu_scan(an, cpu, skip, l, busy_enough);
}

/* truth.c: the kernel's state from the rqpath:truth records (truth.h) */
void rqe_handle_truth(struct rq_analysis *an, const struct rq_event *ev);
/*
 * The record of point (RQ_TRUTH_*) for pid, taken at most TRUTH_MAX_AGE before ts and not
 * after it; it leaves the cache (a record is used once).  NULL: none, or --no-truth.
 */
const struct rq_truth_rec *rqe_truth_take(struct rq_analysis *an, int pid, int point,
					  uint64_t ts);
/* cpu's state in r, the wakee (pid, SCHED_IDLE work or not) left out */
enum rq_truth_cpu_state rqe_truth_cpu(const struct rq_analysis *an, const struct rq_truth_rec *r,
				      int cpu, int wakee, bool wakee_idle);
/* r's entry of cpu, NULL when the record has none (r from rqe_truth_take(): sorted) */
const struct rq_truth_cpu *rqe_truth_entry(const struct rq_truth_rec *r, int cpu);
static inline bool rqe_truth_allows(const struct rq_truth_rec *r, int cpu)
{
	return (unsigned int)cpu < RQ_TRUTH_MASK_WORDS * 64 &&
	       (r->mask[cpu / 64] >> (cpu % 64) & 1);
}
static inline bool rqe_truth_idle_class(const struct rq_truth_rec *r, const struct rq_task *t)
{
	return r->policy == RQ_SCHED_IDLE || t->idle_cgroup;
}
static inline bool rqe_truth_rt_or_dl(const struct rq_truth_rec *r)
{
	return r->policy == RQ_SCHED_FIFO || r->policy == RQ_SCHED_RR ||
	       r->policy == RQ_SCHED_DEADLINE;
}
/* one CPU allowed, or migration disabled: core select_task_rq() skips the class callback */
static inline bool rqe_truth_one_cpu(const struct rq_truth_rec *r)
{
	return r->nr_cpus_allowed == 1 || (r->flags & RQ_TRUTH_MIGRATE_OFF);
}
/*
 * The same at an exec's record, by nr_cpus_allowed alone: the task is current there, long
 * after sched_exec(), and on 7.2 a tracepoint's programs run under a migrate_disable() of
 * their own (every exec record of a 7.2.13 guest had the flag; truth.bpf.c no longer
 * sets it there, older files still have it)
 */
static inline bool rqe_truth_exec_one_cpu(const struct rq_truth_rec *r)
{
	return r->nr_cpus_allowed == 1;
}
/* the placement's facts from r (RQ_PT_RECORD, policy, allowed, the state of to_cpu) */
void rqe_truth_mark(const struct rq_analysis *an, struct rq_placement *p,
		    const struct rq_truth_rec *r, const struct rq_task *t);
/*
 * Count where the model and the record disagree (struct rq_truth_summary): whether a
 * selection ran (model_proven, model_runnable: -1 not asked), the CPUs at the waking
 * (snap: the model's snapshot, or NULL), the policy and the mask.
 */
void rqe_truth_compare(struct rq_analysis *an, const struct rq_truth_rec *r,
		       const struct rq_task *t, int model_proven, int model_runnable,
		       const unsigned long *snap, const struct rq_cpumask *mask);
/*
 * The allowed CPUs of r as a mask of the trace's CPUs (beyond the record's words: the
 * model's, if any); valid until the next call.  NULL when out of memory.
 */
const struct rq_cpumask *rqe_truth_mask(struct rq_analysis *an, const struct rq_truth_rec *r,
					const struct rq_cpumask *model);
void rqe_truth_free(struct rq_analysis *an);

/* classify.c */
void rqe_resolve_stopper(struct rq_analysis *an, struct rq_task *t, bool by_exec);
void rqe_expire_stopper(struct rq_analysis *an, struct rq_task *t, uint64_t now);
void rqe_resolve_wake_move(struct rq_analysis *an, struct rq_task *t);
void rqe_handle_waking(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_wakeup(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_wakeup_new(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_migrate(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_exec(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_prepare_exec(struct rq_analysis *an, const struct rq_event *ev);

/*
 * Placements held by the analysis, not by every task, until what follows them is
 * known: *slot is the holder's slot (-1 none).  rqe_hold() stores p there (a new slot if
 * none) and returns 0, or -1 when out of memory (*slot stays -1); rqe_release() frees it.
 * A held placement is valid until its slot is released or another is taken.
 */
int rqe_hold(struct rq_analysis *an, int *slot, const struct rq_placement *p);
void rqe_release(struct rq_analysis *an, int *slot);
static inline struct rq_placement *rqe_held(struct rq_analysis *an, int slot)
{
	return &an->held.slots[slot];
}

/* findings.c */
/* Count a proven finding; keep the example if there is room.  Returns its index or -1. */
int rqe_add_finding(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
		    enum rq_finding f);
/* What the judges of a select-path placement (wakeup, fork) onto CPU x read. */
struct rqe_select {
	int x;
	const unsigned long *idle_before;	/* truly idle CPUs at sched_waking, or NULL */
	const unsigned long *busy_before;	/* busy ones then, or NULL */
	const unsigned long *unknown_before;	/* unknown ones then, or NULL */
	bool proven;		/* select_task_rq() provably ran (selection_proven()) */
	unsigned int proof_assume;	/* what that proof rests on */
	const struct rq_cpumask *mask;	/* rqe_task_mask() of the task, worked out once */
	unsigned int mask_assume;	/* what that mask rests on */
	bool rt_or_dl;		/* rqe_task_is_rt_or_dl() of the task, worked out once */
	/*
	 * the kernel's state at the waking or fork (truth.c), or NULL; no_selection: it
	 * shows the task on a runqueue, so a finding is "no selection", never counted
	 */
	const struct rq_truth_rec *truth;
	bool no_selection;
};
void rqe_judge_idle_stacking_full(struct rq_analysis *an, struct rq_placement *p,
				  struct rq_task *t, const struct rqe_select *sel);
/*
 * idle-stacking judges SCHED_IDLE wakees or unknown ones (rqe_judge_idle_stacking_full());
 * most wakeups stop at this inline test
 */
static inline void rqe_judge_idle_stacking(struct rq_analysis *an, struct rq_placement *p,
					   struct rq_task *t, const struct rqe_select *sel)
{
	unsigned int ignored = 0;

	if (an->profile.idle_stack_allowed && rqe_idle_class(an, t, &ignored) != 0)
		rqe_judge_idle_stacking_full(an, p, t, sel);
}
void rqe_judge_missed_idle(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			   const struct rqe_select *sel);
/* A wakeup of unknown path (no previous CPU): not judged for each finding it could have */
void rqe_judge_none(struct rq_analysis *an, struct rq_task *t, const struct rqe_select *sel);
/*
 * The two judges of a select-path placement from the kernel's state (sel->truth): the
 * CPU states at the waking or fork, the policy and the mask from the record; a CPU the
 * record does not know is the model's (the judges above for x itself).
 */
void rqe_judge_idle_stacking_truth(struct rq_analysis *an, struct rq_placement *p,
				   struct rq_task *t, const struct rqe_select *sel);
void rqe_judge_missed_idle_truth(struct rq_analysis *an, struct rq_placement *p,
				 struct rq_task *t, const struct rqe_select *sel);
/*
 * An exec whose record follows its event: not judged until rqe_settle_exec_truth() hears
 * the record (or the next marker settles it).
 */
void rqe_judge_needless_wait(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			     uint64_t ts);
void rqe_settle_exec_truth(struct rq_analysis *an, struct rq_task *t,
			   const struct rq_truth_rec *r);
/* needless-callback from the exec's record: one CPU allowed or migration disabled */
void rqe_judge_needless_truth(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			      const struct rq_truth_rec *r);
void rqe_judge_offcpu_fork(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
			   int parent_cpu, int to);
/* mask_current: t's mask is known and current (no affinity change unseen since) */
void rqe_judge_needless_callback(struct rq_analysis *an, struct rq_placement *p, struct rq_task *t,
				 bool mask_current);
void rqe_settle_unknown_execs(struct rq_analysis *an, struct rq_task *t);
void rqe_exec_wait_end(struct rq_analysis *an, struct rq_task *t);
#ifdef RQ_TEST_FIFTH_FINDING
/* findings.def's test-only row: its judge lives in tests/unit/test_fifth_finding.c */
void rqe_judge_test_dummy(struct rq_analysis *an, struct rq_placement *p);
#endif
/* No marker will describe t's execs waiting for one: they stay not judged, everywhere. */
void rqe_unknown_execs_stay(struct rq_analysis *an, struct rq_task *t);

/* The queue-delay store (delay.c): the engine's hooks into it. */
struct rq_delay *rqe_delay_new(struct rq_analysis *an);
void rqe_delay_free(struct rq_delay *d);
/*
 * Whether every placement is kept whole until it is settled (a subscriber wants them:
 * on_settled); flagged ones always are (their examples take the settled record).
 */
void rqe_delay_keep_full(struct rq_analysis *an, bool on);

/* The engine's hooks: a placement is recorded; events were lost on cpu. */
void rqe_delay_placed(struct rq_analysis *an, const struct rq_placement *p);
void rqe_delay_lost(struct rq_analysis *an, int cpu);
/*
 * The execs of t that waited for the recorder's marker (RQ_NOTE_MASK_UNKNOWN) are
 * settled: fix (NULL: they stay not judged) is applied to each, then they go to the sink.
 */
struct rq_exec_fix {
	bool one_cpu;		/* the marker's mask has one CPU: exec-local becomes exec-affine */
	bool needless;		/* ... and the kernel calls the callback: a needless-callback */
	int cpu;		/* that CPU */
	unsigned int assume;	/* what the mask read after the exec rests on (RQ_ASSUME_*) */
	/*
	 * settled by the exec's rqpath:truth record, not a marker: its facts (RQ_PT_*,
	 * policy, CPUs allowed), and whether the class callback was the RT/DL one
	 */
	uint8_t truth, truth_policy;
	uint16_t truth_allowed;
	bool rt;
};
void rqe_delay_execs_settled(struct rq_analysis *an, struct rq_task *t,
			    const struct rq_exec_fix *fix);
void rqe_exec_fix_apply(struct rq_placement *p, const struct rq_exec_fix *fix);
/*
 * The engine is about to free t (evicted) or to reuse it (a fork with its pid): what
 * it has pending stays for rqe_delay_finish() (it did not run).
 */
void rqe_delay_task_gone(struct rq_analysis *an, struct rq_task *t);
/* End of the trace: what is still pending did not run; the sink sees it with -1. */
void rqe_delay_finish(struct rq_analysis *an);

/*
 * Apply a topology spec (or the file that holds one) to an analysis begun with
 * nr_cpus CPUs.  Returns 0, or -1 with a message in err.  Spec lines (';' or newlines):
 *   llc CPULIST...   smt CPULIST...   node CPULIST...   capacity N...
 */
int rqe_topology_apply(struct rq_analysis *an, const char *spec, char *err, size_t errlen);
/* N for a per-CPU kthread name (kworker/N:M, ksoftirqd/N, migration/N, ...), else -1. */
int rqe_percpu_kthread_cpu(const char *comm);

#endif
