/* SPDX-License-Identifier: GPL-2.0 */
/*
 * classify.h - what the classifier keeps (classify.c): the filter's scope, the held
 * placements and the ring of recent ones, its part of the analysis (struct rq_analysis,
 * engine.h, embeds them); then what the other parts call in it.
 * Private to the engine.
 */
#ifndef RQPATH_CLASSIFY_H
#define RQPATH_CLASSIFY_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

/* the filter (opts.filter copied), and the stores of the placements it leaves out */
struct rqe_scope {
	bool filtering;
	struct rq_filter filter;
	char filter_comm[RQ_COMM_LEN];
	struct rq_cpumask filter_cpus;
	struct rq_finding_store *filtered_out;
};

/*
 * placements held until what follows them is known (a migration/N move, an exec
 * with an unknown mask), by slot; the tasks keep the slot numbers
 */
struct rqe_held {
	struct rq_placement *slots;
	int *free_slots;	/* free slots */
	int n, cap, nfree;
};

/* the ring of recent placements (rq_recent()) */
struct rqe_recent {
	struct rq_placement *ring;
	unsigned int cap, head, len;
};

#endif /* RQPATH_CLASSIFY_H */

/*
 * What the other parts call in the classifier.  Skipped while engine.h includes this header
 * for the state above (RQPATH_ENGINE_STATE_ONLY): what follows needs engine.h's structs,
 * and includes it.
 */
#if !defined(RQPATH_ENGINE_STATE_ONLY) && !defined(RQPATH_CLASSIFY_FNS)
#define RQPATH_CLASSIFY_FNS

#include "engine.h"

/* how long a migration/N move may wait for its exec to show (exec loads the binary) */
#define STOPPER_EXEC_WINDOW (100 * NSEC_PER_MSEC)
/* an affinity syscall this recent explains a stopper or caller-context move */
#define AFFINITY_WINDOW (10 * NSEC_PER_MSEC)
#define NUMA_WINDOW (10 * NSEC_PER_MSEC)

/* The low 32 bits of a count in lo, the rest in hi: the count (hi << 32 | lo). */
static inline void rqe_count32(uint32_t *lo, uint32_t *hi)
{
	if (!++*lo)
		++*hi;
}

static inline bool rqe_same_llc(const struct rq_analysis *an, int a, int b)
{
	return rqe_valid_cpu(an, a) && rqe_valid_cpu(an, b) && an->cpus[a].llc == an->cpus[b].llc;
}

/* the placement events' handlers (rq_analysis_feed()) */
void rqe_handle_waking(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_wakeup(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_wakeup_new(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_migrate(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_exec(struct rq_analysis *an, const struct rq_event *ev);
void rqe_handle_prepare_exec(struct rq_analysis *an, const struct rq_event *ev);

/* t's held migration/N moves older than STOPPER_EXEC_WINDOW at now: no exec explains them */
void rqe_expire_stopper(struct rq_analysis *an, struct rq_task *t, uint64_t now);

/*
 * Hold p in *slot (rqe_held(), engine.h): a new slot if none.  0, or -1 when out of
 * memory (*slot stays -1).
 */
int rqe_hold(struct rq_analysis *an, int *slot, const struct rq_placement *p);

#endif /* RQPATH_CLASSIFY_FNS */
