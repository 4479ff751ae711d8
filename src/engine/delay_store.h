/* SPDX-License-Identifier: GPL-2.0 */
/*
 * delay_store.h - the queue-delay store (delay.c) as the engine sees it: struct rq_delay
 * and the hooks the other parts call.  The outputs read the store through delay.h.
 * Private to the engine.
 */
#ifndef RQPATH_DELAY_STORE_H
#define RQPATH_DELAY_STORE_H

#include <stdbool.h>
#include <stdint.h>

#include "delay.h"
#include "engine.h"

/* The queue-delay store, one per analysis (its readers: delay.h). */
struct rq_delay {
	/*
	 * the statistics: a measured delay goes into one sketch, its path's (unflagged or
	 * flagged), and into its findings'; the groups the outputs read (per path, per kind,
	 * every placement) are merged from the path sketches when read (rq_delay_path() ...)
	 */
	struct rq_sketch *added;	/* [RQ_PATH__COUNT * 2]: unflagged, flagged */
	struct rq_sketch *finding;	/* [RQ_FIND__COUNT] */
	struct rq_sketch *path;		/* [RQ_PATH__COUNT] */
	struct rq_sketch *kind;		/* [RQ_KIND__COUNT * 2]: unflagged, flagged */
	struct rq_sketch all[2];	/* every placement: unflagged, flagged */
	uint64_t nadded, merged;	/* values added; nadded when the groups were merged */
	uint64_t not_run;	/* placements whose task had not run again when the trace ended */
	uint64_t unmeasured;	/* the switch-in may be missing: events were lost on the CPU */
	/*
	 * of those, the ones with another cause: a placement classified late (a
	 * migration/N move, once what followed was known) whose first run after it the
	 * ring of recent switch-ins no longer reaches; a task no longer known, or no memory
	 */
	uint64_t unmeasured_late, unmeasured_other;
	uint64_t no_memory;	/* values a sketch could not take (allocation failure) */
	/* pending placements: a pool with a free list, linked per task */
	struct rq_delay_pending *pool;
	struct rq_placement *full;	/* the whole placements, same index, while a sink is set */
	uint32_t pool_cap, pool_used, free_head;	/* free_head: index + 1, 0 none */
	bool keep_full;		/* a subscriber wants whole placements settled (on_settled) */
	bool finishing;		/* rqe_delay_finish(): nothing is held any longer */
	struct rq_analysis *an;
};

/*
 * delay.c: the model changed who runs on cpu (prev to next) at ts; a forked child
 * exited or is gone, its offcpu-fork placement is settled
 */
void rqe_curr_changed(struct rq_analysis *an, int cpu, int prev, int next, uint64_t ts);
void rqe_fork_child_gone(struct rq_analysis *an, struct rq_task *t);

/* The queue-delay store (delay.c): the engine's hooks into it. */
struct rq_delay *rqe_delay_new(struct rq_analysis *an);
void rqe_delay_free(struct rq_delay *d);
/*
 * Whether every placement is kept whole until it is settled (a subscriber wants them:
 * on_settled); flagged ones always are (their examples take the settled record).
 */
void rqe_delay_keep_full(struct rq_analysis *an, bool on);

/* The engine's hooks: a placement is recorded; events were lost on cpu. */
void rqe_delay_placed(struct rq_analysis *an, const struct rq_placement *p);
void rqe_delay_lost(struct rq_analysis *an, int cpu);
/*
 * The execs of t that waited for the recorder's marker (RQ_NOTE_MASK_UNKNOWN) are
 * settled: fix (NULL: they stay not judged) is applied to each, then they go to the sink.
 */
struct rq_exec_fix {
	bool one_cpu;		/* the marker's mask has one CPU: exec-local becomes exec-affine */
	bool needless;		/* ... and the kernel calls the callback: a needless-callback */
	int cpu;		/* that CPU */
	unsigned int assume;	/* what the mask read after the exec rests on (RQ_ASSUME_*) */
	/*
	 * settled by the exec's rqpath:truth record, not a marker: its facts (RQ_PT_*,
	 * policy, CPUs allowed), and whether the class callback was the RT/DL one
	 */
	uint8_t truth, truth_policy;
	uint16_t truth_allowed;
	bool rt;
};
void rqe_delay_execs_settled(struct rq_analysis *an, struct rq_task *t,
			    const struct rq_exec_fix *fix);
void rqe_exec_fix_apply(struct rq_placement *p, const struct rq_exec_fix *fix);
/*
 * The engine is about to free t (evicted) or to reuse it (a fork with its pid): what
 * it has pending stays for rqe_delay_finish() (it did not run).
 */
void rqe_delay_task_gone(struct rq_analysis *an, struct rq_task *t);
/* End of the trace: what is still pending did not run; the sink sees it with -1. */
void rqe_delay_finish(struct rq_analysis *an);

#endif
