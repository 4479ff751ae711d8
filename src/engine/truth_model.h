/* SPDX-License-Identifier: GPL-2.0 */
/*
 * truth_model.h - the kernel's state from the rqpath:truth records (truth.c): its part
 * of the analysis.
 * Private to the engine: struct rq_analysis (engine.h) embeds it.
 */
#ifndef RQPATH_TRUTH_MODEL_H
#define RQPATH_TRUTH_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

/*
 * The records waiting for their wakeup, fork or exec, direct-mapped by pid (TRUTH_SLOTS,
 * allocated at the first record), and the model measured against them
 */
struct rqe_truth {
	struct rq_truth_rec *slots;
	struct rq_truth_summary summary;
	struct rq_cpumask mask;	/* rqe_truth_mask()'s answer */
};

#endif
