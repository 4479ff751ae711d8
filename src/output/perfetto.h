/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perfetto.h - the perfetto writer's state (writer.h: `audit --format perfetto`): the
 * Perfetto protobuf trace format, streamed in constant memory.  A track per CPU with a
 * slice for each run of a task ("comm pid", as the model knows who ran), and an instant
 * event per placement on the CPU it was put on: named by its path and findings, in the
 * category of its kind, with the JSONL export's fields as arguments (findings and
 * possible as arrays of finding ids); beside them the scheduler's records as Perfetto's
 * own ftrace data (per-CPU FtraceEventBundles) and a ProcessTree of the tasks' names.
 * rqpath(1) PERFETTO says which Perfetto reads it.
 */
#ifndef RQPATH_PERFETTO_H
#define RQPATH_PERFETTO_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "timeline.h"

#define RQ_PF_CHUNK	(256 * 1024)	/* packets deflated together, uncompressed */
#define RQ_PF_ZLEVEL	6		/* zlib's level: 1 made the 1.2 M-event test 18 % larger */
#define RQ_PF_SLOTS	(1u << 19)	/* the interning hash table */
#define RQ_PF_ENTRIES	(1u << 18)	/* strings interned before the state is cleared */
#define RQ_PF_ARENA	(16u << 20)	/* their bytes before the state is cleared */
#define RQ_PF_TEXT	512		/* an untrusted string's bytes, at most */
#define RQ_PF_BUNDLE	(32 * 1024)	/* a CPU's ftrace events in one bundle, about */
#define RQ_PF_MAX_CPUS	8192		/* a record of a higher CPU is left out */

/* A growing buffer of protobuf bytes; oom once an allocation failed. */
struct rq_pb {
	uint8_t *p;
	size_t len, cap;
	bool oom;
};

struct rq_pf_entry {
	uint64_t hash;
	uint32_t off, len;
	uint64_t iid;
	unsigned int table;
};

/* A CPU's FtraceEvents not yet written, and whether events were lost before them. */
struct rq_pf_cpu {
	struct rq_pb ev;
	bool lost;
};

struct rq_perfetto {
	struct rq_runs runs;	/* first: the run callback finds the struct from it */
	FILE *f;
	struct rq_analysis *an;
	struct rq_pb pkt;	/* the packet being built */
	struct rq_pb interned[4];	/* its new interned strings, per table */
	struct rq_pb chunk;	/* packets waiting to be deflated */
	struct rq_pb zpkt, out;	/* the compressed packet and its key */
	uint32_t *slots;	/* [RQ_PF_SLOTS]: entry index + 1, 0 free */
	struct rq_pf_entry *entries;
	uint32_t nentries;
	char *arena;
	size_t arena_len, arena_cap;
	uint64_t next_iid[4];
	bool cleared;		/* the next packet says SEQ_INCREMENTAL_STATE_CLEARED */
	bool write_failed;
	bool raw;		/* --perfetto-raw: the chunks are written as they are */
	bool sent_system_info;
	struct rq_pb bpkt;	/* a bundle or process tree packet being built */
	struct rq_pf_cpu *cpus;	/* [ncpus] */
	int ncpus;
	uint64_t packets, slices, instants, bytes_in;
	uint64_t ftrace_events, switches, bundles;
};

#endif
