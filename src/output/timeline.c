// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - per-CPU runs (timeline.h).
 */
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

int rq_runs_init(struct rq_runs *r, const struct rq_analysis *an, int nr_cpus)
{
	r->an = an;
	r->nr_cpus = nr_cpus;
	r->cpu = calloc((size_t)(nr_cpus > 0 ? nr_cpus : 1), sizeof(*r->cpu));
	if (!r->cpu)
		return -1;
	for (int i = 0; i < nr_cpus; i++)
		r->cpu[i].pid = -1;
	return 0;
}

void rq_runs_run(struct rq_runs *r, int cpu, int pid, uint64_t ts)
{
	struct rq_run_cpu *c;
	struct rq_task_info t;

	if (cpu < 0 || cpu >= r->nr_cpus)
		return;
	c = &r->cpu[cpu];
	if (c->pid > 0 && r->run && ts >= c->since)
		r->run(r, cpu, c->pid, c->comm, c->since, ts);
	c->pid = pid;
	c->since = ts;
	/* the name the model knows now (a switch's, a marker's, an exec's) */
	strcpy(c->comm, "?");
	if (pid > 0 && rq_task_info_get(r->an, pid, &t) && t.comm[0])
		memcpy(c->comm, t.comm, RQ_COMM_LEN);
	c->comm[RQ_COMM_LEN - 1] = '\0';
}

void rq_runs_free(struct rq_runs *r)
{
	free(r->cpu);
	r->cpu = NULL;
}
