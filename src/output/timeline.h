/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline.h - what ran on each CPU over time, for the Perfetto and HTML writers.
 *
 * rq_runs follows each CPU's running task from sched_switch, and from the records a task
 * writes itself where the trace lacks an idle CPU's switch out of the idle task (the
 * same rule as the queue delay).  It calls back with each finished run: constant memory.
 */
#ifndef RQPATH_TIMELINE_H
#define RQPATH_TIMELINE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"

struct rq_run_cpu {
	int pid;		/* running now: 0 idle, -1 unknown */
	uint64_t since;
	char comm[RQ_COMM_LEN];
};

struct rq_runs {
	const struct rq_analysis *an;
	int nr_cpus;
	struct rq_run_cpu *cpu;
	uint64_t last_ts;
	/* a run of pid (not idle) on cpu ended */
	void (*run)(struct rq_runs *r, int cpu, int pid, const char *comm, uint64_t start,
		    uint64_t end);
};

/* 0, or -1 on allocation failure. */
int rq_runs_init(struct rq_runs *r, const struct rq_analysis *an, int nr_cpus);
void rq_runs_event(struct rq_runs *r, const struct rq_event *ev);
/* End every open run at the last timestamp seen. */
void rq_runs_finish(struct rq_runs *r);
void rq_runs_free(struct rq_runs *r);

/*
 * --format perfetto: the Chrome/Perfetto JSON trace event format, streamed: one track
 * per CPU ("X" slices of the running tasks), an instant event ("i", scope thread) per
 * placement on the CPU it was put on, with its path, findings, explanation and delay.
 */
struct rq_perfetto {
	struct rq_runs runs;
	FILE *f;
	struct rq_analysis *an;
	uint64_t events;
};

/* Hook into an (before rq_analysis_begin() is not needed: CPUs are known lazily). */
int rq_perfetto_start(struct rq_perfetto *p, FILE *f, struct rq_analysis *an);
/* After the replay: close the runs, end the JSON.  0, or -1 on a write error. */
int rq_perfetto_end(struct rq_perfetto *p);

#endif
