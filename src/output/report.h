/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report.h - the audit reports: text for people and mail, JSON (rqpath.audit/1), CSV;
 * as writers (writer.h: text, json, jsonl, csv) and, for a program that wants one of the
 * three at once, rq_report_write().
 */
#ifndef RQPATH_REPORT_H
#define RQPATH_REPORT_H

#include <stdio.h>

#include "analysis.h"

enum rq_format { RQ_FMT_TEXT, RQ_FMT_JSON, RQ_FMT_CSV };

/* The report of an (finished) in fmt; 0, or -1 on a write error. */
int rq_report_write(FILE *f, const struct rq_analysis *an, enum rq_format fmt);

#endif
