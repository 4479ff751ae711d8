/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpubits.h - the CPUs as bitmaps (cpubits.c): their part of the analysis (struct
 * rq_analysis, engine.h, embeds it); then what the other parts call in cpubits.c.
 * Private to the engine.
 */
#ifndef RQPATH_CPUBITS_H
#define RQPATH_CPUBITS_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"

/*
 * The truly idle, the busy (no task left out) and the unknown CPUs (rqe_cpu_unknown())
 * as bitmaps, valid for the CPUs not in dirty[]; the CPUs whose curr has no task; the
 * LLCs as bitmaps (a row per LLC id, llc_row[id]), rebuilt when llc_stale
 */
struct rqe_cpubits {
	unsigned long *idle_bits, *busy_bits, *unknown_bits;
	int *dirty, ndirty;
	int nunresolved;
	int *llc_row;
	unsigned long *llc_bits;
	bool llc_stale;
	/* the wakings' snapshots (rqe_snap_take()): 3 * rqe_mask_longs() words each, free list */
	unsigned long *snaps;
	int *snap_free, nsnaps, nsnap_free, snap_cap;
};

#endif /* RQPATH_CPUBITS_H */

/*
 * What the other parts call in cpubits.c.  Skipped while engine.h includes this header
 * for the state above (RQPATH_ENGINE_STATE_ONLY): what follows needs engine.h's structs,
 * and includes it.
 */
#if !defined(RQPATH_ENGINE_STATE_ONLY) && !defined(RQPATH_CPUBITS_FNS)
#define RQPATH_CPUBITS_FNS

#include "engine.h"

/* cpu's idle and busy bits are to be worked out again (cpubits.c) */
static inline void rqe_cpu_dirty(struct rq_analysis *an, int cpu)
{
	struct rq_cpu *c = &an->cpus[cpu];

	if (!c->dirty) {
		c->dirty = true;
		an->bits.dirty[an->bits.ndirty++] = cpu;
	}
}

/* idle_cpu(): the idle task runs, nothing queued, no wakeup on its way. */
static inline bool rqe_cpu_truly_idle(const struct rq_analysis *an, int cpu)
{
	const struct rq_cpu *c = &an->cpus[cpu];

	return c->known && c->curr == 0 && !c->nqueued && !c->ndelayed && !c->pending_wakeups;
}

static inline void rqe_bit_set(unsigned long *bits, int cpu)
{
	bits[cpu / BITS_PER_UL] |= 1UL << (cpu % BITS_PER_UL);
}

/* the idleness of cpu is unknown: neither truly idle nor provably not */
static inline bool rqe_cpu_unknown(const struct rq_cpu *c)
{
	return c->curr < 0 || (c->curr == 0 && !c->known);
}

int rqe_cpubits_init(struct rq_analysis *an);
void rqe_cpubits_free(struct rq_analysis *an);
/* Bring idle_bits, busy_bits and unknown_bits up to date (the dirty CPUs). */
void rqe_cpubits_flush(struct rq_analysis *an);
void rqe_snapshot_cpus(struct rq_analysis *an, const struct rq_task *t,
		       unsigned long *idle, unsigned long *busy, unsigned long *unknown);
/*
 * t's waking snapshot, a buffer of the pool held until rqe_snap_put() (the task's next
 * waking reuses it): idle words, busy words, unknown words (rqe_mask_longs() each); NULL
 * when out of memory.  Valid until the next rqe_snap_take() of any task.
 */
unsigned long *rqe_snap_take(struct rq_analysis *an, struct rq_task *t);
static inline unsigned long *rqe_snap(const struct rq_analysis *an, const struct rq_task *t)
{
	return t->snap < 0 ? NULL : an->bits.snaps + (size_t)t->snap * 3 * rqe_mask_longs(an);
}
/* cpu's curr becomes pid, whose task is t (rqe_task_find(pid), NULL for pid <= 0). */
void rqe_set_curr(struct rq_analysis *an, int cpu, int pid, struct rq_task *t);
/* t's policy or cgroup changed (whether it is SCHED_IDLE work): its CPUs' bits are stale. */
void rqe_task_class_changed(struct rq_analysis *an, const struct rq_task *t);
void rqe_task_created(struct rq_analysis *an, struct rq_task *t);
void rqe_task_evicted(struct rq_analysis *an, struct rq_task *t);
/*
 * The CPUs of LLC id llc as a bitmap (rqe_mask_longs() words), *lo and *hi its first and last
 * word with a CPU; NULL if none (or out of memory).
 */
const unsigned long *rqe_llc_bits(struct rq_analysis *an, int llc, int *lo, int *hi);

#endif /* RQPATH_CPUBITS_FNS */
