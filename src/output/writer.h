/* SPDX-License-Identifier: GPL-2.0 */
/*
 * writer.h - every output of `rqpath audit` behind one interface, chosen by name from
 * one table: text, json, jsonl, csv, html, perfetto, perfetto-raw, placements-csv,
 * placements-jsonl.
 *
 * A writer is begun before the first event (it may write a header and keep state), hears
 * each settled placement and each run of the model while the trace is read (the writer
 * layer subscribes it to the analysis: struct rq_observer's on_settled and on_run), and
 * is ended after rq_analysis_finish(), when it writes what needs the summary.  The
 * command line picks the ops by the word the user gave (rq_writer_find()) and never
 * knows which writer it runs.
 *
 *	struct rq_session *s = rq_session_open_file(file, &opts, 0);	(session.h)
 *	struct rq_writer w;
 *
 *	if (rq_writer_begin(&w, rq_writer_find("html"), out, rq_session_analysis(s)))
 *		... out of memory ...
 *	rq_session_run(s, NULL);
 *	if (rq_writer_end(&w))
 *		... write error ...
 *	rq_writer_free(&w);
 */
#ifndef RQPATH_WRITER_H
#define RQPATH_WRITER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis.h"

struct rq_writer;

/* rq_writer_ops.flags */
#define RQ_WRITER_STREAM	0x01	/* reads the placements as the trace is read */
#define RQ_WRITER_PER_FILE	0x02	/* one line per trace file: many files at once */
#define RQ_WRITER_PLACEMENTS	0x04	/* every placement instead of the report */

struct rq_writer_ops {
	const char *name;	/* what --format (or --placements, "placements-" NAME) says */
	unsigned int flags;
	size_t private_size;	/* w->priv: this many zeroed bytes from rq_writer_begin() */
	/* before the first event: a header, state; 0, or -1 (out of memory) */
	int (*begin)(struct rq_writer *w);
	/* a placement with all its facts (on_settled); NULL: not needed */
	void (*placement)(struct rq_writer *w, const struct rq_placement *p);
	/* from ts on cpu runs pid (on_run); NULL: not needed */
	void (*run)(struct rq_writer *w, int cpu, int pid, uint64_t ts);
	/* every event, after the engine (on_event); NULL: not needed */
	void (*event)(struct rq_writer *w, const struct rq_event *ev);
	/* after rq_analysis_finish(): the rest of the output; 0, or -1 on a write error */
	int (*end)(struct rq_writer *w, const struct rq_summary *sum);
	/* free what begin and the others allocated in w->priv (not w->priv itself) */
	void (*done)(struct rq_writer *w);
};

struct rq_writer {
	const struct rq_writer_ops *ops;
	FILE *f;
	struct rq_analysis *an;
	void *priv;		/* private_size bytes */
	bool subscribed;
	/* set by the caller before rq_writer_end(), for the per-file writer (jsonl) */
	const char *file;	/* its "file" key */
	const char *tripped;	/* its "tripped" array's contents ("\"missed-idle\"") */
};

/* Every writer, in the order of rqpath(1); NULL-terminated. */
extern const struct rq_writer_ops *const rq_writers[];
/* The writer called name, or NULL. */
const struct rq_writer_ops *rq_writer_find(const char *name);

/* Begin writer ops on f for an (before its first event): 0, or -1 (out of memory). */
int rq_writer_begin(struct rq_writer *w, const struct rq_writer_ops *ops, FILE *f,
		    struct rq_analysis *an);
/* After rq_analysis_finish(): write the rest and flush; 0, or -1 on a write error. */
int rq_writer_end(struct rq_writer *w);
/* Unsubscribe and free; safe on a writer never begun if it was zeroed. */
void rq_writer_free(struct rq_writer *w);

/* The writers of the table, for their own files to define. */
extern const struct rq_writer_ops rq_writer_text, rq_writer_json, rq_writer_jsonl,
	rq_writer_csv, rq_writer_html, rq_writer_perfetto, rq_writer_perfetto_raw,
	rq_writer_placements_csv, rq_writer_placements_jsonl;

#endif
