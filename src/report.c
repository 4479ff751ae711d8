// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - audit output: a text report that reads well at 80 columns and in a
 * mail, JSON with the rqpath.audit/1 schema (docs/design.md §2; a contract), and CSV.
 */
#include <string.h>

#include "escape.h"
#include "report.h"
#include "delay.h"

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Events worth a "counts" entry: the sched and syscall events this trace defines. */
static bool count_listed(const struct rq_analysis *an, enum rq_event_type t)
{
	if (t == RQ_EV_OTHER || t == RQ_EV_MARKER || t == RQ_EV_LOST)
		return false;
	if (t == RQ_EV_WAKEUP_NEW || t == RQ_EV_MIGRATE || t == RQ_EV_EXEC)
		return true;	/* always present, 0 when the trace lacks the event */
	return an->has_event[t] || an->counts[t];
}

/* The kernel release comes from the file (UNAME option, marker): escaped for text. */
static const char *release_or_unknown(const struct rq_analysis *an, char *buf, size_t size)
{
	if (!an->profile.release[0])
		return "unknown";
	return rq_escape_c(an->profile.release, strlen(an->profile.release), buf, size);
}

static const char *affected(bool yes)
{
	return yes ? "affected" : "fixed";
}

/* ---- JSON ---------------------------------------------------------------- */

static void json_example(FILE *f, const struct rq_placement *p)
{
	char why[512];

	rq_placement_describe(p, why, sizeof(why));
	fprintf(f, "{\"ts\": %.9f, \"pid\": %d, \"comm\": ", secs(p->ts), p->pid);
	rq_json_string(f, p->comm, strlen(p->comm));
	fprintf(f, ", \"cpu\": %d, \"from_cpu\": %d, \"to_cpu\": %d, \"path\": \"%s\", "
		   "\"confidence\": \"%s\", \"why\": ", p->cpu, p->from_cpu, p->to_cpu,
		rq_paths[p->path].id, rq_confidence_names[p->conf]);
	rq_json_string(f, why, strlen(why));
	fputc('}', f);
}

static void write_json(FILE *f, const struct rq_analysis *an)
{
	bool first = true;

	fprintf(f, "{\n  \"schema\": \"rqpath.audit/1\",\n  \"trace\": {\"source\": ");
	rq_json_string(f, an->source, strlen(an->source));
	fprintf(f, ", \"kernel\": ");
	rq_json_string(f, an->profile.release, strlen(an->profile.release));
	fprintf(f, ", \"cpus\": %d, \"events\": %llu, \"lost_events\": %llu, "
		   "\"first_ts\": %.9f, \"last_ts\": %.9f},\n",
		an->nr_cpus, (unsigned long long)an->nr_events,
		(unsigned long long)an->lost_events, secs(an->first_ts), secs(an->last_ts));

	fprintf(f, "  \"counts\": {");
	for (int t = 0; t < RQ_EV__COUNT; t++) {
		if (!count_listed(an, t))
			continue;
		fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", rq_event_name(t),
			(unsigned long long)an->counts[t]);
		first = false;
	}
	fprintf(f, "},\n  \"placements\": [");
	first = true;
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		if (!an->path_counts[p])
			continue;
		fprintf(f, "%s\n    {\"kind\": \"%s\", \"path\": \"%s\", \"count\": %llu",
			first ? "" : ",", rq_kind_names[rq_paths[p].kind], rq_paths[p].id,
			(unsigned long long)an->path_counts[p]);
		rq_report_json_path_delay(f, an, p);
		fputc('}', f);
		first = false;
	}
	fprintf(f, "%s],\n  \"findings\": {", first ? "" : "\n  ");
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		const struct rq_finding_store *s = &an->findings[i];

		fprintf(f, "%s\n    \"%s\": {\"count\": %llu", i ? "," : "", rq_finding_ids[i],
			(unsigned long long)s->count);
		if (i == RQ_FIND_NEEDLESS_CALLBACK)
			fprintf(f, ", \"unknown\": %llu", (unsigned long long)s->unknown);
		if (i == RQ_FIND_OFFCPU_FORK)
			fprintf(f, ", \"of\": %llu", (unsigned long long)s->of);
		rq_report_json_finding_delay(f, an, i);
		fprintf(f, ", \"examples\": [");
		for (int e = 0; e < s->nexamples; e++) {
			fputs(e ? ",\n      " : "\n      ", f);
			json_example(f, &s->examples[e]);
		}
		fprintf(f, "%s]}", s->nexamples ? "\n    " : "");
	}
	fprintf(f, "\n  },\n  \"delay\": ");
	rq_delay_json_summary(f, an);
	fprintf(f, "\n}\n");
}

/* ---- CSV: one table, the first column says what a row is ------------------- */

static void csv_row(FILE *f, const char *record, const char *name, const char *kind,
		    const char *path, unsigned long long count, const struct rq_placement *p)
{
	char why[512];

	fprintf(f, "%s,", record);
	rq_csv_field(f, name, strlen(name));
	fprintf(f, ",%s,%s,%llu", kind, path, count);
	if (!p) {
		fputs(",,,,,,,,\n", f);
		return;
	}
	rq_placement_describe(p, why, sizeof(why));
	fprintf(f, ",%.9f,%d,", secs(p->ts), p->pid);
	rq_csv_field(f, p->comm, strlen(p->comm));
	fprintf(f, ",%d,%d,%d,%s,", p->cpu, p->from_cpu, p->to_cpu, rq_confidence_names[p->conf]);
	rq_csv_field(f, why, strlen(why));
	fputc('\n', f);
}

static void write_csv(FILE *f, const struct rq_analysis *an)
{
	fputs("record,name,kind,path,count,ts,pid,comm,cpu,from_cpu,to_cpu,confidence,why\n", f);
	/* text values of the trace go in the last column, numbers in count */
	fputs("trace,source,,,,,,,,,,,", f);
	rq_csv_field(f, an->source, strlen(an->source));
	fputs("\ntrace,kernel,,,,,,,,,,,", f);
	rq_csv_field(f, an->profile.release, strlen(an->profile.release));
	fputc('\n', f);
	csv_row(f, "trace", "events", "", "", an->nr_events, NULL);
	csv_row(f, "trace", "lost_events", "", "", an->lost_events, NULL);
	csv_row(f, "trace", "cpus", "", "", (unsigned long long)an->nr_cpus, NULL);
	for (int t = 0; t < RQ_EV__COUNT; t++)
		if (count_listed(an, t))
			csv_row(f, "count", rq_event_name(t), "", "", an->counts[t], NULL);
	for (int p = 0; p < RQ_PATH__COUNT; p++)
		if (an->path_counts[p])
			csv_row(f, "placement", rq_paths[p].id, rq_kind_names[rq_paths[p].kind],
				rq_paths[p].id, an->path_counts[p], NULL);
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		const struct rq_finding_store *s = &an->findings[i];

		csv_row(f, "finding", rq_finding_ids[i], "", "", s->count, NULL);
		for (int e = 0; e < s->nexamples; e++)
			csv_row(f, "example", rq_finding_ids[i],
				rq_kind_names[rq_paths[s->examples[e].path].kind],
				rq_paths[s->examples[e].path].id, 1, &s->examples[e]);
	}
}

/* ---- text ------------------------------------------------------------------ */

/* Say plainly which findings this trace cannot support, and why. */
static void text_limits(FILE *f, const struct rq_analysis *an)
{
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		enum rq_event_type t = rq_finding_lacks(i, an->counts);

		if (t != RQ_EV_OTHER)
			fprintf(f, "  cannot support %s: the trace has no %s events\n",
				rq_finding_ids[i], rq_event_name(t));
	}
	if (!an->has_markers && an->counts[RQ_EV_EXEC])
		fprintf(f, "  needless-callback needs each task's allowed CPUs: without rqpath "
			   "markers only forks of known tasks carry them\n");
}

static void text_finding_note(FILE *f, const struct rq_analysis *an, int i)
{
	const struct rq_finding_store *s = &an->findings[i];

	switch (i) {
	case RQ_FIND_NEEDLESS_CALLBACK:
		if (s->unknown)
			fprintf(f, "  %llu exec(s) with unknown affinity, not counted",
				(unsigned long long)s->unknown);
		else if (!an->profile.exec_callback_unconditional)
			fprintf(f, "  kernel profile says sched_exec() is fixed");
		break;
	case RQ_FIND_OFFCPU_FORK:
		fprintf(f, "  of %llu fork(s)", (unsigned long long)s->of);
		break;
	default:
		if (an->findings[i].not_judged)
			fprintf(f, "  %llu placement(s) not judged: policy, affinity or CPU "
				   "state unknown", (unsigned long long)an->findings[i].not_judged);
		break;
	}
	fputc('\n', f);
}

static void text_examples(FILE *f, const struct rq_analysis *an, int i)
{
	const struct rq_finding_store *s = &an->findings[i];

	if (!s->nexamples)
		return;
	fprintf(f, "\n%s: first %d of %llu\n", rq_finding_ids[i], s->nexamples,
		(unsigned long long)s->count);
	fprintf(f, "  %-14s %7s %-16s %5s  %-14s %s\n", "time (s)", "pid", "comm", "cpu",
		"from->to", "path");
	for (int e = 0; e < s->nexamples; e++) {
		const struct rq_placement *p = &s->examples[e];
		char comm[80], why[512], esc[1024], move[32];

		rq_escape_c(p->comm, strlen(p->comm), comm, sizeof(comm));
		rq_placement_describe(p, why, sizeof(why));
		rq_escape_c(why, strlen(why), esc, sizeof(esc));
		snprintf(move, sizeof(move), "%d->%d", p->from_cpu, p->to_cpu);
		fprintf(f, "  %-14.6f %7d %-16s %5d  %-14s %s (%s)\n", secs(p->ts), p->pid, comm,
			p->cpu, move, rq_paths[p->path].id, rq_confidence_names[p->conf]);
		fprintf(f, "      %s\n", esc);
	}
}

static void write_text(FILE *f, const struct rq_analysis *an)
{
	char src[1024], rel[512];
	uint64_t total = an->nr_placements ? an->nr_placements : 1;

	rq_escape_c(an->source, strlen(an->source), src, sizeof(src));
	fprintf(f, "rqpath audit of %s\n", src);
	fprintf(f, "  kernel %s, %d CPUs, %llu events, %llu lost, %.3f s traced\n",
		release_or_unknown(an, rel, sizeof(rel)), an->nr_cpus, (unsigned long long)an->nr_events,
		(unsigned long long)an->lost_events,
		an->last_ts > an->first_ts ? secs(an->last_ts - an->first_ts) : 0.0);
	fprintf(f, "  profile: exec-callback %s, idle-stack %s, fork-util %s (%s)\n",
		affected(an->profile.exec_callback_unconditional),
		affected(an->profile.idle_stack_allowed),
		affected(an->profile.fork_util_regression), an->profile.note);
	fprintf(f, "  attributes: %s\n", an->has_markers ?
		"rqpath markers (affinity and policy snapshot) + fork/syscall events" :
		"no rqpath markers: affinity/policy only from fork and syscall events");
	fprintf(f, "  topology: %s\n",
		an->llc_source == RQ_LLC_CACHE ? "LLC groups from sysfs cache information" :
		an->llc_source == RQ_LLC_PACKAGE ? "LLC taken as the package (no cache info)" :
		"not in the trace: all CPUs assumed to share one LLC");
	text_limits(f, an);

	fprintf(f, "\nEvents%*s\n", 34, "count");
	for (int t = 0; t < RQ_EV__COUNT; t++)
		if (count_listed(an, t))
			fprintf(f, "  %-30s %9llu\n", rq_event_name(t),
				(unsigned long long)an->counts[t]);

	fprintf(f, "\nPlacements%*s  %6s  %s\n", 30, "count", "share", "kernel function");
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		char label[40];

		if (!an->path_counts[p])
			continue;
		snprintf(label, sizeof(label), "%s %s", rq_kind_names[rq_paths[p].kind],
			 rq_paths[p].id);
		fprintf(f, "  %-28s %9llu  %5.1f%%  %s\n", label,
			(unsigned long long)an->path_counts[p],
			100.0 * (double)an->path_counts[p] / (double)total, rq_paths[p].kernel_fn);
	}
	if (!an->nr_placements)
		fprintf(f, "  (none: the trace has no placement events)\n");
	fprintf(f, "  confidence: %llu exact, %llu inferred, %llu unknown\n",
		(unsigned long long)an->conf_counts[RQ_CONF_EXACT],
		(unsigned long long)an->conf_counts[RQ_CONF_INFERRED],
		(unsigned long long)an->conf_counts[RQ_CONF_UNKNOWN]);

	fprintf(f, "\nFindings%*s\n", 32, "count");
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		fprintf(f, "  %-30s %9llu", rq_finding_ids[i],
			(unsigned long long)an->findings[i].count);
		text_finding_note(f, an, i);
	}
	rq_delay_text(f, an);
	for (int i = 0; i < RQ_FIND__COUNT; i++)
		text_examples(f, an, i);
}

int rq_report_write(FILE *f, const struct rq_analysis *an, enum rq_format fmt)
{
	switch (fmt) {
	case RQ_FMT_JSON: write_json(f, an); break;
	case RQ_FMT_CSV: write_csv(f, an); break;
	default: write_text(f, an); break;
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}
