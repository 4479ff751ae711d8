// SPDX-License-Identifier: GPL-2.0
/*
 * task_info.c - what the outputs and views read of a task (struct rq_task_info): a copy
 * of its identity, attributes and counters, so struct rq_task stays the engine's.
 */
#include "engine.h"

static void info_fill(const struct rq_task *t, struct rq_task_info *ti)
{
	ti->pid = t->pid;
	ti->tgid = t->tgid_self ? t->pid : t->cold->tgid;
	ti->ppid = t->cold->ppid;
	memcpy(ti->comm, t->comm, sizeof(ti->comm));
	ti->policy = t->policy;
	ti->state = t->state;
	ti->cpu = t->cpu;
	ti->exited = t->exited;
	ti->mask_known = t->mask_known;
	ti->mask = t->mask_known ? t->mask : NULL;
	ti->first_ts = t->first_ts;
	ti->exit_ts = t->cold->exit_ts;
	/* the 16 bits of struct rq_task and what they carried over */
	ti->nr_forks = t->nr_forks + t->cold->nr_forks;
	ti->nr_execs = t->nr_execs + t->cold->nr_execs;
	ti->nr_migrations = t->nr_migrations + t->cold->nr_migrations;
	ti->nr_wakeups = t->nr_wakeups + t->cold->nr_wakeups;
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		ti->nr_findings[f] = t->nr_findings[f] + t->cold->nr_findings[f];
}

bool rq_task_info_get(const struct rq_analysis *an, int pid, struct rq_task_info *out)
{
	const struct rq_task *t = rqe_task_find(an, pid);

	if (!t)
		return false;
	info_fill(t, out);
	return true;
}

struct info_walk {
	int (*fn)(const struct rq_task_info *ti, void *data);
	void *data;
};

static int walk_one(const struct rq_task *t, void *data)
{
	struct info_walk *w = data;
	struct rq_task_info ti;

	info_fill(t, &ti);
	return w->fn(&ti, w->data);
}

int rq_task_info_foreach(const struct rq_analysis *an,
			 int (*fn)(const struct rq_task_info *ti, void *data), void *data)
{
	struct info_walk w = { .fn = fn, .data = data };

	return rqe_task_foreach(an, walk_one, &w);
}
