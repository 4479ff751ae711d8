/* SPDX-License-Identifier: GPL-2.0 */
/* live.h - a live recording analysed as it goes (live.c). */
#ifndef RQPATH_LIVE_H
#define RQPATH_LIVE_H

#include <stddef.h>

#include "analysis.h"
#include "recorder.h"

/*
 * rq_record_run() (recorder.h), and an (new, not begun) analyses the recording as it goes:
 * a sink of the recorder's pump, begun with this kernel's CPUs, release and recorded
 * events, finished after the drain.  Every record is decoded once; the report equals the
 * one of a replay of the file written (tests/live/t_audit_live.sh).  0, or -1 with one
 * line in err.
 */
int rq_record_analyse(const struct rq_record_opts *opts, struct rq_record_stats *st,
		      struct rq_analysis *an, char *err, size_t errlen);

#endif
