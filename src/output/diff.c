// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - compare BASE and NEW audits (diff.h).
 *
 * Placements and findings are counted per placement (a kind's share, a finding per 1000
 * placements), so traces of different lengths compare; the rates per second of trace
 * (last minus first timestamp) are rows too, shown instead with per_second.  A row's
 * verdict (diff.h): "unchanged" when every run of both sides has the same value, "n/a"
 * when a side has no value (no delay samples); with RQ_DIFF_MIN_RUNS runs or more a side
 * the Mann-Whitney rank test (mannwhitney.c) says "changed" (p <= alpha) or "within
 * noise"; with fewer there is no noise estimate, and a difference is only that: "N runs:
 * no noise estimate", never "changed".
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <bsd/string.h>

#include "delay_report.h"
#include "diff.h"
#include "escape.h"
#include "mannwhitney.h"

const char *const rq_diff_verdict_names[6] = { "unchanged", "within noise", "changed", "n/a",
					       "too few", "no noise estimate" };
const char *const rq_diff_test_names[4] = { NULL, "one run", "mann-whitney exact",
					    "mann-whitney normal" };

void rq_diff_run_from(struct rq_diff_run *r, struct rq_analysis *an)
{
	const struct rq_summary *sum = rq_analysis_summary(an);
	struct rq_delay *d = sum->delay;

	memset(r, 0, sizeof(*r));
	strlcpy(r->source, sum->source, sizeof(r->source));
	strlcpy(r->kernel, sum->profile.release, sizeof(r->kernel));
	r->cpus = sum->nr_cpus;
	r->duration_s = sum->last_ts > sum->first_ts ? (double)(sum->last_ts - sum->first_ts) / 1e9 :
						     0.0;
	r->events = sum->nr_events;
	r->lost_events = sum->lost_events;
	r->placements = sum->nr_placements;
	r->truth_records = sum->truth.records;
	memcpy(r->path_counts, sum->path_counts, sizeof(r->path_counts));
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		r->f_count[f] = sum->findings[f].count;
		r->f_possible[f] = sum->findings[f].possible;
		r->f_no_selection[f] = sum->findings[f].no_selection;
		r->f_inferred[f] = sum->findings[f].inferred;
		r->f_not_judged[f] = sum->findings[f].not_judged;
		r->f_judged[f] = sum->findings[f].judged;
		r->f_unjudged[f] = rq_finding_not_judged(&sum->findings[f]);
		if (!d)
			continue;
		r->f_delay_n[f] = rq_delay_finding(d, f)->n;
		r->f_delay_p50[f] = rq_sketch_quantile(rq_delay_finding(d, f), 0.50);
		r->f_delay_p99[f] = rq_sketch_quantile(rq_delay_finding(d, f), 0.99);
	}
	for (int i = 0; d && i < 2; i++) {
		r->all_delay_n[i] = rq_delay_all(d, i)->n;
		r->all_delay_p50[i] = rq_sketch_quantile(rq_delay_all(d, i), 0.50);
		r->all_delay_p99[i] = rq_sketch_quantile(rq_delay_all(d, i), 0.99);
	}
	for (int k = 0; d && k < RQ_KIND__COUNT; k++) {
		struct rq_sketch s = { 0 };

		/* a kind's placements, flagged or not (on failure: no samples, n/a) */
		if (!rq_sketch_merge(&s, rq_delay_kind(d, k, false)) &&
		    !rq_sketch_merge(&s, rq_delay_kind(d, k, true))) {
			r->kind_delay_n[k] = s.n;
			r->kind_delay_p50[k] = rq_sketch_quantile(&s, 0.50);
			r->kind_delay_p99[k] = rq_sketch_quantile(&s, 0.99);
		}
		rq_sketch_free(&s);
	}
}

/* ---- rows ------------------------------------------------------------------- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int stat_fill(struct rq_diff_stat *s, const double *v, int n)
{
	double *sorted;

	s->values = malloc((size_t)(n ? n : 1) * sizeof(double));
	sorted = malloc((size_t)(n ? n : 1) * sizeof(double));
	if (!s->values || !sorted) {
		free(sorted);
		return -1;
	}
	s->n = 0;
	for (int i = 0; i < n; i++) {
		s->values[i] = v[i];
		if (!isnan(v[i]))
			sorted[s->n++] = v[i];
	}
	qsort(sorted, (size_t)s->n, sizeof(double), cmp_double);
	if (s->n) {
		s->min = sorted[0];
		s->max = sorted[s->n - 1];
		s->median = s->n % 2 ? sorted[s->n / 2] :
				       (sorted[s->n / 2 - 1] + sorted[s->n / 2]) / 2;
	} else {
		s->min = s->median = s->max = NAN;
	}
	free(sorted);
	return 0;
}

typedef double (*metric_fn)(const struct rq_diff_run *r, int arg);

static double rate(uint64_t n, const struct rq_diff_run *r)
{
	return r->duration_s > 0 ? (double)n / r->duration_s : 0.0;
}

static double m_all_rate(const struct rq_diff_run *r, int arg)
{
	return rate(r->placements, r);
}

static double m_kind_rate(const struct rq_diff_run *r, int k)
{
	uint64_t n = 0;

	for (int p = 0; p < RQ_PATH__COUNT; p++)
		if ((int)rq_paths[p].kind == k)
			n += r->path_counts[p];
	return rate(n, r);
}

static double m_path_rate(const struct rq_diff_run *r, int p)
{
	return rate(r->path_counts[p], r);
}

/* a kind's placements in % of all */
static double m_kind_share(const struct rq_diff_run *r, int k)
{
	uint64_t n = 0;

	for (int p = 0; p < RQ_PATH__COUNT; p++)
		if ((int)rq_paths[p].kind == k)
			n += r->path_counts[p];
	return r->placements ? 100.0 * (double)n / (double)r->placements : 0.0;
}

static double m_all_count(const struct rq_diff_run *r, int arg)
{
	(void)arg;
	return (double)r->placements;
}

/* a finding's proven placements per 1000 placements */
static double m_f_per_1k(const struct rq_diff_run *r, int f)
{
	if (r->f_unjudged[f])
		return NAN;
	return r->placements ? 1000.0 * (double)r->f_count[f] / (double)r->placements : 0.0;
}

static double m_path_share(const struct rq_diff_run *r, int p)
{
	return r->placements ? 100.0 * (double)r->path_counts[p] / (double)r->placements : 0.0;
}

static double m_f_count(const struct rq_diff_run *r, int f)
{
	return r->f_unjudged[f] ? NAN : (double)r->f_count[f];
}

static double m_f_rate(const struct rq_diff_run *r, int f)
{
	return r->f_unjudged[f] ? NAN : rate(r->f_count[f], r);
}

static double m_f_possible(const struct rq_diff_run *r, int f)
{
	return r->f_unjudged[f] ? NAN : (double)r->f_possible[f];
}

/*
 * A verdict like possible ("not judged" too where the finding judged nothing), known only
 * from truth records: without them, no value (n/a), never a 0 the trace cannot show.
 */
static double m_f_no_selection(const struct rq_diff_run *r, int f)
{
	return r->f_unjudged[f] || !r->truth_records ? NAN : (double)r->f_no_selection[f];
}

static double m_f_inferred(const struct rq_diff_run *r, int f)
{
	return r->f_unjudged[f] ? NAN : (double)r->f_inferred[f];
}

static double m_f_not_judged(const struct rq_diff_run *r, int f)
{
	return (double)r->f_not_judged[f];
}

static double m_f_judged(const struct rq_diff_run *r, int f)
{
	return (double)r->f_judged[f];
}

static double m_f_p50(const struct rq_diff_run *r, int f)
{
	return r->f_delay_n[f] ? (double)r->f_delay_p50[f] : NAN;
}

static double m_f_p99(const struct rq_diff_run *r, int f)
{
	return r->f_delay_n[f] ? (double)r->f_delay_p99[f] : NAN;
}

static double m_all_p50(const struct rq_diff_run *r, int flagged)
{
	return r->all_delay_n[flagged] ? (double)r->all_delay_p50[flagged] : NAN;
}

static double m_all_p99(const struct rq_diff_run *r, int flagged)
{
	return r->all_delay_n[flagged] ? (double)r->all_delay_p99[flagged] : NAN;
}

static double m_kind_p50(const struct rq_diff_run *r, int k)
{
	return r->kind_delay_n[k] ? (double)r->kind_delay_p50[k] : NAN;
}

static double m_kind_p99(const struct rq_diff_run *r, int k)
{
	return r->kind_delay_n[k] ? (double)r->kind_delay_p99[k] : NAN;
}

/* The events behind a row's value in one run, for the one-run floor. */
static double n_placements(const struct rq_diff_run *r, int arg)
{
	return (double)r->placements;
}

static double n_kind(const struct rq_diff_run *r, int k)
{
	uint64_t n = 0;

	for (int p = 0; p < RQ_PATH__COUNT; p++)
		if ((int)rq_paths[p].kind == k)
			n += r->path_counts[p];
	return (double)n;
}

static double n_path(const struct rq_diff_run *r, int p)
{
	return (double)r->path_counts[p];
}

static double n_f_delay(const struct rq_diff_run *r, int f)
{
	return (double)r->f_delay_n[f];
}

static double n_all_delay(const struct rq_diff_run *r, int flagged)
{
	return (double)r->all_delay_n[flagged];
}

static double n_kind_delay(const struct rq_diff_run *r, int k)
{
	return (double)r->kind_delay_n[k];
}

/* The verdict of row r (its base and new filled); the rank test when both sides can. */
static int judge(const struct rq_diff *d, struct rq_diff_row *r)
{
	const struct rq_diff_stat *b = &r->base, *n = &r->new;
	double *bv, *nv;
	struct rq_mw mw;
	int nb = 0, nn = 0, ret;

	r->u = r->p = NAN;
	r->test = RQ_TEST_NONE;
	if (!b->n || !n->n) {
		r->verdict = RQ_DIFF_NA;
		return 0;
	}
	if (b->min == b->max && n->min == n->max && b->min == n->min) {
		r->verdict = RQ_DIFF_UNCHANGED;
		return 0;
	}
	if (b->n < RQ_DIFF_MIN_RUNS || n->n < RQ_DIFF_MIN_RUNS) {
		/* no noise estimate: a difference, never "changed" */
		int runs = b->n < n->n ? b->n : n->n;

		r->test = runs == 1 ? RQ_TEST_ONE_RUN : RQ_TEST_NONE;
		r->verdict = RQ_DIFF_NO_NOISE;
		snprintf(r->verdict_text, sizeof(r->verdict_text), "%d run%s: no noise estimate",
			 runs, runs == 1 ? "" : "s");
		return 0;
	}
	bv = malloc((size_t)b->n * sizeof(double));
	nv = malloc((size_t)n->n * sizeof(double));
	ret = bv && nv ? 0 : -1;
	for (int i = 0; !ret && i < d->nbase; i++)
		if (!isnan(b->values[i]))
			bv[nb++] = b->values[i];
	for (int i = 0; !ret && i < d->nnew; i++)
		if (!isnan(n->values[i]))
			nv[nn++] = n->values[i];
	if (!ret)
		ret = rq_mann_whitney(bv, nb, nv, nn, &mw);
	free(bv);
	free(nv);
	if (ret)
		return -1;
	r->u = mw.u;
	r->p = mw.p;
	r->test = mw.exact ? RQ_TEST_MW_EXACT : RQ_TEST_MW_NORMAL;
	r->verdict = mw.p <= d->alpha ? RQ_DIFF_CHANGED : RQ_DIFF_NOISE;
	return 0;
}

static uint64_t more_events(uint64_t have, double n)
{
	return n > (double)have ? (uint64_t)llround(n) : have;
}

static int add_row(struct rq_diff *d, const char *section, const char *name, const char *key,
		   const char *metric, const char *unit, metric_fn fn, metric_fn events, int arg)
{
	int n = d->nbase > d->nnew ? d->nbase : d->nnew;
	double *v = malloc((size_t)n * sizeof(double));
	struct rq_diff_row *row;

	if (!v)
		return -1;
	row = &d->rows[d->nrows];
	memset(row, 0, sizeof(*row));
	row->section = section;
	strlcpy(row->name, name, sizeof(row->name));
	strlcpy(row->key, key, sizeof(row->key));
	row->metric = metric;
	row->unit = unit;
	for (int i = 0; i < d->nbase; i++) {
		v[i] = fn(&d->base[i], arg);
		row->events = more_events(row->events, events(&d->base[i], arg));
	}
	if (stat_fill(&row->base, v, d->nbase))
		goto fail;
	for (int i = 0; i < d->nnew; i++) {
		v[i] = fn(&d->new[i], arg);
		row->events = more_events(row->events, events(&d->new[i], arg));
	}
	if (stat_fill(&row->new, v, d->nnew))
		goto fail;
	free(v);
	v = NULL;
	if (judge(d, row))
		goto fail;
	row->change = row->new.median - row->base.median;
	row->change_pct = row->base.median != 0 ? 100.0 * row->change / row->base.median :
			  row->change == 0 ? 0.0 : NAN;
	d->nrows++;
	return 0;
fail:
	free(v);
	free(row->base.values);
	free(row->new.values);
	return -1;
}

static bool path_seen(const struct rq_diff *d, int p)
{
	for (int i = 0; i < d->nbase; i++)
		if (d->base[i].path_counts[p])
			return true;
	for (int i = 0; i < d->nnew; i++)
		if (d->new[i].path_counts[p])
			return true;
	return false;
}

static void note(struct rq_diff *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct rq_diff *d, const char *fmt, ...)
{
	va_list ap;

	if (d->nnotes >= (int)(sizeof(d->notes) / sizeof(d->notes[0])))
		return;
	va_start(ap, fmt);
	vsnprintf(d->notes[d->nnotes++], sizeof(d->notes[0]), fmt, ap);
	va_end(ap);
}

/* The smallest two-sided p of the rank test with na and nb runs (no ties): 2 / C(n, na). */
static double min_p(int na, int nb)
{
	double c = 1;

	for (int i = 1; i <= na; i++)
		c = c * (nb + i) / i;
	return fmin(1.0, 2.0 / c);
}

/* State what differs between the traces: kernels, CPU counts, lost events, run counts. */
static void compare_traces(struct rq_diff *d)
{
	const struct rq_diff_run *b0 = &d->base[0];
	bool kernel = false, cpus = false, lost = false;

	for (int s = 0; s < 2; s++) {
		const struct rq_diff_run *r = s ? d->new : d->base;

		for (int i = 0; i < (s ? d->nnew : d->nbase); i++) {
			kernel |= strcmp(r[i].kernel, b0->kernel) != 0;
			cpus |= r[i].cpus != b0->cpus;
			lost |= r[i].lost_events != 0;
		}
	}
	if (kernel)
		note(d, "kernels differ (base %s, new %s)", b0->kernel[0] ? b0->kernel : "unknown",
		     d->new[0].kernel[0] ? d->new[0].kernel : "unknown");
	if (cpus)
		note(d, "CPU counts differ (base %d, new %d): other machines or CPU sets",
		     b0->cpus, d->new[0].cpus);
	if (lost)
		note(d, "events were lost in some traces: their counts are lower bounds");
	if (d->nbase < RQ_DIFF_MIN_RUNS || d->nnew < RQ_DIFF_MIN_RUNS)
		note(d, "%s: no noise estimate, no row \"changed\" (%d runs a side or more: "
		     "diff --runs N)", d->nbase == 1 && d->nnew == 1 ? "one run per side" :
		     d->nbase == 1 || d->nnew == 1 ? "one run on a side" : "two runs on a side",
		     RQ_DIFF_MIN_RUNS);
	else if (min_p(d->nbase, d->nnew) > d->alpha)
		note(d, "%d and %d runs: the rank test's p is at least %.3g here, never <= %g: "
		     "no row can be \"changed\" (more runs, or --alpha)", d->nbase, d->nnew,
		     min_p(d->nbase, d->nnew), d->alpha);
	else
		note(d, "%d and %d runs, Mann-Whitney rank test: \"changed\" if p <= %g",
		     d->nbase, d->nnew, d->alpha);
}

/* The last two rows (a delay's p50 and p99) go when neither side has a sample. */
static void drop_empty_pair(struct rq_diff *d)
{
	if (d->rows[d->nrows - 1].base.n || d->rows[d->nrows - 1].new.n)
		return;
	for (int k = 1; k <= 2; k++) {
		free(d->rows[d->nrows - k].base.values);
		free(d->rows[d->nrows - k].new.values);
	}
	d->nrows -= 2;
}

int rq_diff_compute(struct rq_diff *d, const struct rq_diff_run *base, int nbase,
		    const struct rq_diff_run *new, int nnew, const struct rq_diff_opts *o)
{
	int cap = 2 + 2 * RQ_KIND__COUNT + 2 * RQ_PATH__COUNT + 8 * RQ_FIND__COUNT +
		  2 * RQ_FIND__COUNT + 2 * RQ_KIND__COUNT + 4;
	char name[48];
	bool truth = false;	/* a run has truth records: its no_selection counts are known */

	memset(d, 0, sizeof(*d));
	if (nbase < 1 || nnew < 1)
		return -1;
	for (int i = 0; i < nbase; i++)
		truth |= base[i].truth_records > 0;
	for (int i = 0; i < nnew; i++)
		truth |= new[i].truth_records > 0;
	d->alpha = o ? o->alpha : RQ_DIFF_ALPHA;
	d->min_count = o ? o->min_count : RQ_DIFF_MIN_COUNT;
	d->per_second = o && o->per_second;
	d->base = base;
	d->nbase = nbase;
	d->new = new;
	d->nnew = nnew;
	d->rows = calloc((size_t)cap, sizeof(*d->rows));
	if (!d->rows)
		return -1;
	compare_traces(d);
	/* per kind (all its paths), for the kinds some trace has */
	for (int k = 0; k < RQ_KIND__COUNT; k++) {
		bool seen = false;

		for (int p = 0; p < RQ_PATH__COUNT; p++)
			seen |= (int)rq_paths[p].kind == k && path_seen(d, p);
		if (!seen)
			continue;
		snprintf(name, sizeof(name), "%s", rq_kind_names[k]);
		if (add_row(d, "kind", name, rq_kind_names[k], "per_s", "1/s", m_kind_rate, n_kind,
			    k) ||
		    add_row(d, "kind", name, rq_kind_names[k], "share_pct", "%", m_kind_share,
			    n_kind, k))
			return -1;
	}
	if (add_row(d, "placements", "all", "all", "per_s", "1/s", m_all_rate, n_placements, 0) ||
	    add_row(d, "placements", "all", "all", "count", "", m_all_count, n_placements, 0))
		return -1;
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		if (!path_seen(d, p))
			continue;
		snprintf(name, sizeof(name), "%s %s", rq_kind_names[rq_paths[p].kind], rq_paths[p].id);
		if (add_row(d, "placements", name, rq_paths[p].id, "per_s", "1/s", m_path_rate,
			    n_path, p))
			return -1;
	}
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		if (!path_seen(d, p))
			continue;
		snprintf(name, sizeof(name), "%s %s", rq_kind_names[rq_paths[p].kind], rq_paths[p].id);
		if (add_row(d, "share", name, rq_paths[p].id, "share_pct", "%", m_path_share,
			    n_path, p))
			return -1;
	}
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		const char *id = rq_finding_ids[f];
		int first = d->nrows;

		if (add_row(d, "finding", id, id, "per_s", "1/s", m_f_rate, m_f_count, f) ||
		    add_row(d, "finding", id, id, "per_1k", "1/1000", m_f_per_1k, m_f_count, f) ||
		    add_row(d, "finding", id, id, "count", "", m_f_count, m_f_count, f) ||
		    add_row(d, "finding", id, id, "inferred", "", m_f_inferred, m_f_inferred, f) ||
		    add_row(d, "finding", id, id, "possible", "", m_f_possible, m_f_possible, f))
			return -1;
		/*
		 * only the kernel's state (truth records) shows a waking whose task was still
		 * queued (ttwu_runnable(): no selection), and only a waking can show it
		 */
		if (truth && (rq_finding_kinds[f] & (1u << RQ_KIND_WAKEUP)) &&
		    add_row(d, "finding", id, id, "no_selection", "", m_f_no_selection,
			    m_f_no_selection, f))
			return -1;
		if (add_row(d, "finding", id, id, "not_judged", "", m_f_not_judged,
			    m_f_not_judged, f) ||
		    add_row(d, "finding", id, id, "judged", "", m_f_judged, m_f_judged, f))
			return -1;
		/* judged in no run of a side: its counts there are "not judged", never 0 */
		for (int s = 0; s < 2; s++) {
			const struct rq_diff_run *run = s ? new : base;
			int nrun = s ? nnew : nbase;
			bool none = true;

			for (int i = 0; i < nrun; i++)
				none &= run[i].f_unjudged[f];
			for (int k = first; k < d->nrows; k++)
				d->rows[k].unjudged[s] = none &&
					strcmp(d->rows[k].metric, "not_judged") &&
					strcmp(d->rows[k].metric, "judged");
		}
	}
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		const char *id = rq_finding_ids[f];

		if (add_row(d, "delay", id, id, "p50_ns", "ns", m_f_p50, n_f_delay, f) ||
		    add_row(d, "delay", id, id, "p99_ns", "ns", m_f_p99, n_f_delay, f))
			return -1;
		drop_empty_pair(d);
	}
	/* each kind's placements (a kind seen in no trace has no samples: no rows) */
	for (int k = 0; k < RQ_KIND__COUNT; k++) {
		if (add_row(d, "delay", rq_kind_names[k], rq_kind_names[k], "p50_ns", "ns",
			    m_kind_p50, n_kind_delay, k) ||
		    add_row(d, "delay", rq_kind_names[k], rq_kind_names[k], "p99_ns", "ns",
			    m_kind_p99, n_kind_delay, k))
			return -1;
		drop_empty_pair(d);
	}
	if (add_row(d, "delay", "flagged (any finding)", "flagged", "p50_ns", "ns", m_all_p50,
		    n_all_delay, 1) ||
	    add_row(d, "delay", "flagged (any finding)", "flagged", "p99_ns", "ns", m_all_p99,
		    n_all_delay, 1) ||
	    add_row(d, "delay", "not flagged", "unflagged", "p50_ns", "ns", m_all_p50,
		    n_all_delay, 0) ||
	    add_row(d, "delay", "not flagged", "unflagged", "p99_ns", "ns", m_all_p99,
		    n_all_delay, 0))
		return -1;
	return 0;
}

void rq_diff_free(struct rq_diff *d)
{
	for (int i = 0; d->rows && i < d->nrows; i++) {
		free(d->rows[i].base.values);
		free(d->rows[i].new.values);
	}
	free(d->rows);
	d->rows = NULL;
	d->nrows = 0;
}

const struct rq_diff_row *rq_diff_find(const struct rq_diff *d, const char *section,
				       const char *key, const char *metric)
{
	for (int i = 0; i < d->nrows; i++) {
		const struct rq_diff_row *r = &d->rows[i];

		if (!strcmp(r->section, section) && !strcmp(r->key, key) &&
		    !strcmp(r->metric, metric))
			return r;
	}
	return NULL;
}

/* ---- text ------------------------------------------------------------------- */

/* A value in at most 11 characters: rates and counts with 4 significant digits. */
char *rq_diff_fmt_value(const struct rq_diff_row *r, double v, char *buf, size_t size)
{
	if (isnan(v))
		return strlcpy(buf, "-", size), buf;
	if (!strcmp(r->unit, "ns"))
		return rq_delay_fmt((uint64_t)llround(v), buf, size);
	if (!strcmp(r->unit, "%"))
		snprintf(buf, size, "%.1f %%", v);
	else if (!strcmp(r->unit, "1/1000"))
		snprintf(buf, size, "%.2f", v);
	else if (!strcmp(r->unit, "") && v == floor(v) && v < 1e10)
		snprintf(buf, size, "%.0f", v);
	else if (v < 1e5)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.4g", v);
	return buf;
}

char *rq_diff_fmt_change(const struct rq_diff_row *r, char *buf, size_t size)
{
	if (r->verdict == RQ_DIFF_NA)
		strlcpy(buf, "", size);
	else if (r->change == 0)
		strlcpy(buf, "0", size);
	else if (!strcmp(r->unit, "%"))
		snprintf(buf, size, "%+.1f pt", r->change);
	else if (isnan(r->change_pct))
		strlcpy(buf, "new", size);
	else if (fabs(r->change_pct) >= 1000)
		snprintf(buf, size, "%+.0f %%", r->change_pct);
	else
		snprintf(buf, size, "%+.1f %%", r->change_pct);
	return buf;
}

const char *rq_diff_fmt_side(const struct rq_diff_row *r, int side, char *buf, size_t size)
{
	if (r->unjudged[side])
		return "not judged";
	return rq_diff_fmt_value(r, side ? r->new.median : r->base.median, buf, size);
}

const char *rq_diff_verdict_text(const struct rq_diff_row *r)
{
	if (r->unjudged[0] && r->unjudged[1])
		return "not judged";
	if (r->verdict == RQ_DIFF_NO_NOISE && r->verdict_text[0])
		return r->verdict_text;
	return rq_diff_verdict_names[r->verdict];
}

char *rq_diff_fmt_p(const struct rq_diff_row *r, char *buf, size_t size)
{
	if (isnan(r->p))
		strlcpy(buf, "", size);
	else
		snprintf(buf, size, "; p %.3g%s", r->p, r->test == RQ_TEST_MW_EXACT ? "" : " (approx.)");
	return buf;
}

static void text_run(FILE *f, const char *side, int i, int n, const struct rq_diff_run *r)
{
	char src[1024], label[16], kernel[512];

	rq_escape_c(r->source, strlen(r->source), src, sizeof(src));
	rq_escape_c(r->kernel, strlen(r->kernel), kernel, sizeof(kernel));
	snprintf(label, sizeof(label), n > 1 ? "%s %d" : "%s", side, i + 1);
	fprintf(f, "  %-6s %s\n         kernel %s, %d CPUs, %.3f s, %llu events, %llu lost\n",
		label, src, kernel[0] ? kernel : "unknown", r->cpus, r->duration_s,
		(unsigned long long)r->events, (unsigned long long)r->lost_events);
}

bool rq_diff_row_shown(const struct rq_diff *d, const struct rq_diff_row *r)
{
	bool per_s = !strcmp(r->metric, "per_s");
	bool per_placement = !strcmp(r->metric, "per_1k") ||
			     (!strcmp(r->section, "kind") && !strcmp(r->metric, "share_pct")) ||
			     (!strcmp(r->section, "placements") && !strcmp(r->metric, "count"));

	if (d->per_second)
		return !per_placement;
	/* the paths: their shares are the next section; the placements' count stays */
	return !per_s;
}

bool rq_diff_row_zero(const struct rq_diff *d, const struct rq_diff_row *r)
{
	if (r->unjudged[0] || r->unjudged[1] || r->verdict != RQ_DIFF_UNCHANGED)
		return false;
	for (int i = 0; i < d->nbase; i++)
		if (r->base.values[i] != 0)
			return false;
	for (int i = 0; i < d->nnew; i++)
		if (r->new.values[i] != 0)
			return false;
	return true;
}

const char *rq_diff_section_title(const struct rq_diff_row *r)
{
	if (!strcmp(r->section, "kind"))
		return !strcmp(r->metric, "per_s") ? "Placements per second by kind" :
						     "Share of placements by kind";
	if (!strcmp(r->section, "placements"))
		return !strcmp(r->metric, "per_s") ? "Placements per second by path" :
						     "Placements";
	if (!strcmp(r->section, "share"))
		return "Share of placements";
	if (!strcmp(r->section, "finding"))
		return "Findings";
	return "Queue delay";
}

void rq_diff_row_label(const struct rq_diff_row *r, char *buf, size_t size)
{
	if (!strcmp(r->section, "finding") || !strcmp(r->section, "delay"))
		snprintf(buf, size, "%s %s", r->name,
			 !strcmp(r->metric, "per_s") ? "per s" :
			 !strcmp(r->metric, "per_1k") ? "per 1k" :
			 !strcmp(r->metric, "p50_ns") ? "p50" :
			 !strcmp(r->metric, "p99_ns") ? "p99" : r->metric);
	else
		strlcpy(buf, r->name, size);
}

/*
 * The rows of the section titled title that are 0 in every run of both sides, as one
 * line (wrapped at 80 columns): "  0 in every run: a count, b count, ...".
 */
static void text_zeros(FILE *f, const struct rq_diff *d, const char *title)
{
	int col = 0;

	for (int i = 0; *title && i < d->nrows; i++) {
		const struct rq_diff_row *r = &d->rows[i];
		char label[64];
		int len;

		if (!rq_diff_row_shown(d, r) || strcmp(rq_diff_section_title(r), title) ||
		    !rq_diff_row_zero(d, r))
			continue;
		rq_diff_row_label(r, label, sizeof(label));
		len = (int)strlen(label);
		if (!col) {
			fputs("  0 in every run:", f);
			col = 17;
		} else if (col + 2 + len > 79) {
			fputs(",\n   ", f);
			col = 3;
		} else {
			fputc(',', f);
			col++;
		}
		fprintf(f, " %s", label);
		col += 1 + len;
	}
	if (col)
		fputc('\n', f);
}

static void write_text(FILE *f, const struct rq_diff *d)
{
	const char *last = "";
	bool ranges = d->nbase > 1 || d->nnew > 1;

	fprintf(f, "rqpath diff: %d base run%s, %d new run%s\n", d->nbase, d->nbase > 1 ? "s" : "",
		d->nnew, d->nnew > 1 ? "s" : "");
	for (int i = 0; i < d->nbase; i++)
		text_run(f, "base", i, d->nbase, &d->base[i]);
	for (int i = 0; i < d->nnew; i++)
		text_run(f, "new", i, d->nnew, &d->new[i]);
	for (int i = 0; i < d->nnotes; i++) {
		char esc[800];

		fprintf(f, "  note: %s\n", rq_escape_c(d->notes[i], strlen(d->notes[i]), esc,
							sizeof(esc)));
	}
	for (int i = 0; i < d->nrows; i++) {
		const struct rq_diff_row *r = &d->rows[i];
		char label[64], b[32], n[32], c[32];

		if (!rq_diff_row_shown(d, r))
			continue;
		if (strcmp(last, rq_diff_section_title(r))) {
			text_zeros(f, d, last);
			fprintf(f, "\n%-30s %11s %11s %9s  %s\n", rq_diff_section_title(r),
				ranges ? "base median" : "base", ranges ? "new median" : "new",
				"change", "verdict");
			last = rq_diff_section_title(r);
		}
		if (rq_diff_row_zero(d, r))
			continue;	/* folded into the section's "0 in every run" line */
		rq_diff_row_label(r, label, sizeof(label));
		fprintf(f, "  %-28.28s %11s %11s %9s  %s\n", label,
			rq_diff_fmt_side(r, 0, b, sizeof(b)), rq_diff_fmt_side(r, 1, n, sizeof(n)),
			rq_diff_fmt_change(r, c, sizeof(c)), rq_diff_verdict_text(r));
		if (ranges && r->verdict != RQ_DIFF_UNCHANGED && r->verdict != RQ_DIFF_NA) {
			char b2[32], n2[32], pv[32];

			rq_diff_fmt_value(r, r->base.min, b, sizeof(b));
			rq_diff_fmt_value(r, r->base.max, b2, sizeof(b2));
			rq_diff_fmt_value(r, r->new.min, n, sizeof(n));
			rq_diff_fmt_value(r, r->new.max, n2, sizeof(n2));
			fprintf(f, "      range: base %s .. %s, new %s .. %s%s\n", b, b2, n, n2,
				rq_diff_fmt_p(r, pv, sizeof(pv)));
		}
	}
	text_zeros(f, d, last);
}

/* ---- JSON ------------------------------------------------------------------- */

void rq_diff_print_num(FILE *f, double v)
{
	char buf[32];

	/* integers exactly (every one below 2^53 is a double), else the shortest %g back */
	if (v == floor(v) && fabs(v) < 9007199254740992.0) {
		fprintf(f, "%.0f", v);
		return;
	}
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v || prec == 17)
			break;
	}
	fputs(buf, f);
}

static void json_num(FILE *f, double v)
{
	if (isnan(v) || isinf(v))
		fputs("null", f);
	else
		rq_diff_print_num(f, v);
}

static void json_stat(FILE *f, const struct rq_diff_stat *s, int nruns)
{
	fputs("{\"runs\": [", f);
	for (int i = 0; i < nruns; i++) {
		fputs(i ? ", " : "", f);
		json_num(f, s->values[i]);
	}
	fputs("], \"min\": ", f);
	json_num(f, s->min);
	fputs(", \"median\": ", f);
	json_num(f, s->median);
	fputs(", \"max\": ", f);
	json_num(f, s->max);
	fputc('}', f);
}

static void json_runs(FILE *f, const struct rq_diff_run *r, int n)
{
	fputc('[', f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "%s\n    {\"source\": ", i ? "," : "");
		rq_json_string(f, r[i].source, strlen(r[i].source));
		fputs(", \"kernel\": ", f);
		rq_json_string(f, r[i].kernel, strlen(r[i].kernel));
		fprintf(f, ", \"cpus\": %d, \"duration_s\": %.9f, \"events\": %llu, "
			   "\"lost_events\": %llu, \"placements\": %llu}", r[i].cpus, r[i].duration_s,
			(unsigned long long)r[i].events, (unsigned long long)r[i].lost_events,
			(unsigned long long)r[i].placements);
	}
	fputs("]", f);
}

static void write_json(FILE *f, const struct rq_diff *d)
{
	fputs("{\n  \"schema\": \"rqpath.diff/1\",\n  \"alpha\": ", f);
	json_num(f, d->alpha);
	fprintf(f, ",\n  \"min_count\": %llu,\n  \"min_runs\": %d,\n  \"per_second\": %s,"
		   "\n  \"base\": ", (unsigned long long)d->min_count, RQ_DIFF_MIN_RUNS,
		d->per_second ? "true" : "false");
	json_runs(f, d->base, d->nbase);
	fputs(",\n  \"new\": ", f);
	json_runs(f, d->new, d->nnew);
	fputs(",\n  \"notes\": [", f);
	for (int i = 0; i < d->nnotes; i++) {
		fputs(i ? ", " : "", f);
		rq_json_string(f, d->notes[i], strlen(d->notes[i]));
	}
	fputs("],\n  \"rows\": [", f);
	for (int i = 0; i < d->nrows; i++) {
		const struct rq_diff_row *r = &d->rows[i];

		fprintf(f, "%s\n    {\"section\": \"%s\", \"name\": \"%s\", \"key\": \"%s\", "
			   "\"metric\": \"%s\", \"unit\": \"%s\", \"base\": ", i ? "," : "",
			r->section, r->name, r->key, r->metric, r->unit);
		json_stat(f, &r->base, d->nbase);
		fputs(", \"new\": ", f);
		json_stat(f, &r->new, d->nnew);
		fputs(", \"change\": ", f);
		json_num(f, r->verdict == RQ_DIFF_NA ? NAN : r->change);
		fputs(", \"change_pct\": ", f);
		json_num(f, r->verdict == RQ_DIFF_NA ? NAN : r->change_pct);
		fprintf(f, ", \"verdict\": \"%s\", \"test\": ", rq_diff_verdict_names[r->verdict]);
		if (r->test)
			fprintf(f, "\"%s\"", rq_diff_test_names[r->test]);
		else
			fputs("null", f);
		fputs(", \"u\": ", f);
		json_num(f, r->u);
		fputs(", \"p\": ", f);
		json_num(f, r->p);
		fprintf(f, ", \"events\": %llu, \"verdict_text\": \"%s\", \"shown\": %s, "
			   "\"all_zero\": %s}", (unsigned long long)r->events,
			rq_diff_verdict_text(r), rq_diff_row_shown(d, r) ? "true" : "false",
			rq_diff_row_zero(d, r) ? "true" : "false");
	}
	fputs("\n  ]\n}\n", f);
}

/* ---- CSV -------------------------------------------------------------------- */

static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (isnan(v) || isinf(v))
		return;
	rq_diff_print_num(f, v);
}

/* The columns after text: the test, each run's value (a column per run, every row). */
static void csv_tail(FILE *f, const struct rq_diff *d, const struct rq_diff_row *r)
{
	if (!r) {
		fputs(",,,", f);
		for (int i = 0; i < d->nbase + d->nnew; i++)
			fputc(',', f);
		fputc('\n', f);
		return;
	}
	fprintf(f, ",%s", r->test ? rq_diff_test_names[r->test] : "");
	csv_num(f, r->u);
	csv_num(f, r->p);
	for (int i = 0; i < d->nbase; i++)
		csv_num(f, r->base.values[i]);
	for (int i = 0; i < d->nnew; i++)
		csv_num(f, r->new.values[i]);
	fputc('\n', f);
}

static void write_csv(FILE *f, const struct rq_diff *d)
{
	fputs("section,name,metric,unit,base_min,base_median,base_max,new_min,new_median,"
	      "new_max,change,change_pct,verdict,text,test,u,p", f);
	for (int i = 0; i < d->nbase; i++)
		fprintf(f, ",base_%d", i + 1);
	for (int i = 0; i < d->nnew; i++)
		fprintf(f, ",new_%d", i + 1);
	fputc('\n', f);
	for (int s = 0; s < 2; s++) {
		const struct rq_diff_run *r = s ? d->new : d->base;

		for (int i = 0; i < (s ? d->nnew : d->nbase); i++) {
			fprintf(f, "run,%s %d,source,,,,,,,,,,,", s ? "new" : "base", i + 1);
			rq_csv_field(f, r[i].source, strlen(r[i].source));
			csv_tail(f, d, NULL);
			fprintf(f, "run,%s %d,kernel,,,,,,,,,,,", s ? "new" : "base", i + 1);
			rq_csv_field(f, r[i].kernel, strlen(r[i].kernel));
			csv_tail(f, d, NULL);
		}
	}
	for (int i = 0; i < d->nnotes; i++) {
		fputs("note,,,,,,,,,,,,,", f);
		rq_csv_field(f, d->notes[i], strlen(d->notes[i]));
		csv_tail(f, d, NULL);
	}
	for (int i = 0; i < d->nrows; i++) {
		const struct rq_diff_row *r = &d->rows[i];

		fprintf(f, "%s,", r->section);
		rq_csv_field(f, r->name, strlen(r->name));
		fprintf(f, ",%s,%s", r->metric, r->unit);
		csv_num(f, r->base.min);
		csv_num(f, r->base.median);
		csv_num(f, r->base.max);
		csv_num(f, r->new.min);
		csv_num(f, r->new.median);
		csv_num(f, r->new.max);
		csv_num(f, r->verdict == RQ_DIFF_NA ? NAN : r->change);
		csv_num(f, r->verdict == RQ_DIFF_NA ? NAN : r->change_pct);
		fprintf(f, ",%s,", rq_diff_verdict_names[r->verdict]);
		csv_tail(f, d, r);
	}
}

/* ---- HTML: one self-contained page, the table with a bar per side ---------------- */

static void h_text(FILE *f, const char *s)
{
	rq_html_text(f, s, strlen(s));
}

/* Every run's value of both sides, for the scale of a row's drawing. */
static void row_range(const struct rq_diff *d, const struct rq_diff_row *r, double *lo,
		      double *hi)
{
	*lo = 0;
	*hi = 0;
	for (int s = 0; s < 2; s++) {
		const struct rq_diff_stat *st = s ? &r->new : &r->base;

		for (int i = 0; st->values && i < (s ? d->nnew : d->nbase); i++)
			if (!isnan(st->values[i])) {
				*lo = fmin(*lo, st->values[i]);
				*hi = fmax(*hi, st->values[i]);
			}
	}
	if (*hi <= *lo)
		*hi = *lo + 1;
}

/*
 * A row drawn: per side a whisker from its smallest to its largest run, a tick at the
 * median and a dot for each run, base above new, on one linear scale from 0 (or the
 * smallest value) to the largest; the numbers are in its title.
 */
static void whiskers(FILE *f, const struct rq_diff *d, const struct rq_diff_row *r)
{
	enum { W = 220, X0 = 6, PW = W - 12 };
	double lo, hi;
	char b[32], b2[32], n[32], n2[32], pv[32];

	fprintf(f, "<svg width=\"%d\" height=\"26\" class=\"whisker\" role=\"img\" "
		   "aria-label=\"base and new runs\"><title>", W);
	rq_diff_fmt_value(r, r->base.min, b, sizeof(b));
	rq_diff_fmt_value(r, r->base.max, b2, sizeof(b2));
	rq_diff_fmt_value(r, r->new.min, n, sizeof(n));
	rq_diff_fmt_value(r, r->new.max, n2, sizeof(n2));
	fprintf(f, "base %s .. %s (%d runs), new %s .. %s (%d runs)%s</title>", b, b2, d->nbase, n,
		n2, d->nnew, rq_diff_fmt_p(r, pv, sizeof(pv)));
	if (r->verdict == RQ_DIFF_NA) {
		fputs("</svg>", f);
		return;
	}
	row_range(d, r, &lo, &hi);
	fprintf(f, "<line x1=\"%d\" y1=\"25\" x2=\"%d\" y2=\"25\" stroke=\"#ccc\"/>", X0,
		X0 + PW);
	for (int s = 0; s < 2; s++) {
		const struct rq_diff_stat *st = s ? &r->new : &r->base;
		const char *colour = s ? "#E69F00" : "#56B4E9";
		int y = s ? 18 : 7;
		double x1, x2, xm;

		if (!st->n || isnan(st->min))
			continue;
		x1 = X0 + PW * (st->min - lo) / (hi - lo);
		x2 = X0 + PW * (st->max - lo) / (hi - lo);
		xm = X0 + PW * (st->median - lo) / (hi - lo);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
			   "stroke-width=\"2\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			   "stroke=\"%s\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			   "stroke=\"%s\"/><line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			   "stroke=\"#222\" stroke-width=\"2\" class=\"median\"/>",
			x1, y, x2, y, colour, x1, y - 3, x1, y + 3, colour, x2, y - 3, x2, y + 3, colour,
			xm, y - 5, xm, y + 5);
		for (int i = 0; st->values && i < (s ? d->nnew : d->nbase); i++)
			if (!isnan(st->values[i]))
				fprintf(f, "<circle cx=\"%.1f\" cy=\"%d\" r=\"2.6\" fill=\"%s\" "
					   "stroke=\"#fff\" stroke-width=\"0.6\" class=\"run\"/>",
					X0 + PW * (st->values[i] - lo) / (hi - lo), y, colour);
	}
	fputs("</svg>", f);
}

/* The section's rows 0 in every run, folded into one table row. */
static void html_zeros(FILE *f, const struct rq_diff *d, const char *title)
{
	int n = 0;

	for (int i = 0; *title && i < d->nrows; i++) {
		const struct rq_diff_row *r = &d->rows[i];
		char label[64];

		if (!rq_diff_row_shown(d, r) || strcmp(rq_diff_section_title(r), title) ||
		    !rq_diff_row_zero(d, r))
			continue;
		rq_diff_row_label(r, label, sizeof(label));
		fprintf(f, "%s%s", n++ ? ", " : "<tr class=\"zeros\"><td colspan=\"6\" "
			   "style=\"text-align:left;color:#666\">0 in every run: ", label);
	}
	if (n)
		fputs("</td></tr>\n", f);
}

static void write_html(FILE *f, const struct rq_diff *d)
{
	const char *last = "";

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"generator\" content=\"rqpath\"><title>rqpath diff</title><style>"
	      "body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}"
	      "table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;"
	      "text-align:right}td:first-child,th:first-child{text-align:left}"
	      "h2{font-size:1.05em;margin-top:1.4em}.b{display:block;height:.45em;margin:1px 0}"
	      ".base{background:#56B4E9}.new{background:#E69F00}.changed{font-weight:bold;"
	      "color:#D55E00}.noise{color:#666}.range{color:#666;font-size:11px}"
	      "</style></head>\n<body>\n<h1>rqpath diff</h1>\n<ul>\n", f);
	for (int s = 0; s < 2; s++) {
		const struct rq_diff_run *r = s ? d->new : d->base;

		for (int i = 0; i < (s ? d->nnew : d->nbase); i++) {
			fprintf(f, "<li>%s %d: ", s ? "new" : "base", i + 1);
			h_text(f, r[i].source);
			fputs(", kernel ", f);
			h_text(f, r[i].kernel[0] ? r[i].kernel : "unknown");
			fprintf(f, ", %d CPUs, %.3f s, %llu events, %llu lost</li>\n", r[i].cpus,
				r[i].duration_s, (unsigned long long)r[i].events,
				(unsigned long long)r[i].lost_events);
		}
	}
	for (int i = 0; i < d->nnotes; i++) {
		fputs("<li><b>note:</b> ", f);
		h_text(f, d->notes[i]);
		fputs("</li>\n", f);
	}
	fputs("</ul>\n<p>Each row drawn: <span class=\"b base\" style=\"display:inline-block;"
	      "width:2em\"></span> base, <span class=\"b new\" style=\"display:inline-block;"
	      "width:2em\"></span> new: a whisker from the smallest to the largest run, a dark "
	      "tick at the median, a dot per run; one linear scale per row, from 0 to its "
	      "largest value (hover for the numbers).</p>\n", f);
	for (int i = 0; i < d->nrows; i++) {
		const struct rq_diff_row *r = &d->rows[i];
		char b[32], n[32], c[32], label[64];

		if (!rq_diff_row_shown(d, r))
			continue;
		if (strcmp(last, rq_diff_section_title(r))) {
			html_zeros(f, d, last);
			fprintf(f, "%s<h2>%s</h2>\n<table><tr><th></th><th>base</th><th>new</th>"
				   "<th>change</th><th>verdict</th><th style=\"width:220px\"></th>"
				   "</tr>\n", *last ? "</table>\n" : "", rq_diff_section_title(r));
			last = rq_diff_section_title(r);
		}
		if (rq_diff_row_zero(d, r))
			continue;
		rq_diff_row_label(r, label, sizeof(label));
		fprintf(f, "<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
			   "<td class=\"%s\">%s</td><td style=\"text-align:left\">",
			label, rq_diff_fmt_side(r, 0, b, sizeof(b)),
			rq_diff_fmt_side(r, 1, n, sizeof(n)), rq_diff_fmt_change(r, c, sizeof(c)),
			r->verdict == RQ_DIFF_CHANGED ? "changed" : "noise", rq_diff_verdict_text(r));
		whiskers(f, d, r);
		fputs("</td></tr>\n", f);
	}
	html_zeros(f, d, last);
	fputs("</table>\n<script>console.log('rqpath report ready');</script>\n</body></html>\n",
	      f);
}

const char *const rq_diff_format_names[4] = {
	[RQ_DIFF_TEXT] = "text", [RQ_DIFF_JSON] = "json", [RQ_DIFF_CSV] = "csv",
	[RQ_DIFF_HTML] = "html",
};

int rq_diff_format_find(const char *name, enum rq_diff_format *fmt)
{
	for (int i = 0; i < 4; i++)
		if (!strcmp(name, rq_diff_format_names[i])) {
			*fmt = (enum rq_diff_format)i;
			return 0;
		}
	return -1;
}

int rq_diff_write(FILE *f, const struct rq_diff *d, enum rq_diff_format fmt)
{
	switch (fmt) {
	case RQ_DIFF_HTML: write_html(f, d); break;
	case RQ_DIFF_JSON: write_json(f, d); break;
	case RQ_DIFF_CSV: write_csv(f, d); break;
	default: write_text(f, d); break;
	}
	return fflush(f) || ferror(f) ? -1 : 0;
}
