/* SPDX-License-Identifier: GPL-2.0 */
/*
 * finding.h - the findings of findings.def: the enum, the stable ids and what every
 * output shows of each (letter, colour, title, explanation, the events it needs).
 */
#ifndef RQPATH_FINDING_H
#define RQPATH_FINDING_H

#include <stdint.h>

enum rq_finding {
#define RQ_FINDING(ID, ...) RQ_FIND_##ID,
#include "findings.def"
#undef RQ_FINDING
	RQ_FIND__COUNT
};

/* The rows of findings.def as data (finding.c). */
struct rq_finding_info {
	const char *id;		/* "needless-callback": a contract (JSON, CSV, --fail-on) */
	char letter;		/* 'N': the TUI's marks, explain's tree */
	const char *colour;	/* "#0072B2": the HTML report */
	const char *title;	/* what a flagged placement did, one line */
	const char *text;	/* the explanation (detail view, explain) */
	uint32_t needs;		/* 1 << enum rq_event_type: not judged without these */
};
extern const struct rq_finding_info rq_findings[RQ_FIND__COUNT];

/* "needless-callback", ...: a contract (JSON, CSV, --fail-on, rqpath-paths(7)) */
extern const char *const rq_finding_ids[RQ_FIND__COUNT];

/* Every finding's letter in order, "NOIM": the legend of the marks. */
extern const char rq_finding_letters[RQ_FIND__COUNT + 1];

/* "N needless-callback, O offcpu-fork, ...": the legend of the letters. */
const char *rq_finding_legend(void);
/* The ids joined, "needless-callback, offcpu-fork, ...": for messages. */
const char *rq_finding_id_list(void);

#endif
