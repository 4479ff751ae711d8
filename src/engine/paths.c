// SPDX-License-Identifier: GPL-2.0
/*
 * paths.c - the stable names of placement kinds, select_task_rq() paths, confidence
 * levels and findings.  The ids are a contract (JSON, CSV, rqpath-paths(7)).
 */
#include "analysis.h"

const char *const rq_kind_names[RQ_KIND__COUNT] = {
	[RQ_KIND_FORK] = "fork",	[RQ_KIND_EXEC] = "exec",
	[RQ_KIND_WAKEUP] = "wakeup",	[RQ_KIND_BALANCE] = "balance",
	[RQ_KIND_NEWIDLE] = "newidle",	[RQ_KIND_STOPPER] = "stopper",
	[RQ_KIND_AFFINITY] = "affinity", [RQ_KIND_NUMA] = "numa",
	[RQ_KIND_UNKNOWN] = "unknown",
};

/* "4 of 218 wakeups": the placements of a kind, counted */
const char *const rq_kind_plural[RQ_KIND__COUNT] = {
	[RQ_KIND_FORK] = "forks",	[RQ_KIND_EXEC] = "execs",
	[RQ_KIND_WAKEUP] = "wakeups",	[RQ_KIND_BALANCE] = "balance",
	[RQ_KIND_NEWIDLE] = "newidle",	[RQ_KIND_STOPPER] = "stopper",
	[RQ_KIND_AFFINITY] = "affinity", [RQ_KIND_NUMA] = "numa",
	[RQ_KIND_UNKNOWN] = "unknown",
};

/* findings.def's kinds and of columns */
#define RQ_NEEDS_EV(ev) 0
#define RQ_KIND_BIT(kind) (1u << RQ_KIND_##kind)
const unsigned int rq_finding_kinds[RQ_FIND__COUNT] = {
#define RQ_FINDING(ID, id, letter, colour, title, needs, kinds, of, text) \
	[RQ_FIND_##ID] = kinds,
#include "findings.def"
#undef RQ_FINDING
};

const enum rq_kind rq_finding_of[RQ_FIND__COUNT] = {
#define RQ_FINDING(ID, id, letter, colour, title, needs, kinds, of, text) \
	[RQ_FIND_##ID] = RQ_KIND_##of,
#include "findings.def"
#undef RQ_FINDING
};
_Static_assert(RQ_KIND__COUNT <= 32, "rq_finding_kinds: too narrow for enum rq_kind");

const char *const rq_confidence_names[3] = { "exact", "inferred", "unknown" };

const struct rq_path_info rq_paths[RQ_PATH__COUNT] = {
	[RQ_PATH_FORK_AFFINE] = { "fork-affine", RQ_KIND_FORK, "select_task_rq",
		"child allowed on one CPU: core wrapper took cpumask_any(), no class callback" },
	[RQ_PATH_FORK_LOCAL] = { "fork-local", RQ_KIND_FORK, "sched_balance_find_dst_cpu",
		"fork slow path kept the child on the parent's CPU" },
	[RQ_PATH_FORK_MOVED] = { "fork-moved", RQ_KIND_FORK, "sched_balance_find_dst_group",
		"fork slow path found an idler group and put the child on another CPU" },
	[RQ_PATH_FORK_RT] = { "fork-rt", RQ_KIND_FORK, "select_task_rq_rt",
		"RT/DL child: the class callback (find_lowest_rq) chose the CPU" },
	[RQ_PATH_EXEC_AFFINE] = { "exec-affine", RQ_KIND_EXEC, "sched_exec",
		"exec of a task allowed on one CPU: the answer was forced" },
	[RQ_PATH_EXEC_LOCAL] = { "exec-local", RQ_KIND_EXEC, "sched_balance_find_dst_cpu",
		"exec balance kept the task on its CPU (no migration seen)" },
	[RQ_PATH_EXEC_MOVED] = { "exec-moved", RQ_KIND_EXEC, "sched_exec",
		"exec balance moved the task through migration/N (migration_cpu_stop)" },
	[RQ_PATH_EXEC_RT] = { "exec-rt", RQ_KIND_EXEC, "select_task_rq_rt",
		"non-fair class at exec: the callback returns the input CPU" },
	[RQ_PATH_WAKE_RUNNABLE] = { "wake-runnable", RQ_KIND_WAKEUP, "ttwu_runnable",
		"woken while still queued (or delayed-dequeued): no CPU selection" },
	[RQ_PATH_WAKE_AFFINE] = { "wake-affine", RQ_KIND_WAKEUP, "select_task_rq",
		"wakee allowed on one CPU: core wrapper took cpumask_any()" },
	[RQ_PATH_WAKE_PREV] = { "wake-prev", RQ_KIND_WAKEUP, "select_idle_sibling",
		"wakeup kept the task on its previous CPU" },
	[RQ_PATH_WAKE_PULLED] = { "wake-pulled", RQ_KIND_WAKEUP, "wake_affine",
		"wakeup pulled the task to the waker's CPU" },
	[RQ_PATH_WAKE_LLC] = { "wake-llc", RQ_KIND_WAKEUP, "select_idle_cpu",
		"wakeup moved the task to another CPU of its previous CPU's LLC" },
	[RQ_PATH_WAKE_CROSS_LLC] = { "wake-cross-llc", RQ_KIND_WAKEUP, "select_task_rq_fair",
		"wakeup moved the task to a CPU in another LLC" },
	[RQ_PATH_WAKE_MOVED] = { "wake-moved", RQ_KIND_WAKEUP, "select_task_rq_fair",
		"wakeup moved the task to another CPU (no LLC groups in the trace: which "
		"domain decided is unknown)" },
	[RQ_PATH_WAKE_RT] = { "wake-rt", RQ_KIND_WAKEUP, "select_task_rq_rt",
		"RT/DL wakeup: find_lowest_rq()/find_later_rq() or kept" },
	[RQ_PATH_WAKE_STOP] = { "wake-stop", RQ_KIND_WAKEUP, "select_task_rq",
		"stop-class task (migration/N) allowed on one CPU: the core wrapper's "
		"one-CPU shortcut, no class callback" },
	[RQ_PATH_LB_PERIODIC] = { "lb-periodic", RQ_KIND_BALANCE, "sched_balance_rq",
		"periodic load balance (SCHED_SOFTIRQ) pulled the task to this CPU" },
	[RQ_PATH_LB_NOHZ] = { "lb-nohz", RQ_KIND_BALANCE, "sched_balance_domains",
		"NOHZ idle balance moved the task for another idle CPU" },
	[RQ_PATH_LB_RT] = { "lb-rt", RQ_KIND_BALANCE, "push_rt_task",
		"RT/DL push or pull" },
	[RQ_PATH_LB_NEWIDLE] = { "lb-newidle", RQ_KIND_NEWIDLE, "sched_balance_newidle",
		"a CPU about to go idle pulled the task" },
	[RQ_PATH_LB_ACTIVE] = { "lb-active", RQ_KIND_STOPPER, "active_load_balance_cpu_stop",
		"migration/N pushed a running task (active balance)" },
	[RQ_PATH_STOPPER_UNKNOWN] = { "stopper-unknown", RQ_KIND_STOPPER, "migration_cpu_stop",
		"migration/N moved the task; the trace cannot say why (exec, affinity, "
		"active balance or hotplug)" },
	[RQ_PATH_AFFINITY_STOPPER] = { "affinity-stopper", RQ_KIND_AFFINITY, "affine_move_task",
		"affinity change moved the running task through migration/N" },
	[RQ_PATH_AFFINITY_CALLER] = { "affinity-caller", RQ_KIND_AFFINITY, "move_queued_task",
		"affinity change moved the queued task in the caller's context" },
	[RQ_PATH_NUMA_MOVE] = { "numa-move", RQ_KIND_NUMA, "migrate_task_to",
		"NUMA balancing moved the task to its preferred node" },
	[RQ_PATH_NUMA_SWAP] = { "numa-swap", RQ_KIND_NUMA, "migrate_swap",
		"NUMA balancing swapped two tasks" },
	[RQ_PATH_UNKNOWN] = { "unknown", RQ_KIND_UNKNOWN, "set_task_cpu",
		"a migration whose context the trace does not show" },
};

const char *rq_policy_name(int policy)
{
	switch (policy) {
	case RQ_SCHED_NORMAL: return "NORMAL";
	case RQ_SCHED_FIFO: return "FIFO";
	case RQ_SCHED_RR: return "RR";
	case RQ_SCHED_BATCH: return "BATCH";
	case RQ_SCHED_IDLE: return "IDLE";
	case RQ_SCHED_DEADLINE: return "DEADLINE";
	case RQ_SCHED_EXT: return "EXT";
	default: return "?";
	}
}

const char *const rq_assumption_names[RQ_ASSUME__COUNT] = {
	[RQ_ASSUME_MASK_ALL] = "affinity-all-cpus",
	[RQ_ASSUME_PERCPU_KTHREAD] = "percpu-kthread-pinned",
	[RQ_ASSUME_POLICY_PRIO] = "policy-from-prio",
	[RQ_ASSUME_CPU_WATCHED] = "cpu-state-watched",
	[RQ_ASSUME_LLC] = "llc-assumed",
	[RQ_ASSUME_IDLE_REPAIRED] = "idle-exits-repaired",
	[RQ_ASSUME_MASK_LAST_READ] = "affinity-last-read",
	[RQ_ASSUME_CPUSET_UNSEEN] = "cpuset-unseen",
	[RQ_ASSUME_BLOCKED_BEFORE] = "blocked-before-trace",
	[RQ_ASSUME_POLICY_LAST_READ] = "policy-last-read",
};
_Static_assert(RQ_ASSUME__COUNT <= 8 * sizeof(((struct rq_placement *)0)->assume),
	       "struct rq_placement's assume holds one bit per assumption");
