// SPDX-License-Identifier: GPL-2.0
/* finding.c - findings.def as data. */
#include "finding.h"

const char *const rq_finding_ids[RQ_FIND__COUNT] = {
#define RQ_FINDING(ID, id) [RQ_FIND_##ID] = id,
#include "findings.def"
#undef RQ_FINDING
};
