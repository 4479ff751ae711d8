/* SPDX-License-Identifier: GPL-2.0 */
/* report.h - the audit sinks: text for people and mail, JSON (rqpath.audit/1), CSV. */
#ifndef RQPATH_REPORT_H
#define RQPATH_REPORT_H

#include <stdio.h>

#include "analysis.h"

enum rq_format { RQ_FMT_TEXT, RQ_FMT_JSON, RQ_FMT_CSV };

int rq_report_write(FILE *f, const struct rq_analysis *an, enum rq_format fmt);

#endif
