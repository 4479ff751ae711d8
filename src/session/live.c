// SPDX-License-Identifier: GPL-2.0
/*
 * live.c - a live recording (src/input/recorder.h) into the engine: the analysis is a
 * sink of the recorder's pump, so every record is decoded once and the report equals
 * the one of a replay of the file written.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>

#include "live.h"
#include "pump.h"

/* an: begun with what this kernel records, as a replay of the file would begin it */
static int begin_analysis(struct rq_recorder *r, struct rq_analysis *an, char *err,
			  size_t errlen)
{
	struct rq_pump *pump = rq_recorder_pump(r);
	struct utsname u;

	if (uname(&u))
		u.release[0] = '\0';
	if (rq_analysis_begin(an, "live", rq_pump_cpus(pump), u.release,
			      rq_pump_available(pump)) ||
	    rq_pump_add_analysis(pump, an)) {
		snprintf(err, errlen, "cannot set up the analysis: %s", strerror(errno));
		return -1;
	}
	return 0;
}

int rq_record_analyse(const struct rq_record_opts *opts, struct rq_record_stats *st,
		      struct rq_analysis *an, char *err, size_t errlen)
{
	const struct rq_budget b = { .max_seconds = 0.25 };
	struct rq_recorder *r = rq_recorder_start(opts, st, err, errlen);
	int ret;

	if (!r)
		return -1;
	if (begin_analysis(r, an, err, errlen))
		return rq_recorder_finish(r, -1);
	while ((ret = rq_recorder_step(r, &b)) > 0)
		if (ret == 1)
			rq_recorder_wait(r);
	ret = rq_recorder_finish(r, ret < 0 ? -1 : 0);
	if (!ret)
		rq_analysis_finish(an);
	return ret;
}
