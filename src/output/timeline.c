// SPDX-License-Identifier: GPL-2.0
/*
 * timeline.c - per-CPU runs and the Perfetto writer (timeline.h).
 */
#include <stdlib.h>
#include <string.h>

#include "delay.h"
#include "escape.h"
#include "timeline.h"
#include "writer.h"

int rq_runs_init(struct rq_runs *r, const struct rq_analysis *an, int nr_cpus)
{
	r->an = an;
	r->nr_cpus = nr_cpus;
	r->cpu = calloc((size_t)(nr_cpus > 0 ? nr_cpus : 1), sizeof(*r->cpu));
	if (!r->cpu)
		return -1;
	for (int i = 0; i < nr_cpus; i++)
		r->cpu[i].pid = -1;
	return 0;
}

void rq_runs_run(struct rq_runs *r, int cpu, int pid, uint64_t ts)
{
	struct rq_run_cpu *c;
	struct rq_task_info t;

	if (cpu < 0 || cpu >= r->nr_cpus)
		return;
	c = &r->cpu[cpu];
	if (c->pid > 0 && r->run && ts >= c->since)
		r->run(r, cpu, c->pid, c->comm, c->since, ts);
	c->pid = pid;
	c->since = ts;
	/* the name the model knows now (a switch's, a marker's, an exec's) */
	strcpy(c->comm, "?");
	if (pid > 0 && rq_task_info_get(r->an, pid, &t) && t.comm[0])
		memcpy(c->comm, t.comm, RQ_COMM_LEN);
	c->comm[RQ_COMM_LEN - 1] = '\0';
}

void rq_runs_free(struct rq_runs *r)
{
	free(r->cpu);
	r->cpu = NULL;
}

/* ---- Perfetto ---------------------------------------------------------------- */

/* Trace event times are microseconds: keep the nanoseconds as decimals. */
static void us(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%03llu", (unsigned long long)(ns / 1000), (unsigned long long)(ns % 1000));
}

static void sep(struct rq_perfetto *p)
{
	fputs(p->events++ ? ",\n" : "\n", p->f);
}

static void pf_run(struct rq_runs *r, int cpu, int pid, const char *comm, uint64_t start,
		   uint64_t end)
{
	struct rq_perfetto *p = (struct rq_perfetto *)r;
	char name[64];

	snprintf(name, sizeof(name), "%s %d", comm, pid);
	sep(p);
	fputs("{\"ph\": \"X\", \"cat\": \"sched\", \"pid\": 1, \"tid\": ", p->f);
	fprintf(p->f, "%d, \"ts\": ", cpu);
	us(p->f, start);
	fputs(", \"dur\": ", p->f);
	us(p->f, end - start);
	fputs(", \"name\": ", p->f);
	rq_json_string(p->f, name, strlen(name));
	fprintf(p->f, ", \"args\": {\"pid\": %d}}", pid);
}

/* The CPUs' tracks, named once the CPU count is known (the first run). */
static int pf_tracks(struct rq_perfetto *p)
{
	if (!p->runs.cpu) {
		int nr_cpus = rq_analysis_summary(p->an)->nr_cpus;

		if (rq_runs_init(&p->runs, p->an, nr_cpus))
			return -1;
		p->runs.run = pf_run;
		for (int cpu = 0; cpu < nr_cpus; cpu++) {
			sep(p);
			fprintf(p->f, "{\"ph\": \"M\", \"name\": \"thread_name\", \"pid\": 1, "
				      "\"tid\": %d, \"ts\": 0, \"args\": {\"name\": \"CPU %d\"}}",
				cpu, cpu);
		}
	}
	return p->runs.cpu ? 0 : -1;
}

static void pf_on_run(struct rq_writer *w, int cpu, int pid, uint64_t ts)
{
	struct rq_perfetto *p = w->priv;

	if (!pf_tracks(p))
		rq_runs_run(&p->runs, cpu, pid, ts);
}

static void pf_placement(struct rq_writer *w, const struct rq_placement *pl)
{
	struct rq_perfetto *p = w->priv;
	int64_t delay = pl->delay_ns;
	char why[512], name[96], fl[96] = "";
	size_t len = 0;

	pf_tracks(p);

	for (int f = 0; f < RQ_FIND__COUNT; f++)
		if (pl->findings & (1u << f))
			len += (size_t)snprintf(fl + len, len < sizeof(fl) ? sizeof(fl) - len : 0,
						"%s%s", len ? " " : "", rq_finding_ids[f]);
	snprintf(name, sizeof(name), "%s%s%s", rq_paths[pl->path].id, fl[0] ? ": " : "", fl);
	rq_placement_describe(pl, why, sizeof(why));
	sep(p);
	fputs("{\"ph\": \"i\", \"s\": \"t\", \"cat\": \"placement\", \"pid\": 1, \"tid\": ", p->f);
	fprintf(p->f, "%d, \"ts\": ", pl->to_cpu >= 0 ? pl->to_cpu : pl->cpu);
	us(p->f, pl->ts);
	fprintf(p->f, ", \"name\": \"%s\", \"args\": {\"pid\": %d, \"comm\": ", name, pl->pid);
	rq_json_string(p->f, pl->comm, strnlen(pl->comm, sizeof(pl->comm)));
	fprintf(p->f, ", \"kind\": \"%s\", \"path\": \"%s\", \"confidence\": \"%s\", "
		      "\"from_cpu\": %d, \"to_cpu\": %d, \"findings\": \"%s\", \"delay_ns\": ",
		rq_kind_names[rq_paths[pl->path].kind], rq_paths[pl->path].id,
		rq_confidence_names[pl->conf], pl->from_cpu, pl->to_cpu, fl);
	if (delay >= 0)
		fprintf(p->f, "%lld", (long long)delay);
	else
		fputs("null", p->f);
	fputs(", \"why\": ", p->f);
	rq_json_string(p->f, why, strlen(why));
	fputs("}}", p->f);
}

static int pf_begin(struct rq_writer *w)
{
	struct rq_perfetto *p = w->priv;

	p->f = w->f;
	p->an = w->an;
	if (!rq_analysis_delay(w->an))
		return -1;
	fputs("{\"displayTimeUnit\": \"ns\", \"otherData\": {\"generator\": \"rqpath\"}, "
	      "\"traceEvents\": [", p->f);
	sep(p);
	fputs("{\"ph\": \"M\", \"name\": \"process_name\", \"pid\": 1, \"tid\": 0, \"ts\": 0, "
	      "\"args\": {\"name\": \"CPUs (rqpath)\"}}", p->f);
	return 0;
}

static int pf_end(struct rq_writer *w, const struct rq_summary *sum)
{
	struct rq_perfetto *p = w->priv;

	rq_runs_free(&p->runs);
	fputs("\n]}\n", p->f);
	return 0;
}

static void pf_done(struct rq_writer *w)
{
	struct rq_perfetto *p = w->priv;

	rq_runs_free(&p->runs);
}

const struct rq_writer_ops rq_writer_perfetto = {
	.name = "perfetto",
	.flags = RQ_WRITER_STREAM,
	.private_size = sizeof(struct rq_perfetto),
	.begin = pf_begin,
	.placement = pf_placement,
	.run = pf_on_run,
	.end = pf_end,
	.done = pf_done,
};
