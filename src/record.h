/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record.h - live recording through a private tracefs instance into a trace.dat.
 * (Interface fixed here; implementation in record.c / tracedat_write.c.)
 */
#ifndef RQPATH_RECORD_H
#define RQPATH_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "event.h"

struct rq_record_opts {
	const char *output;	/* trace.dat path */
	double duration;	/* seconds, <= 0: until cmd exits or a signal */
	int buffer_kb;		/* per-CPU buffer, 0 = default */
	char **cmd;		/* NULL-terminated argv of a command to run, or NULL */
	bool force;		/* overwrite an existing output file */
	bool quiet;		/* no progress or summary on stderr */
	int file_version;	/* 6 or 7 (0 = default) */
	/*
	 * Optional: every record, merged across CPUs in timestamp order, as it is read,
	 * already decoded (the recorder decodes each record once, for itself too);
	 * available says which event types this kernel has (rq_decoder_available()).
	 */
	void (*on_event)(const struct rq_event *ev, const bool *available, void *data);
	void (*on_lost)(int cpu, unsigned long long lost, void *data);
	/* Optional: called at least 4 times a second while recording; non-zero stops. */
	int (*on_tick)(void *data);
	void *data;
};

struct rq_record_stats {
	uint64_t events;
	uint64_t lost_events;
	uint64_t bytes;
	int cmd_status;		/* wait status of cmd, -1 none */
	/* Records per decoded type (RQ_EV_OTHER: everything else, e.g. non-rqpath prints). */
	uint64_t by_type[RQ_EV__COUNT];
};

/* Record until done.  0, or -1 with one clear line in err (errno-style cause). */
int rq_record_run(const struct rq_record_opts *opts, struct rq_record_stats *st, char *err,
		  size_t errlen);

#endif
