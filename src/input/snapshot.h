/* SPDX-License-Identifier: GPL-2.0 */
/*
 * snapshot.h - what tracepoints cannot show (affinity, policy, idle cgroups,
 * topology), read from /proc and sysfs and written into the trace as marker lines
 * (markers.h) through the recording instance's trace_marker.
 */
#ifndef RQPATH_SNAPSHOT_H
#define RQPATH_SNAPSHOT_H

#include "markers.h"

struct rq_snapshot;

/* marker_fd: an open trace_marker (written, never closed here).  NULL if out of memory. */
struct rq_snapshot *rq_snapshot_new(int marker_fd);
void rq_snapshot_free(struct rq_snapshot *s);

/*
 * The start snapshot: kernel line, one cpu line per CPU, one task line per thread in
 * /proc, then "snapshot done tasks=N".  Returns N, or -1 (errno) if trace_marker
 * could not be written.
 */
int rq_snapshot_all(struct rq_snapshot *s);
/*
 * Only the kernel and cpu lines (the first lines of rq_snapshot_all()): written again
 * when a ring buffer may have overwritten them.  0, or -1.
 */
int rq_snapshot_system(struct rq_snapshot *s);
/* One task (thread id) at once: a task line, or "task pid=N gone".  0 or -1. */
int rq_snapshot_task(struct rq_snapshot *s, int pid);
/* Called with every task line written (RQ_MARK_TASK or RQ_MARK_TASK_GONE). */
void rq_snapshot_on_task(struct rq_snapshot *s, void (*fn)(const struct rq_marker *m, void *data),
			 void *data);
/* Fill a task marker from /proc (tid, tgid-relative path).  0, or -1 if it is gone. */
int rq_snapshot_read_task(struct rq_snapshot *s, int tgid, int tid, struct rq_marker *m);
/* This machine's topology of one CPU (sysfs) as a cpu marker: core, LLC, node. */
void rq_snapshot_cpu(int cpu, struct rq_marker *m);
/* Number of marker lines written so far. */
unsigned long rq_snapshot_lines(const struct rq_snapshot *s);

#endif
