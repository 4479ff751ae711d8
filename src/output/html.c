// SPDX-License-Identifier: GPL-2.0
/*
 * html.c - the HTML report (html.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "delay.h"
#include "escape.h"
#include "html.h"
#include "report.h"
#include "writer.h"

/* ---- collection ----------------------------------------------------------- */

static struct rq_html_col *col(struct rq_html *h, int cpu, int b)
{
	return &h->cols[(size_t)cpu * RQ_HTML_BUCKETS + (size_t)b];
}

static void merge_col(struct rq_html_col *dst, const struct rq_html_col *a,
		      const struct rq_html_col *b)
{
	const struct rq_html_col *top = b->top_ns > a->top_ns ? b : a;
	struct rq_html_col m = { 0 };

	m.busy_ns = a->busy_ns + b->busy_ns;
	m.placed = a->placed + b->placed;
	m.top_pid = top->top_pid;
	m.top_ns = top->top_ns;
	memcpy(m.top_comm, top->top_comm, RQ_COMM_LEN);
	*dst = m;
}

/* Halve the resolution: bucket i takes 2i and 2i+1. */
static void coarsen(struct rq_html *h)
{
	for (int cpu = 0; cpu < h->nr_cpus; cpu++) {
		for (int i = 0; i < RQ_HTML_BUCKETS / 2; i++)
			merge_col(col(h, cpu, i), col(h, cpu, 2 * i), col(h, cpu, 2 * i + 1));
		memset(col(h, cpu, RQ_HTML_BUCKETS / 2), 0,
		       RQ_HTML_BUCKETS / 2 * sizeof(struct rq_html_col));
	}
	for (int i = 0; i < RQ_HTML_BUCKETS / 2; i++)
		for (int f = 0; f < RQ_FIND__COUNT; f++)
			h->found[i][f] = h->found[2 * i][f] + h->found[2 * i + 1][f];
	memset(h->found[RQ_HTML_BUCKETS / 2], 0, RQ_HTML_BUCKETS / 2 * sizeof(h->found[0]));
	h->width *= 2;
}

/* The bucket of ts, coarsening as needed; -1 before the start. */
static int bucket(struct rq_html *h, uint64_t ts)
{
	if (ts < h->t0)
		return -1;
	while ((ts - h->t0) / h->width >= RQ_HTML_BUCKETS)
		coarsen(h);
	return (int)((ts - h->t0) / h->width);
}

static void html_run(struct rq_runs *r, int cpu, int pid, const char *comm, uint64_t start,
		     uint64_t end)
{
	struct rq_html *h = (struct rq_html *)r;
	int b0, b1;

	if (!h->cols || cpu < 0 || cpu >= h->nr_cpus)
		return;
	b1 = bucket(h, end);
	b0 = bucket(h, start);
	if (b0 < 0 || b1 < 0)
		return;
	for (int b = b0; b <= b1; b++) {
		uint64_t lo = h->t0 + (uint64_t)b * h->width, hi = lo + h->width;
		uint64_t s = start > lo ? start : lo, e = end < hi ? end : hi;
		struct rq_html_col *c = col(h, cpu, b);

		if (e <= s)
			continue;
		c->busy_ns += e - s;
		if (c->top_pid == pid) {
			c->top_ns += e - s;
		} else if (e - s > c->top_ns) {
			c->top_pid = pid;
			c->top_ns = e - s;
			memcpy(c->top_comm, comm, RQ_COMM_LEN);
		}
	}
}

/* A finding's verdict in a caption: its count, or "not judged" (never a bare 0 then). */
static const char *verdict_text(const struct rq_finding_store *s, char *buf, size_t size)
{
	if (rq_finding_not_judged(s))
		snprintf(buf, size, "not judged");
	else
		snprintf(buf, size, "%llu", (unsigned long long)s->count);
	return buf;
}

/* The columns, once the CPU count and the first timestamp are known; false if none. */
static bool html_setup(struct rq_html *h)
{
	if (!h->cols && !h->failed) {
		h->nr_cpus = rq_analysis_summary(h->an)->nr_cpus;
		h->cols = calloc((size_t)h->nr_cpus * RQ_HTML_BUCKETS, sizeof(*h->cols));
		h->found = calloc(RQ_HTML_BUCKETS, sizeof(*h->found));
		if (!h->cols || !h->found || rq_runs_init(&h->runs, h->an, h->nr_cpus)) {
			free(h->cols);
			h->cols = NULL;
			h->failed = 1;
			return false;
		}
		h->runs.run = html_run;
		h->t0 = rq_analysis_summary(h->an)->first_ts;
		h->width = 1000;	/* 1 us columns to start with */
	}
	return h->cols != NULL;
}

static void html_on_run(struct rq_writer *w, int cpu, int pid, uint64_t ts)
{
	struct rq_html *h = w->priv;

	if (html_setup(h))
		rq_runs_run(&h->runs, cpu, pid, ts);
}

static void html_placement(struct rq_writer *w, const struct rq_placement *p)
{
	struct rq_html *h = w->priv;
	struct rq_html_mark *m;
	int b;

	if (!html_setup(h))
		return;
	b = bucket(h, p->ts);
	if (b >= 0 && p->to_cpu >= 0 && p->to_cpu < h->nr_cpus)
		col(h, p->to_cpu, b)->placed++;
	for (int f = 0; b >= 0 && f < RQ_FIND__COUNT; f++)
		if (p->findings & (1u << f))
			h->found[b][f]++;
	if (p->findings ? h->nflagged >= RQ_HTML_FLAGGED : h->nplain >= RQ_HTML_PLAIN) {
		h->marks_dropped++;
		return;
	}
	m = &h->marks[h->nflagged + h->nplain];
	p->findings ? h->nflagged++ : h->nplain++;
	m->ts = p->ts;
	m->pid = p->pid;
	m->from = p->from_cpu;
	m->to = p->to_cpu;
	m->path = p->path;
	m->findings = p->findings;
	m->delay = p->delay_ns;
	memcpy(m->comm, p->comm, RQ_COMM_LEN);
	m->comm[RQ_COMM_LEN - 1] = '\0';
	rq_placement_describe(p, m->why, sizeof(m->why));
}

static int html_begin(struct rq_writer *w)
{
	struct rq_html *h = w->priv;

	h->an = w->an;
	h->marks = calloc(RQ_HTML_FLAGGED + RQ_HTML_PLAIN, sizeof(*h->marks));
	if (!h->marks || !rq_analysis_delay(w->an))
		return -1;
	return 0;
}

static void html_done(struct rq_writer *w)
{
	struct rq_html *h = w->priv;

	rq_runs_free(&h->runs);
	free(h->cols);
	free(h->found);
	free(h->marks);
	memset(h, 0, sizeof(*h));
}

/* ---- writing ------------------------------------------------------------------ */

static void html_text(FILE *f, const char *s, size_t len)
{
	rq_html_text(f, s, len < 500 ? len : 500);
}

/* A block of already-escaped report text (control bytes gone): only &<> to escape. */
static void html_pre(FILE *f, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		switch (s[i]) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		default: fputc(s[i], f); break;
		}
	}
}

static const char css[] =
	"body{font-family:system-ui,sans-serif;margin:1.5em;color:#222;max-width:1400px}"
	"h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.6em;border-bottom:1px solid #ccc}"
	"pre{font-size:12px;background:#f6f6f6;padding:.6em;overflow:auto}"
	".bar{display:inline-block;height:.9em;background:#56B4E9;vertical-align:middle}"
	"table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;text-align:right}"
	"td:first-child,th:first-child{text-align:left}"
	"#timeline{flex:1;min-width:0;border:1px solid #bbb;background:#fafafa;cursor:grab}"
	".legend span{display:inline-block;margin-right:1.2em}"
	".sw{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:middle}"
	".controls button{margin-right:.4em}"
	"@media print{.controls{display:none}#timeline{border:none}}";

/* Zoom (wheel, buttons) and pan (drag) the timeline by its viewBox; the page reports
 * where the timeline is (data-timeline) for the screenshot test. */
static const char js[] =
	"(function(){var s=document.getElementById('timeline');if(!s)return;"
	"var W=+s.dataset.w,H=+s.dataset.h,x=0,w=W;"
	"function set(){if(w>W)w=W;if(w<4)w=4;if(x<0)x=0;if(x+w>W)x=W-w;"
	"s.setAttribute('viewBox',x+' 0 '+w+' '+H);"
	"document.getElementById('zoom').textContent=(W/w).toFixed(1)+'x';}"
	"function zoom(k,cx){var nw=w/k;x=cx-(cx-x)*nw/w;w=nw;set();}"
	"s.addEventListener('wheel',function(e){e.preventDefault();"
	"var r=s.getBoundingClientRect();zoom(e.deltaY<0?1.25:0.8,x+(e.clientX-r.left)/r.width*w);},"
	"{passive:false});"
	"var d=null;s.addEventListener('mousedown',function(e){d={x:e.clientX,v:x};});"
	"window.addEventListener('mouseup',function(){d=null;});"
	"window.addEventListener('mousemove',function(e){if(!d)return;"
	"var r=s.getBoundingClientRect();x=d.v-(e.clientX-d.x)/r.width*w;set();});"
	"document.getElementById('zin').onclick=function(){zoom(2,x+w/2);};"
	"document.getElementById('zout').onclick=function(){zoom(0.5,x+w/2);};"
	"document.getElementById('zreset').onclick=function(){x=0;w=W;set();};"
	"var r=s.getBoundingClientRect();document.body.dataset.timeline="
	"[Math.round(r.left+window.scrollX),Math.round(r.top+window.scrollY),"
	"Math.round(r.width),Math.round(r.height)].join(',');"
	"console.log('rqpath report ready');})();";

static unsigned int hue(int pid)
{
	return ((unsigned int)pid * 2654435761u >> 8) % 360;
}

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* The per-CPU timeline: ncols columns, a row per CPU, marks from CPU to CPU. */
static void write_timeline(FILE *f, struct rq_html *h)
{
	int ncols, group, rowh = 28, top = 14, H, px;
	uint64_t span;

	if (!h->cols) {
		fputs("<p>No timeline: the trace had no events, or memory ran out.</p>\n", f);
		return;
	}
	span = h->last_ts > h->t0 ? h->last_ts - h->t0 : 1;
	/* columns in use, then as many as fit the page and the size bound */
	ncols = (int)((span + h->width - 1) / h->width);
	if (ncols < 1)
		ncols = 1;
	if (ncols > RQ_HTML_BUCKETS)
		ncols = RQ_HTML_BUCKETS;
	group = 1;
	while (ncols / group > RQ_HTML_COLS || (long)(ncols / group) * h->nr_cpus > 60000)
		group++;
	ncols = (ncols + group - 1) / group;
	H = top + rowh * h->nr_cpus + 4;
	fprintf(f, "<p class=\"controls\"><button id=\"zin\">zoom in</button>"
		   "<button id=\"zout\">zoom out</button><button id=\"zreset\">reset</button> "
		   "<span id=\"zoom\">1.0x</span> (wheel zooms, drag pans; hover a mark for "
		   "its explanation)</p>\n");
	/* the CPU names beside the drawing, which stretches when zoomed */
	px = H * 2 > 160 ? H * 2 : 160;
	fprintf(f, "<div style=\"display:flex\"><div style=\"position:relative;width:4em;"
		   "height:%dpx;font-size:12px\">", px);
	for (int cpu = 0; cpu < h->nr_cpus; cpu++)
		fprintf(f, "<span style=\"position:absolute;top:%.1f%%;transform:translateY(-50%%)\">"
			   "CPU %d</span>", 100.0 * (top + cpu * rowh + rowh / 2) / H, cpu);
	fprintf(f, "</div>\n<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" "
		   "viewBox=\"0 0 %d %d\" preserveAspectRatio=\"none\" data-w=\"%d\" data-h=\"%d\" "
		   "style=\"height:%dpx\" role=\"img\" aria-label=\"per-CPU timeline\">\n", ncols, H,
		ncols, H, px);
	for (int cpu = 0; cpu < h->nr_cpus; cpu++) {
		int y = top + cpu * rowh;

		fprintf(f, "<rect x=\"0\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#e8e8e8\"/>\n",
			y + 2, ncols, rowh - 6);
		for (int c = 0; c < ncols;) {
			struct rq_html_col m = { 0 };
			int run = 1, level;

			for (int k = 0; k < group && c * group + k < RQ_HTML_BUCKETS; k++)
				merge_col(&m, &m, col(h, cpu, c * group + k));
			level = (int)llround(10.0 * (double)m.busy_ns /
					     (double)(h->width * (uint64_t)group));
			level = level > 10 ? 10 : level;
			/* neighbours with the same task and load level: one rect */
			while (c + run < ncols) {
				struct rq_html_col n = { 0 };
				int nl;

				for (int k = 0; k < group && (c + run) * group + k < RQ_HTML_BUCKETS; k++)
					merge_col(&n, &n, col(h, cpu, (c + run) * group + k));
				nl = (int)llround(10.0 * (double)n.busy_ns /
						  (double)(h->width * (uint64_t)group));
				nl = nl > 10 ? 10 : nl;
				if (nl != level || n.top_pid != m.top_pid)
					break;
				run++;
			}
			if (level > 0 && m.top_pid > 0) {
				fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
					   "fill=\"hsl(%u,55%%,55%%)\" fill-opacity=\"%.1f\"><title>CPU %d: ",
					c, y + 2, run, rowh - 6, hue(m.top_pid), level / 10.0, cpu);
				html_text(f, m.top_comm, strnlen(m.top_comm, RQ_COMM_LEN));
				fprintf(f, " %d mostly, busy %d0%%</title></rect>\n", m.top_pid, level);
			}
			c += run;
		}
	}
	/* marks: unflagged first, flagged on top */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < h->nflagged + h->nplain; i++) {
			const struct rq_html_mark *m = &h->marks[i];
			const char *colour = "#777";
			double x;
			int y1, y2;
			char d[24];

			if (!!m->findings != pass || m->to < 0 || m->to >= h->nr_cpus)
				continue;
			for (int fi = 0; fi < RQ_FIND__COUNT; fi++)
				if (m->findings & (1u << fi))
					colour = rq_findings[fi].colour;
			x = (double)(m->ts - h->t0) / (double)(h->width * (uint64_t)group);
			y2 = top + m->to * rowh + rowh / 2;
			y1 = m->from >= 0 && m->from < h->nr_cpus ? top + m->from * rowh + rowh / 2 :
								    y2 - rowh / 2;
			if (y1 == y2)
				y1 = y2 - rowh / 2 + 2;
			fprintf(f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%d\" stroke=\"%s\" "
				   "stroke-width=\"%d\" vector-effect=\"non-scaling-stroke\"><title>",
				x, y1, x, y2, colour, pass ? 2 : 1);
			fprintf(f, "%.6f s, pid %d ", secs(m->ts), m->pid);
			html_text(f, m->comm, strlen(m->comm));
			fprintf(f, ", CPU %d -&gt; %d, %s", m->from, m->to, rq_paths[m->path].id);
			for (int fi = 0; fi < RQ_FIND__COUNT; fi++)
				if (m->findings & (1u << fi))
					fprintf(f, ", %s", rq_finding_ids[fi]);
			if (m->delay >= 0)
				fprintf(f, ", waited %s", rq_delay_fmt((uint64_t)m->delay, d, sizeof(d)));
			fputs(": ", f);
			html_text(f, m->why, strlen(m->why));
			fputs("</title></line>\n", f);
		}
	fputs("</svg></div>\n<p class=\"legend\">", f);
	for (int fi = 0; fi < RQ_FIND__COUNT; fi++)
		fprintf(f, "<span><i class=\"sw\" style=\"background:%s\"></i>%s</span>",
			rq_findings[fi].colour, rq_finding_ids[fi]);
	fprintf(f, "<span><i class=\"sw\" style=\"background:#777\"></i>other placement</span>"
		   "</p>\n<p>%.3f s in %d columns of %.1f us; a coloured bar is the task that ran "
		   "longest in a column (its opacity: how busy the CPU was), grey is idle. A mark "
		   "goes from the CPU the task was on to the CPU it was put on. %d flagged and %d "
		   "other placements are drawn one by one%s.</p>\n",
		secs(span), ncols, (double)(h->width * (uint64_t)group) / 1e3, h->nflagged,
		h->nplain, h->marks_dropped ? "; the later ones only in the counts" : "");
}

static void write_paths(FILE *f, const struct rq_summary *sum)
{
	uint64_t max = 1;

	for (int p = 0; p < RQ_PATH__COUNT; p++)
		if (sum->path_counts[p] > max)
			max = sum->path_counts[p];
	fputs("<table><tr><th>kind path</th><th>count</th><th></th></tr>\n", f);
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		if (!sum->path_counts[p])
			continue;
		fprintf(f, "<tr><td>%s %s</td><td>%llu</td><td style=\"text-align:left\">"
			   "<span class=\"bar\" style=\"width:%.0fpx\"></span></td></tr>\n",
			rq_kind_names[rq_paths[p].kind], rq_paths[p].id,
			(unsigned long long)sum->path_counts[p],
			400.0 * (double)sum->path_counts[p] / (double)max);
	}
	fputs("</table>\n", f);
}

static void write_findings_time(FILE *f, struct rq_html *h)
{
	int n = 120, per;
	uint64_t span;

	if (!h->cols)
		return;
	span = h->last_ts > h->t0 ? h->last_ts - h->t0 : 1;
	per = (int)((span / h->width + (uint64_t)n) / (uint64_t)n);
	if (per < 1)
		per = 1;
	for (int fi = 0; fi < RQ_FIND__COUNT; fi++) {
		uint32_t v[120] = { 0 }, max = 1;
		char count[24];

		for (int b = 0; b < RQ_HTML_BUCKETS; b++)
			if (b / per < n)
				v[b / per] += h->found[b][fi];
		for (int i = 0; i < n; i++)
			max = v[i] > max ? v[i] : max;
		fprintf(f, "<div>%s (%s)<br><svg width=\"480\" height=\"40\" viewBox=\"0 0 %d 40\" "
			   "role=\"img\" aria-label=\"%s over time\"><rect width=\"%d\" height=\"40\" "
			   "fill=\"#f4f4f4\"/>", rq_finding_ids[fi],
			verdict_text(&rq_analysis_summary(h->an)->findings[fi], count, sizeof(count)),
			n * 4, rq_finding_ids[fi], n * 4);
		for (int i = 0; i < n; i++)
			if (v[i])
				fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"3\" height=\"%.1f\" "
					   "fill=\"%s\"/>", i * 4, 40 - 38.0 * v[i] / max,
					38.0 * v[i] / max, rq_findings[fi].colour);
		fputs("</svg></div>\n", f);
	}
}

static void delay_row(FILE *f, const char *label, struct rq_sketch *s)
{
	char a[24], b[24], c[24], m[24];
	double lmax = log10(10e9);

	if (!s->n)
		return;
	fprintf(f, "<tr><td>%s</td><td>%llu</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
		   "<td style=\"text-align:left\"><span class=\"bar\" style=\"width:%.0fpx\"></span>"
		   "</td></tr>\n", label, (unsigned long long)s->n,
		rq_delay_fmt(rq_sketch_quantile(s, 0.5), a, sizeof(a)),
		rq_delay_fmt(rq_sketch_quantile(s, 0.9), b, sizeof(b)),
		rq_delay_fmt(rq_sketch_quantile(s, 0.99), c, sizeof(c)),
		rq_delay_fmt(s->max, m, sizeof(m)),
		/* p50 on a log scale from 100 ns to 10 s */
		fmax(0, 300.0 * (log10(fmax(100, (double)rq_sketch_quantile(s, 0.5))) - 2) /
			  (lmax - 2)));
}

/* A histogram of queue delays, 100 ns to 10 s, two bins a decade, as an SVG. */
static void delay_histogram(FILE *f, const char *label, const struct rq_sketch *s,
			    const char *colour)
{
	enum { LO = 2, PER = 2, N = 16 };
	static const char *const ticks[] = { "100ns", "1us", "10us", "100us", "1ms", "10ms",
					     "100ms", "1s", "10s" };
	uint64_t c[N], max = 1;

	if (!s->n)
		return;
	rq_sketch_histogram(s, LO, PER, N, c);
	for (int i = 0; i < N; i++)
		max = c[i] > max ? c[i] : max;
	fprintf(f, "<figure style=\"display:inline-block;margin:0 1.5em 1em 0\"><svg width=\"%d\" "
		   "height=\"90\" role=\"img\" aria-label=\"queue delay histogram, %s\">",
		N * 16 + 34, label);
	for (int i = 0; i < N; i++)
		if (c[i])
			fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"14\" height=\"%.1f\" "
				   "fill=\"%s\"><title>%llu</title></rect>", 17 + i * 16,
				70 - 68.0 * (double)c[i] / (double)max,
				68.0 * (double)c[i] / (double)max, colour,
				(unsigned long long)c[i]);
	for (int t = 0; t <= N / PER; t++)
		fprintf(f, "<text x=\"%d\" y=\"84\" font-size=\"8\" text-anchor=\"middle\">%s"
			   "</text>", 17 + t * PER * 16, ticks[t]);
	fprintf(f, "</svg><figcaption>%s (%llu)</figcaption></figure>\n", label,
		(unsigned long long)s->n);
}

static void write_delays(FILE *f, const struct rq_summary *sum)
{
	struct rq_delay *d = sum->delay;

	if (!d)
		return;
	delay_histogram(f, "not flagged", rq_delay_all(d, false), "#56B4E9");
	delay_histogram(f, "flagged (any finding)", rq_delay_all(d, true), "#D55E00");
	for (int i = 0; i < RQ_FIND__COUNT; i++) {
		char label[64];

		/* a finding not judged has no delays to show: its caption says why */
		snprintf(label, sizeof(label), "%s%s", rq_finding_ids[i],
			 rq_finding_not_judged(&sum->findings[i]) ? ", not judged" : "");
		delay_histogram(f, label, rq_delay_finding(d, i), rq_findings[i].colour);
	}
	fputs("<table><tr><th></th><th>n</th><th>p50</th><th>p90</th><th>p99</th><th>max</th>"
	      "<th>p50 (log scale, 100 ns to 10 s)</th></tr>\n", f);
	for (int p = 0; p < RQ_PATH__COUNT; p++) {
		char label[64];

		snprintf(label, sizeof(label), "%s %s", rq_kind_names[rq_paths[p].kind],
			 rq_paths[p].id);
		delay_row(f, label, rq_delay_path(d, p));
	}
	delay_row(f, "<b>flagged (any finding)</b>", rq_delay_all(d, true));
	delay_row(f, "<b>not flagged</b>", rq_delay_all(d, false));
	for (int i = 0; i < RQ_FIND__COUNT; i++)
		delay_row(f, rq_finding_ids[i], rq_delay_finding(d, i));
	fputs("</table>\n", f);
}

static int html_end(struct rq_writer *w, const struct rq_summary *sum)
{
	struct rq_html *h = w->priv;
	const struct rq_analysis *an = h->an;
	FILE *f = w->f;
	char *text = NULL;
	size_t len = 0;
	FILE *mem;

	h->last_ts = sum->last_ts;
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
	      "<meta name=\"generator\" content=\"rqpath\"><title>rqpath audit of ", f);
	html_text(f, sum->source, strlen(sum->source));
	fprintf(f, "</title>\n<style>%s</style></head>\n<body>\n<h1>rqpath audit of ", css);
	html_text(f, sum->source, strlen(sum->source));
	fprintf(f, "</h1>\n<p>kernel ");
	html_text(f, sum->profile.release[0] ? sum->profile.release : "unknown",
		  strlen(sum->profile.release[0] ? sum->profile.release : "unknown"));
	fprintf(f, ", %d CPUs, %llu events, %llu lost, %.3f s traced, %llu placements.</p>\n",
		sum->nr_cpus, (unsigned long long)sum->nr_events, (unsigned long long)sum->lost_events,
		sum->last_ts > sum->first_ts ? secs(sum->last_ts - sum->first_ts) : 0.0,
		(unsigned long long)sum->nr_placements);
	fputs("<h2>Per-CPU timeline</h2>\n", f);
	write_timeline(f, h);
	fputs("<h2>Placements by path</h2>\n", f);
	write_paths(f, sum);
	fputs("<h2>Findings over time</h2>\n", f);
	write_findings_time(f, h);
	fputs("<h2>Queue delay (placement until the task runs)</h2>\n", f);
	write_delays(f, sum);
	fputs("<h2>The report: the trace, what it cannot show, the examples and their "
	      "evidence</h2>\n<pre>", f);
	mem = open_memstream(&text, &len);
	if (mem) {
		int bad = rq_report_write(mem, an, RQ_FMT_TEXT);

		if (!fclose(mem) && !bad)
			html_pre(f, text, len);
	}
	free(text);
	fprintf(f, "</pre>\n<script>%s</script>\n</body></html>\n", js);
	return 0;
}

const struct rq_writer_ops rq_writer_html = {
	.name = "html",
	.flags = RQ_WRITER_STREAM,
	.private_size = sizeof(struct rq_html),
	.begin = html_begin,
	.placement = html_placement,
	.run = html_on_run,
	.end = html_end,
	.done = html_done,
};
