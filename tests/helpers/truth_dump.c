// SPDX-License-Identifier: GPL-2.0
/*
 * truth_dump.c - the rqpath:truth records a trace.dat hands out through rqpath's reader
 * and pump (RQ_EV_TRUTH, ev->truth), one line each, for the tests to hold against an
 * independent reading of the same file (trace-cmd report):
 *
 *   truth_dump [--worker] FILE
 *   TS_NS POINT pid=P cpu=C flags=0xF policy=N allowed=N task_cpu=N mask0=0xM nr_cpus=N
 *     cpuK=known/nr_running/h_nr_idle/ttwu_pending/curr_pid/curr_policy ...
 *
 * then "records N out_of_order N events N".  --worker decodes in the pump's own thread
 * (the truth records are then copies kept with their batch).  Exit 0, 2 on error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "decode.h"
#include "pump.h"
#include "tracedat.h"

static const char *const points[] = { "?", "waking", "wakeup", "fork", "wakeup_new", "exec" };

struct counts {
	uint64_t records, out_of_order, events, last_ts;
};

static void sink(void *data, const struct rq_event *ev)
{
	struct counts *c = data;
	const struct rq_truth_rec *t = ev->truth;

	c->events++;
	if (ev->ts < c->last_ts)
		c->out_of_order++;
	c->last_ts = ev->ts;
	if (ev->type != RQ_EV_TRUTH || !t)
		return;
	c->records++;
	printf("%" PRIu64 " %s pid=%u cpu=%u flags=0x%x policy=%u allowed=%u task_cpu=%u "
	       "mask0=0x%" PRIx64 " nr_cpus=%u", t->ts, points[t->point < 6 ? t->point : 0],
	       t->pid, t->cpu, t->flags, t->policy, t->nr_cpus_allowed, t->task_cpu, t->mask[0],
	       t->nr_cpus);
	for (int i = 0; i < t->nr_cpus; i++)
		printf(" cpu%d=%u/%u/%u/%u/%u/%u", i, t->cpus[i].known, t->cpus[i].nr_running,
		       t->cpus[i].h_nr_idle, t->cpus[i].ttwu_pending, t->cpus[i].curr_pid,
		       t->cpus[i].curr_policy);
	printf("\n");
}

int main(int argc, char **argv)
{
	struct counts c = { 0 };
	struct rq_source src;
	struct rq_pump *p;
	struct rq_td *td;
	bool worker = argc > 1 && !strcmp(argv[1], "--worker");
	char err[512];
	enum rq_pump_status st;

	if (argc != 2 + worker) {
		fprintf(stderr, "usage: truth_dump [--worker] FILE\n");
		return 2;
	}
	td = rq_td_open(argv[1 + worker], rq_decode_wants, err, sizeof(err));
	if (!td) {
		fprintf(stderr, "truth_dump: %s\n", err);
		return 2;
	}
	rq_source_file(&src, td);
	p = rq_pump_new(&src);
	if (!p || rq_pump_add_sink(p, sink, &c) < 0 || (worker && rq_pump_start_worker(p) < 0)) {
		fprintf(stderr, "truth_dump: cannot start the pump\n");
		return 2;
	}
	st = rq_pump_run(p, NULL);
	if (st == RQ_PUMP_ERROR) {
		fprintf(stderr, "truth_dump: %s\n", rq_pump_error(p));
		return 2;
	}
	printf("records %" PRIu64 " out_of_order %" PRIu64 " events %" PRIu64 "\n", c.records,
	       c.out_of_order, c.events);
	rq_pump_free(p);
	rq_td_close(td);
	return 0;
}
