// SPDX-License-Identifier: GPL-2.0
/*
 * writer.c - the table of writers and what every writer shares (writer.h): its private
 * state, its subscription to the analysis, the final flush.
 */
#include <stdlib.h>
#include <string.h>

#include "writer.h"

const struct rq_writer_ops *const rq_writers[] = {
	&rq_writer_text, &rq_writer_json, &rq_writer_jsonl, &rq_writer_csv, &rq_writer_html,
	&rq_writer_perfetto, &rq_writer_perfetto_raw, &rq_writer_placements_csv, &rq_writer_placements_jsonl, NULL,
};

const struct rq_writer_ops *rq_writer_find(const char *name)
{
	for (int i = 0; name && rq_writers[i]; i++)
		if (!strcmp(rq_writers[i]->name, name))
			return rq_writers[i];
	return NULL;
}

static void writer_on_settled(void *ctx, const struct rq_placement *p)
{
	struct rq_writer *w = ctx;

	w->ops->placement(w, p);
}

static void writer_on_run(void *ctx, int cpu, int pid, uint64_t ts)
{
	struct rq_writer *w = ctx;

	w->ops->run(w, cpu, pid, ts);
}

static void writer_on_event(void *ctx, const struct rq_event *ev)
{
	struct rq_writer *w = ctx;

	w->ops->event(w, ev);
}

int rq_writer_begin(struct rq_writer *w, const struct rq_writer_ops *ops, FILE *f,
		    struct rq_analysis *an)
{
	memset(w, 0, sizeof(*w));
	w->ops = ops;
	w->f = f;
	w->an = an;
	if (ops->private_size) {
		w->priv = calloc(1, ops->private_size);
		if (!w->priv)
			return -1;
	}
	if (ops->begin && ops->begin(w))
		return -1;
	if (ops->placement || ops->run || ops->event) {
		struct rq_observer o = { .ctx = w };

		o.on_settled = ops->placement ? writer_on_settled : NULL;
		o.on_run = ops->run ? writer_on_run : NULL;
		o.on_event = ops->event ? writer_on_event : NULL;
		if (rq_analysis_subscribe(an, &o))
			return -1;
		w->subscribed = true;
	}
	return 0;
}

int rq_writer_end(struct rq_writer *w)
{
	int ret = 0;

	if (w->subscribed) {
		rq_analysis_unsubscribe(w->an, w);
		w->subscribed = false;
	}
	if (w->ops->end)
		ret = w->ops->end(w, rq_analysis_summary(w->an));
	return fflush(w->f) || ferror(w->f) || ret ? -1 : 0;
}

void rq_writer_free(struct rq_writer *w)
{
	if (w->subscribed)
		rq_analysis_unsubscribe(w->an, w);
	if (w->ops && w->ops->done && w->priv)
		w->ops->done(w);
	free(w->priv);
	memset(w, 0, sizeof(*w));
}
