// SPDX-License-Identifier: GPL-2.0
/*
 * events.c - events.def as data: the names, what a trace without each cannot show.
 */
#include "event.h"
#include "finding.h"

const struct rq_event_info rq_event_table[] = {
#define RQ_EVENT(id, system, name, recorded, loses, ...) \
	{ system, name, RQ_EV_##id, recorded, loses },
#include "events.def"
#undef RQ_EVENT
};

const int rq_event_table_len = sizeof(rq_event_table) / sizeof(rq_event_table[0]);

const char *rq_event_name(enum rq_event_type type)
{
	if (type == RQ_EV_OTHER)
		return "other";
	if (type == RQ_EV_LOST)
		return "lost";
	if (type <= 0 || type > rq_event_table_len)
		return "?";
	return rq_event_table[type - 1].name;
}

enum rq_event_type rq_finding_lacks(int finding, const uint64_t counts[RQ_EV__COUNT])
{
	for (int i = 0; i < rq_event_table_len; i++) {
		const struct rq_event_info *e = &rq_event_table[i];

		if ((rq_findings[finding].needs & (1u << e->type)) && !counts[e->type])
			return e->type;
	}
	return RQ_EV_OTHER;
}
