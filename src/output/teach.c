// SPDX-License-Identifier: GPL-2.0
/*
 * teach.c - the select_task_rq() decision tree as data, and its text form (rq_teach_write).
 *
 * Facts come from docs/kernel.md §1 (kernel ~v6.18/6.19, function
 * names after the v6.10 renames); the words are ours, written for a student who knows
 * what a runqueue is but has not read kernel/sched/fair.c yet.
 */
#include <errno.h>
#include <stdlib.h>
#include <strings.h>
#include <string.h>

#include "analysis.h"
#include "escape.h"
#include "teach.h"

#define P(x) RQ_PATH_##x
#define END -1
#define NONE { END }

#define FORK_FAIR P(FORK_LOCAL), P(FORK_MOVED)
#define EXEC_FAIR P(EXEC_LOCAL), P(EXEC_MOVED)
#define WAKE_FAIR P(WAKE_PREV), P(WAKE_PULLED), P(WAKE_LLC), P(WAKE_CROSS_LLC), P(WAKE_MOVED)

const struct rq_teach_node rq_teach_nodes[] = {
	{ "callers", 0, "who asks for a CPU: the three callers", "core.c",
	  "A task needs a CPU chosen for it at three moments: when it is created (fork), when "
	  "it replaces its program (exec), and when it wakes up after sleeping. Each moment "
	  "has its own caller in kernel/sched/core.c and passes a wake flag (WF_FORK, WF_EXEC, "
	  "WF_TTWU) that later steps use to pick a strategy. Every other move of a task "
	  "(load balancing, affinity changes, NUMA) happens without select_task_rq(); those "
	  "are at the bottom of this tree.",
	  -1,
	  { P(FORK_AFFINE), FORK_FAIR, P(FORK_RT), P(EXEC_AFFINE), EXEC_FAIR, P(EXEC_RT),
	    P(WAKE_RUNNABLE), P(WAKE_AFFINE), WAKE_FAIR, END },
	  { P(WAKE_RT), END } },
	{ "fork", 1, "fork: wake_up_new_task(), WF_FORK", "core.c:wake_up_new_task",
	  "A new child is placed once, just before it first becomes runnable. Its prev_cpu "
	  "is the parent's CPU (sched_cgroup_fork() put it there during copy_process()). The "
	  "chosen CPU is applied with __set_task_cpu(), so no sched_migrate_task event is "
	  "written; the sched_wakeup_new event that follows is recorded on the parent's CPU "
	  "and names the target CPU. If the two differ, the child was placed off the "
	  "parent's CPU: that is what the offcpu-fork finding counts.",
	  RQ_FIND_OFFCPU_FORK,
	  { P(FORK_AFFINE), FORK_FAIR, P(FORK_RT), END }, NONE },
	{ "exec", 1, "exec: sched_exec(), WF_EXEC", "core.c:sched_exec",
	  "During execve() (fs/exec.c:bprm_execve) the kernel gets a cheap chance to move "
	  "the task: its old memory is about to be thrown away, so nothing is lost by moving. "
	  "If sched_exec() picks another CPU, the stopper thread migration/N moves the task "
	  "and writes the sched_migrate_task event. If it keeps the CPU, no event tells you "
	  "that the decision ran at all.",
	  RQ_FIND_NEEDLESS_CALLBACK,
	  { P(EXEC_AFFINE), EXEC_FAIR, P(EXEC_RT), END }, NONE },
	{ "exec-direct", 2, "calls the class callback directly", "core.c:sched_exec",
	  "Unlike the other two callers, sched_exec() calls "
	  "p->sched_class->select_task_rq() itself and skips the core wrapper below, so it "
	  "also skips the wrapper's affinity short-circuit. A task that may run on one CPU "
	  "only still pays for a full fair-class search whose answer is known in advance. "
	  "That is the needless-callback finding; a proposed fix (Jianyong Wu) makes "
	  "sched_exec() go through the wrapper, and UnixBench execl pinned to one CPU got "
	  "13.8 % faster with it.",
	  RQ_FIND_NEEDLESS_CALLBACK,
	  { P(EXEC_AFFINE), EXEC_FAIR, P(EXEC_RT), END }, NONE },
	{ "wakeup", 1, "wakeup: try_to_wake_up(), WF_TTWU", "core.c:try_to_wake_up",
	  "By far the most frequent decision. prev_cpu is p->wake_cpu, normally the CPU the "
	  "task last ran on; the code runs on the waker's CPU (maybe inside an interrupt on "
	  "an idle CPU). The events are sched_waking before the choice, sched_migrate_task "
	  "if the task moves, and sched_wakeup once it is queued.",
	  -1,
	  { P(WAKE_RUNNABLE), P(WAKE_AFFINE), WAKE_FAIR, END }, { P(WAKE_RT), END } },
	{ "ttwu-runnable", 2, "still queued: ttwu_runnable(), no choice", "core.c:ttwu_runnable",
	  "If the task has not finished going to sleep, or (v6.12+) it is a fair task kept on "
	  "its runqueue by delayed dequeue, the wakeup simply marks it runnable again where it "
	  "is. No CPU is chosen. A wakeup queued to the old CPU's wake list while the task is "
	  "still switching out is a similar case. No event says whether a task is delayed, "
	  "so rqpath asks for proof of selection before it counts a finding on a wakeup: the "
	  "task moved in that wakeup (set_task_cpu() follows a choice), or the CPU it blocked "
	  "on ran the idle task since (a CPU only goes idle once the fair pick dequeued every "
	  "delayed entity), or it is an RT/DL task, or the kernel predates v6.12. A wakeup "
	  "found without that proof is reported as \"possible\", never counted.",
	  -1, { P(WAKE_RUNNABLE), END }, NONE },

	{ "core", 0, "core wrapper: select_task_rq()", "core.c:select_task_rq",
	  "The wrapper every caller except sched_exec() goes through, with p->pi_lock held. "
	  "It first checks whether there is anything to choose, then asks the task's "
	  "scheduling class, then makes sure the answer is a CPU the task may use.",
	  -1,
	  { P(FORK_AFFINE), FORK_FAIR, P(FORK_RT), P(WAKE_AFFINE), P(WAKE_STOP), WAKE_FAIR, END },
	  { P(WAKE_RT), END } },
	{ "core-affine", 1, "one allowed CPU or migration disabled?", "core.c:select_task_rq",
	  "The affinity short-circuit: if p->nr_cpus_allowed is 1, or the task is inside a "
	  "migrate_disable() section, the answer is forced, and the wrapper takes "
	  "cpumask_any(p->cpus_ptr) without calling the class at all. Both tests are needed: "
	  "migrate_disable() narrows cpus_ptr to one CPU but leaves nr_cpus_allowed alone. "
	  "This is exactly the check sched_exec() misses (needless-callback). The stopper "
	  "threads migration/N (stop class) always take this branch: each is bound to its CPU.",
	  RQ_FIND_NEEDLESS_CALLBACK, { P(FORK_AFFINE), P(WAKE_AFFINE), P(WAKE_STOP), END },
	  NONE },
	{ "core-fallback", 1, "answer not allowed: select_fallback_rq()",
	  "core.c:select_fallback_rq",
	  "If the class returned a CPU the task may not use (is_cpu_allowed(): not in its "
	  "mask, or not active for a user task), the kernel falls back: an allowed CPU on the "
	  "same node, then any allowed CPU, then it widens the mask and logs \"no longer "
	  "affine to cpuN\". Rare; mostly seen around CPU hotplug.",
	  -1, NONE, NONE },
	{ "class", 0, "ask the class: p->sched_class->select_task_rq()", "sched_class",
	  "Each scheduling class has its own policy; the core wrapper above asks it for fork "
	  "and wakeup, sched_exec() directly. Only the fair class (SCHED_NORMAL, "
	  "SCHED_BATCH, SCHED_IDLE) does real work for all three callers; the others mostly "
	  "keep the CPU they were given.",
	  -1,
	  { FORK_FAIR, P(FORK_RT), P(EXEC_AFFINE), EXEC_FAIR, P(EXEC_RT), WAKE_FAIR, END },
	  { P(WAKE_RT), END } },
	{ "class-rt", 1, "RT / deadline: find_lowest_rq(), find_later_rq()",
	  "rt.c:select_task_rq_rt",
	  "An RT task at fork or wakeup moves only if the CPU's current task is RT and would "
	  "not be preempted by it (or the CPU's capacity does not fit); then find_lowest_rq() "
	  "looks for a CPU running lower-priority work. Deadline tasks do the same on wakeup "
	  "with find_later_rq(). At exec both simply return the input CPU.",
	  -1, { P(FORK_RT), P(EXEC_RT), END }, { P(WAKE_RT), END } },
	{ "class-ext", 1, "sched_ext: select_task_rq_scx()", "ext.c:select_task_rq_scx",
	  "With a BPF scheduler loaded, ops.select_cpu() (or the default scx_select_cpu_dfl()) "
	  "decides on wakeup; at exec the BPF scheduler is not consulted. rqpath does not "
	  "attribute sched_ext placements separately.",
	  -1, NONE, NONE },
	{ "fair", 1, "fair: select_task_rq_fair()", "fair.c:select_task_rq_fair",
	  "The interesting one. new_cpu starts as prev_cpu. Wakeups may return early "
	  "(WF_CURRENT_CPU, EAS); then the function walks the scheduling domains of the "
	  "current CPU from the smallest upward and chooses between the slow path (a "
	  "search across groups, used for fork and exec) and the fast path (a search for "
	  "an idle CPU near the target, used for wakeups).",
	  -1, { FORK_FAIR, EXEC_FAIR, WAKE_FAIR, END }, { P(EXEC_AFFINE), END } },
	{ "fair-current", 2, "WF_CURRENT_CPU: stay on the waker's CPU",
	  "fair.c:select_task_rq_fair",
	  "A wakeup flagged WF_CURRENT_CPU (only wake_up_poll_on_current_cpu() users such as "
	  "seccomp user notification) goes to the waker's CPU if allowed. Nothing else is "
	  "looked at. The trace does not show wake flags.",
	  -1, NONE, { P(WAKE_PULLED), P(WAKE_CROSS_LLC), END } },
	{ "eas", 2, "EAS: find_energy_efficient_cpu()", "fair.c:find_energy_efficient_cpu",
	  "On big.LITTLE-style machines with an Energy Model and the schedutil governor, and "
	  "only while the root domain is not overutilized, a wakeup compares the estimated "
	  "energy of leaving the task on prev_cpu against the CPU with the most spare "
	  "capacity in each performance domain. A task with no utilization stays on prev_cpu. "
	  "Never used for fork or exec, never on SMT machines. The trace cannot tell whether "
	  "EAS made a decision.",
	  -1, NONE, { WAKE_FAIR, END } },
	{ "want-affine", 2, "want_affine = !wake_wide(p) && waker CPU allowed",
	  "fair.c:wake_wide",
	  "Should the wakee be pulled toward the waker (good when they share data)? "
	  "wake_wide() says no when the two tasks wake many different partners: it counts "
	  "wakee_flips and compares them with the LLC size. A wide waker makes the wakeup "
	  "stay around prev_cpu.",
	  -1, { WAKE_FAIR, END }, NONE },
	{ "domain-walk", 2, "walk the domains: for_each_domain(cpu, sd)",
	  "fair.c:select_task_rq_fair",
	  "From the smallest domain (SMT siblings, then the LLC, then the package, then NUMA "
	  "levels) upward. For a wakeup that wants affinity, the first domain with "
	  "SD_WAKE_AFFINE that spans prev_cpu ends the walk and calls wake_affine(). For fork "
	  "and exec, the walk keeps the highest domain of the unbroken chain carrying "
	  "SD_BALANCE_FORK or SD_BALANCE_EXEC; that domain is where the slow path searches. "
	  "No default topology sets SD_BALANCE_WAKE, so wakeups end on the fast path.",
	  -1, { FORK_FAIR, EXEC_FAIR, WAKE_FAIR, END }, { P(EXEC_AFFINE), END } },
	{ "slow", 2, "slow path: sched_balance_find_dst_cpu()",
	  "fair.c:sched_balance_find_dst_cpu",
	  "Fork and exec search top-down: at each domain level pick the idlest group of CPUs, "
	  "descend into it, repeat, and finally pick a CPU inside the last group. Whether the "
	  "task leaves the local CPU is decided at the highest level where a non-local group "
	  "wins. (Called find_idlest_cpu() before v6.10.)",
	  RQ_FIND_OFFCPU_FORK, { FORK_FAIR, EXEC_FAIR, END }, { P(EXEC_AFFINE), END } },
	{ "find-group", 3, "local or idlest group? sched_balance_find_dst_group()",
	  "fair.c:sched_balance_find_dst_group",
	  "Compares the local group (the one holding the current CPU) with the idlest other "
	  "group that has an allowed CPU. The group with the lower classification wins; on a "
	  "tie between groups with spare capacity, the local group is kept unless the other "
	  "one has more idle CPUs.",
	  RQ_FIND_OFFCPU_FORK, { FORK_FAIR, EXEC_FAIR, END }, { P(EXEC_AFFINE), END } },
	{ "classify", 4, "group_classify(): spare, busy or overloaded",
	  "fair.c:update_sg_wakeup_stats",
	  "update_sg_wakeup_stats() sums each group's load, utilization and task count "
	  "without the task being placed, then group_classify() names the group: overloaded "
	  "(more tasks than CPUs and utilization or runnable too high), imbalanced, "
	  "asym_packing, smt_balance, misfit_task, fully_busy, or has_spare. At fork the "
	  "parent keeps its own CPU busy, so the local group never looks idle; stale "
	  "utilization can then make a nearly idle group look overloaded. That was the v6.4 "
	  "to v6.14-rc6 UnixBench spawn regression behind offcpu-fork (Dietmar Eggemann; "
	  "fixed by reverting an autogroup shortcut, 76f970ce51c8).",
	  RQ_FIND_OFFCPU_FORK, { FORK_FAIR, EXEC_FAIR, END }, { P(EXEC_AFFINE), END } },
	{ "keep-local", 4, "local group no busier: stay", "fair.c:sched_balance_find_dst_group",
	  "The function returns NULL and the search goes one level down in the same place. "
	  "If that happens at every level, the task stays on the current CPU: the parent's "
	  "CPU for a fork, its own CPU for an exec.",
	  -1, { P(FORK_LOCAL), P(EXEC_LOCAL), END }, { P(EXEC_AFFINE), END } },
	{ "idlest", 4, "idlest group wins: move there", "fair.c:sched_balance_find_dst_group",
	  "The search continues inside the other group, so the task will leave the local "
	  "CPU. For a fork that is an offcpu-fork; it is right when the parent's CPU stays "
	  "busy, and wasteful when the child is short-lived and the parent's CPU goes idle "
	  "soon after.",
	  RQ_FIND_OFFCPU_FORK, { P(FORK_MOVED), P(EXEC_MOVED), END }, NONE },
	{ "find-cpu", 3, "CPU in the group: sched_balance_find_dst_group_cpu()",
	  "fair.c:sched_balance_find_dst_group_cpu",
	  "Scans the allowed CPUs of the chosen group in ascending order. Before v7.1 the "
	  "first CPU running only SCHED_IDLE tasks is returned at once, even for a "
	  "SCHED_IDLE task and even if a truly idle CPU comes later: that is idle-stacking. "
	  "Otherwise the idle CPU with the shallowest idle state wins, else the least loaded.",
	  RQ_FIND_IDLE_STACKING, { P(FORK_MOVED), P(EXEC_MOVED), END }, NONE },
	{ "wake-affine", 2, "wake_affine(): waker's CPU or prev_cpu?", "fair.c:wake_affine",
	  "Runs when the waker's CPU and prev_cpu differ and share an SD_WAKE_AFFINE domain. "
	  "It returns the waker's CPU only when that looks better; any other outcome keeps "
	  "prev_cpu. The result is only the target for the fast path below, not the final "
	  "answer.",
	  -1, { P(WAKE_PULLED), END }, { P(WAKE_PREV), P(WAKE_LLC), P(WAKE_CROSS_LLC), END } },
	{ "wa-idle", 3, "wake_affine_idle(): who is idle?", "fair.c:wake_affine_idle",
	  "If the waker's CPU is idle (the wakeup came from an interrupt) and shares the LLC "
	  "with prev_cpu, prefer prev_cpu if it is idle too, else the waker's CPU. A "
	  "synchronous wakeup (WF_SYNC) from a CPU with only the waker on it pulls to the "
	  "waker's CPU. An idle prev_cpu wins otherwise.",
	  -1, NONE, { P(WAKE_PULLED), P(WAKE_PREV), END } },
	{ "wa-weight", 3, "wake_affine_weight(): compare loads", "fair.c:wake_affine_weight",
	  "Still undecided: compare the load of the waker's CPU (plus the wakee) with the "
	  "load of prev_cpu (minus the wakee), scaled by capacity, with a bias toward "
	  "prev_cpu (WA_BIAS, half of imbalance_pct).",
	  -1, NONE, { P(WAKE_PULLED), P(WAKE_PREV), END } },
	{ "sis", 2, "fast path: select_idle_sibling(p, prev, target)",
	  "fair.c:select_idle_sibling",
	  "Look for an idle CPU that shares the last-level cache (LLC) with the target, in a "
	  "fixed order of cheap checks first. \"Idle-ish\" below means truly idle, or (before "
	  "v7.1) running only SCHED_IDLE tasks.",
	  RQ_FIND_MISSED_IDLE, { WAKE_FAIR, END }, NONE },
	{ "sis-target", 3, "target idle-ish: take it", "fair.c:select_idle_sibling",
	  "The cheapest answer: the target (prev_cpu or the waker's CPU) is idle-ish. For a "
	  "SCHED_IDLE task, a target running only SCHED_IDLE work counts as idle here before "
	  "v7.1 (idle-stacking).",
	  RQ_FIND_IDLE_STACKING, NONE,
	  { P(WAKE_PREV), P(WAKE_PULLED), P(WAKE_LLC), P(WAKE_CROSS_LLC), END } },
	{ "sis-prev", 3, "prev_cpu idle-ish and shares the LLC", "fair.c:select_idle_sibling",
	  "If the target is the waker's CPU, prev_cpu gets the next chance: it has the task's "
	  "cache footprint. Same idle-ish rule, same idle-stacking caveat.",
	  RQ_FIND_IDLE_STACKING, NONE, { P(WAKE_PREV), END } },
	{ "sis-kthread", 3, "per-CPU kthread waker: stay on prev, even if busy",
	  "fair.c:select_idle_sibling",
	  "When a per-CPU kernel thread (an IO completion worker, for example) wakes a task "
	  "that last ran on the same CPU and nothing else is queued there, the task is put "
	  "back on that CPU even though it is busy: the kthread is about to sleep.",
	  -1, NONE, { P(WAKE_PREV), END } },
	{ "sis-recent", 3, "recent_used_cpu idle-ish", "fair.c:select_idle_sibling",
	  "The CPU the task used before prev_cpu, if it is idle-ish, shares the LLC and is "
	  "allowed: another cache-warm candidate.",
	  -1, NONE, { P(WAKE_LLC), P(WAKE_CROSS_LLC), END } },
	{ "sis-capacity", 3, "asymmetric capacity: select_idle_capacity()",
	  "fair.c:select_idle_capacity",
	  "On big.LITTLE machines the search looks for an idle CPU big enough for the task "
	  "across the asymmetric domain, and the LLC scan below is not done.",
	  -1, NONE, { P(WAKE_LLC), P(WAKE_CROSS_LLC), END } },
	{ "sis-smt", 3, "SMT: select_idle_smt() on prev's siblings", "fair.c:select_idle_smt",
	  "With SMT and no idle core in the LLC, try the hardware siblings of prev_cpu.",
	  -1, NONE, { P(WAKE_LLC), P(WAKE_CROSS_LLC), END } },
	{ "sis-scan", 3, "scan the LLC: select_idle_cpu()", "fair.c:select_idle_cpu",
	  "Visit the allowed CPUs of the target's LLC in order, starting after the target and "
	  "wrapping around; the first idle-ish CPU wins (a fully idle core when SMT has one). "
	  "The scan is bounded, see SIS_UTIL below. A wakeup that lands on a busy CPU while "
	  "another CPU of the same LLC was idle is a missed-idle.",
	  RQ_FIND_MISSED_IDLE, NONE, { P(WAKE_LLC), P(WAKE_CROSS_LLC), END } },
	{ "sis-util", 4, "SIS_UTIL: nr_idle_scan limits the scan",
	  "fair.c:update_idle_cpu_scan",
	  "The scan visits at most nr_idle_scan CPUs, and none at all when that is 0. The "
	  "periodic load balancer refreshes it as llc_weight * (1 - min(1, (f * 117/100)^2)) "
	  "where f is the average utilization of the LLC: about two thirds of the LLC at 50 % "
	  "utilization, nothing above about 85 %. Utilization includes recently slept tasks "
	  "and the value can be tens of milliseconds old, so an idle CPU can be skipped. "
	  "Reviewers named this the only reason the fast path misses an idle LLC CPU.",
	  RQ_FIND_MISSED_IDLE, NONE, NONE },
	{ "sis-fallback", 3, "nothing idle found: target", "fair.c:select_idle_sibling",
	  "If every check fails, the task goes to the target, busy or not. Landing here while "
	  "an idle CPU existed in the LLC is what missed-idle flags.",
	  RQ_FIND_MISSED_IDLE, NONE, { P(WAKE_PREV), P(WAKE_PULLED), P(WAKE_CROSS_LLC), END } },

	{ "no-select", 0, "moves that never call select_task_rq()", "",
	  "Once a task is queued, other kernel code may move it: the load balancer, affinity "
	  "changes, NUMA balancing, hotplug. These go through set_task_cpu() and write "
	  "sched_migrate_task, but no placement policy of select_task_rq() was involved.",
	  -1,
	  { P(LB_PERIODIC), P(LB_NOHZ), P(LB_RT), P(LB_NEWIDLE), P(LB_ACTIVE),
	    P(STOPPER_UNKNOWN), P(AFFINITY_STOPPER), P(AFFINITY_CALLER), P(NUMA_MOVE),
	    P(NUMA_SWAP), P(UNKNOWN), END },
	  NONE },
	{ "lb-periodic", 1, "periodic and NOHZ balance: sched_balance_rq()",
	  "fair.c:sched_balance_rq",
	  "The balance softirq on each CPU (and one idle CPU on behalf of sleeping ones, NOHZ) "
	  "finds the busiest group and queue and pulls tasks from it.",
	  -1, { P(LB_PERIODIC), P(LB_NOHZ), END }, NONE },
	{ "lb-newidle", 1, "about to idle: sched_balance_newidle()",
	  "fair.c:sched_balance_newidle",
	  "A CPU that is about to go idle first tries to pull work from a busier one.",
	  -1, { P(LB_NEWIDLE), END }, NONE },
	{ "lb-active", 1, "active balance: migration/N pushes a running task",
	  "fair.c:active_load_balance_cpu_stop",
	  "When the task to move is running, the stopper thread of its CPU moves it. "
	  "sched_exec() and affinity changes use the same stopper, so rqpath says active "
	  "balance only when the trace would have shown an exec or an affinity change; "
	  "otherwise the move stays \"stopper-unknown\".",
	  -1, { P(LB_ACTIVE), P(STOPPER_UNKNOWN), END }, NONE },
	{ "lb-rt", 1, "RT / deadline push and pull", "rt.c:push_rt_task",
	  "RT and deadline tasks are spread by push and pull operations when priorities "
	  "change on a CPU.",
	  -1, { P(LB_RT), END }, NONE },
	{ "affinity-move", 1, "affinity change: __set_cpus_allowed_ptr()",
	  "core.c:__set_cpus_allowed_ptr",
	  "sched_setaffinity() or a cpuset change removed the task's CPU from its mask; a "
	  "running task is moved by migration/N, a queued one by the caller.",
	  -1, { P(AFFINITY_STOPPER), P(AFFINITY_CALLER), END }, NONE },
	{ "numa", 1, "NUMA balancing: migrate_task_to(), migrate_swap()",
	  "fair.c:task_numa_migrate",
	  "Automatic NUMA balancing moves a task, or swaps two, toward their memory.",
	  -1, { P(NUMA_MOVE), P(NUMA_SWAP), END }, NONE },
	{ "unknown", 1, "not classified", "",
	  "Moves rqpath could not attribute, usually because the events around them were "
	  "lost or are missing from the trace.",
	  -1, { P(UNKNOWN), END }, NONE },

	{ "verdicts", 0, "how rqpath judges: no count without proof", "",
	  "A finding counts only what the trace proves: exact (every fact is in the trace) or "
	  "inferred (proven under an assumption the report names). What cannot be proven has "
	  "its own number: possible (the wakeup may not have selected at all, see "
	  "ttwu_runnable() above) and not judged (a policy, a mask or a CPU's state was "
	  "unknown).",
	  -1, NONE, NONE },
	{ "repair", 1, "the model repaired from common_pid", "",
	  "Every record names the task that was running on the CPU that wrote it "
	  "(common_pid). When a trace lacks a sched_switch (some kernels drop the switches "
	  "out of an idle task), rqpath sees the next record of the new task and corrects "
	  "the CPU's running task; the report counts these repairs per CPU. An idle CPU whose "
	  "exits from idle were repaired may have run a task that wrote nothing, so a verdict "
	  "resting on it is inferred.",
	  -1, NONE, NONE },
	{ "kernel-view", 1, "a CPU as the kernel sees it: idle_cpu(), sched_idle_cpu()",
	  "core.c:idle_cpu",
	  "idle_cpu() is true only when the idle task runs, nothing is queued and no wakeup is "
	  "on its way (rq->ttwu_pending, from sched_waking to sched_wakeup). sched_idle_cpu() "
	  "is true when everything there is SCHED_IDLE work: for a fair wakee such a CPU is as "
	  "good as idle, so a wakeup onto it is no miss. A task woken onto a CPU and not yet "
	  "running already makes it busy.",
	  -1, NONE, NONE },
	{ "assumptions", 1, "plain trace-cmd traces: stated assumptions", "",
	  "Tracepoints carry neither affinity nor policy. Without rqpath's snapshot lines a "
	  "task whose affinity never changed is taken as allowed everywhere, a per-CPU "
	  "kthread (kworker/N:*, ksoftirqd/N, migration/N, ...) as bound to N, a prio below "
	  "100 as RT, and all CPUs as one LLC unless --topology says otherwise. SCHED_IDLE is "
	  "never assumed: the priority fields cannot show it.",
	  -1, NONE, NONE },
};

const int rq_teach_nr_nodes = sizeof(rq_teach_nodes) / sizeof(rq_teach_nodes[0]);

int rq_teach_parent(int i)
{
	if (i <= 0 || i >= rq_teach_nr_nodes)
		return -1;
	for (int j = i - 1; j >= 0; j--)
		if (rq_teach_nodes[j].depth < rq_teach_nodes[i].depth)
			return j;
	return -1;
}

static bool in_list(const int *list, int path)
{
	for (int k = 0; k < RQ_TEACH_MAX_PATHS && list[k] != END; k++)
		if (list[k] == path)
			return true;
	return false;
}

static uint64_t sum_list(const struct rq_summary *sum, const int *list)
{
	uint64_t n = 0;

	for (int k = 0; k < RQ_TEACH_MAX_PATHS && list[k] != END; k++)
		if (list[k] >= 0 && list[k] < RQ_PATH__COUNT)
			n += sum->path_counts[list[k]];
	return n;
}

/*
 * Can this trace's machine take step id at all?  EAS and select_idle_capacity() need
 * CPUs of different capacities; select_idle_smt() needs SMT siblings.  Ruled out only
 * when the trace (or --topology) says so: a step nobody can rule out keeps its maybe.
 */
static bool step_possible(const struct rq_summary *sum, const char *id)
{
	bool capacities = false, smt = false;

	for (int c = 0; c < sum->nr_cpus; c++) {
		capacities |= sum->cpus[c].capacity > 0;
		smt |= sum->cpus[c].core != c;
	}
	if (!strcmp(id, "eas") || !strcmp(id, "sis-capacity"))
		return !capacities || sum->asym_capacity;
	if (!strcmp(id, "sis-smt"))
		return smt || (sum->llc_source != RQ_LLC_CACHE && sum->llc_source != RQ_LLC_PACKAGE);
	return true;
}

bool rq_teach_count(const struct rq_analysis *an, int i, struct rq_teach_count *c)
{
	const struct rq_summary *sum;
	const struct rq_teach_node *n;

	memset(c, 0, sizeof(*c));
	if (!an || i < 0 || i >= rq_teach_nr_nodes)
		return false;
	sum = rq_analysis_summary(an);
	n = &rq_teach_nodes[i];
	c->taken = sum_list(sum, n->taken);
	c->maybe = step_possible(sum, n->id) ? sum_list(sum, n->maybe) : 0;
	if (n->finding >= 0 && n->finding < RQ_FIND__COUNT)
		c->finding = sum->findings[n->finding].count;
	return true;
}

enum rq_teach_mark rq_teach_node_mark(int i, enum rq_path path)
{
	if (i < 0 || i >= rq_teach_nr_nodes)
		return RQ_TEACH_OFF;
	if (in_list(rq_teach_nodes[i].taken, path))
		return RQ_TEACH_TAKEN;
	if (in_list(rq_teach_nodes[i].maybe, path))
		return RQ_TEACH_MAYBE;
	return RQ_TEACH_OFF;
}

const char *rq_teach_unknown(enum rq_path path, enum rq_confidence conf)
{
	switch (path) {
	case RQ_PATH_FORK_AFFINE:
	case RQ_PATH_WAKE_AFFINE:
		return "Affinity comes from a /proc snapshot, fork inheritance or traced "
		       "sched_setaffinity calls; a transient migrate_disable() is invisible.";
	case RQ_PATH_FORK_LOCAL:
	case RQ_PATH_FORK_MOVED:
		return "Group types, PELT load and utilization, imbalance_pct and idle-state "
		       "exit latencies are not in the trace: which level decided, and whether the "
		       "move was utilization-driven, is inferred from the runqueues rqpath "
		       "rebuilt from sched_switch.";
	case RQ_PATH_EXEC_AFFINE:
	case RQ_PATH_EXEC_LOCAL:
		return "No event shows that sched_exec() ran the callback or kept the CPU: it is "
		       "inferred from the exec events, the task's affinity and the kernel version "
		       "(override with --profile exec-callback=fixed if your kernel has the fix).";
	case RQ_PATH_EXEC_MOVED:
	case RQ_PATH_EXEC_RT:
		return "The class and the search inside sched_exec() are inferred from prio and "
		       "the migration/N record; failed execs also call sched_exec() and leave no "
		       "event.";
	case RQ_PATH_WAKE_RUNNABLE:
		return "A still-queued or delayed-dequeue wakeup looks like \"kept prev_cpu\": "
		       "delayed entities are not traced, so this is a best guess.";
	case RQ_PATH_WAKE_PREV:
	case RQ_PATH_WAKE_PULLED:
	case RQ_PATH_WAKE_LLC:
	case RQ_PATH_WAKE_CROSS_LLC:
		return "Wake flags (WF_SYNC, WF_CURRENT_CPU), wake_wide(), the wake_affine() "
		       "verdict, EAS use, nr_idle_scan and vCPU preemption are not traced: which "
		       "step of select_idle_sibling() chose the CPU is marked \"?\" in the tree.";
	case RQ_PATH_WAKE_RT:
	case RQ_PATH_FORK_RT:
		return "Priorities come from the events; capacity fitness and the deadline "
		       "parameters are not traced.";
	default:
		break;
	}
	if (conf == RQ_CONF_UNKNOWN)
		return "The events around this move were missing or lost; rqpath does not guess.";
	return "The writer of the sched_migrate_task record and its context flags identify the "
	       "mover; the balancer's reasons (group types, imbalance) are not traced.";
}

int rq_teach_wrap(const char *text, int width,
		  void (*fn)(const char *line, int len, void *data), void *data)
{
	int lines = 0;
	const char *s = text;

	if (width < 8)
		width = 8;
	while (*s) {
		int len = 0, brk = -1;

		while (*s == ' ')
			s++;
		if (!*s)
			break;
		while (s[len] && s[len] != '\n') {
			/* count UTF-8 continuation bytes as zero width */
			int cols = 0;

			for (int k = 0; k <= len; k++)
				if (((unsigned char)s[k] & 0xc0) != 0x80)
					cols++;
			if (cols > width)
				break;
			if (s[len] == ' ')
				brk = len;
			len++;
		}
		if (s[len] && s[len] != '\n' && brk > 0)
			len = brk;
		fn(s, len, data);
		lines++;
		s += len;
		if (*s == '\n')
			s++;
	}
	return lines;
}

struct wrap_out {
	FILE *f;
	const char *indent;
};

static void wrap_print(const char *line, int len, void *data)
{
	struct wrap_out *w = data;

	fprintf(w->f, "%s%.*s\n", w->indent, len, line);
}

/* Tree prefix for node i: "│  ├─ " style, ASCII "|  +- " without UTF-8. */
static int tree_prefix(int i, bool utf8, char *buf, size_t size)
{
	const char *vl = utf8 ? "\u2502  " : "|  ";
	const char *tee = utf8 ? "\u251c\u2500 " : "+- ";
	const char *ell = utf8 ? "\u2514\u2500 " : "`- ";
	int depth = rq_teach_nodes[i].depth;
	size_t off = 0;

	buf[0] = '\0';
	for (int d = 1; d <= depth; d++) {
		/* is there a later sibling at level d on the way from the ancestor? */
		int anc = i;
		bool more = false;

		while (anc >= 0 && rq_teach_nodes[anc].depth > d)
			anc = rq_teach_parent(anc);
		for (int j = anc + 1; j < rq_teach_nr_nodes; j++) {
			if (rq_teach_nodes[j].depth < d)
				break;
			if (rq_teach_nodes[j].depth == d) {
				more = true;
				break;
			}
		}
		if (d < depth)
			off += snprintf(buf + off, size - off, "%s", more ? vl : "   ");
		else
			off += snprintf(buf + off, size - off, "%s", more ? tee : ell);
		if (off >= size)
			break;
	}
	return 0;
}

int rq_teach_tree_prefix(int i, bool utf8, char *buf, size_t size)
{
	return tree_prefix(i, utf8, buf, size);
}


void rq_teach_write(FILE *f, const struct rq_analysis *an, bool utf8, bool brief)
{
	const struct rq_summary *sum = an ? rq_analysis_summary(an) : NULL;
	char pre[128], src[1024], rel[512];

	fprintf(f, "select_task_rq(): how Linux chooses a CPU for a task\n");
	if (sum) {
		rq_escape_c(sum->source, strlen(sum->source), src, sizeof(src));
		/* the release is the file's (UNAME option or marker): escaped like the source */
		rq_escape_c(sum->profile.release, strlen(sum->profile.release), rel, sizeof(rel));
		fprintf(f, "counts from %s: %llu placements, kernel %s, %d CPUs\n", src,
			(unsigned long long)sum->nr_placements, rel[0] ? rel : "unknown",
			sum->nr_cpus);
		fprintf(f, "through: placements that went through the step; maybe: more that "
			   "may have\n(the trace cannot tell); finding: the one related to the "
			   "step, and its count.\n");
	}
	fprintf(f, "\n");
	if (an)
		fprintf(f, "%9s %9s %9s   %s\n", "through", "maybe", "finding", "step");
	for (int i = 0; i < rq_teach_nr_nodes; i++) {
		const struct rq_teach_node *n = &rq_teach_nodes[i];
		struct rq_teach_count c;
		char taken[24] = "", maybe[24] = "", find[32] = "";

		if (n->depth == 0 && i)
			fprintf(f, "\n");
		tree_prefix(i, utf8, pre, sizeof(pre));
		if (rq_teach_count(an, i, &c)) {
			if (n->taken[0] != END)
				snprintf(taken, sizeof(taken), "%llu", (unsigned long long)c.taken);
			if (c.maybe)
				snprintf(maybe, sizeof(maybe), "+%llu?", (unsigned long long)c.maybe);
			if (n->finding >= 0)
				snprintf(find, sizeof(find), "%c %llu", rq_findings[n->finding].letter,
					 (unsigned long long)c.finding);
			fprintf(f, "%9s %9s %9s   ", taken, maybe, find);
		}
		fprintf(f, "%2d %s%s\n", i + 1, pre, n->title);
	}
	if (an)
		fprintf(f, "\nfinding letters: %s\n", rq_finding_legend());
	if (brief)
		return;
	fprintf(f, "\nThe steps\n=========\n");
	for (int i = 0; i < rq_teach_nr_nodes; i++) {
		const struct rq_teach_node *n = &rq_teach_nodes[i];
		struct wrap_out w = { f, "    " };

		fprintf(f, "\n%2d. %s\n", i + 1, n->title);
		if (n->kernel_fn[0])
			fprintf(f, "    kernel: %s\n", n->kernel_fn);
		rq_teach_wrap(n->text, 76, wrap_print, &w);
		if (n->finding >= 0)
			fprintf(f, "    finding: %s\n", rq_finding_ids[n->finding]);
	}
	fprintf(f, "\nThe findings\n============\n");
	for (int k = 0; k < RQ_FIND__COUNT; k++) {
		struct wrap_out w = { f, "    " };

		fprintf(f, "\n%s: %s", rq_finding_ids[k], rq_findings[k].title);
		if (an)
			fprintf(f, " (%llu)", (unsigned long long)sum->findings[k].count);
		fprintf(f, "\n");
		rq_teach_wrap(rq_findings[k].text, 76, wrap_print, &w);
	}
}
