/* SPDX-License-Identifier: GPL-2.0 */
/*
 * delay_report.h - the queue delay (delay.h) rendered: a sketch as a JSON object or its
 * numbers as text ("1.2 ms"), the "Queue delay" section of the text report and the
 * "delay" values of the JSON one (report.c).  The engine keeps the sketches and the
 * counters; what they look like on a page is here.
 */
#ifndef RQPATH_DELAY_REPORT_H
#define RQPATH_DELAY_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"
#include "delay.h"

/* A sketch as a JSON object: n, p50_ns, p90_ns, p99_ns, max_ns, total_ns, exact. */
void rq_delay_json(FILE *f, struct rq_sketch *s);
/* A delay in at most 8 characters ("812 ns", "1.2 us", "3.4 ms", "1.25 s"), in buf. */
char *rq_delay_fmt(uint64_t ns, char *buf, size_t size);
/* "other wakeups+forks": the name of rq_delay_others()'s group of finding, in buf. */
char *rq_delay_others_label(int finding, char *buf, size_t size);
/* The text section "Queue delay" of the audit report. */
void rq_delay_text(FILE *f, const struct rq_summary *sum);
/* The top-level JSON "delay" value (without key). */
void rq_delay_json_summary(FILE *f, const struct rq_summary *sum);
/* ", \"delay\": {…}" inside a placements entry, and for a finding with "delay_others". */
void rq_report_json_path_delay(FILE *f, const struct rq_summary *sum, int path);
void rq_report_json_finding_delay(FILE *f, const struct rq_summary *sum, int finding);

#endif
