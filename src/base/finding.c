// SPDX-License-Identifier: GPL-2.0
/* finding.c - findings.def as data. */
#include "event.h"
#include "finding.h"

#define RQ_NEEDS_EV(ev) (1u << RQ_EV_##ev)
#define RQ_KIND_BIT(kind) 0

_Static_assert(RQ_EV__COUNT <= 32, "struct rq_finding_info: needs is too narrow for events.def");

const struct rq_finding_info rq_findings[RQ_FIND__COUNT] = {
#define RQ_FINDING(ID, id, letter, colour, title, needs, kinds, of, text) \
	[RQ_FIND_##ID] = { id, letter[0], colour, title, text, needs },
#include "findings.def"
#undef RQ_FINDING
};

const char *const rq_finding_ids[RQ_FIND__COUNT] = {
#define RQ_FINDING(ID, id, ...) [RQ_FIND_##ID] = id,
#include "findings.def"
#undef RQ_FINDING
};

const char rq_finding_letters[RQ_FIND__COUNT + 1] = ""
#define RQ_FINDING(ID, id, letter, ...) letter
#include "findings.def"
#undef RQ_FINDING
	;

const char *rq_finding_legend(void)
{
	static const char legend[] = ""
#define RQ_FINDING(ID, id, letter, ...) ", " letter " " id
#include "findings.def"
#undef RQ_FINDING
		;

	return legend + 2;
}

const char *rq_finding_id_list(void)
{
	/* ", a, b, ...": each id after its separator, the first one's skipped */
	static const char list[] = ""
#define RQ_FINDING(ID, id, ...) ", " id
#include "findings.def"
#undef RQ_FINDING
		;

	return list + 2;
}
