/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - the model's tasks and interned CPU sets (model.c): their part of the analysis.
 * Private to the engine: struct rq_analysis (engine.h) embeds it.
 */
#ifndef RQPATH_MODEL_H
#define RQPATH_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

/*
 * An interned CPU set (model.c): the tasks allowed the same CPUs share one, counted, so
 * that 100 k tasks allowed everywhere hold one set, not 100 k (issue 23).  Every set of
 * an analysis has nr_cpus bits.
 */
struct rqe_mask {
	struct rq_cpumask m;	/* first: a task's mask pointer is its entry's */
	struct rqe_mask *next;	/* the intern table's chain */
	uint32_t refs;		/* tasks (and per-CPU assumptions) holding it */
	uint32_t hash;
};

/* PID_MAX_LIMIT of a 64-bit kernel: pids from 1 to here are indexed directly */
#define RQ_PID_LIMIT 4194304
#define RQ_PID_PAGE 1024	/* pids per page of the index (8 KiB) */

struct rq_task;
struct rqe_task_chunk;
struct rqe_task_slot;

/*
 * The interned masks (struct rqe_mask) in a hash table; no_mask, the empty set every
 * task without one points to (not counted); scratch, to parse into; one_cpu[c], the
 * set of CPU c alone, made when a per-CPU kthread's assumed mask first needs it
 */
struct rqe_masks {
	struct rq_cpumask all_cpus;	/* the assumed mask of tasks with no other evidence */
	struct rqe_mask **table;
	unsigned int masks_size, nmasks;
	struct rqe_mask no_mask;
	struct rq_cpumask scratch;
	const struct rq_cpumask **one_cpu;
};

struct rqe_tasks {
	/*
	 * Every task is in the hash, which gives rqe_task_foreach() its order (outputs
	 * depend on it: rq_analysis_finish() resolves pending moves in it).  Lookups, a few
	 * per event, go first to pid_pages: an index by pid for the pids a kernel hands out,
	 * in pages allocated when a pid in them is first seen, so that a hostile pid costs
	 * one page at most; a pid from RQ_PID_LIMIT on is only in the hash.
	 */
	struct rq_task **task_hash;
	unsigned int task_hash_size;
	struct rq_task **pid_pages[RQ_PID_LIMIT / RQ_PID_PAGE];
	/*
	 * the pids each page holds: a page whose last task is evicted is freed, or a kernel
	 * handing out ever higher pids (until pid_max wraps) would cost 8 bytes for every pid
	 * it ever used, i.e. memory growing with the trace's length (issue 23)
	 */
	uint16_t pid_page_used[RQ_PID_LIMIT / RQ_PID_PAGE];
	/*
	 * the tasks' memory (model.c, task_alloc()): chunks of RQE_TASK_CHUNK slots, each
	 * the task's own size, a free list of the slots of evicted tasks
	 */
	struct rqe_task_chunk *task_chunks;
	unsigned int task_chunk_used;	/* slots handed out of the newest chunk */
	struct rqe_task_slot *task_free;
	unsigned int nr_tasks;
	unsigned int nr_exited_kept;
	unsigned int exited_head;
	int *exited_ring;	/* pids of freed tasks kept for the views, oldest first */
	uint64_t nr_tasks_evicted;
};

#endif
