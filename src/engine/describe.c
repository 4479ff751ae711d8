// SPDX-License-Identifier: GPL-2.0
/*
 * describe.c - a placement's explanation in words.  The classifier keeps facts as
 * numbers and flags (path, notes, level, assumptions, the blocked time); the sentences
 * the reports, the examples and the TUI's detail view show are made here, only when
 * shown.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <bsd/string.h>

#include "analysis.h"

/* Append printf-style text to buf (size bytes, NUL-terminated); cut at the end. */
static void vappendf(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t len = strlen(buf);

	if (len + 1 < size)
		vsnprintf(buf + len, size - len, fmt, ap);
}

static void appendf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void appendf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vappendf(buf, size, fmt, ap);
	va_end(ap);
}

static const char *const level_names[] = {
	[RQ_LEVEL_UNKNOWN] = "unknown (no topology in the trace)",
	[RQ_LEVEL_SMT] = "SMT level", [RQ_LEVEL_LLC] = "LLC (MC) level",
	[RQ_LEVEL_PKG] = "package level", [RQ_LEVEL_NUMA] = "NUMA level",
};

/*
 * The rarer remarks, in enum rq_why order, from the facts the classifier and the judges
 * kept.  They share RQ_WHY_LEN bytes, as when they were written while classifying.
 */
static void describe_why(const struct rq_placement *p, char *buf, size_t size)
{
	static const char *const stopper_lacks[] = { "exec events",
						     "the sched_setaffinity syscall events" };
	unsigned int w = p->why;

	buf[0] = '\0';
	if (w & 1u << RQ_WHY_FORK_UTIL)
		appendf(buf, size, "; v6.4-v6.13 autogroup kernel: stale utilization of exited "
			   "tasks makes the parent's group look busy (76f970ce51c8)");
	if (w & 1u << RQ_WHY_EXEC_AFTER_STOPPER)
		appendf(buf, size, ": migration/%d moved it %d -> %d just before the exec",
			   p->cpu, p->from_cpu, p->to_cpu);
	if (w & 1u << RQ_WHY_STOPPER_RENAMED)
		appendf(buf, size, "; migration/%d moved it, then its name changed to \"%s\": "
			   "an exec whose exec record is not in the trace", p->cpu, p->why_comm);
	if (w & 1u << RQ_WHY_STOPPER_AFFINITY)
		appendf(buf, size, "; migration/%d moved it right after a sched_setaffinity on "
			   "it", p->cpu);
	if (w & 1u << RQ_WHY_STOPPER_ACTIVE)
		appendf(buf, size, "; migration/%d moved it and no exec or affinity change "
			   "followed: active balance (or CPU hotplug, which looks the same)",
			   p->cpu);
	for (int i = 0; i < 2; i++)
		if (w & 1u << (RQ_WHY_STOPPER_NO_EXEC + i))
			appendf(buf, size, "; the trace lacks %s: exec, affinity change and "
				   "active balance look the same", stopper_lacks[i]);
	if (w & 1u << RQ_WHY_MIGRATE_UNKNOWN)
		appendf(buf, size, " (writer pid %d, flags 0x%x)", p->writer_pid, p->why_n);
	if (w & 1u << RQ_WHY_IDLE_STACKED)
		appendf(buf, size, "; CPU %d ran only SCHED_IDLE work (pid %d) while allowed CPU "
			   "%d of its LLC was idle", p->to_cpu, p->why_pid, p->why_cpu);
	if (w & 1u << RQ_WHY_DELAYED_NOT_IDLE)
		appendf(buf, size, "; %u blocked task(s) not known as SCHED_IDLE may still be "
			   "enqueued there", p->why_n);
	if (w & 1u << RQ_WHY_BUSY_RUNNING)
		appendf(buf, size, "; CPU %d was busy (pid %d running) while CPU %d of its LLC "
			   "was idle", p->to_cpu, p->why_pid, p->why_cpu);
	if (w & (1u << RQ_WHY_BUSY_WAITING | 1u << RQ_WHY_BUSY_PENDING))
		appendf(buf, size, "; CPU %d was busy (%s) while CPU %d of its LLC was idle",
			   p->to_cpu, w & 1u << RQ_WHY_BUSY_WAITING ?
			   "a woken task waiting to run" : "a wakeup pending", p->why_cpu);
	if (w & 1u << RQ_WHY_EXEC_MULTI_CPU)
		appendf(buf, size, "; ran on several CPUs since its affinity last changed: not "
			   "needless");
	if (w & (1u << RQ_WHY_NEEDLESS_FAIR | 1u << RQ_WHY_NEEDLESS_RT))
		appendf(buf, size, "; allowed on CPU %d only, yet sched_exec() called %s",
			   p->why_cpu, w & 1u << RQ_WHY_NEEDLESS_RT ?
			   "the RT/DL callback (cheap: returns the input CPU)" :
			   "select_task_rq_fair(WF_EXEC)");
	if (w & 1u << RQ_WHY_NEEDLESS_MARKER)
		appendf(buf, size, "; allowed on CPU %d only (from the recorder's next marker "
			   "for it), yet sched_exec() called the class callback", p->why_cpu);
}

static const char *const truth_cpu_words[] = {
	[RQ_TCPU_UNKNOWN] = "not known", [RQ_TCPU_IDLE] = "idle", [RQ_TCPU_BUSY] = "busy",
	[RQ_TCPU_IDLE_ONLY] = "running SCHED_IDLE work only",
	[RQ_TCPU_NONE] = "running only this task",
};

/* What the kernel's own state (a rqpath:truth record, BPF) gave the verdict. */
static void describe_truth(const struct rq_placement *p, char *buf, size_t size)
{
	const char *sep = "; kernel state (BPF): ";

	if (p->truth & RQ_PT_ON_RQ) {
		appendf(buf, size, "%son a runqueue at sched_waking%s: ttwu_runnable() "
			   "requeued it, no selection", sep,
			   p->truth & RQ_PT_DELAYED ? " (delayed dequeue)" : "");
		sep = ", ";
	} else if (p->truth & RQ_PT_SELECTION) {
		appendf(buf, size, "%snot on a runqueue at sched_waking: select_task_rq() "
			   "ran", sep);
		sep = ", ";
	}
	if ((p->truth & RQ_PT_CPUS) && p->truth_x > RQ_TCPU_UNKNOWN &&
	    p->truth_x <= RQ_TCPU_NONE) {
		appendf(buf, size, "%sCPU %d %s", sep, p->to_cpu, truth_cpu_words[p->truth_x]);
		sep = ", ";
		if (p->why & (1u << RQ_WHY_IDLE_STACKED | 1u << RQ_WHY_BUSY_RUNNING |
			      1u << RQ_WHY_BUSY_WAITING | 1u << RQ_WHY_BUSY_PENDING))
			appendf(buf, size, ", CPU %d idle", p->why_cpu);
	}
	if (p->truth & RQ_PT_POLICY)
		appendf(buf, size, "%spolicy %s", sep, rq_policy_name(p->truth_policy));
	if (p->truth & RQ_PT_MASK)
		appendf(buf, size, ", %u CPU%s allowed%s", p->truth_allowed,
			   p->truth_allowed == 1 ? "" : "s",
			   p->truth & RQ_PT_ONE_CPU ? " (one-CPU test true)" : "");
}

void rq_placement_describe(const struct rq_placement *p, char *buf, size_t size)
{
	if (!size)
		return;
	/* the path "unknown" of a wakeup: no migration, a previous CPU not in the trace */
	strlcpy(buf, p->why & 1u << RQ_WHY_WAKE_FROM_UNKNOWN ?
		"a wakeup of a task whose previous CPU the trace does not show" :
		rq_paths[p->path].summary, size);
	if (p->path == RQ_PATH_WAKE_PULLED)
		appendf(buf, size, " (CPU %d)", p->to_cpu);
	if (p->level != RQ_LEVEL_NONE && p->level <= RQ_LEVEL_NUMA)
		appendf(buf, size, "; deciding domain: %s", level_names[p->level]);
	if (p->notes & RQ_NOTE_PARENT_NOT_ALLOWED)
		appendf(buf, size, "; the parent's CPU is not allowed to the child");
	if (p->notes & RQ_NOTE_NO_WAKING)
		appendf(buf, size, "; no sched_waking seen: previous CPU from the model");
	if ((p->notes & RQ_NOTE_MAYBE_DELAYED) && p->blocked_us != UINT32_MAX)
		appendf(buf, size, "; selection not proven: it blocked %.1f ms before on this CPU, "
		       "which did not go idle since, so it may still have been delay-dequeued "
		       "and ttwu_runnable() requeued it without a selection",
		       (double)p->blocked_us / 1e3);
	else if (p->notes & RQ_NOTE_MAYBE_DELAYED)
		appendf(buf, size, "; selection not proven: its CPU was not seen idle since it "
		       "blocked, so ttwu_runnable() may have requeued a delay-dequeued task");
	if (p->notes & RQ_NOTE_MASK_UNKNOWN)
		appendf(buf, size, "; allowed CPUs unknown at this exec: not judged");
	if (p->notes & RQ_NOTE_ASYM)
		appendf(buf, size, "; CPUs of different capacity: EAS or select_idle_capacity() "
		       "may have chosen this CPU on purpose");
	if (p->why) {
		char why[RQ_WHY_LEN];

		describe_why(p, why, sizeof(why));
		appendf(buf, size, "%s", why);
	}
	if (p->assume) {
		const char *sep = "; rests on: ";

		for (int a = 0; a < RQ_ASSUME__COUNT; a++)
			if (p->assume & (1u << a)) {
				appendf(buf, size, "%s%s", sep, rq_assumption_names[a]);
				sep = ", ";
			}
	}
	if (p->truth & RQ_PT_RECORD)
		describe_truth(p, buf, size);
	if (p->notes & RQ_NOTE_AFTER_LOSS)
		appendf(buf, size, "; in a gap after lost events: that CPU's runqueue was unknown");
	if (!(p->findings & (1u << RQ_FIND_OFFCPU_FORK)))
		return;
	appendf(buf, size, "; parent's CPU %d %s; child ", p->from_cpu,
	       p->parent_cpu_idled < 0 ? "idle before the child ran: unknown" :
	       p->parent_cpu_idled ? "went idle before the child first ran" :
				     "stayed busy until the child first ran");
	if (p->child_lifetime_ns < 0)
		appendf(buf, size, "did not exit inside the trace");
	else
		appendf(buf, size, "exited after %.3f ms", (double)p->child_lifetime_ns / 1e6);
}
