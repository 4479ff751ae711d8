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
#include "describe.h"

void rq_vappendf(char *buf, size_t size, const char *fmt, va_list ap)
{
	size_t len = strlen(buf);

	if (len + 1 < size)
		vsnprintf(buf + len, size - len, fmt, ap);
}

void rq_appendf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	rq_vappendf(buf, size, fmt, ap);
	va_end(ap);
}

static const char *const level_names[] = {
	[RQ_LEVEL_UNKNOWN] = "unknown (no topology in the trace)",
	[RQ_LEVEL_SMT] = "SMT level", [RQ_LEVEL_LLC] = "LLC (MC) level",
	[RQ_LEVEL_PKG] = "package level", [RQ_LEVEL_NUMA] = "NUMA level",
};

void rq_placement_describe(const struct rq_placement *p, char *buf, size_t size)
{
	if (!size)
		return;
	strlcpy(buf, rq_paths[p->path].summary, size);
	if (p->path == RQ_PATH_WAKE_PULLED)
		rq_appendf(buf, size, " (CPU %d)", p->to_cpu);
	if (p->level != RQ_LEVEL_NONE && p->level <= RQ_LEVEL_NUMA)
		rq_appendf(buf, size, "; deciding domain: %s", level_names[p->level]);
	if (p->notes & RQ_NOTE_PARENT_NOT_ALLOWED)
		rq_appendf(buf, size, "; the parent's CPU is not allowed to the child");
	if (p->notes & RQ_NOTE_NO_WAKING)
		rq_appendf(buf, size, "; no sched_waking seen: previous CPU from the model");
	if ((p->notes & RQ_NOTE_MAYBE_DELAYED) && p->blocked_us != UINT32_MAX)
		rq_appendf(buf, size, "; selection not proven: it blocked %.1f ms before on this CPU, "
		       "which did not go idle since, so it may still have been delay-dequeued "
		       "and ttwu_runnable() requeued it without a selection",
		       (double)p->blocked_us / 1e3);
	else if (p->notes & RQ_NOTE_MAYBE_DELAYED)
		rq_appendf(buf, size, "; selection not proven: its CPU was not seen idle since it "
		       "blocked, so ttwu_runnable() may have requeued a delay-dequeued task");
	if (p->notes & RQ_NOTE_MASK_UNKNOWN)
		rq_appendf(buf, size, "; allowed CPUs unknown at this exec: not judged");
	if (p->notes & RQ_NOTE_ASYM)
		rq_appendf(buf, size, "; CPUs of different capacity: EAS or select_idle_capacity() "
		       "may have chosen this CPU on purpose");
	rq_appendf(buf, size, "%s", p->why);
	if (p->assume) {
		const char *sep = "; rests on: ";

		for (int a = 0; a < RQ_ASSUME__COUNT; a++)
			if (p->assume & (1u << a)) {
				rq_appendf(buf, size, "%s%s", sep, rq_assumption_names[a]);
				sep = ", ";
			}
	}
	if (p->notes & RQ_NOTE_AFTER_LOSS)
		rq_appendf(buf, size, "; in a gap after lost events: that CPU's runqueue was unknown");
	if (!(p->findings & (1u << RQ_FIND_OFFCPU_FORK)))
		return;
	rq_appendf(buf, size, "; parent's CPU %d %s; child ", p->from_cpu,
	       p->parent_cpu_idled < 0 ? "idle before the child ran: unknown" :
	       p->parent_cpu_idled ? "went idle before the child first ran" :
				     "stayed busy until the child first ran");
	if (p->child_lifetime_ns < 0)
		rq_appendf(buf, size, "did not exit inside the trace");
	else
		rq_appendf(buf, size, "exited after %.3f ms", (double)p->child_lifetime_ns / 1e6);
}
