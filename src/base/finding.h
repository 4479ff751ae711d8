/* SPDX-License-Identifier: GPL-2.0 */
/*
 * finding.h - the findings of findings.def as an enum and their stable ids.
 */
#ifndef RQPATH_FINDING_H
#define RQPATH_FINDING_H

enum rq_finding {
#define RQ_FINDING(ID, id) RQ_FIND_##ID,
#include "findings.def"
#undef RQ_FINDING
	RQ_FIND__COUNT
};

/* "needless-callback", ...: a contract (JSON, CSV, --fail-on, rqpath-paths(7)) */
extern const char *const rq_finding_ids[RQ_FIND__COUNT];

#endif
