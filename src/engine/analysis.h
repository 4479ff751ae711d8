/* SPDX-License-Identifier: GPL-2.0 */
/*
 * analysis.h - the rqpath engine: model (tasks, CPUs, topology), classifier
 * (placement kind, select_task_rq path, confidence) and the four findings.
 *
 * Feed it rq_event records in timestamp order with rq_analysis_feed(), call
 * rq_analysis_finish() at the end, then read what it found: rq_analysis_summary(),
 * rq_recent(), rq_task_info_get()/rq_task_info_foreach().  struct rq_analysis, struct
 * rq_task and struct rq_delay are private to the engine (engine.h, delay_store.h).
 * Memory grows with tasks and CPUs, never with the length of the trace: placements are
 * counted, the last RQ_RECENT_DEFAULT of them are kept in a ring, and each finding keeps
 * its first RQ_MAX_EXAMPLES examples.
 */
#ifndef RQPATH_ANALYSIS_H
#define RQPATH_ANALYSIS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cpumask.h"
#include "delay.h"
#include "event.h"
#include "finding.h"

enum rq_kind {
	RQ_KIND_FORK,
	RQ_KIND_EXEC,
	RQ_KIND_WAKEUP,
	RQ_KIND_BALANCE,
	RQ_KIND_NEWIDLE,
	RQ_KIND_STOPPER,
	RQ_KIND_AFFINITY,
	RQ_KIND_NUMA,
	RQ_KIND_UNKNOWN,
	RQ_KIND__COUNT
};

/* Stable path ids; rq_paths[] gives the string, kind and kernel function of each. */
enum rq_path {
	RQ_PATH_FORK_AFFINE,	/* one allowed CPU: core select_task_rq() short-circuit */
	RQ_PATH_FORK_LOCAL,	/* fair slow path kept the child on the parent's CPU */
	RQ_PATH_FORK_MOVED,	/* fair slow path put the child on another CPU */
	RQ_PATH_FORK_RT,	/* RT/DL class callback */
	RQ_PATH_EXEC_AFFINE,	/* one allowed CPU at exec */
	RQ_PATH_EXEC_LOCAL,	/* sched_exec() slow path kept the CPU (no event: inferred) */
	RQ_PATH_EXEC_MOVED,	/* sched_exec() moved the task through migration/N */
	RQ_PATH_EXEC_RT,	/* non-fair class: the callback returns the input CPU */
	RQ_PATH_WAKE_RUNNABLE,	/* ttwu_runnable(): still queued, no selection */
	RQ_PATH_WAKE_AFFINE,	/* one allowed CPU at wakeup */
	RQ_PATH_WAKE_PREV,	/* select_task_rq_fair() kept prev_cpu */
	RQ_PATH_WAKE_PULLED,	/* wake_affine() pulled it to the waker's CPU */
	RQ_PATH_WAKE_LLC,	/* select_idle_sibling() moved it inside prev's LLC */
	RQ_PATH_WAKE_CROSS_LLC,	/* moved to another LLC */
	RQ_PATH_WAKE_MOVED,	/* moved to another CPU; the trace has no LLC groups */
	RQ_PATH_WAKE_RT,	/* RT/DL wakeup placement (find_lowest_rq / find_later_rq) */
	RQ_PATH_WAKE_STOP,	/* stop-class task (migration/N): pinned, no class callback */
	RQ_PATH_LB_PERIODIC,	/* sched_balance_rq() from the balance softirq, pulled here */
	RQ_PATH_LB_NOHZ,	/* NOHZ idle balance on behalf of another idle CPU */
	RQ_PATH_LB_RT,		/* RT/DL push/pull */
	RQ_PATH_LB_NEWIDLE,	/* sched_balance_newidle() */
	RQ_PATH_LB_ACTIVE,	/* active_load_balance_cpu_stop() via migration/N */
	RQ_PATH_STOPPER_UNKNOWN,	/* migration/N moved it; the trace cannot say why */
	RQ_PATH_AFFINITY_STOPPER,	/* affinity change moved a running task (migration/N) */
	RQ_PATH_AFFINITY_CALLER,	/* affinity change moved a queued task in the caller */
	RQ_PATH_NUMA_MOVE,	/* migrate_task_to() */
	RQ_PATH_NUMA_SWAP,	/* migrate_swap() */
	RQ_PATH_UNKNOWN,
	RQ_PATH__COUNT
};

enum rq_confidence { RQ_CONF_EXACT, RQ_CONF_INFERRED, RQ_CONF_UNKNOWN };


struct rq_path_info {
	const char *id;		/* e.g. "fork-moved": a contract, documented in rqpath-paths(7) */
	enum rq_kind kind;
	const char *kernel_fn;	/* where the kernel takes this path */
	const char *summary;	/* one line for a human */
};

extern const struct rq_path_info rq_paths[RQ_PATH__COUNT];
extern const char *const rq_kind_names[RQ_KIND__COUNT];
extern const char *const rq_kind_plural[RQ_KIND__COUNT];	/* "forks", "wakeups" */
/* Per finding (findings.def): the kinds it judges (1 << enum rq_kind), the kind it is of. */
extern const unsigned int rq_finding_kinds[RQ_FIND__COUNT];
extern const enum rq_kind rq_finding_of[RQ_FIND__COUNT];
extern const char *const rq_confidence_names[3];

/* Room a description needs for the remarks below, once they are words (describe.c). */
#define RQ_WHY_LEN 192

/*
 * The rarer remarks on a placement, kept as facts (the numbers are in why_cpu,
 * why_pid, why_n, why_comm); rq_placement_describe() words them, in this order.
 */
enum rq_why {
	RQ_WHY_FORK_UTIL,	/* v6.4-v6.13 autogroup kernel: stale utilization (fork moved) */
	RQ_WHY_EXEC_AFTER_STOPPER,	/* migration/cpu moved it from_cpu -> to_cpu, then exec */
	RQ_WHY_STOPPER_RENAMED,	/* migration/cpu moved it, then it took the name why_comm */
	RQ_WHY_STOPPER_AFFINITY,	/* migration/cpu moved it right after a setaffinity */
	RQ_WHY_STOPPER_ACTIVE,	/* migration/cpu moved it; no exec or affinity change followed */
	RQ_WHY_STOPPER_NO_EXEC,	/* the trace lacks exec events to tell why */
	RQ_WHY_STOPPER_NO_AFFINITY,	/* the trace lacks the sched_setaffinity syscall events */
	RQ_WHY_MIGRATE_UNKNOWN,	/* no path: writer_pid wrote it, why_n holds common_flags */
	RQ_WHY_IDLE_STACKED,	/* to_cpu ran SCHED_IDLE work only (why_pid), why_cpu was idle */
	RQ_WHY_DELAYED_NOT_IDLE,	/* why_n blocked tasks not known as SCHED_IDLE maybe there */
	RQ_WHY_BUSY_RUNNING,	/* to_cpu ran why_pid while why_cpu of its LLC was idle */
	RQ_WHY_BUSY_WAITING,	/* to_cpu had a woken task waiting to run, why_cpu idle */
	RQ_WHY_BUSY_PENDING,	/* to_cpu had a wakeup pending, why_cpu idle */
	RQ_WHY_EXEC_MULTI_CPU,	/* ran on several CPUs since its affinity changed: not needless */
	RQ_WHY_NEEDLESS_FAIR,	/* only why_cpu allowed, select_task_rq_fair(WF_EXEC) called */
	RQ_WHY_NEEDLESS_RT,	/* only why_cpu allowed, the RT/DL callback called */
	RQ_WHY_NEEDLESS_MARKER,	/* only why_cpu allowed (the next marker said), callback called */
	RQ_WHY_WAKE_FROM_UNKNOWN,	/* a wakeup (path unknown): its previous CPU is not known */
	RQ_WHY__COUNT
};

/* One placement decision (or one exec that was checked for needless-callback). */
struct rq_placement {
	uint64_t ts;
	uint64_t seq;		/* order of classification, 1-based */
	int pid;
	char comm[RQ_COMM_LEN];
	int cpu;		/* CPU that wrote the deciding record */
	int from_cpu;		/* -1 unknown */
	int to_cpu;
	int writer_pid;		/* common_pid of the deciding record */
	enum rq_path path;
	enum rq_confidence conf;
	unsigned int findings;	/* 1 << enum rq_finding: proven, in the count */
	uint8_t possible;	/* 1 << enum rq_finding: found, selection not proven */
	/*
	 * 1 << enum rq_finding: would be found, but the kernel's own state (BPF, truth.h)
	 * shows the task on a runqueue at sched_waking: ttwu_runnable(), no selection
	 */
	uint8_t no_selection;
	/*
	 * Which facts came from the kernel's state (RQ_PT_*), and the state itself: the
	 * task's policy, how many CPUs it was allowed, and to_cpu's state at the waking
	 * (enum rq_truth_cpu_state).  0 when the trace holds no record for it.
	 */
	uint8_t truth;
	uint8_t truth_policy;
	int8_t truth_x;
	uint16_t truth_allowed;
	/*
	 * The explanation: rq_placement_describe() joins the path's summary, the common
	 * remarks (notes) and the rarer ones (why), all kept as facts and numbers; the
	 * engine writes no sentence.
	 */
	uint8_t notes;		/* RQ_NOTE_* */
	uint8_t level;		/* fork-moved: RQ_LEVEL_* of the deciding domain */
	/*
	 * a finding's verdict and the path's confidence rest on these (1 << enum
	 * rq_assumption); 16 bits since the ninth (blocked-before-trace)
	 */
	uint16_t assume;
	uint32_t blocked_us;	/* RQ_NOTE_MAYBE_DELAYED: how long before it had blocked */
	uint32_t why;		/* 1 << enum rq_why */
	int why_cpu;		/* the other CPU: the idle one a judge found, the one allowed */
	int why_pid;		/* the task running on to_cpu when a judge looked */
	uint32_t why_n;		/* a count or the event's flags (see enum rq_why) */
	char why_comm[RQ_COMM_LEN];	/* RQ_WHY_STOPPER_RENAMED: the name it took */
	/*
	 * The evidence beyond the deciding record (cpu, ts, writer_pid): the record that
	 * showed why_cpu idle (its switch to the idle task, or the idle task's own record
	 * where the switch is missing), 0 none
	 */
	uint64_t why_idle_ts;
	/*
	 * The outcome, settled when known (struct rq_observer's on_settled): the queue delay
	 * and, for an offcpu-fork, what its parent's CPU did and how long the child lived.
	 */
	int64_t delay_ns;	/* placed until it ran: -1 not known (yet), or did not run */
	bool settled;		/* every fact below is final */
	uint8_t late_findings;	/* findings a later verdict added after on_placement */
	int8_t parent_cpu_idled;	/* -1 not known (yet), 0 no, 1 yes: before the child first ran */
	int64_t child_lifetime_ns;	/* -1: did not exit inside the trace (or not yet) */
};

_Static_assert(RQ_FIND__COUNT <= 8 * sizeof(((struct rq_placement *)0)->possible),
	       "struct rq_placement: possible is too narrow for findings.def");
_Static_assert(RQ_FIND__COUNT <= 8 * sizeof(((struct rq_placement *)0)->no_selection),
	       "struct rq_placement: no_selection is too narrow for findings.def");
_Static_assert(RQ_FIND__COUNT <= 8 * sizeof(((struct rq_placement *)0)->late_findings),
	       "struct rq_placement: late_findings is too narrow for findings.def");
_Static_assert(RQ_FIND__COUNT <= 8 * sizeof(((struct rq_placement *)0)->findings),
	       "struct rq_placement: findings is too narrow for findings.def");

#define RQ_NOTE_NO_WAKING 0x01		/* no sched_waking: previous CPU from the model */
#define RQ_NOTE_MAYBE_DELAYED 0x02	/* may have been ttwu_runnable() of a delayed task */
#define RQ_NOTE_PARENT_NOT_ALLOWED 0x04	/* the parent's CPU is not allowed to the child */
#define RQ_NOTE_AFTER_LOSS 0x08		/* events were lost on a CPU involved: model reset */
#define RQ_NOTE_POSSIBLE 0x10		/* a finding's selection is not proven (see possible) */
#define RQ_NOTE_ASYM 0x20		/* asymmetric capacities: EAS/select_idle_capacity */
#define RQ_NOTE_MASK_UNKNOWN 0x40	/* exec: allowed CPUs unknown, needless not judged */

/* rq_placement.truth: what the kernel's state (a rqpath:truth record) gave the placement */
#define RQ_PT_RECORD 0x01	/* a record of its waking, fork or exec was in the trace */
#define RQ_PT_ON_RQ 0x02	/* on a runqueue at sched_waking: ttwu_runnable(), no selection */
#define RQ_PT_DELAYED 0x04	/* ... as a delayed-dequeue entity (se.sched_delayed) */
#define RQ_PT_SELECTION 0x08	/* whether a selection ran: from the record */
#define RQ_PT_CPUS 0x10		/* the CPU states the judges used: from the record */
#define RQ_PT_POLICY 0x20	/* the policy the verdict used: from the record */
#define RQ_PT_MASK 0x40		/* the allowed CPUs the verdict used: from the record */
#define RQ_PT_ONE_CPU 0x80	/* exec: one CPU allowed, or migration disabled (the record) */

/* A CPU's state in a truth record at the waking, the wakee left out (rq_placement.truth_x). */
enum rq_truth_cpu_state {
	RQ_TCPU_UNKNOWN,	/* not in the record, or no sched_switch seen there yet */
	RQ_TCPU_IDLE,		/* idle_cpu(): the idle task, nr_running 0, no ttwu_pending */
	RQ_TCPU_BUSY,		/* neither idle_cpu() nor sched_idle_cpu() */
	RQ_TCPU_IDLE_ONLY,	/* sched_idle_cpu(): nr_running > 0, all SCHED_IDLE */
	RQ_TCPU_NONE,		/* nothing but the wakee itself there */
};

/*
 * The tracepoint model against the kernel's state (struct rq_summary.truth): per kind,
 * how often both had an answer and how often they disagreed -- the model's error rate.
 */
enum rq_mvt_kind {
	RQ_MVT_SELECTION,	/* selection proven (or ttwu_runnable()) against on_rq */
	RQ_MVT_CPU,		/* a CPU's idle / busy / SCHED_IDLE-only at the waking */
	RQ_MVT_POLICY,		/* the task's policy */
	RQ_MVT_MASK,		/* the task's allowed CPUs */
	RQ_MVT__COUNT
};

extern const char *const rq_mvt_names[RQ_MVT__COUNT];

/*
 * The truth records' self-check (truth.c): facts the tracepoints prove, or the kernel's
 * own invariants, held against each group of a record's fields.  A record that reads
 * the wrong bytes of a field (a size that changed between kernels, a forged file) breaks
 * them; a sound one only where two reads race (a few in a thousand).
 */
enum rq_tchk_kind {
	RQ_TCHK_ON_RQ,		/* a task the trace saw block, not woken since: off its rq */
	RQ_TCHK_CPU,		/* the runqueues: own CPU's curr as the trace has it, counts */
	RQ_TCHK_TASK,		/* policy valid, nr_cpus_allowed = the mask's weight, task_cpu */
	RQ_TCHK__COUNT
};

extern const char *const rq_tchk_names[RQ_TCHK__COUNT];

/* A field group is refused past this share of contradictions, once this many checked. */
#define RQ_TRUTH_REJECT_PERMILLE 50
#define RQ_TRUTH_REJECT_MIN 20

struct rq_truth_summary {
	uint64_t records;	/* rqpath:truth records read (0 with --no-truth) */
	uint64_t used;		/* of those, matched to a wakeup, fork or exec */
	uint64_t placements;	/* placements whose verdicts used one */
	uint64_t compared[RQ_MVT__COUNT];
	uint64_t disagree[RQ_MVT__COUNT];
	/* the self-check, over the records read (or the pre-check's, when that refused) */
	uint64_t checked[RQ_TCHK__COUNT];
	uint64_t contradicted[RQ_TCHK__COUNT];
	/*
	 * bits of enum rq_tchk_kind whose fields were refused: from then on no record is
	 * used and the verdicts are the model's.  rejected_at: the records read when that
	 * happened, 0 when a pre-check over the file's start refused them before the replay
	 * (rq_replay_begin()): then no record was ever used
	 */
	unsigned int rejected;
	uint64_t rejected_at;
};

enum rq_level { RQ_LEVEL_NONE, RQ_LEVEL_UNKNOWN, RQ_LEVEL_SMT, RQ_LEVEL_LLC, RQ_LEVEL_PKG,
		RQ_LEVEL_NUMA };

#define RQ_MAX_EXAMPLES 8

/*
 * Assumptions a verdict can rest on when the trace holds no recorder snapshot
 * (rq_assumption_names[] gives the JSON strings; rqpath-paths(7) explains each).
 */
enum rq_assumption {
	RQ_ASSUME_MASK_ALL,	/* affinity never changed in the trace: taken as every CPU */
	RQ_ASSUME_PERCPU_KTHREAD,	/* kworker/N:*, ksoftirqd/N, ...: taken as pinned to N */
	RQ_ASSUME_POLICY_PRIO,	/* RT/DL policy read from the priority fields */
	RQ_ASSUME_CPU_WATCHED,	/* a CPU never seen idle, known after watching its switches */
	RQ_ASSUME_LLC,		/* no topology: every CPU taken as one LLC */
	RQ_ASSUME_IDLE_REPAIRED,	/* the idle CPU's switches out of idle are missing */
	RQ_ASSUME_MASK_LAST_READ,	/* no setaffinity events: the mask last read still held */
	RQ_ASSUME_CPUSET_UNSEEN,	/* no cgroup_attach_task events: no cpuset move since */
	RQ_ASSUME_BLOCKED_BEFORE,	/* a task first seen at its wakeup blocked before the trace */
	RQ_ASSUME_POLICY_LAST_READ,	/* no set* policy syscall events: the policy known held */
	RQ_ASSUME__COUNT
};

extern const char *const rq_assumption_names[RQ_ASSUME__COUNT];

/*
 * One finding's numbers.  Only count (= exact + inferred) may trip --fail-on: it holds the
 * placements the trace proves.  possible: may have made no selection at all (a delayed
 * dequeue requeued by ttwu_runnable(), EAS, ...); not_judged: an attribute or CPU state
 * was unknown.  needless-callback keeps its execs with an unknown mask in unknown (which
 * equals its not_judged).
 */
struct rq_finding_store {
	uint64_t count;		/* proven: exact + inferred */
	uint64_t exact;
	uint64_t inferred;	/* proven under an assumption (assumptions says which) */
	uint64_t possible;	/* would count, but the selection itself is not proven */
	uint64_t no_selection;	/* would count, but the kernel's state shows no selection ran */
	uint64_t not_judged;	/* an attribute or the CPU state was unknown */
	uint64_t judged;	/* candidates judged, found or not (the denominator) */
	uint64_t unknown;	/* needless-callback: execs with an unknown mask */
	uint64_t of;		/* out of how many candidates (offcpu-fork: forks) */
	unsigned int assumptions;	/* 1 << enum rq_assumption, over the inferred ones */
	int nexamples;
	struct rq_placement examples[RQ_MAX_EXAMPLES];
	int npossible;		/* examples of possible ones, kept apart */
	struct rq_placement possible_examples[RQ_MAX_EXAMPLES / 2];
};

/*
 * The finding's verdict over the trace is "not judged": it had candidates, and none could
 * be judged (a fact was missing for each).  Every output says "not judged" then, never a
 * bare 0, and --fail-on trips on it unless told RULE:judged-ok.
 */
static inline bool rq_finding_not_judged(const struct rq_finding_store *s)
{
	return !s->judged && !s->count && !s->possible && s->not_judged;
}

enum rq_task_state { RQ_TS_UNKNOWN, RQ_TS_RUNNING, RQ_TS_QUEUED, RQ_TS_SLEEPING, RQ_TS_DEAD };

/* Linux policy numbers (/proc/PID/stat field 41). */
#define RQ_POLICY_UNKNOWN -1
#define RQ_SCHED_NORMAL 0
#define RQ_SCHED_FIFO 1
#define RQ_SCHED_RR 2
#define RQ_SCHED_BATCH 3
#define RQ_SCHED_IDLE 5
#define RQ_SCHED_DEADLINE 6
#define RQ_SCHED_EXT 7

/*
 * What the outputs and views know of a task: a copy the engine fills
 * (rq_task_info_get(), rq_task_info_foreach()).  comm is untrusted: escape it.
 * mask points into the analysis and is valid until the next rq_analysis_feed() or
 * rq_analysis_free() on it; the rest is a copy, the reader's to keep.
 */
struct rq_task_info {
	int pid, tgid, ppid;	/* tgid/ppid 0 = unknown */
	char comm[RQ_COMM_LEN];
	int policy;		/* RQ_POLICY_UNKNOWN or a policy number */
	enum rq_task_state state;
	int cpu;		/* last known CPU, -1 unknown */
	bool exited;
	bool mask_known;	/* the allowed CPUs are a fact (marker, inheritance) */
	const struct rq_cpumask *mask;	/* the allowed CPUs when mask_known, else NULL */
	uint64_t first_ts, exit_ts;
	uint64_t nr_forks, nr_execs, nr_migrations, nr_wakeups;
	uint64_t nr_findings[RQ_FIND__COUNT];	/* proven findings on its placements */
};

enum rq_llc_source { RQ_LLC_ASSUMED, RQ_LLC_CACHE, RQ_LLC_PACKAGE, RQ_LLC_OPTION };


struct rq_profile {
	char release[128];	/* "" unknown */
	int major, minor;	/* 0 unknown */
	bool exec_callback_unconditional;	/* sched_exec() calls the class callback directly */
	bool idle_stack_allowed;		/* pre-v7.1 sched_idle_cpu() preference */
	bool fork_util_regression;		/* v6.4..v6.13 autogroup stale-util forks */
	bool delayed_dequeue;			/* v6.12+ DELAY_DEQUEUE: may skip selection */
	bool overridden;
	char note[128];
};

/*
 * Which placements an analysis counts and hands to its subscribers (-p/--pid, --comm,
 * -C/--cpu, --from/--to): the placed task's pid, its name, the CPU chosen, its time in
 * seconds from the trace's first record.  The model follows every event all the same;
 * the seq numbers stay those of the whole trace, the data-quality counts are of it too.
 */
#define RQ_FILTER_PIDS 64
struct rq_filter {
	int npids;		/* 0: any pid */
	int pids[RQ_FILTER_PIDS];
	const char *comm;	/* NULL: any name */
	const char *cpus;	/* a CPU list ("0-3,6"), NULL: any CPU */
	bool has_from, has_to;
	double from, to;	/* seconds from the first record */
};

/* Check f (the CPU list): 0, or -1 with one line in err. */
int rq_filter_check(const struct rq_filter *f, char *err, size_t errlen);
/* Whether any field of f is set. */
bool rq_filter_active(const struct rq_filter *f);

struct rq_analysis_opts {
	/* "exec-callback=fixed", "idle-stack=fixed", ...: comma list, NULL none */
	const char *profile_override;
	/* placements kept in the ring; 0 = default, RQ_RECENT_NONE: no ring (rq_recent() NULL) */
	int recent_capacity;
	/* --topology: a spec ("llc 0-3 4-7; capacity 1024 ...") or a file holding one */
	const char *topology;
	/* the name the outputs give the trace ("live"); NULL: the source rq_analysis_begin() got */
	const char *source_name;
	/* --no-truth: ignore rqpath:truth records (the tracepoint model alone) */
	bool no_truth;
	/* the placements counted and shown; NULL: all (copied by rq_analysis_new()) */
	const struct rq_filter *filter;
};

/* One CPU as the model sees it, and the quality of its data (struct rq_summary.cpus). */
struct rq_cpu_summary {
	bool known;		/* runqueue known: seen idle, or watched long enough */
	int curr;		/* pid running, 0 idle, -1 unknown */
	int nqueued;		/* runnable tasks queued, not running */
	int ndelayed;		/* blocked fair tasks maybe still enqueued (DELAY_DEQUEUE) */
	int pending_wakeups;
	/* topology: first CPU of its LLC, its core and node; capacity 0 unknown */
	int llc, core, node, capacity;
	uint64_t last_idle_ts;	/* when it was last seen running the idle task */
	uint64_t placements_in, placements_out;
	/* data quality */
	uint64_t lost_events;
	uint64_t repairs;	/* the running task corrected from a record's common_pid */
	uint64_t idle_repairs;	/* of those, the model had the idle task running */
	uint64_t switch_mismatches;	/* a sched_switch whose prev was not the model's curr */
	uint64_t clock_backwards;	/* records older than the CPU's previous one */
};

/*
 * What an analysis found, for every output and view: rq_analysis_summary() fills it.
 * The arrays (counts, findings, ...) point into the analysis and the rest is copied;
 * all of it stays valid and unchanged until the next rq_analysis_feed(),
 * rq_analysis_finish() or rq_analysis_free() on that analysis: call again after
 * feeding.  Nothing in it is written by its readers.
 */
struct rq_summary {
	/* trace identity */
	const char *source;	/* file name or "live" */
	int nr_cpus;
	struct rq_profile profile;
	/* counters */
	uint64_t nr_events;
	uint64_t lost_events;	/* counted by the engine alone (RQ_EV_LOST, rq_analysis_note_lost()) */
	/*
	 * NULL, or why the recording ends before its recorder did (rq_analysis_note_cut()):
	 * "unfinished" (never finished: killed), "disk-full" (stopped on a full disk)
	 */
	const char *cut;
	uint64_t first_ts, last_ts;
	const uint64_t *counts;		/* [RQ_EV__COUNT] */
	const uint64_t *path_counts;	/* [RQ_PATH__COUNT] */
	const uint64_t (*path_conf)[3];	/* [RQ_PATH__COUNT]: exact, inferred, unknown */
	const uint64_t *conf_counts;	/* [3] */
	uint64_t nr_placements;
	uint64_t nr_filtered;	/* placements a filter (opts.filter) left out of every count */
	/* per finding: count = exact + inferred, possible, not_judged, judged, examples */
	const struct rq_finding_store *findings;	/* [RQ_FIND__COUNT] */
	/* what the trace supports */
	const bool *has_event;		/* [RQ_EV__COUNT]: the source carries the event */
	/* per finding: an event it needs that the trace lacks, RQ_EV_OTHER none */
	enum rq_event_type lacks[RQ_FIND__COUNT];
	bool has_markers;
	bool has_topology;
	enum rq_llc_source llc_source;
	bool asym_capacity;	/* CPUs of different capacities: EAS may place wakeups */
	/*
	 * where the CPU capacities come from: "trace" (the recorder's cpu lines), "option"
	 * (--topology), "eas-events" (none given, but the kernel defines eas_event, a
	 * scheduler event only energy-aware kernels have: taken as asymmetric), or
	 * "assumed" (none: every CPU taken as of one capacity, a symmetric machine)
	 */
	const char *capacity_source;
	const char *eas_event;	/* "" none */
	/* data quality beyond the per-CPU numbers */
	uint64_t markers_ignored;	/* marker lines from another writer: not trusted */
	/*
	 * Kernel truth (truth.h): "bpf" when the trace has rqpath:truth records (or its
	 * recorder's truth line says so), else "none"; the records, and those the BPF ring
	 * buffer had no room for (the recorder's truth line).
	 */
	const char *truth_source;
	uint64_t truth_records, truth_drops, truth_misses;
	uint64_t mask_violations;	/* a task ran outside its marked mask: mask dropped */
	/* the kernel's own state (rqpath:truth records) and the model measured against it */
	struct rq_truth_summary truth;
	unsigned int nr_tasks;		/* tasks known now (live and recently exited) */
	uint64_t nr_tasks_evicted;
	/* the recent placements ring (rq_recent()) */
	unsigned int recent_len, recent_cap;
	const struct rq_cpu_summary *cpus;	/* [nr_cpus] */
	struct rq_delay *delay;		/* queue delays and their sinks (delay.h) */
};

#define RQ_RECENT_DEFAULT 65536
/* for a reader that never calls rq_recent(): no ring to fill at every placement */
#define RQ_RECENT_NONE -1

/* The engine: private to src/ (engine.h); read it through the functions below. */
struct rq_analysis;

/* Returns NULL on allocation failure. */
struct rq_analysis *rq_analysis_new(const struct rq_analysis_opts *opts);
/*
 * Tell the engine what it is looking at before the first event: CPU count, kernel
 * release (may be NULL or ""), which events the source carries (may be NULL).
 * Returns 0, or -1 (with errno) on a bad nr_cpus or allocation failure.
 */
int rq_analysis_begin(struct rq_analysis *an, const char *source, int nr_cpus,
		      const char *release, const bool *has_event);
void rq_analysis_feed(struct rq_analysis *an, const struct rq_event *ev);
/*
 * The analysis as a sink of a pump (pump.h): rq_analysis_feed() for every event.  0, or
 * -1 when the pump has too many sinks.
 */
struct rq_pump;
int rq_pump_add_analysis(struct rq_pump *p, struct rq_analysis *an);
/* Events lost that no RQ_EV_LOST mark will report (a trace file's statistics). */
void rq_analysis_note_lost(struct rq_analysis *an, uint64_t n);
/* The recording is cut short, why (a static string, rq_summary.cut), or NULL. */
void rq_analysis_note_cut(struct rq_analysis *an, const char *why);
/*
 * The trace defines event name, which only an energy-aware (EAS) kernel has: without
 * capacities from the trace or --topology, the machine is taken as asymmetric.
 */
void rq_analysis_note_eas(struct rq_analysis *an, const char *name);
/*
 * The options an was made with (rq_analysis_new()), filter NULL: the analysis keeps its
 * own copy of the filter.  Valid until rq_analysis_free().
 */
const struct rq_analysis_opts *rq_analysis_opts(const struct rq_analysis *an);
/*
 * A pre-check over the file's start refused these fields of its rqpath:truth records
 * (bits of enum rq_tchk_kind, added to rq_truth_summary.rejected): no record is used, the
 * verdicts are the model's.  After rq_analysis_begin(), before the first event.
 */
void rq_analysis_note_truth_rejected(struct rq_analysis *an, unsigned int rejected);
/*
 * What the engine tells its subscribers, as it happens (any hook may be NULL; ctx is
 * handed back to each).  All are called from inside rq_analysis_feed() (or
 * rq_analysis_finish()); the pointers they get are valid only during the call.
 *
 *   on_event      every event, after the engine handled it (the model is up to date)
 *   on_placement  a placement as it is classified, its verdicts so far (the TUI's
 *                 sparkline, its step to the next placement)
 *   on_settled    a placement with all its facts: its queue delay (delay_ns), a verdict
 *                 that waited for a later marker (late_findings says which it added),
 *                 the outcome of an offcpu-fork (parent's CPU idled, child's lifetime).
 *                 Each placement is settled once, in the order its facts became known;
 *                 what is still open at rq_analysis_finish() is settled there.
 *   on_run        from ts on, cpu runs pid (0 the idle task, -1 unknown: events were
 *                 lost): the model's own answer (rq_analysis_curr()), with the repair
 *                 from the records' common_pid; rq_analysis_finish() ends every run
 *                 with pid -1 at the last timestamp
 */
struct rq_observer {
	void (*on_event)(void *ctx, const struct rq_event *ev);
	void (*on_placement)(void *ctx, const struct rq_placement *p);
	void (*on_settled)(void *ctx, const struct rq_placement *p);
	void (*on_run)(void *ctx, int cpu, int pid, uint64_t ts);
	void *ctx;
};

/*
 * Subscribe o (copied) to an: any number of subscribers, called in the order they
 * subscribed.  Subscribe before the first event to see every placement settled.  0, or
 * -1 when out of memory.  rq_analysis_unsubscribe() removes the subscriber(s) with that
 * ctx and returns how many it removed.
 */
int rq_analysis_subscribe(struct rq_analysis *an, const struct rq_observer *o);
int rq_analysis_unsubscribe(struct rq_analysis *an, const void *ctx);
/*
 * Who runs on cpu now, as the model knows it: a pid, 0 the idle task, -1 unknown (or cpu
 * out of range).  The one answer: the timeline, the queue delay and the views read it.
 */
int rq_analysis_curr(const struct rq_analysis *an, int cpu);
/* Resolve what is still pending at the end of the trace. */
void rq_analysis_finish(struct rq_analysis *an);
void rq_analysis_free(struct rq_analysis *an);
/* The summary of what an analysis found (see struct rq_summary for how long it holds). */
const struct rq_summary *rq_analysis_summary(const struct rq_analysis *an);
/*
 * Cheap reads for a sink called at every event (rq_analysis_summary() copies more):
 * the CPU count (0 before rq_analysis_begin()), and cpu's queue length as the model
 * knows it now (-1: its runqueue is unknown, or cpu is out of range).
 */
int rq_analysis_nr_cpus(const struct rq_analysis *an);
int rq_analysis_queued(const struct rq_analysis *an, int cpu);
/* The pid of the i-th task queued on cpu (the model's order), 0 when there is none. */
int rq_analysis_queued_pid(const struct rq_analysis *an, int cpu, int i);
/* The queue-delay store and its sinks (delay.h): lives as long as the analysis. */
struct rq_delay *rq_analysis_delay(const struct rq_analysis *an);
/* Why rq_analysis_begin() failed, for the user ("" if it did not). */
const char *rq_analysis_error(const struct rq_analysis *an);

/*
 * Fill *out with what the analysis knows of the task with that pid; returns false (and
 * leaves *out alone) when it knows none.  Tasks and the recent placements belong to the
 * analysis: a task may be evicted and the ring may wrap at the next rq_analysis_feed().
 * The findings' examples (in the summary) stay until rq_analysis_free(); later events
 * may complete them.
 */
bool rq_task_info_get(const struct rq_analysis *an, int pid, struct rq_task_info *out);
/*
 * Call fn with each task known (in no particular order); stops early when fn returns
 * non-zero and returns that value, else 0.  ti is valid only during the call (ti->mask
 * as struct rq_task_info says).
 */
int rq_task_info_foreach(const struct rq_analysis *an,
			 int (*fn)(const struct rq_task_info *ti, void *data), void *data);
/* i-th most recent placement, 0 = newest; NULL past the end (recent_len in the summary). */
const struct rq_placement *rq_recent(const struct rq_analysis *an, unsigned int i);

const char *rq_policy_name(int policy);
/* Apply "key=value,…" overrides; returns 0 or -1 with a message in err. */
int rq_profile_override(struct rq_profile *p, const char *spec, char *err, size_t errlen);
void rq_profile_from_release(struct rq_profile *p, const char *release);
/* The release unknown: what the events the trace defines say (has_event[RQ_EV__COUNT]). */
void rq_profile_from_events(struct rq_profile *p, const bool *has_event);

/*
 * This machine's topology (sysfs), per CPU the first CPU of its group: LLC (the package
 * where sysfs has no cache information: llc_from_cache false), core, node; capacity
 * where sysfs has one for every CPU (has_capacity).  rq_topology_host() returns 0, or -1
 * with err; rq_topology_host_free() frees what it filled.  Written out in the --topology
 * format by the output layer (topology_spec.h).
 */
struct rq_host_topology {
	int nr_cpus;
	int *llc, *smt, *node, *capacity;
	bool has_capacity, llc_from_cache;
};
int rq_topology_host(struct rq_host_topology *h, char *err, size_t errlen);
void rq_topology_host_free(struct rq_host_topology *h);

/* Compose the human "why" for a placement (offcpu-fork extras included). */
void rq_placement_describe(const struct rq_placement *p, char *buf, size_t size);

#endif
