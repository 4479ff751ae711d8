/* SPDX-License-Identifier: GPL-2.0 */
/*
 * teach.h - the select_task_rq() decision tree as data (no terminal code).
 *
 * One table of nodes in display order; a node's parent is the nearest earlier node one
 * level up.  Each node names the kernel function where the step happens, the rq_paths[]
 * placements that certainly went through it ("taken") or may have gone through it
 * ("maybe": the trace cannot tell which of several steps chose the CPU), and the finding
 * it relates to.  `rqpath explain` prints it as text; the TUI teach and detail views
 * render the same table.
 */
#ifndef RQPATH_TEACH_H
#define RQPATH_TEACH_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"

#define RQ_TEACH_MAX_PATHS 16

struct rq_teach_node {
	const char *id;		/* stable short id, e.g. "sis-util" */
	int depth;		/* 0 = a top-level stage */
	const char *title;	/* one line: what is decided here */
	const char *kernel_fn;	/* "fair.c:select_idle_cpu" */
	const char *text;	/* the explanation for a student, one paragraph */
	int finding;		/* related enum rq_finding, or -1 */
	/* rq_path ids, each list terminated by -1 */
	int taken[RQ_TEACH_MAX_PATHS];
	int maybe[RQ_TEACH_MAX_PATHS];
};

extern const struct rq_teach_node rq_teach_nodes[];
extern const int rq_teach_nr_nodes;


/* Parent index of node i, -1 for a top-level node. */
int rq_teach_parent(int i);

/* Counts for node i from an (an may be NULL: all zero, returns false). */
struct rq_teach_count {
	uint64_t taken;		/* placements that certainly went through this step */
	uint64_t maybe;		/* placements that may have (an upper bound on top of taken) */
	uint64_t finding;	/* count of the related finding, 0 if none */
};
bool rq_teach_count(const struct rq_analysis *an, int i, struct rq_teach_count *c);

/* How a placement on path relates to node i. */
enum rq_teach_mark { RQ_TEACH_OFF, RQ_TEACH_MAYBE, RQ_TEACH_TAKEN };
enum rq_teach_mark rq_teach_node_mark(int i, enum rq_path path);

/* What the trace cannot tell about a placement of this path (one paragraph). */
const char *rq_teach_unknown(enum rq_path path, enum rq_confidence conf);

/*
 * Word-wrap text to width columns: calls fn for each line (not NUL-terminated, len bytes).
 * Returns the number of lines.
 */
int rq_teach_wrap(const char *text, int width,
		  void (*fn)(const char *line, int len, void *data), void *data);

/* The tree drawing in front of node i's title ("|  +- ", or UTF-8 box drawing). */
int rq_teach_tree_prefix(int i, bool utf8, char *buf, size_t size);

/* Print the whole tree (and the explanations unless brief) as plain text. */
void rq_teach_write(FILE *f, const struct rq_analysis *an, bool utf8, bool brief);

#endif
