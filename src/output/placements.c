// SPDX-License-Identifier: GPL-2.0
/*
 * placements.c - the placements export (placements.h).  A row is written when the
 * placement's queue delay is known, so rows come in the order the tasks ran; seq gives
 * the order the placements were made.  Strings go through escape.c like the reports.
 */
#include <string.h>

#include "delay.h"
#include "escape.h"
#include "placements.h"
#include "writer.h"

#define CSV_HEADER "seq,ts,cpu,pid,tgid,comm,kind,path,confidence,from_cpu,to_cpu,waker," \
		   "delay_ns,findings,possible,why\n"

static int tgid_of(const struct rq_analysis *an, int pid)
{
	struct rq_task_info t;

	return rq_task_info_get(an, pid, &t) ? t.tgid : 0;
}

/* The finding ids of the bits set in which (1 << enum rq_finding), joined with sep. */
static void findings_list(unsigned int which, char *buf, size_t size, const char *sep,
			  const char *quote)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		if (!(which & (1u << f)))
			continue;
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s%s%s%s",
					len ? sep : "", quote, rq_finding_ids[f], quote);
		if (len >= size)
			break;
	}
}

static void write_row(struct rq_writer *w, const struct rq_placement *p)
{
	struct rq_placements_out *out = w->priv;
	int64_t delay = p->delay_ns;
	FILE *f = w->f;
	char why[512], fl[128], pl[128];

	rq_placement_describe(p, why, sizeof(why));
	out->rows++;
	if (out->fmt == RQ_PLACEMENTS_CSV) {
		fprintf(f, "%llu,%.9f,%d,%d,%d,", (unsigned long long)p->seq, (double)p->ts / 1e9,
			p->cpu, p->pid, tgid_of(w->an, p->pid));
		rq_csv_field(f, p->comm, strnlen(p->comm, sizeof(p->comm)));
		fprintf(f, ",%s,%s,%s,%d,%d,%d,", rq_kind_names[rq_paths[p->path].kind],
			rq_paths[p->path].id, rq_confidence_names[p->conf], p->from_cpu,
			p->to_cpu, p->writer_pid);
		if (delay >= 0)
			fprintf(f, "%lld", (long long)delay);
		findings_list(p->findings, fl, sizeof(fl), ";", "");
		findings_list(p->possible, pl, sizeof(pl), ";", "");
		fprintf(f, ",%s,%s,", fl, pl);
		rq_csv_field(f, why, strlen(why));
		fputc('\n', f);
		return;
	}
	fprintf(f, "{\"seq\": %llu, \"ts\": %.9f, \"cpu\": %d, \"pid\": %d, \"tgid\": %d, "
		   "\"comm\": ", (unsigned long long)p->seq, (double)p->ts / 1e9, p->cpu, p->pid,
		tgid_of(w->an, p->pid));
	rq_json_string(f, p->comm, strnlen(p->comm, sizeof(p->comm)));
	fprintf(f, ", \"kind\": \"%s\", \"path\": \"%s\", \"confidence\": \"%s\", "
		   "\"from_cpu\": %d, \"to_cpu\": %d, \"waker\": %d, \"delay_ns\": ",
		rq_kind_names[rq_paths[p->path].kind], rq_paths[p->path].id,
		rq_confidence_names[p->conf], p->from_cpu, p->to_cpu, p->writer_pid);
	if (delay >= 0)
		fprintf(f, "%lld", (long long)delay);
	else
		fputs("null", f);
	findings_list(p->findings, fl, sizeof(fl), ", ", "\"");
	findings_list(p->possible, pl, sizeof(pl), ", ", "\"");
	fprintf(f, ", \"findings\": [%s], \"possible\": [%s], \"why\": ", fl, pl);
	rq_json_string(f, why, strlen(why));
	fputs("}\n", f);
}

static int begin(struct rq_writer *w, enum rq_placements_format fmt)
{
	struct rq_placements_out *out = w->priv;

	out->fmt = fmt;
	if (fmt == RQ_PLACEMENTS_CSV)
		fputs(CSV_HEADER, w->f);
	return 0;
}

static int begin_csv(struct rq_writer *w)
{
	return begin(w, RQ_PLACEMENTS_CSV);
}

static int begin_jsonl(struct rq_writer *w)
{
	return begin(w, RQ_PLACEMENTS_JSONL);
}

const struct rq_writer_ops rq_writer_placements_csv = {
	.name = "placements-csv",
	.flags = RQ_WRITER_STREAM | RQ_WRITER_PLACEMENTS,
	.private_size = sizeof(struct rq_placements_out),
	.begin = begin_csv,
	.placement = write_row,
};

const struct rq_writer_ops rq_writer_placements_jsonl = {
	.name = "placements-jsonl",
	.flags = RQ_WRITER_STREAM | RQ_WRITER_PLACEMENTS,
	.private_size = sizeof(struct rq_placements_out),
	.begin = begin_jsonl,
	.placement = write_row,
};
