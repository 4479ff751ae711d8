/* SPDX-License-Identifier: GPL-2.0 */
/*
 * timeline.h - what ran on each CPU over time, for the Perfetto and HTML writers.
 *
 * rq_runs turns the engine's on_run (who runs on each CPU, as the model knows it) into
 * finished runs, each with the task's name: constant memory.
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
	/* a run of pid (not idle) on cpu ended */
	void (*run)(struct rq_runs *r, int cpu, int pid, const char *comm, uint64_t start,
		    uint64_t end);
};

/* 0, or -1 on allocation failure. */
int rq_runs_init(struct rq_runs *r, const struct rq_analysis *an, int nr_cpus);
/*
 * From ts on, cpu runs pid (struct rq_observer's on_run: the model's answer); the run
 * before it ends there.  The engine ends every run at rq_analysis_finish().
 */
void rq_runs_run(struct rq_runs *r, int cpu, int pid, uint64_t ts);
void rq_runs_free(struct rq_runs *r);

#endif
