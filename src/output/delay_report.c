// SPDX-License-Identifier: GPL-2.0
/*
 * delay_report.c - the queue delay's sketches and counters as text and JSON
 * (delay_report.h), read through the engine's accessors (delay.h).
 */
#include <string.h>

#include "delay_report.h"

void rq_delay_json(FILE *f, struct rq_sketch *s)
{
	fprintf(f, "{\"n\": %llu, \"p50_ns\": %llu, \"p90_ns\": %llu, \"p99_ns\": %llu, "
		   "\"max_ns\": %llu, \"total_ns\": %llu, \"exact\": %s}",
		(unsigned long long)s->n, (unsigned long long)rq_sketch_quantile(s, 0.50),
		(unsigned long long)rq_sketch_quantile(s, 0.90),
		(unsigned long long)rq_sketch_quantile(s, 0.99), (unsigned long long)s->max,
		(unsigned long long)s->total, rq_sketch_is_exact(s) ? "true" : "false");
}

char *rq_delay_fmt(uint64_t ns, char *buf, size_t size)
{
	/* at most 8 characters up to 99999 s */
	if (ns < 1000)
		snprintf(buf, size, "%llu ns", (unsigned long long)ns);
	else if (ns < 999950)
		snprintf(buf, size, "%.1f us", (double)ns / 1e3);
	else if (ns < 999950000)
		snprintf(buf, size, "%.1f ms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.2f s", (double)ns / 1e9);
	return buf;
}

char *rq_delay_others_label(int finding, char *buf, size_t size)
{
	unsigned int kinds;

	if (finding < 0 || finding >= RQ_FIND__COUNT) {
		snprintf(buf, size, "others");
		return buf;
	}
	/* the kind it is counted out of first: "other wakeups+forks" */
	kinds = rq_finding_kinds[finding] & ~(1u << rq_finding_of[finding]);
	snprintf(buf, size, "other %s", rq_kind_plural[rq_finding_of[finding]]);
	for (int k = 0; k < RQ_KIND__COUNT; k++)
		if (kinds & (1u << k))
			snprintf(buf + strlen(buf), size - strlen(buf), "+%s", rq_kind_plural[k]);
	return buf;
}

static void text_row(FILE *f, const char *label, struct rq_sketch *s)
{
	char a[24], b[24], c[24], m[24], t[24];

	if (!s->n) {
		fprintf(f, "  %-25s %6d %8s %8s %8s %8s %8s\n", label, 0, "-", "-", "-", "-", "-");
		return;
	}
	fprintf(f, "  %-25s %6llu %8s %8s %8s %8s %8s\n", label, (unsigned long long)s->n,
		rq_delay_fmt(rq_sketch_quantile(s, 0.50), a, sizeof(a)),
		rq_delay_fmt(rq_sketch_quantile(s, 0.90), b, sizeof(b)),
		rq_delay_fmt(rq_sketch_quantile(s, 0.99), c, sizeof(c)),
		rq_delay_fmt(s->max, m, sizeof(m)), rq_delay_fmt(s->total, t, sizeof(t)));
}

void rq_delay_text(FILE *f, const struct rq_summary *sum)
{
	const struct rq_delay *d = sum->delay;
	struct rq_sketch *unflagged, *flagged;
	struct rq_delay_counts c;
	bool exact = true;

	if (!d)
		return;
	unflagged = rq_delay_all(d, false);
	flagged = rq_delay_all(d, true);
	rq_delay_counts(d, &c);
	fprintf(f, "\nQueue delay (placement until the task runs)\n");
	if (!unflagged->n && !flagged->n && !c.not_run && !c.unmeasured) {
		fprintf(f, "  (no placement)\n");
		return;
	}
	fprintf(f, "  %-25s %6s %8s %8s %8s %8s %8s\n", "", "n", "p50", "p90", "p99", "max",
		"total");
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		struct rq_sketch *s = rq_delay_path(d, p);
		char label[40];

		if (!s->n)
			continue;
		snprintf(label, sizeof(label), "%s %s", rq_kind_names[rq_paths[p].kind],
			 rq_paths[p].id);
		exact &= rq_sketch_is_exact(s);
		text_row(f, label, s);
	}
	text_row(f, "flagged (any finding)", flagged);
	text_row(f, "not flagged", unflagged);
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		struct rq_sketch *s = rq_delay_finding(d, i);
		struct rq_sketch others;
		char label[40];

		if (!s->n)
			continue;
		text_row(f, rq_finding_ids[i], s);
		if (!rq_delay_others(d, i, &others)) {
			char what[48];

			snprintf(label, sizeof(label), "  vs %s",
				 rq_delay_others_label(i, what, sizeof(what)));
			text_row(f, label, &others);
		}
		rq_sketch_free(&others);
	}
	if (c.not_run || c.unmeasured)
		fprintf(f, "  not measured: %llu did not run again inside the trace, %llu after "
			   "lost events\n", (unsigned long long)c.not_run,
			(unsigned long long)c.lost);
	if (c.late)
		fprintf(f, "    and %llu move(s) classified late (a migration/N move once what "
			   "followed\n    was known): their first run since is no longer known\n",
			(unsigned long long)c.late);
	if (c.other)
		fprintf(f, "    and %llu of a task no longer known, or out of memory\n",
			(unsigned long long)c.other);
	exact &= rq_sketch_is_exact(unflagged) && rq_sketch_is_exact(flagged);
	if (!exact)
		fprintf(f, "  (quantiles of groups over %d placements are within 1 %%)\n",
			RQ_SKETCH_EXACT);
}

void rq_delay_json_summary(FILE *f, const struct rq_summary *sum)
{
	const struct rq_delay *d = sum->delay;
	struct rq_sketch none[2] = { { 0 }, { 0 } };
	struct rq_delay_counts c = { 0 };

	if (d)
		rq_delay_counts(d, &c);
	fprintf(f, "{\"flagged\": ");
	rq_delay_json(f, d ? rq_delay_all(d, true) : &none[1]);
	fprintf(f, ", \"unflagged\": ");
	rq_delay_json(f, d ? rq_delay_all(d, false) : &none[0]);
	fprintf(f, ", \"by_kind\": {");
	for (int k = 0, first = 1; d && k < RQ_KIND__COUNT; k++) {
		const struct rq_sketch *no = rq_delay_kind(d, k, false);
		const struct rq_sketch *yes = rq_delay_kind(d, k, true);
		struct rq_sketch s = { 0 };

		if (!no->n && !yes->n)
			continue;
		if (!rq_sketch_merge(&s, no) && !rq_sketch_merge(&s, yes)) {
			fprintf(f, "%s\"%s\": ", first ? "" : ", ", rq_kind_names[k]);
			rq_delay_json(f, &s);
			first = 0;
		}
		rq_sketch_free(&s);
	}
	fprintf(f, "}, \"not_run\": %llu, \"unmeasured\": %llu, \"unmeasured_causes\": "
		   "{\"lost_events\": %llu, \"late_moves\": %llu, \"other\": %llu}}",
		(unsigned long long)c.not_run, (unsigned long long)c.unmeasured,
		(unsigned long long)c.lost, (unsigned long long)c.late,
		(unsigned long long)c.other);
}

/* ---- the audit JSON's per-path and per-finding keys (report.c) ------------------ */

void rq_report_json_path_delay(FILE *f, const struct rq_summary *sum, int path)
{
	if (!sum->delay || path < 0 || path >= RQ_PATH__COUNT)
		return;
	fprintf(f, ", \"delay\": ");
	rq_delay_json(f, rq_delay_path(sum->delay, path));
}

void rq_report_json_finding_delay(FILE *f, const struct rq_summary *sum, int finding)
{
	struct rq_sketch others;

	if (!sum->delay || finding < 0 || finding >= RQ_FIND__COUNT)
		return;
	fprintf(f, ", \"delay\": ");
	rq_delay_json(f, rq_delay_finding(sum->delay, finding));
	if (rq_delay_others(sum->delay, finding, &others)) {
		rq_sketch_free(&others);
		return;
	}
	fprintf(f, ", \"delay_others\": ");
	rq_delay_json(f, &others);
	rq_sketch_free(&others);
}
