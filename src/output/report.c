// SPDX-License-Identifier: GPL-2.0
/*
 * report.c - audit output: a text report that reads well at 80 columns and in a
 * mail, JSON with the rqpath.audit/1 schema (docs/design.md §2; a contract), and CSV.
 */
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "report.h"
#include "delay_report.h"
#include "writer.h"

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Events worth a "counts" entry: the sched and syscall events this trace defines. */
static bool count_listed(const struct rq_summary *sum, enum rq_event_type t)
{
	if (t == RQ_EV_OTHER || t == RQ_EV_MARKER || t == RQ_EV_LOST)
		return false;
	if (t == RQ_EV_WAKEUP_NEW || t == RQ_EV_MIGRATE || t == RQ_EV_EXEC)
		return true;	/* always present, 0 when the trace lacks the event */
	return sum->has_event[t] || sum->counts[t];
}

/* The kernel release comes from the file (UNAME option, marker): escaped for text. */
static const char *release_or_unknown(const struct rq_summary *sum, char *buf, size_t size)
{
	if (!sum->profile.release[0])
		return "unknown";
	return rq_escape_c(sum->profile.release, strlen(sum->profile.release), buf, size);
}

static const char *affected(bool yes)
{
	return yes ? "affected" : "fixed";
}

static const char *topology_source(const struct rq_summary *sum)
{
	return sum->llc_source == RQ_LLC_OPTION ? "option" : sum->has_topology ? "trace" : "assumed";
}

/* Sums of the per-CPU data-quality counters. */
struct quality {
	uint64_t repairs, idle_repairs, mismatches, backwards;
};

static struct quality quality_sum(const struct rq_summary *sum)
{
	struct quality q = { 0 };

	for (int c = 0; c < sum->nr_cpus; c++) {
		q.repairs += sum->cpus[c].repairs;
		q.idle_repairs += sum->cpus[c].idle_repairs;
		q.mismatches += sum->cpus[c].switch_mismatches;
		q.backwards += sum->cpus[c].clock_backwards;
	}
	return q;
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

/* What the self-check of the truth records found, and which fields it refused. */
static const char *const tchk_why[RQ_TCHK__COUNT] = {
	[RQ_TCHK_ON_RQ] = "tasks the trace saw block, not woken since, read as still on a "
			  "runqueue without delayed dequeue",
	[RQ_TCHK_CPU] = "runqueue counts the kernel keeps consistent, or the running task of "
			"the record's own CPU, differ from the trace",
	[RQ_TCHK_TASK] = "an invalid policy or CPU, or nr_cpus_allowed not the weight of the "
			 "task's mask",
};

static void json_truth_check(FILE *f, const struct rq_truth_summary *t)
{
	bool first = true;

	fputs("\"check\": {", f);
	for (int k = 0; k < RQ_TCHK__COUNT; k++)
		fprintf(f, "%s\"%s\": {\"checked\": %llu, \"contradicted\": %llu}", k ? ", " : "",
			rq_tchk_names[k], (unsigned long long)t->checked[k],
			(unsigned long long)t->contradicted[k]);
	fputs("}, \"rejected\": [", f);
	for (int k = 0; k < RQ_TCHK__COUNT; k++) {
		if (!(t->rejected & 1u << k))
			continue;
		fprintf(f, "%s{\"field\": \"%s\", \"why\": \"%s\"}", first ? "" : ", ",
			rq_tchk_names[k], tchk_why[k]);
		first = false;
	}
	fprintf(f, "], \"rejected_at_record\": %llu", (unsigned long long)t->rejected_at);
}

static void json_trace_extra(FILE *f, const struct rq_summary *sum)
{
	const struct rq_profile *pr = &sum->profile;
	struct quality q = quality_sum(sum);
	bool first = true;

	fprintf(f, ",\n    \"profile\": {\"exec_callback\": \"%s\", \"idle_stack\": \"%s\", "
		   "\"fork_util\": \"%s\", \"delay_dequeue\": %s, \"source\": ",
		affected(pr->exec_callback_unconditional), affected(pr->idle_stack_allowed),
		affected(pr->fork_util_regression), pr->delayed_dequeue ? "true" : "false");
	rq_json_string(f, pr->note, strlen(pr->note));
	fprintf(f, "},\n    \"topology\": {\"source\": \"%s\", \"llc\": [",
		topology_source(sum));
	for (int c = 0; c < sum->nr_cpus; c++)
		fprintf(f, "%s%d", c ? ", " : "", sum->cpus[c].llc);
	fprintf(f, "], \"asym_capacity\": %s, \"capacity_source\": \"%s\", \"eas_event\": ",
		sum->asym_capacity ? "true" : "false", sum->capacity_source);
	rq_json_string(f, sum->eas_event, strlen(sum->eas_event));
	fputs("},\n", f);
	fprintf(f, "    \"truth\": {\"source\": \"%s\", \"records\": %llu, \"drops\": %llu, "
		   "\"misses\": %llu, ", sum->truth_source ? sum->truth_source : "none",
		(unsigned long long)sum->truth_records, (unsigned long long)sum->truth_drops,
		(unsigned long long)sum->truth_misses);
	json_truth_check(f, &sum->truth);
	fputs("},\n", f);
	fprintf(f, "    \"data_quality\": {\"repairs\": %llu, \"idle_exits_repaired\": %llu, "
		   "\"switch_mismatches\": %llu, \"markers_ignored\": %llu, "
		   "\"mask_violations\": %llu, \"clock_backwards\": %llu, \"cpus\": [",
		(unsigned long long)q.repairs, (unsigned long long)q.idle_repairs,
		(unsigned long long)q.mismatches, (unsigned long long)sum->markers_ignored,
		(unsigned long long)sum->mask_violations, (unsigned long long)q.backwards);
	for (int c = 0; c < sum->nr_cpus; c++) {
		const struct rq_cpu_summary *cpu = &sum->cpus[c];

		if (!cpu->repairs && !cpu->switch_mismatches && !cpu->clock_backwards)
			continue;
		fprintf(f, "%s{\"cpu\": %d, \"repairs\": %llu, \"idle_exits_repaired\": %llu, "
			   "\"switch_mismatches\": %llu, \"clock_backwards\": %llu}",
			first ? "" : ", ", c, (unsigned long long)cpu->repairs,
			(unsigned long long)cpu->idle_repairs,
			(unsigned long long)cpu->switch_mismatches,
			(unsigned long long)cpu->clock_backwards);
		first = false;
	}
	fprintf(f, "], \"model_vs_truth\": {\"records\": %llu, \"used\": %llu, "
		   "\"placements\": %llu",
		(unsigned long long)sum->truth.records, (unsigned long long)sum->truth.used,
		(unsigned long long)sum->truth.placements);
	for (int k = 0; k < RQ_MVT__COUNT; k++)
		fprintf(f, ", \"%s\": {\"compared\": %llu, \"disagree\": %llu}", rq_mvt_names[k],
			(unsigned long long)sum->truth.compared[k],
			(unsigned long long)sum->truth.disagree[k]);
	fprintf(f, "}}");
}

static void json_assumptions(FILE *f, unsigned int bits)
{
	bool first = true;

	fprintf(f, "[");
	for (int a = 0; a < RQ_ASSUME__COUNT; a++)
		if (bits & (1u << a)) {
			fprintf(f, "%s\"%s\"", first ? "" : ", ", rq_assumption_names[a]);
			first = false;
		}
	fprintf(f, "]");
}

static void json_examples(FILE *f, const char *key, const struct rq_placement *ex, int n)
{
	fprintf(f, ", \"%s\": [", key);
	for (int e = 0; e < n; e++) {
		fputs(e ? ",\n      " : "\n      ", f);
		json_example(f, &ex[e]);
	}
	fprintf(f, "%s]", n ? "\n    " : "");
}

/* tripped: the --fail-on rules' names ("\"missed-idle\", ..."), NULL: no "tripped" key */
static void write_json(FILE *f, const struct rq_summary *sum, const char *tripped)
{
	bool first = true;

	fprintf(f, "{\n  \"schema\": \"rqpath.audit/1\",\n");
	if (tripped)
		fprintf(f, "  \"tripped\": [%s],\n", tripped);
	fprintf(f, "  \"trace\": {\"source\": ");
	rq_json_string(f, sum->source, strlen(sum->source));
	fprintf(f, ", \"kernel\": ");
	rq_json_string(f, sum->profile.release, strlen(sum->profile.release));
	fprintf(f, ", \"cpus\": %d, \"events\": %llu, \"lost_events\": %llu, "
		   "\"first_ts\": %.9f, \"last_ts\": %.9f, \"cut\": \"%s\"",
		sum->nr_cpus, (unsigned long long)sum->nr_events,
		(unsigned long long)sum->lost_events, secs(sum->first_ts), secs(sum->last_ts),
		sum->cut ? sum->cut : "none");
	json_trace_extra(f, sum);
	fprintf(f, "},\n");

	fprintf(f, "  \"counts\": {");
	for (int t = 0; t < RQ_EV__COUNT; t++) {
		if (!count_listed(sum, t))
			continue;
		fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", rq_event_name(t),
			(unsigned long long)sum->counts[t]);
		first = false;
	}
	fprintf(f, "},\n  \"placements\": [");
	first = true;
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		if (!sum->path_counts[p])
			continue;
		fprintf(f, "%s\n    {\"kind\": \"%s\", \"path\": \"%s\", \"count\": %llu, "
			   "\"exact\": %llu, \"inferred\": %llu, \"unknown\": %llu",
			first ? "" : ",", rq_kind_names[rq_paths[p].kind], rq_paths[p].id,
			(unsigned long long)sum->path_counts[p],
			(unsigned long long)sum->path_conf[p][RQ_CONF_EXACT],
			(unsigned long long)sum->path_conf[p][RQ_CONF_INFERRED],
			(unsigned long long)sum->path_conf[p][RQ_CONF_UNKNOWN]);
		rq_report_json_path_delay(f, sum, p);
		fputc('}', f);
		first = false;
	}
	fprintf(f, "%s],\n  \"findings\": {", first ? "" : "\n  ");
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		const struct rq_finding_store *s = &sum->findings[i];

		fprintf(f, "%s\n    \"%s\": {\"count\": %llu", i ? "," : "", rq_finding_ids[i],
			(unsigned long long)s->count);
		/* one key set for every finding: what is not this finding's is null */
		if (i == RQ_FIND_NEEDLESS_CALLBACK)
			fprintf(f, ", \"unknown\": %llu", (unsigned long long)s->unknown);
		else
			fprintf(f, ", \"unknown\": null");
		if (i == RQ_FIND_OFFCPU_FORK)
			fprintf(f, ", \"of\": %llu", (unsigned long long)s->of);
		else
			fprintf(f, ", \"of\": null");
		fprintf(f, ", \"exact\": %llu, \"inferred\": %llu, \"possible\": %llu, "
			   "\"no_selection\": %llu, \"not_judged\": %llu, \"judged\": %llu, "
			   "\"assumptions\": ",
			(unsigned long long)s->exact, (unsigned long long)s->inferred,
			(unsigned long long)s->possible, (unsigned long long)s->no_selection,
			(unsigned long long)s->not_judged, (unsigned long long)s->judged);
		json_assumptions(f, s->assumptions);
		rq_report_json_finding_delay(f, sum, i);
		json_examples(f, "examples", s->examples, s->nexamples);
		json_examples(f, "possible_examples", s->possible_examples, s->npossible);
		fprintf(f, "}");
	}
	fprintf(f, "\n  },\n  \"delay\": ");
	rq_delay_json_summary(f, sum);
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
		fputs(",,,,,,,,,\n", f);
		return;
	}
	rq_placement_describe(p, why, sizeof(why));
	fprintf(f, ",%.9f,%d,", secs(p->ts), p->pid);
	rq_csv_field(f, p->comm, strlen(p->comm));
	fprintf(f, ",%d,%d,%d,%s,", p->cpu, p->from_cpu, p->to_cpu, rq_confidence_names[p->conf]);
	rq_csv_field(f, why, strlen(why));
	fputs(",\n", f);
}

/* Data quality rows: name says what, kind says which CPU ("" for the whole trace). */
static void csv_quality(FILE *f, const struct rq_summary *sum)
{
	struct quality q = quality_sum(sum);

	csv_row(f, "quality", "repairs", "", "", q.repairs, NULL);
	csv_row(f, "quality", "idle_exits_repaired", "", "", q.idle_repairs, NULL);
	csv_row(f, "quality", "switch_mismatches", "", "", q.mismatches, NULL);
	csv_row(f, "quality", "markers_ignored", "", "", sum->markers_ignored, NULL);
	csv_row(f, "quality", "mask_violations", "", "", sum->mask_violations, NULL);
	csv_row(f, "quality", "clock_backwards", "", "", q.backwards, NULL);
	/* the kernel's state, when the trace has it: the model measured against it */
	if (sum->truth.records) {
		csv_row(f, "quality", "truth_records", "", "", sum->truth.records, NULL);
		csv_row(f, "quality", "truth_used", "", "", sum->truth.used, NULL);
		for (int k = 0; k < RQ_MVT__COUNT; k++) {
			char name[64];

			snprintf(name, sizeof(name), "model_vs_truth_%s_compared", rq_mvt_names[k]);
			csv_row(f, "quality", name, "", "", sum->truth.compared[k], NULL);
			snprintf(name, sizeof(name), "model_vs_truth_%s_disagree", rq_mvt_names[k]);
			csv_row(f, "quality", name, "", "", sum->truth.disagree[k], NULL);
		}
	}
	for (int c = 0; c < sum->nr_cpus; c++) {
		const struct rq_cpu_summary *cpu = &sum->cpus[c];
		char name[32];

		if (!cpu->repairs && !cpu->switch_mismatches && !cpu->clock_backwards)
			continue;
		snprintf(name, sizeof(name), "cpu%d", c);
		csv_row(f, "quality", "repairs", name, "", cpu->repairs, NULL);
		csv_row(f, "quality", "idle_exits_repaired", name, "", cpu->idle_repairs, NULL);
		csv_row(f, "quality", "switch_mismatches", name, "", cpu->switch_mismatches,
			NULL);
		csv_row(f, "quality", "clock_backwards", name, "", cpu->clock_backwards, NULL);
	}
}

static void write_csv(FILE *f, const struct rq_summary *sum)
{
	fputs("record,name,kind,path,count,ts,pid,comm,cpu,from_cpu,to_cpu,confidence,why,value\n",
	      f);
	/* text values of the trace go in the value column, numbers in count; every row 14 */
	fputs("trace,source,,,,,,,,,,,,", f);
	rq_csv_field(f, sum->source, strlen(sum->source));
	fputs("\ntrace,kernel,,,,,,,,,,,,", f);
	rq_csv_field(f, sum->profile.release, strlen(sum->profile.release));
	fputc('\n', f);
	csv_row(f, "trace", "events", "", "", sum->nr_events, NULL);
	csv_row(f, "trace", "lost_events", "", "", sum->lost_events, NULL);
	csv_row(f, "trace", "cpus", "", "", (unsigned long long)sum->nr_cpus, NULL);
	for (int t = 0; t < RQ_EV__COUNT; t++)
		if (count_listed(sum, t))
			csv_row(f, "count", rq_event_name(t), "", "", sum->counts[t], NULL);
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		if (!sum->path_counts[p])
			continue;
		csv_row(f, "placement", rq_paths[p].id, rq_kind_names[rq_paths[p].kind],
			rq_paths[p].id, sum->path_counts[p], NULL);
		/* confidence of the path's placements: one row each, in the count column */
		for (int c = 0; c < 3; c++) {
			char rec[32];

			snprintf(rec, sizeof(rec), "placement-%s", rq_confidence_names[c]);
			csv_row(f, rec, rq_paths[p].id, rq_kind_names[rq_paths[p].kind],
				rq_paths[p].id, sum->path_conf[p][c], NULL);
		}
	}
	csv_quality(f, sum);
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		const struct rq_finding_store *s = &sum->findings[i];

		csv_row(f, "finding", rq_finding_ids[i], "", "", s->count, NULL);
		csv_row(f, "finding-exact", rq_finding_ids[i], "", "", s->exact, NULL);
		csv_row(f, "finding-inferred", rq_finding_ids[i], "", "", s->inferred, NULL);
		csv_row(f, "finding-possible", rq_finding_ids[i], "", "", s->possible, NULL);
		if (sum->truth.records)
			csv_row(f, "finding-no-selection", rq_finding_ids[i], "", "",
				s->no_selection, NULL);
		csv_row(f, "finding-not-judged", rq_finding_ids[i], "", "", s->not_judged, NULL);
		csv_row(f, "finding-judged", rq_finding_ids[i], "", "", s->judged, NULL);
		for (int a = 0; a < RQ_ASSUME__COUNT; a++)
			if (s->assumptions & (1u << a))
				csv_row(f, "finding-assumption", rq_finding_ids[i], "",
					rq_assumption_names[a], 1, NULL);
		for (int e = 0; e < s->nexamples; e++)
			csv_row(f, "example", rq_finding_ids[i],
				rq_kind_names[rq_paths[s->examples[e].path].kind],
				rq_paths[s->examples[e].path].id, 1, &s->examples[e]);
		for (int e = 0; e < s->npossible; e++)
			csv_row(f, "possible-example", rq_finding_ids[i],
				rq_kind_names[rq_paths[s->possible_examples[e].path].kind],
				rq_paths[s->possible_examples[e].path].id, 1,
				&s->possible_examples[e]);
	}
}

/* ---- text ------------------------------------------------------------------ */

/*
 * Where the CPU capacities come from, and what the verdicts took them for: an
 * asymmetric machine (EAS, select_idle_capacity() choose busy CPUs on purpose: every
 * missed-idle is possible) or a symmetric one.
 */
static void text_capacities(FILE *f, const struct rq_summary *sum)
{
	const char *src = sum->capacity_source;
	char esc[256];

	if (!strcmp(src, "eas-events")) {
		rq_escape_c(sum->eas_event, strlen(sum->eas_event), esc, sizeof(esc));
		fprintf(f, "  capacities: not in the trace, but the kernel defines %s (energy-aware\n"
			"    scheduling): taken as asymmetric, missed-idle only possible\n", esc);
	} else if (!strcmp(src, "assumed")) {
		fputs("  capacities: not in the trace: all CPUs assumed of one capacity (symmetric,\n"
		      "    no EAS; give --topology 'capacity ...' for a big.LITTLE machine)\n", f);
	} else {
		fprintf(f, "  capacities: %s: %s\n", !strcmp(src, "option") ? "from --topology" :
			"from the trace", sum->asym_capacity ?
			"they differ (asymmetric: missed-idle only possible)" :
			"all equal (symmetric)");
	}
}

/* Say plainly which findings this trace cannot support, and why. */
static void text_limits(FILE *f, const struct rq_summary *sum)
{
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		enum rq_event_type t = sum->lacks[i];

		if (t != RQ_EV_OTHER)
			fprintf(f, "  cannot support %s: the trace has no %s events\n",
				rq_finding_ids[i], rq_event_name(t));
	}
	if (!sum->has_markers && sum->counts[RQ_EV_EXEC])
		fprintf(f, "  needless-callback needs each task's allowed CPUs: without rqpath\n"
			   "    markers only forks of known tasks carry them\n");
}

static void text_wrapped(FILE *f, const char *text, int indent, int width);

/*
 * The kernel's own state (rqpath:truth records): what it decided, the placements it shows
 * made no selection, and the tracepoint model's error rate against it.
 */
static void text_truth(FILE *f, const struct rq_summary *sum)
{
	const struct rq_truth_summary *t = &sum->truth;
	const char *sep = "";
	char line[256];

	if (t->rejected) {
		fprintf(f, "  kernel state (BPF): %llu truth record(s) REFUSED by their self-check%s:\n",
			(unsigned long long)t->records, t->rejected_at ? "" : " (from the first)");
		for (int k = 0; k < RQ_TCHK__COUNT; k++) {
			if (!(t->rejected & 1u << k))
				continue;
			snprintf(line, sizeof(line), "%s: %llu of %llu checked: %s", rq_tchk_names[k],
				 (unsigned long long)t->contradicted[k],
				 (unsigned long long)t->checked[k], tchk_why[k]);
			text_wrapped(f, line, 4, 80);
		}
		if (t->rejected_at)
			fprintf(f, "    refused from record %llu on; %llu placement(s) before that "
				   "used them\n", (unsigned long long)t->rejected_at,
				(unsigned long long)t->placements);
		else
			fputs("    no record was used: every verdict is the tracepoint model's\n", f);
	} else {
		fprintf(f, "  kernel state (BPF): %llu truth record(s), %llu placement(s) judged "
			   "from them:\n    their verdicts are exact, source bpf\n",
			(unsigned long long)t->records, (unsigned long long)t->placements);
		line[0] = '\0';
		for (int k = 0; k < RQ_TCHK__COUNT; k++) {
			size_t len = strlen(line);

			snprintf(line + len, sizeof(line) - len, "%s%s %llu of %llu",
				 k ? ", " : "self-check against the trace, contradicted: ",
				 rq_tchk_names[k], (unsigned long long)t->contradicted[k],
				 (unsigned long long)t->checked[k]);
		}
		text_wrapped(f, line, 4, 80);
	}
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		if (!sum->findings[i].no_selection)
			continue;
		fprintf(f, "%s%s %llu", *sep ? ", " : "  no selection (on a runqueue at "
			"sched_waking: ttwu_runnable()):\n    ", rq_finding_ids[i],
			(unsigned long long)sum->findings[i].no_selection);
		sep = "\n";
	}
	fputs(sep, f);
	fputs("  model vs truth (where both had an answer, wrong of compared):\n", f);
	line[0] = '\0';
	for (int k = 0; k < RQ_MVT__COUNT; k++) {
		size_t len = strlen(line);

		snprintf(line + len, sizeof(line) - len, "%s%s %llu of %llu", k ? ", " : "",
			 rq_mvt_names[k], (unsigned long long)t->disagree[k],
			 (unsigned long long)t->compared[k]);
	}
	text_wrapped(f, line, 4, 80);
}

/* The lines under the findings table: what each number rests on. */
static void text_finding_notes(FILE *f, const struct rq_summary *sum)
{
	bool possible = false;

	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		const struct rq_finding_store *s = &sum->findings[i];

		possible |= s->possible != 0;
		if (s->assumptions) {
			const char *sep = "";

			fprintf(f, "  %s: %llu inferred, resting on:\n    ", rq_finding_ids[i],
				(unsigned long long)s->inferred);
			for (int a = 0; a < RQ_ASSUME__COUNT; a++)
				if (s->assumptions & (1u << a)) {
					fprintf(f, "%s%s", sep, rq_assumption_names[a]);
					sep = ", ";
				}
			fputc('\n', f);
		}
	}
	if (sum->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown)
		fprintf(f, "  needless-callback: %llu exec(s) with unknown affinity, not counted\n",
			(unsigned long long)sum->findings[RQ_FIND_NEEDLESS_CALLBACK].unknown);
	if (!sum->profile.exec_callback_unconditional)
		fprintf(f, "  needless-callback: the profile says sched_exec() is fixed\n");
	if (!sum->profile.idle_stack_allowed)
		fprintf(f, "  idle-stacking: the profile says the kernel has the v7.1 fix "
			   "(fd54d81c2c0e): nothing counted\n");
	if (possible)
		fprintf(f, "  possible: the trace cannot prove select_task_rq() ran (a task "
			   "that\n    blocked on a CPU that never went idle since may have been "
			   "requeued,\n    still delay-dequeued, by ttwu_runnable()); never in the "
			   "count\n");
	if (sum->truth.records)
		text_truth(f, sum);
	if (sum->asym_capacity && sum->findings[RQ_FIND_MISSED_IDLE].possible)
		fprintf(f, "  missed-idle: CPUs of different capacity: EAS may choose a busy "
			   "CPU on\n    purpose, so every candidate is possible\n");
}

/* Print text at indent, broken at spaces so that no line passes width columns. */
static void text_wrapped(FILE *f, const char *text, int indent, int width)
{
	int room = width - indent;

	while (*text) {
		int n = (int)strlen(text), cut = n;

		if (n > room) {
			cut = room;
			while (cut > 0 && text[cut] != ' ')
				cut--;
			if (!cut)
				cut = room;	/* one word longer than a line */
		}
		fprintf(f, "%*s%.*s\n", indent, "", cut, text);
		text += cut;
		while (*text == ' ')
			text++;
	}
}

static void text_examples(FILE *f, const struct rq_summary *sum, int i, bool possible)
{
	const struct rq_finding_store *s = &sum->findings[i];
	int n = possible ? s->npossible : s->nexamples;

	if (!n)
		return;
	if (possible)
		fprintf(f, "\n%s, possible (not counted): first %d of %llu\n", rq_finding_ids[i],
			n, (unsigned long long)s->possible);
	else
		fprintf(f, "\n%s: first %d of %llu\n", rq_finding_ids[i], n,
			(unsigned long long)s->count);
	/* 80 columns: 52 before the path, whose id and confidence take at most 26 */
	fprintf(f, "  %-12s %7s %-16s %3s %-8s %s\n", "time (s)", "pid", "comm", "cpu",
		"from->to", "path (confidence)");
	for (int e = 0; e < n; e++) {
		const struct rq_placement *p = possible ? &s->possible_examples[e] :
							  &s->examples[e];
		char comm[80], why[512], esc[1024], move[32];

		rq_escape_c(p->comm, strlen(p->comm), comm, sizeof(comm));
		rq_placement_describe(p, why, sizeof(why));
		rq_escape_c(why, strlen(why), esc, sizeof(esc));
		snprintf(move, sizeof(move), "%d->%d", p->from_cpu, p->to_cpu);
		fprintf(f, "  %-12.6f %7d %-16s %3d %-8s %s (%s)\n", secs(p->ts), p->pid, comm,
			p->cpu, move, rq_paths[p->path].id, rq_confidence_names[p->conf]);
		text_wrapped(f, esc, 6, 80);
	}
}

/* What the model had to repair, per CPU: the trace lacked switches. */
static void text_quality(FILE *f, const struct rq_summary *sum)
{
	for (int c = 0; c < sum->nr_cpus; c++) {
		const struct rq_cpu_summary *cpu = &sum->cpus[c];

		if (cpu->clock_backwards)
			fprintf(f, "  data quality: CPU %d: its clock went backwards %llu time(s); its\n"
				   "    runqueue was forgotten there, as after lost events\n", c,
				(unsigned long long)cpu->clock_backwards);
		if (!cpu->repairs && !cpu->switch_mismatches)
			continue;
		fprintf(f, "  data quality: CPU %d: ", c);
		if (cpu->idle_repairs)
			fprintf(f, "%llu switch(es) out of idle missing,\n    repaired from "
				   "record owners\n", (unsigned long long)cpu->idle_repairs);
		if (cpu->repairs > cpu->idle_repairs)
			fprintf(f, "%s%llu other switch(es) missing, repaired from record "
				   "owners\n", cpu->idle_repairs ? "    " : "",
				(unsigned long long)(cpu->repairs - cpu->idle_repairs));
		if (cpu->switch_mismatches)
			fprintf(f, "%s%llu switch(es) whose prev was not the running task\n",
				cpu->repairs ? "    " : "",
				(unsigned long long)cpu->switch_mismatches);
	}
	if (sum->markers_ignored)
		fprintf(f, "  data quality: %llu marker line(s) not written by the recorder: "
			   "ignored\n", (unsigned long long)sum->markers_ignored);
	if (sum->mask_violations)
		fprintf(f, "  data quality: %llu task(s) ran outside their marked CPUs: those "
			   "masks dropped\n", (unsigned long long)sum->mask_violations);
}

static void write_text(FILE *f, const struct rq_summary *sum)
{
	char src[1024], rel[512];
	uint64_t total = sum->nr_placements ? sum->nr_placements : 1;

	rq_escape_c(sum->source, strlen(sum->source), src, sizeof(src));
	fprintf(f, "rqpath audit of %s\n", src);
	/* the tracepoint events, and the kernel-truth records apart (as record counts them) */
	fprintf(f, "  kernel %s, %d CPUs, %llu events", release_or_unknown(sum, rel, sizeof(rel)),
		sum->nr_cpus, (unsigned long long)(sum->nr_events - sum->truth_records));
	if (sum->truth_records)
		fprintf(f, " (+%llu truth records)", (unsigned long long)sum->truth_records);
	fprintf(f, ", %llu lost, %.3f s traced\n", (unsigned long long)sum->lost_events,
		sum->last_ts > sum->first_ts ? secs(sum->last_ts - sum->first_ts) : 0.0);
	if (sum->cut)
		fprintf(f, "  CUT: the recording %s; what came after is not in it\n",
			!strcmp(sum->cut, "disk-full") ? "stopped early, the disk was full" :
			"was never finished (its recorder was killed)");
	if (sum->nr_filtered)
		fprintf(f, "  filtered: %llu of the trace's %llu placements left out (-p, --comm, -C,"
			" --from, --to)\n", (unsigned long long)sum->nr_filtered,
			(unsigned long long)(sum->nr_filtered + sum->nr_placements));
	fprintf(f, "  profile: exec-callback %s, idle-stack %s, fork-util %s,\n"
		   "    delay-dequeue %s (%s)\n",
		affected(sum->profile.exec_callback_unconditional),
		affected(sum->profile.idle_stack_allowed),
		affected(sum->profile.fork_util_regression),
		sum->profile.delayed_dequeue ? "on" : "off", sum->profile.note);
	fprintf(f, "  attributes: %s\n", sum->has_markers ?
		"rqpath markers (affinity, policy) + fork/syscall events" :
		"no rqpath markers: affinity/policy from fork and syscall events");
	fprintf(f, "  topology: %s%s\n",
		sum->llc_source == RQ_LLC_OPTION ? "from --topology" :
		sum->llc_source == RQ_LLC_CACHE ? "LLC groups from sysfs cache information" :
		sum->llc_source == RQ_LLC_PACKAGE ? "LLC taken as the package (no cache info)" :
		"not in the trace: all CPUs assumed to share one LLC",
		sum->asym_capacity && strcmp(sum->capacity_source, "eas-events") ?
		"; CPU capacities differ (EAS possible)" : "");
	text_capacities(f, sum);
	text_quality(f, sum);
	text_limits(f, sum);

	fprintf(f, "\nEvents%*s\n", 34, "count");
	for (int t = 0; t < RQ_EV__COUNT; t++)
		if (count_listed(sum, t))
			fprintf(f, "  %-30s %9llu\n", rq_event_name(t),
				(unsigned long long)sum->counts[t]);

	fprintf(f, "\nPlacements%*s  %6s  %s\n", 30, "count", "share", "kernel function");
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		char label[40];

		if (!sum->path_counts[p])
			continue;
		snprintf(label, sizeof(label), "%s %s", rq_kind_names[rq_paths[p].kind],
			 rq_paths[p].id);
		fprintf(f, "  %-28s %9llu  %5.1f%%  %s\n", label,
			(unsigned long long)sum->path_counts[p],
			100.0 * (double)sum->path_counts[p] / (double)total, rq_paths[p].kernel_fn);
	}
	if (!sum->nr_placements)
		fprintf(f, "  (none: the trace has no placement events)\n");
	fprintf(f, "  confidence: %llu exact, %llu inferred, %llu unknown\n",
		(unsigned long long)sum->conf_counts[RQ_CONF_EXACT],
		(unsigned long long)sum->conf_counts[RQ_CONF_INFERRED],
		(unsigned long long)sum->conf_counts[RQ_CONF_UNKNOWN]);

	/* count = exact + inferred: proven; possible and not judged are apart */
	fprintf(f, "\nFindings                 count   exact inferred possible not judged  "
		   "judged\n");
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		const struct rq_finding_store *s = &sum->findings[i];
		char count[24];

		if (rq_finding_not_judged(s))
			snprintf(count, sizeof(count), "not judged");
		else
			snprintf(count, sizeof(count), "%llu", (unsigned long long)s->count);
		fprintf(f, "  %-20s %10s %7llu %8llu %8llu %10llu %7llu\n", rq_finding_ids[i],
			count, (unsigned long long)s->exact, (unsigned long long)s->inferred,
			(unsigned long long)s->possible, (unsigned long long)s->not_judged,
			(unsigned long long)s->judged);
	}
	text_finding_notes(f, sum);
	rq_delay_text(f, sum);
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		text_examples(f, sum, i, false);
		text_examples(f, sum, i, true);
	}
}

/* ---- the writers (writer.h) ------------------------------------------------------ */

static int text_end(struct rq_writer *w, const struct rq_summary *sum)
{
	write_text(w->f, sum);
	return 0;
}

static int json_end(struct rq_writer *w, const struct rq_summary *sum)
{
	write_json(w->f, sum, w->tripped ? w->tripped : "");
	return 0;
}

static int csv_end(struct rq_writer *w, const struct rq_summary *sum)
{
	write_csv(w->f, sum);
	return 0;
}

/*
 * jsonl: the JSON object on one line, with "file" and "tripped" first (a raw newline of
 * write_json() only ever stands between tokens).
 */
static int jsonl_end(struct rq_writer *w, const struct rq_summary *sum)
{
	char *json = NULL;
	size_t len = 0, i = 0;
	FILE *mem = open_memstream(&json, &len), *out = w->f;
	const char *file = w->file ? w->file : sum->source;

	if (!mem)
		return -1;
	write_json(mem, sum, NULL);
	if (fclose(mem)) {
		free(json);
		return -1;
	}
	while (i < len && json[i] != '{')
		i++;
	fputs("{\"file\": ", out);
	rq_json_string(out, file, strlen(file));
	fprintf(out, ", \"tripped\": [%s],", w->tripped ? w->tripped : "");
	for (i++; i < len; i++) {
		if (json[i] == '\n') {
			while (i + 1 < len && json[i + 1] == ' ')
				i++;
			/* a space between tokens, none before a closing bracket or at the end */
			if (i + 1 < len && json[i + 1] != '}' && json[i + 1] != ']')
				fputc(' ', out);
			continue;
		}
		fputc(json[i], out);
	}
	fputc('\n', out);
	free(json);
	return 0;
}

const struct rq_writer_ops rq_writer_text = { .name = "text", .end = text_end };
const struct rq_writer_ops rq_writer_json = { .name = "json", .end = json_end };
const struct rq_writer_ops rq_writer_jsonl = {
	.name = "jsonl", .flags = RQ_WRITER_PER_FILE, .end = jsonl_end,
};
const struct rq_writer_ops rq_writer_csv = { .name = "csv", .end = csv_end };

int rq_report_write(FILE *f, const struct rq_analysis *an, enum rq_format fmt)
{
	const struct rq_summary *sum = rq_analysis_summary(an);

	switch (fmt) {
	case RQ_FMT_JSON: write_json(f, sum, ""); break;
	case RQ_FMT_CSV: write_csv(f, sum); break;
	default: write_text(f, sum); break;
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}
