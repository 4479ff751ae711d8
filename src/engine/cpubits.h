/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpubits.h - the CPUs as bitmaps (cpubits.c): their part of the analysis.
 * Private to the engine: struct rq_analysis (engine.h) embeds it.
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

#endif
