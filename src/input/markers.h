/* SPDX-License-Identifier: GPL-2.0 */
/*
 * markers.h - what the recorder writes into the trace so that a replay knows what
 * the live run knew (docs/design.md §4, item 4).
 *
 * Each marker is one line written to the instance's trace_marker; trace-cmd report
 * and KernelShark show it as an ftrace "print" event.  Every line starts with
 * "rqpath/1 " followed by a keyword and its fields, in this order and no other:
 *
 *   rqpath/1 kernel release=6.18.44 cpus=2
 *   rqpath/1 cpu cpu=0 core=0 llc=0 node=0 llc_src=cache [capacity=1024]
 *   rqpath/1 task pid=123 tgid=123 policy=5 cpus=0-1 idle_cg=0 comm=bash
 *   rqpath/1 task pid=123 gone
 *   rqpath/1 snapshot done tasks=312
 *   rqpath/1 truth source=bpf drops=0 misses=0
 *
 * Fields are single-blank separated "key=value" pairs whose values hold no blank
 * (release and comm are escaped with rq_escape_c(), and their blanks as \x20); the
 * parser takes them in this order only (core, node, llc_src, capacity, tgid, policy,
 * cpus, idle_cg, comm and tasks may be absent), and refuses an unknown, repeated or
 * misplaced key and any trailing text.  comm, always last, takes the rest of the line
 * (files from before the \x20 escape have raw blanks there): no task name can pass for
 * a field or for "gone".
 *
 * policy is the number from /proc/PID/stat field 41 (-1 unknown), cpus is
 * Cpus_allowed_list ("?" unknown), llc is the first CPU of that CPU's last-level
 * cache group, llc_src says where that came from: "cache" (sysfs cache indexK),
 * "package" (no cache info: the package was taken instead) or "assumed".
 *
 * The truth line says where the file's rqpath:truth records came from (truth_fmt.h), how
 * many the BPF ring buffer had no room for, and how many tracepoint hits the programs
 * did not run for (misses, may be absent); the recorder writes it as it stops.
 */
#ifndef RQPATH_MARKERS_H
#define RQPATH_MARKERS_H

#include <stddef.h>

#define RQ_MARKER_PREFIX "rqpath/1 "

enum rq_marker_kind {
	RQ_MARK_INVALID = 0,
	RQ_MARK_KERNEL,
	RQ_MARK_CPU,
	RQ_MARK_TASK,
	RQ_MARK_TASK_GONE,
	RQ_MARK_SNAPSHOT_DONE,
	RQ_MARK_TRUTH,
};

struct rq_marker {
	enum rq_marker_kind kind;
	/* KERNEL */
	char release[128];
	int cpus;
	/* CPU */
	int cpu, core, llc, node;
	int capacity;		/* arch_scale_cpu_capacity from sysfs cpu_capacity, 0 unknown */
	char llc_src[16];
	/* TASK */
	int pid, tgid, policy, idle_cg;
	char cpulist[512];	/* "?" when unknown */
	char comm[64];		/* unescaped */
	/* SNAPSHOT_DONE */
	int ntasks;
	/* TRUTH */
	char truth_source[8];	/* "bpf" or "none" */
	int truth_drops, truth_misses;
};

/* Parse the text after RQ_MARKER_PREFIX.  Returns 0, or -1 for a line it does not know. */
int rq_marker_parse(const char *text, size_t len, struct rq_marker *out);

/* Format one marker line (with the prefix and a trailing newline) into buf. */
int rq_marker_format(const struct rq_marker *m, char *buf, size_t size);

#endif
