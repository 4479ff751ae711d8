/* SPDX-License-Identifier: GPL-2.0 */
/*
 * truth_model.h - the kernel's state from the rqpath:truth records (truth.c): its part
 * of the analysis (struct rq_analysis, engine.h, embeds it); then what the other parts
 * call in truth.c.
 * Private to the engine.
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

#endif /* RQPATH_TRUTH_MODEL_H */

/*
 * What the other parts call in truth.c.  Skipped while engine.h includes this header
 * for the state above (RQPATH_ENGINE_STATE_ONLY): what follows needs engine.h's structs,
 * and includes it.
 */
#if !defined(RQPATH_ENGINE_STATE_ONLY) && !defined(RQPATH_TRUTH_MODEL_FNS)
#define RQPATH_TRUTH_MODEL_FNS

#include "engine.h"

/*
 * An exec's rqpath:truth record follows its event (the BPF program of the tracepoint runs
 * after its ftrace probe) by at most this much (truth.c): a microsecond on bare metal, but
 * milliseconds where the virtual CPU is descheduled between the two probes (4.4 ms seen in
 * a 16-vCPU guest of a loaded host), and the recorder's marker may come in between.
 */
#define TRUTH_EXEC_AFTER (20 * NSEC_PER_MSEC)

/* truth.c: the kernel's state from the rqpath:truth records (truth.h) */
void rqe_handle_truth(struct rq_analysis *an, const struct rq_event *ev);
/*
 * The record of point (RQ_TRUTH_*) for pid, taken at most TRUTH_MAX_AGE before ts and not
 * after it; it leaves the cache (a record is used once).  NULL: none, or --no-truth.
 */
const struct rq_truth_rec *rqe_truth_take(struct rq_analysis *an, int pid, int point,
					  uint64_t ts);
/* cpu's state in r, the wakee (pid, SCHED_IDLE work or not) left out */
enum rq_truth_cpu_state rqe_truth_cpu(const struct rq_analysis *an, const struct rq_truth_rec *r,
				      int cpu, int wakee, bool wakee_idle);
/* r's entry of cpu, NULL when the record has none (r from rqe_truth_take(): sorted) */
const struct rq_truth_cpu *rqe_truth_entry(const struct rq_truth_rec *r, int cpu);
static inline bool rqe_truth_idle_class(const struct rq_truth_rec *r, const struct rq_task *t)
{
	return r->policy == RQ_SCHED_IDLE || t->idle_cgroup;
}
/* one CPU allowed, or migration disabled: core select_task_rq() skips the class callback */
static inline bool rqe_truth_one_cpu(const struct rq_truth_rec *r)
{
	return r->nr_cpus_allowed == 1 || (r->flags & RQ_TRUTH_MIGRATE_OFF);
}
/* the placement's facts from r (RQ_PT_RECORD, policy, allowed, the state of to_cpu) */
void rqe_truth_mark(const struct rq_analysis *an, struct rq_placement *p,
		    const struct rq_truth_rec *r, const struct rq_task *t);
/*
 * The allowed CPUs of r as a mask of the trace's CPUs (beyond the record's words: the
 * model's, if any); valid until the next call.  NULL when out of memory.
 */
const struct rq_cpumask *rqe_truth_mask(struct rq_analysis *an, const struct rq_truth_rec *r,
					const struct rq_cpumask *model);
void rqe_truth_free(struct rq_analysis *an);

#endif /* RQPATH_TRUTH_MODEL_FNS */
