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
		   "delay_ns,findings,possible,why,no_selection,truth,parent\n"

static int tgid_of(const struct rq_analysis *an, int pid)
{
	struct rq_task_info t;

	return rq_task_info_get(an, pid, &t) ? t.tgid : 0;
}

/*
 * A fork's parent: the model's (the sched_process_fork record), else the writer of the
 * sched_wakeup_new (wake_up_new_task() runs in the parent); -1 for the other kinds.
 */
static int parent_of(const struct rq_analysis *an, const struct rq_placement *p)
{
	struct rq_task_info t;

	if (rq_paths[p->path].kind != RQ_KIND_FORK)
		return -1;
	if (rq_task_info_get(an, p->pid, &t) && t.ppid > 0)
		return t.ppid;
	return p->writer_pid;
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

static const char *const tcpu_ids[] = {
	[RQ_TCPU_UNKNOWN] = "unknown", [RQ_TCPU_IDLE] = "idle", [RQ_TCPU_BUSY] = "busy",
	[RQ_TCPU_IDLE_ONLY] = "idle-only", [RQ_TCPU_NONE] = "none",
};

static const char *tcpu_id(int s)
{
	return s >= 0 && s <= RQ_TCPU_NONE ? tcpu_ids[s] : "unknown";
}

/* Which facts came from the kernel's state (RQ_PT_*), as ids joined with sep. */
static void truth_from(const struct rq_placement *p, char *buf, size_t size, const char *sep,
		       const char *quote)
{
	static const struct { unsigned int bit; const char *id; } from[] = {
		{ RQ_PT_SELECTION, "selection" }, { RQ_PT_CPUS, "cpu_state" },
		{ RQ_PT_POLICY, "policy" }, { RQ_PT_MASK, "mask" },
	};
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(from) / sizeof(from[0]); i++)
		if (p->truth & from[i].bit && len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s%s%s", len ? sep : "",
						quote, from[i].id, quote);
}

/*
 * The kernel's state the placement's verdicts used (a rqpath:truth record), for the
 * scorer of the tracepoint model (tests/tools/truth_score.py): CSV "k=v;..." or a JSON
 * object; empty / null when the trace had none for it (or --no-truth).
 */
static void write_truth(FILE *f, const struct rq_placement *p, bool json)
{
	char from[96];

	if (!(p->truth & RQ_PT_RECORD)) {
		if (json)
			fputs("null", f);
		return;
	}
	truth_from(p, from, sizeof(from), json ? ", " : "+", json ? "\"" : "");
	if (json)
		fprintf(f, "{\"on_rq\": %s, \"delayed\": %s, \"policy\": %u, "
			   "\"nr_cpus_allowed\": %u, \"one_cpu\": %s, \"to_cpu_state\": \"%s\", "
			   "\"from\": [%s]}", p->truth & RQ_PT_ON_RQ ? "true" : "false",
			p->truth & RQ_PT_DELAYED ? "true" : "false", p->truth_policy,
			p->truth_allowed, p->truth & RQ_PT_ONE_CPU ? "true" : "false",
			tcpu_id(p->truth_x), from);
	else
		fprintf(f, "on_rq=%d;delayed=%d;policy=%u;nr_cpus_allowed=%u;one_cpu=%d;"
			   "to_cpu_state=%s;from=%s", !!(p->truth & RQ_PT_ON_RQ),
			!!(p->truth & RQ_PT_DELAYED), p->truth_policy, p->truth_allowed,
			!!(p->truth & RQ_PT_ONE_CPU), tcpu_id(p->truth_x), from);
}

static void write_row(struct rq_writer *w, const struct rq_placement *p)
{
	struct rq_placements_out *out = w->priv;
	int64_t delay = p->delay_ns;
	FILE *f = w->f;
	char why[512], fl[128], pl[128], nl[128];

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
		findings_list(p->no_selection, nl, sizeof(nl), ";", "");
		fprintf(f, ",%s,", nl);
		write_truth(f, p, false);
		if (parent_of(w->an, p) >= 0)
			fprintf(f, ",%d", parent_of(w->an, p));
		else
			fputc(',', f);
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
	findings_list(p->no_selection, nl, sizeof(nl), ", ", "\"");
	fprintf(f, ", \"findings\": [%s], \"possible\": [%s], \"no_selection\": [%s], "
		   "\"why\": ", fl, pl, nl);
	rq_json_string(f, why, strlen(why));
	fputs(", \"truth\": ", f);
	write_truth(f, p, true);
	/* "waker" stays (the record's writer, the parent for a fork): "parent" names it */
	if (parent_of(w->an, p) >= 0)
		fprintf(f, ", \"parent\": %d}\n", parent_of(w->an, p));
	else
		fputs(", \"parent\": null}\n", f);
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
