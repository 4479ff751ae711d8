/* SPDX-License-Identifier: GPL-2.0 */
/*
 * synth.h - hand-made scheduler event sequences for unit tests: no root, no kernel,
 * no trace file.  Each helper builds one struct rq_event and feeds it.  The engine's
 * tests are white-box: they see its private header (engine.h) and read its counters.
 */
#ifndef RQPATH_TEST_SYNTH_H
#define RQPATH_TEST_SYNTH_H

#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "markers.h"

#define MS 1000000ULL

static inline struct rq_analysis *synth_new(int nr_cpus, const char *release)
{
	static const bool all[RQ_EV__COUNT] = {
		[RQ_EV_SWITCH] = true, [RQ_EV_WAKING] = true, [RQ_EV_WAKEUP] = true,
		[RQ_EV_WAKEUP_NEW] = true, [RQ_EV_MIGRATE] = true, [RQ_EV_FORK] = true,
		[RQ_EV_EXIT] = true, [RQ_EV_EXEC] = true,
		[RQ_EV_SETAFFINITY_ENTER] = true, [RQ_EV_SETAFFINITY_EXIT] = true,
		[RQ_EV_SETSCHED_ENTER] = true, [RQ_EV_SETSCHED_EXIT] = true,
		[RQ_EV_SETATTR_ENTER] = true, [RQ_EV_SETATTR_EXIT] = true,
		[RQ_EV_CGROUP_ATTACH] = true,
	};
	struct rq_analysis *an = rq_analysis_new(NULL);

	if (an && rq_analysis_begin(an, "synthetic", nr_cpus, release, all)) {
		rq_analysis_free(an);
		return NULL;
	}
	return an;
}

static inline void feed(struct rq_analysis *an, struct rq_event ev)
{
	rq_analysis_feed(an, &ev);
}

static inline void ev_switch(struct rq_analysis *an, uint64_t ts, int cpu, int prev,
			     long long prev_state, int next, const char *next_comm)
{
	struct rq_event ev = { .ts = ts, .type = RQ_EV_SWITCH, .cpu = cpu, .common_pid = prev,
			       .pid = prev, .pid2 = next, .state = prev_state, .prio = 120,
			       .prio2 = 120 };

	snprintf(ev.comm2, sizeof(ev.comm2), "%s", next_comm ? next_comm : "task");
	/* the prev comm is left empty: a made-up name would look like a rename */
	snprintf(ev.comm, sizeof(ev.comm), "%s", prev ? "" : "swapper");
	feed(an, ev);
}

static inline void ev_waking(struct rq_analysis *an, uint64_t ts, int cpu, int waker, int pid,
			     int old_cpu)
{
	feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_WAKING, .cpu = cpu,
				    .common_pid = waker, .pid = pid, .prio = 120,
				    .cpu_a = old_cpu });
}

static inline void ev_wakeup(struct rq_analysis *an, uint64_t ts, int cpu, int waker, int pid,
			     int target)
{
	feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_WAKEUP, .cpu = cpu,
				    .common_pid = waker, .pid = pid, .prio = 120,
				    .cpu_a = target });
}

static inline void ev_wakeup_new(struct rq_analysis *an, uint64_t ts, int parent_cpu,
				 int parent, int child, int target)
{
	feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_WAKEUP_NEW, .cpu = parent_cpu,
				    .common_pid = parent, .pid = child, .prio = 120,
				    .cpu_a = target });
}

static inline void ev_migrate(struct rq_analysis *an, uint64_t ts, int cpu, int writer,
			      unsigned flags, int pid, int prio, int from, int to)
{
	feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_MIGRATE, .cpu = cpu,
				    .common_pid = writer, .flags = (uint8_t)flags, .pid = pid,
				    .prio = prio, .cpu_a = from, .cpu_b = to });
}

static inline void ev_fork(struct rq_analysis *an, uint64_t ts, int cpu, int parent, int child)
{
	struct rq_event ev = { .ts = ts, .type = RQ_EV_FORK, .cpu = cpu, .common_pid = parent,
			       .pid = parent, .pid2 = child };

	strcpy(ev.comm, "parent");
	strcpy(ev.comm2, "parent");
	feed(an, ev);
}

static inline void ev_exec(struct rq_analysis *an, uint64_t ts, int cpu, int pid,
			   const char *file)
{
	feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_EXEC, .cpu = cpu, .common_pid = pid,
				    .pid = pid, .pid2 = pid, .str = file,
				    .str_len = (int)strlen(file) });
}

static inline void ev_simple(struct rq_analysis *an, uint64_t ts, int cpu,
			     enum rq_event_type type, int common_pid, int pid, long long arg)
{
	feed(an, (struct rq_event){ .ts = ts, .type = type, .cpu = cpu, .common_pid = common_pid,
				    .pid = pid, .arg = arg });
}

/* A marker line as the recorder writes it (text after "rqpath/1 "). */
static inline void ev_marker(struct rq_analysis *an, uint64_t ts, const char *text)
{
	feed(an, (struct rq_event){ .ts = ts, .type = RQ_EV_MARKER, .cpu = 0, .str = text,
				    .str_len = (int)strlen(text) });
}

/* A rqpath:truth record (truth.h) as the pump hands it out: its own CPU, no writer. */
static inline void ev_truth(struct rq_analysis *an, const struct rq_truth_rec *r)
{
	feed(an, (struct rq_event){ .ts = r->ts, .type = RQ_EV_TRUTH, .cpu = r->cpu,
				    .truth = r });
}

/*
 * A record of point for pid (policy, allowed CPUs as the bits of mask) with nr_cpus
 * CPUs, each known and idle until the test sets its state with truth_cpu().
 */
static inline void truth_init(struct rq_truth_rec *r, uint64_t ts, int point, int pid,
			      int policy, uint64_t mask, int nr_cpus)
{
	memset(r, 0, sizeof(*r));
	r->ts = ts;
	r->point = (uint8_t)point;
	r->pid = (uint32_t)pid;
	r->policy = (uint32_t)policy;
	r->mask[0] = mask;
	r->mask_words = 1;
	r->nr_cpus_allowed = (uint32_t)__builtin_popcountll(mask);
	r->nr_cpus = (uint16_t)nr_cpus;
	for (int c = 0; c < nr_cpus; c++) {
		r->cpus[c].known = RQ_TRUTH_RQ_KNOWN;
		r->cpus[c].cpu = (uint16_t)c;
	}
}

static inline void truth_cpu(struct rq_truth_rec *r, int cpu, int curr, int nr_running,
			     int h_nr_idle)
{
	r->cpus[cpu].curr_pid = (uint32_t)curr;
	r->cpus[cpu].nr_running = (uint8_t)nr_running;
	r->cpus[cpu].h_nr_idle = (uint8_t)h_nr_idle;
}

static inline void mark_task(struct rq_analysis *an, uint64_t ts, int pid, int policy,
			     const char *cpus)
{
	char buf[256];

	snprintf(buf, sizeof(buf), "task pid=%d tgid=%d policy=%d cpus=%s idle_cg=0 comm=t%d",
		 pid, pid, policy, cpus, pid);
	ev_marker(an, ts, buf);
}

static inline void mark_cpu(struct rq_analysis *an, int cpu, int llc)
{
	char buf[128];

	snprintf(buf, sizeof(buf), "cpu cpu=%d core=%d llc=%d node=0 llc_src=cache", cpu, cpu,
		 llc);
	ev_marker(an, 1, buf);
}

static inline int path_count(const struct rq_analysis *an, const char *id)
{
	for (int p = 0; p < RQ_PATH__COUNT; p++)
		if (!strcmp(rq_paths[p].id, id))
			return (int)an->stats.path_counts[p];
	return -1;
}

static inline int finding(const struct rq_analysis *an, enum rq_finding f)
{
	return (int)an->findings[f].count;
}

#endif
