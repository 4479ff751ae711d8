// SPDX-License-Identifier: GPL-2.0
/*
 * analysis.c - the engine's entry points: rq_analysis_feed() hands each event to the
 * handler of its type (model.c, classify.c), and the life cycle (new, begin, finish,
 * free).  engine.h says which part of the engine lives where; the kernel profile is in
 * profile.c; the words of an explanation are made in describe.c, from the facts kept
 * by the classifier.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "classify.h"
#include "cpubits.h"
#include "delay_store.h"
#include "engine.h"
#include "model.h"
#include "pump.h"
#include "truth_model.h"

/*
 * The model changed who runs on cpu (a switch, a record's writer, lost events): the one
 * place that hears of it, for the queue delay and the outcome facts (delay.c) and the
 * subscribers' on_run.  Out of line: most events change nothing.
 */
static __attribute__((noinline)) void curr_changed(struct rq_analysis *an, int cpu, int prev,
						   uint64_t ts)
{
	int next = an->cpus[cpu].curr;

	rqe_curr_changed(an, cpu, prev, next, ts);
	if (an->obs.run)
		for (int i = 0; i < an->obs.n; i++)
			if (an->obs.list[i].on_run)
				an->obs.list[i].on_run(an->obs.list[i].ctx, cpu, next, ts);
}

static __attribute__((noinline)) void notify_event(struct rq_analysis *an,
						   const struct rq_event *ev)
{
	for (int i = 0; i < an->obs.n; i++)
		if (an->obs.list[i].on_event)
			an->obs.list[i].on_event(an->obs.list[i].ctx, ev);
}

/* After the handler: who runs may have changed (only ever on the event's CPU). */
static inline void handled(struct rq_analysis *an, const struct rq_event *ev, int prev)
{
	if (an->cpus[ev->cpu].curr != prev)
		curr_changed(an, ev->cpu, prev, ev->ts);
	if (an->obs.event)
		notify_event(an, ev);
}

void rq_analysis_feed(struct rq_analysis *an, const struct rq_event *ev)
{
	int prev;

	if (ev->type == RQ_EV_LOST) {
		prev = rqe_valid_cpu(an, ev->cpu) ? an->cpus[ev->cpu].curr : -1;
		rqe_handle_lost(an, ev);
		if (!rqe_valid_cpu(an, ev->cpu))
			return;
		rqe_delay_lost(an, ev->cpu);
		handled(an, ev, prev);
		return;
	}
	an->stats.nr_events++;
	if (!an->stats.first_ts || ev->ts < an->stats.first_ts)
		an->stats.first_ts = ev->ts;
	if (ev->ts > an->stats.last_ts)
		an->stats.last_ts = ev->ts;
	if ((unsigned int)ev->type < RQ_EV__COUNT)
		an->stats.counts[ev->type]++;
	/*
	 * the kernel's state (truth.c) changes nothing in the model and says nothing of who
	 * runs where it was written: before the repair from common_pid, whatever its CPU
	 */
	if (ev->type == RQ_EV_TRUTH) {
		rqe_handle_truth(an, ev);
		return;
	}
	if (!rqe_valid_cpu(an, ev->cpu))
		return;
	prev = an->cpus[ev->cpu].curr;
	/*
	 * The most common event first, without the jump table; a switch names its prev
	 * itself and repairs nothing from common_pid (rq_event_shows_runner())
	 */
	if (ev->type == RQ_EV_SWITCH) {
		rqe_handle_switch(an, ev);
		handled(an, ev, prev);
		return;
	}
	rqe_repair_from_owner(an, ev);
	/* the next two most common, also without the jump table */
	if (ev->type == RQ_EV_WAKING) {
		rqe_handle_waking(an, ev);
		handled(an, ev, prev);
		return;
	}
	if (ev->type == RQ_EV_WAKEUP) {
		rqe_handle_wakeup(an, ev);
		handled(an, ev, prev);
		return;
	}
	switch (ev->type) {
	case RQ_EV_WAKEUP_NEW: rqe_handle_wakeup_new(an, ev); break;
	case RQ_EV_MIGRATE: rqe_handle_migrate(an, ev); break;
	case RQ_EV_FORK: rqe_handle_fork(an, ev); break;
	case RQ_EV_EXIT: rqe_handle_exit(an, ev); break;
	case RQ_EV_FREE: rqe_handle_free(an, ev); break;
	case RQ_EV_EXEC: rqe_handle_exec(an, ev); break;
	case RQ_EV_PREPARE_EXEC: rqe_handle_prepare_exec(an, ev); break;
	case RQ_EV_MOVE_NUMA:
	case RQ_EV_SWAP_NUMA: rqe_handle_numa(an, ev); break;
	case RQ_EV_SETAFFINITY_ENTER:
	case RQ_EV_SETAFFINITY_EXIT:
	case RQ_EV_SETSCHED_ENTER:
	case RQ_EV_SETSCHED_EXIT:
	case RQ_EV_SETATTR_ENTER:
	case RQ_EV_SETATTR_EXIT: rqe_handle_syscall(an, ev); break;
	case RQ_EV_CGROUP_ATTACH: rqe_handle_cgroup_attach(an, ev); break;
	case RQ_EV_MARKER: rqe_handle_marker(an, ev); break;
	default: break;
	}
	handled(an, ev, prev);
}

static void analysis_sink(void *data, const struct rq_event *ev)
{
	rq_analysis_feed(data, ev);
}

int rq_pump_add_analysis(struct rq_pump *p, struct rq_analysis *an)
{
	return rq_pump_add_sink(p, analysis_sink, an);
}

static int finish_task(const struct rq_task *t, void *data)
{
	rqe_resolve_stopper(data, (struct rq_task *)t, false);
	rqe_resolve_wake_move(data, (struct rq_task *)t);
	rqe_exec_wait_end(data, (struct rq_task *)t);
	return 0;
}

void rq_analysis_note_lost(struct rq_analysis *an, uint64_t n)
{
	an->stats.lost_events += n;
}

void rq_analysis_note_cut(struct rq_analysis *an, const char *why)
{
	an->stats.cut = why;
}

void rq_analysis_note_eas(struct rq_analysis *an, const char *name)
{
	if (!name || !*name)
		return;
	snprintf(an->facts.eas_event, sizeof(an->facts.eas_event), "%s", name);
	if (an->facts.capacity_source)
		return;		/* the capacities are known: they decide */
	an->facts.capacity_source = "eas-events";
	an->facts.asym_capacity = true;
}

const struct rq_analysis_opts *rq_analysis_opts(const struct rq_analysis *an)
{
	return &an->opts;
}

void rq_analysis_note_truth_rejected(struct rq_analysis *an, unsigned int rejected)
{
	an->truth.summary.rejected |= rejected;
}

/* Which hooks some subscriber has: one flag each for the per-event tests. */
static void obs_flags(struct rq_analysis *an)
{
	an->obs.event = an->obs.placement = an->obs.settled = an->obs.run = false;
	for (int i = 0; i < an->obs.n; i++) {
		an->obs.event |= an->obs.list[i].on_event != NULL;
		an->obs.placement |= an->obs.list[i].on_placement != NULL;
		an->obs.settled |= an->obs.list[i].on_settled != NULL;
		an->obs.run |= an->obs.list[i].on_run != NULL;
	}
	rqe_delay_keep_full(an, an->obs.settled);
}

int rq_analysis_subscribe(struct rq_analysis *an, const struct rq_observer *o)
{
	if (an->obs.n == an->obs.cap) {
		int ncap = an->obs.cap ? an->obs.cap * 2 : 4;
		struct rq_observer *n = reallocarray(an->obs.list, (size_t)ncap, sizeof(*n));

		if (!n)
			return -1;
		an->obs.list = n;
		an->obs.cap = ncap;
	}
	an->obs.list[an->obs.n++] = *o;
	obs_flags(an);
	return 0;
}

int rq_analysis_unsubscribe(struct rq_analysis *an, const void *ctx)
{
	int kept = 0, removed;

	for (int i = 0; i < an->obs.n; i++)
		if (an->obs.list[i].ctx != ctx)
			an->obs.list[kept++] = an->obs.list[i];
	removed = an->obs.n - kept;
	an->obs.n = kept;
	obs_flags(an);
	return removed;
}

void rqe_notify_placement(struct rq_analysis *an, const struct rq_placement *p)
{
	for (int i = 0; i < an->obs.n; i++)
		if (an->obs.list[i].on_placement)
			an->obs.list[i].on_placement(an->obs.list[i].ctx, p);
}

void rqe_notify_settled(struct rq_analysis *an, const struct rq_placement *p)
{
	for (int i = 0; i < an->obs.n; i++)
		if (an->obs.list[i].on_settled)
			an->obs.list[i].on_settled(an->obs.list[i].ctx, p);
}

int rq_analysis_curr(const struct rq_analysis *an, int cpu)
{
	return an->cpus && rqe_valid_cpu(an, cpu) ? an->cpus[cpu].curr : -1;
}

void rq_analysis_finish(struct rq_analysis *an)
{
	rqe_task_foreach(an, finish_task, an);
	rqe_delay_finish(an);
	/* every run ends with the trace */
	for (int cpu = 0; an->cpus && an->obs.run && cpu < an->nr_cpus; cpu++)
		for (int i = 0; i < an->obs.n; i++)
			if (an->obs.list[i].on_run)
				an->obs.list[i].on_run(an->obs.list[i].ctx, cpu, -1, an->stats.last_ts);
}

/* ---- what the outputs read ------------------------------------------------- */

const struct rq_summary *rq_analysis_summary(const struct rq_analysis *an)
{
	/* the summary is a cache of the analysis: filling it changes nothing it reports */
	struct rq_analysis *w = (struct rq_analysis *)an;
	struct rq_summary *s = &w->summary;

	s->source = an->source;
	s->nr_cpus = an->cpus ? an->nr_cpus : 0;
	s->profile = an->profile;
	s->nr_events = an->stats.nr_events;
	s->lost_events = an->stats.lost_events;
	s->cut = an->stats.cut;
	s->first_ts = an->stats.first_ts;
	s->last_ts = an->stats.last_ts;
	s->counts = an->stats.counts;
	s->path_counts = an->stats.path_counts;
	s->path_conf = (const uint64_t (*)[3])an->stats.path_conf;
	s->conf_counts = an->stats.conf_counts;
	s->nr_placements = an->stats.nr_placements - an->stats.nr_filtered;
	s->nr_filtered = an->stats.nr_filtered;
	s->findings = an->findings;
	s->has_event = an->facts.has_event;
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		s->lacks[f] = rq_finding_lacks(f, an->stats.counts);
	s->has_markers = an->facts.has_markers;
	s->has_topology = an->facts.has_topology;
	s->llc_source = an->facts.llc_source;
	s->asym_capacity = an->facts.asym_capacity;
	s->capacity_source = an->facts.capacity_source ? an->facts.capacity_source : "assumed";
	s->eas_event = an->facts.eas_event;
	s->markers_ignored = an->quality.markers_ignored;
	s->truth_records = an->stats.counts[RQ_EV_TRUTH];
	s->truth_drops = an->quality.truth_drops;
	s->truth_misses = an->quality.truth_misses;
	s->truth_source = s->truth_records || an->quality.truth_marked ? "bpf" : "none";
	s->mask_violations = an->quality.mask_violations;
	s->truth = an->truth.summary;
	s->nr_tasks = an->tasks.nr_tasks;
	s->nr_tasks_evicted = an->tasks.nr_tasks_evicted;
	s->recent_len = an->recent.len;
	s->recent_cap = an->recent.cap;
	s->delay = an->delay;
	for (int cpu = 0; w->cpu_summary && cpu < s->nr_cpus; cpu++) {
		const struct rq_cpu *c = &an->cpus[cpu];

		w->cpu_summary[cpu] = (struct rq_cpu_summary){
			.known = c->known, .curr = c->curr, .nqueued = c->nqueued,
			.ndelayed = c->ndelayed, .pending_wakeups = c->pending_wakeups,
			.llc = c->llc, .core = c->core, .node = c->node, .capacity = c->capacity,
			.last_idle_ts = c->last_idle_ts,
			.placements_in = (uint64_t)c->placements_in_hi << 32 | c->placements_in,
			.placements_out = (uint64_t)c->placements_out_hi << 32 | c->placements_out,
			.lost_events = c->lost_events, .repairs = c->repairs,
			.idle_repairs = c->idle_repairs, .switch_mismatches = c->switch_mismatches,
			.clock_backwards = c->clock_backwards,
		};
	}
	s->cpus = w->cpu_summary;
	return s;
}

int rq_analysis_nr_cpus(const struct rq_analysis *an)
{
	return an->cpus ? an->nr_cpus : 0;
}

int rq_analysis_queued(const struct rq_analysis *an, int cpu)
{
	if (!an->cpus || cpu < 0 || cpu >= an->nr_cpus || !an->cpus[cpu].known)
		return -1;
	return an->cpus[cpu].nqueued;
}

int rq_analysis_queued_pid(const struct rq_analysis *an, int cpu, int i)
{
	if (rq_analysis_queued(an, cpu) <= i || i < 0 || !an->cpus[cpu].queued[i])
		return 0;
	return an->cpus[cpu].queued[i]->pid;
}

struct rq_delay *rq_analysis_delay(const struct rq_analysis *an)
{
	return an->delay;
}

const char *rq_analysis_error(const struct rq_analysis *an)
{
	return an->error;
}

/* ---- life cycle -------------------------------------------------------------- */

struct rq_analysis *rq_analysis_new(const struct rq_analysis_opts *opts)
{
	struct rq_analysis *an = calloc(1, sizeof(*an));

	if (!an)
		return NULL;
	if (opts)
		an->opts = *opts;
	if (rq_filter_active(an->opts.filter)) {
		an->scope.filtering = true;
		an->scope.filter = *an->opts.filter;
		if (an->scope.filter.comm)
			memcpy(an->scope.filter_comm, an->scope.filter.comm,
			       strnlen(an->scope.filter.comm, RQ_COMM_LEN));
		an->scope.filtered_out = calloc(RQ_FIND__COUNT, sizeof(*an->scope.filtered_out));
		if (!an->scope.filtered_out || rq_cpumask_init(&an->scope.filter_cpus, RQ_MAX_CPUS) ||
		    (an->scope.filter.cpus && rq_cpumask_parse(&an->scope.filter_cpus, an->scope.filter.cpus))) {
			rq_cpumask_free(&an->scope.filter_cpus);
			free(an->scope.filtered_out);
			free(an);
			return NULL;
		}
	}
	an->opts.filter = NULL;	/* copied: the caller's may go */
	an->recent.cap = an->opts.recent_capacity > 0 ? (unsigned int)an->opts.recent_capacity :
			 an->opts.recent_capacity == RQ_RECENT_NONE ? 0 : RQ_RECENT_DEFAULT;
	/* emit_placement() and the readers of the ring skip it while recent_cap is 0 */
	an->recent.ring = an->recent.cap ? calloc(an->recent.cap, sizeof(*an->recent.ring)) : NULL;
	an->delay = rqe_delay_new(an);
	if ((an->recent.cap && !an->recent.ring) || !an->delay) {
		free(an->recent.ring);
		rqe_delay_free(an->delay);
		free(an);
		return NULL;
	}
	rq_profile_from_release(&an->profile, NULL);
	an->quality.marker_pid = -1;
	for (size_t i = 0; i < sizeof(an->tasks.pid_pages) / sizeof(an->tasks.pid_pages[0]); i++)
		an->tasks.pid_pages[i] = (struct rq_task **)rqe_no_pid_page;
	return an;
}

int rq_analysis_begin(struct rq_analysis *an, const char *source, int nr_cpus,
		      const char *release, const bool *has_event)
{
	char err[256];

	if (nr_cpus <= 0 || nr_cpus > RQ_MAX_CPUS || an->cpus) {
		errno = EINVAL;
		return -1;
	}
	if (an->opts.source_name)
		source = an->opts.source_name;
	strlcpy(an->source, source ? source : "", sizeof(an->source));
	an->nr_cpus = nr_cpus;
	/* on a cache line each (struct rq_cpu is aligned) */
	if (posix_memalign((void **)&an->cpus, 64, (size_t)nr_cpus * sizeof(*an->cpus)))
		an->cpus = NULL;
	else
		memset(an->cpus, 0, (size_t)nr_cpus * sizeof(*an->cpus));
	an->cpu_summary = calloc((size_t)nr_cpus, sizeof(*an->cpu_summary));
	if (!an->cpus || !an->cpu_summary || rqe_grow_hash(an))
		return -1;
	if (rq_cpumask_init(&an->masks.all_cpus, nr_cpus) || rqe_masks_init(an))
		return -1;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		/* without topology in the trace: one LLC, one core per CPU (said so) */
		an->cpus[cpu].curr = -1;
		an->cpus[cpu].llc = 0;
		an->cpus[cpu].core = cpu;
		an->cpus[cpu].trailing_prev = -1;
		rq_cpumask_set(&an->masks.all_cpus, cpu);
	}
	if (rqe_cpubits_init(an))
		return -1;
	an->facts.llc_source = RQ_LLC_ASSUMED;
	if (has_event)
		memcpy(an->facts.has_event, has_event, sizeof(an->facts.has_event));
	rq_profile_from_release(&an->profile, release && *release ? release : NULL);
	/* no release: what the events the trace defines say of the kernel's age */
	if (!an->profile.major && has_event)
		rq_profile_from_events(&an->profile, an->facts.has_event);
	if (an->opts.profile_override &&
	    rq_profile_override(&an->profile, an->opts.profile_override, err, sizeof(err))) {
		strlcpy(an->error, err, sizeof(an->error));
		errno = EINVAL;
		return -1;
	}
	if (an->opts.topology &&
	    rqe_topology_apply(an, an->opts.topology, err, sizeof(err))) {
		snprintf(an->error, sizeof(an->error), "--topology: %.200s", err);
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void rq_analysis_free(struct rq_analysis *an)
{
	if (!an)
		return;
	rq_cpumask_free(&an->scope.filter_cpus);
	free(an->scope.filtered_out);
	for (unsigned int i = 0; i < an->tasks.task_hash_size; i++) {
		struct rq_task *t = an->tasks.task_hash[i], *next;

		for (; t; t = next) {
			next = t->hnext;
			if (t->cold != &rqe_cold_none)
				free((struct rq_task_cold *)t->cold);
		}
	}
	rqe_tasks_free(an);
	for (int cpu = 0; an->cpus && cpu < an->nr_cpus; cpu++) {
		free(an->cpus[cpu].queued);
		free(an->cpus[cpu].delayed);
	}
	if (an->cpus)
		rqe_cpubits_free(an);
	free(an->cpus);
	free(an->cpu_summary);
	rq_cpumask_free(&an->masks.all_cpus);
	rqe_masks_free(an);
	free(an->tasks.task_hash);
	for (size_t i = 0; i < sizeof(an->tasks.pid_pages) / sizeof(an->tasks.pid_pages[0]); i++)
		if (an->tasks.pid_pages[i] != rqe_no_pid_page)
			free(an->tasks.pid_pages[i]);
	free(an->recent.ring);
	free(an->held.slots);
	free(an->held.free_slots);
	free(an->tasks.exited_ring);
	free(an->obs.list);
	rqe_truth_free(an);
	rqe_delay_free(an->delay);
	free(an);
}
