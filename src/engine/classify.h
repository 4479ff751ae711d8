/* SPDX-License-Identifier: GPL-2.0 */
/*
 * classify.h - what the classifier keeps (classify.c): the filter's scope, the held
 * placements and the ring of recent ones.
 * Private to the engine: struct rq_analysis (engine.h) embeds it.
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

#endif
