// SPDX-License-Identifier: GPL-2.0
/*
 * html.c - the HTML report (html.h).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "delay_report.h"
#include "escape.h"
#include "html.h"
#include "report.h"
#include "writer.h"

/* ---- collection ----------------------------------------------------------- */

static struct rq_html_col *col(struct rq_html *h, int cpu, int b)
{
	return &h->cols[(size_t)cpu * (size_t)h->nb + (size_t)b];
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
		for (int i = 0; i < h->nb / 2; i++)
			merge_col(col(h, cpu, i), col(h, cpu, 2 * i), col(h, cpu, 2 * i + 1));
		memset(col(h, cpu, h->nb / 2), 0, (size_t)h->nb / 2 * sizeof(struct rq_html_col));
	}
	for (int i = 0; i < h->nb / 2; i++)
		for (int f = 0; f < RQ_FIND__COUNT; f++)
			h->found[i][f] = h->found[2 * i][f] + h->found[2 * i + 1][f];
	memset(h->found[h->nb / 2], 0, (size_t)h->nb / 2 * sizeof(h->found[0]));
	h->width *= 2;
}

/* The bucket of ts, coarsening as needed; -1 before the start. */
static int bucket(struct rq_html *h, uint64_t ts)
{
	if (ts < h->t0)
		return -1;
	while ((ts - h->t0) / h->width >= (uint64_t)h->nb)
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
		/* about RQ_HTML_CELLS in all: many CPUs get fewer columns each */
		h->nb = h->nr_cpus > 0 ? RQ_HTML_CELLS / h->nr_cpus : RQ_HTML_MAX_COLS;
		h->nb = h->nb < RQ_HTML_MIN_COLS ? RQ_HTML_MIN_COLS :
			h->nb > RQ_HTML_MAX_COLS ? RQ_HTML_MAX_COLS : h->nb & ~1;
		h->cols = calloc((size_t)h->nr_cpus * (size_t)h->nb, sizeof(*h->cols));
		h->found = calloc((size_t)h->nb, sizeof(*h->found));
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

/*
 * Keep p as a mark, one in stride of its kind (flagged or not); a full store drops every
 * other mark and doubles the stride: the marks kept stay spread over the whole trace.
 */
static void keep_mark(struct rq_html *h, const struct rq_placement *p)
{
	bool flagged = p->findings != 0;
	struct rq_html_mark *store = flagged ? h->flagged : h->plain, *m;
	int *n = flagged ? &h->nflagged : &h->nplain;
	int cap = flagged ? RQ_HTML_FLAGGED : RQ_HTML_PLAIN;
	uint64_t *seen = flagged ? &h->seen_flagged : &h->seen_plain;
	uint64_t *stride = flagged ? &h->stride_flagged : &h->stride_plain;

	if ((*seen)++ % *stride)
		return;
	if (*n == cap) {
		for (int i = 0; i < cap / 2; i++)
			store[i] = store[2 * i];
		*n = cap / 2;
		*stride *= 2;
		if ((*seen - 1) % *stride)
			return;
	}
	m = &store[(*n)++];
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

static void html_placement(struct rq_writer *w, const struct rq_placement *p)
{
	struct rq_html *h = w->priv;
	int b;

	if (!html_setup(h))
		return;
	b = bucket(h, p->ts);
	if (b >= 0 && p->to_cpu >= 0 && p->to_cpu < h->nr_cpus)
		col(h, p->to_cpu, b)->placed++;
	for (int f = 0; b >= 0 && f < RQ_FIND__COUNT; f++)
		if (p->findings & (1u << f))
			h->found[b][f]++;
	keep_mark(h, p);
}

static int html_begin(struct rq_writer *w)
{
	struct rq_html *h = w->priv;

	h->an = w->an;
	h->flagged = calloc(RQ_HTML_FLAGGED, sizeof(*h->flagged));
	h->plain = calloc(RQ_HTML_PLAIN, sizeof(*h->plain));
	h->stride_flagged = h->stride_plain = 1;
	if (!h->flagged || !h->plain || !rq_analysis_delay(w->an))
		return -1;
	return 0;
}

static void html_done(struct rq_writer *w)
{
	struct rq_html *h = w->priv;

	rq_runs_free(&h->runs);
	free(h->cols);
	free(h->found);
	free(h->flagged);
	free(h->plain);
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
	"#timeline{display:block;width:100%;border:1px solid #bbb;background:#fff;cursor:grab;"
	"font-size:11px}"
	"#timeline text{fill:#333}.legend span{display:inline-block;margin-right:1.2em}"
	".sw{display:inline-block;width:.9em;height:.9em;margin-right:.3em;vertical-align:middle}"
	".ramp{display:inline-block;width:5em;height:.9em;vertical-align:middle;margin-right:.3em;"
	"background:linear-gradient(90deg,hsla(210,55%,55%,.1),hsla(210,55%,55%,1))}"
	".controls button{margin-right:.4em}"
	"@media print{.controls{display:none}#timeline{border:none}}";

/*
 * The timeline, drawn from the data (rqdata) into the SVG: CPU lanes, the findings strip,
 * the marks (other placements, then the flagged ones on top, each kept inside the plot),
 * the time axis.  Zoom (wheel, buttons) and pan (drag) change the view and draw again
 * from the finest level the view needs (re-aggregation).  After each drawing the page
 * writes its own layout checks into body's data-layout (marks inside the plot, axis
 * ticks, the level drawn) and where the timeline is (data-timeline), for the tests;
 * "#zoomtest" in the URL draws the middle sixteenth at once.
 */
static const char js[] =
	"(function(){var s=document.getElementById('timeline'),de=document.getElementById('rqdata');"
	"if(!s||!de)return;var D=JSON.parse(de.textContent),NS='http://www.w3.org/2000/svg',"
	"GUT=104,PR=16,TOP=8,LANE=22,ST=12,AX=40,nF=D.findings.length,"
	"SY=TOP+D.cpus*LANE+8,H=SY+nF*ST+AX,v0=0,v1=D.span>0?D.span:1,unit='';"
	"s.setAttribute('height',H);s.style.height=H+'px';"
	"function el(n,a,p){var e=document.createElementNS(NS,n);for(var k in a)e.setAttribute(k,a[k]);"
	"(p||s).appendChild(e);return e;}"
	"function tip(e,t){el('title',{},e).textContent=t;}"
	"function hue(p){return((Math.imul(p,2654435761)>>>0)>>>8)%360;}"
	"function nice(x){var p=Math.pow(10,Math.floor(Math.log10(x))),m=x/p;"
	"return(m<1.5?1:m<3.5?2:m<7.5?5:10)*p;}"
	"function dur(ns){return ns>=1e9?(ns/1e9).toPrecision(3)+' s':ns>=1e6?(ns/1e6).toPrecision(3)"
	"+' ms':ns>=1e3?(ns/1e3).toPrecision(3)+' \\u00b5s':ns+' ns';}"
	"function draw(){while(s.firstChild)s.removeChild(s.firstChild);"
	"var W=s.getBoundingClientRect().width||1000,pw=W-GUT-PR,sp=v1-v0,L=D.levels.length-1,i,j,c;"
	"function X(t){return GUT+(t-v0)/sp*pw;}"
	"for(i=0;i<D.levels.length;i++)if(sp/D.levels[i].w>=pw/1.5){L=i;break;}"
	"var lv=D.levels[L],g=el('g',{});"
	"el('rect',{x:GUT,y:TOP,width:pw,height:SY+nF*ST-TOP-2,fill:'#f4f4f4','class':'plot'},g);"
	"for(c=0;c<D.cpus;c++){var y=TOP+c*LANE,sg=lv.cpu[c],k=0;"
	"el('text',{x:GUT-6,y:y+LANE/2+4,'text-anchor':'end'}).textContent='CPU '+c;"
	"for(j=0;j<sg.length;j+=3){var n=sg[j],l=sg[j+1],p=sg[j+2],a=k*lv.w,b=(k+n)*lv.w;k+=n;"
	"if(b<=v0||a>=v1||!l||p<=0)continue;var x0=Math.max(X(a),GUT),x1=Math.min(X(b),GUT+pw);"
	"var r=el('rect',{x:x0,y:y+2,width:Math.max(x1-x0,0.4),height:LANE-4,"
	"fill:'hsl('+hue(p)+',55%,55%)','fill-opacity':l/10},g);"
	"tip(r,'CPU '+c+': '+(D.comm[p]||'pid')+' '+p+' ran most, CPU busy '+l*10+'%');}}"
	"for(i=0;i<nF;i++){var fy=SY+i*ST,fo=lv.found,mx=1;"
	"el('text',{x:GUT-6,y:fy+ST-3,'text-anchor':'end','font-size':9}).textContent=D.findings[i][0];"
	"for(j=0;j<fo.length;j+=3)if(fo[j+1]==i&&(fo[j]+1)*lv.w>v0&&fo[j]*lv.w<v1)mx=Math.max(mx,fo[j+2]);"
	"for(j=0;j<fo.length;j+=3){if(fo[j+1]!=i)continue;var ta=fo[j]*lv.w,tb=ta+lv.w;"
	"if(tb<=v0||ta>=v1)continue;var xa=Math.max(X(ta),GUT),xb=Math.min(X(tb),GUT+pw),"
	"hh=(ST-3)*Math.sqrt(fo[j+2]/mx);var q=el('rect',{x:xa,y:fy+ST-1-hh,width:Math.max(xb-xa,1),"
	"height:hh,fill:D.findings[i][1]},g);tip(q,fo[j+2]+' '+D.findings[i][0]);}}"
	"var nin=0;for(i=0;i<D.marks.length;i++)if(D.marks[i][0]>=v0&&D.marks[i][0]<=v1)nin++;"
	"var dense=nin>pw/4;"
	"for(var pass=0;pass<2;pass++)for(i=0;i<D.marks.length;i++){var m=D.marks[i];"
	"if((m[3]?1:0)!=pass||m[0]<v0||m[0]>v1||m[2]<0||m[2]>=D.cpus)continue;"
	"var x=Math.min(Math.max(X(m[0]),GUT+4),GUT+pw-4),y2=TOP+m[2]*LANE+LANE/2,"
	"y1=m[1]>=0&&m[1]<D.cpus&&m[1]!=m[2]?TOP+m[1]*LANE+LANE/2:y2-LANE/2+3,col='#555',fs='';"
	"for(j=0;j<nF;j++)if(m[3]&(1<<j)){col=D.findings[j][1];fs+=', '+D.findings[j][0];}"
	"if(dense)y1=pass?y2:y2-LANE/2+6,y2=pass?y2:y2-LANE/2+2;var e;"
	"if(!pass||!dense)e=el('line',{x1:x,y1:y1,x2:x,y2:y2,stroke:col,'stroke-width':pass?2:1,"
	"'class':'mark'});"
	"if(pass)e=el('circle',{cx:x,cy:y2,r:3,fill:col,stroke:'#fff','stroke-width':0.8,"
	"'class':'mark'});"
	"tip(e,(D.t0+m[0]/1e9).toFixed(6)+' s, pid '+m[6]+' '+m[7]+', CPU '+m[1]+' -> '+m[2]+', '"
	"+D.paths[m[5]]+fs+(m[4]>=0?', waited '+dur(m[4]):'')+': '+m[8]);}"
	"var ya=SY+nF*ST+2,st=nice(sp/Math.max(2,Math.floor(pw/110))),"
	"u=st>=1e9?['s',1e9]:st>=1e6?['ms',1e6]:st>=1e3?['\\u00b5s',1e3]:['ns',1],"
	"dec=Math.max(0,-Math.floor(Math.log10(st/u[1])+1e-9)),nt=0;unit=u[0];"
	"el('line',{x1:GUT,y1:ya,x2:GUT+pw,y2:ya,stroke:'#333'});"
	"for(var t=Math.ceil(v0/st)*st;t<=v1+1e-6*st;t+=st){var tx=X(t);"
	"el('line',{x1:tx,y1:ya,x2:tx,y2:ya+5,stroke:'#333'});"
	"el('text',{x:tx,y:ya+17,'text-anchor':'middle','class':'tick'}).textContent=(t/u[1]).toFixed(dec);"
	"nt++;}"
	"el('text',{x:GUT+pw/2,y:ya+33,'text-anchor':'middle','class':'axis-title'}).textContent="
	"'time since the first event ('+u[0]+'), one column '+dur(lv.w)+', level '+(L+1)+' of '+D.levels.length;"
	"document.getElementById('zoom').textContent=(D.span/sp).toFixed(1)+'x';"
	"var pb=s.querySelector('.plot').getBoundingClientRect(),ms=s.querySelectorAll('.mark'),in_=0,out=0;"
	"for(i=0;i<ms.length;i++){var bb=ms[i].getBoundingClientRect();"
	"if(bb.left>=pb.left-0.5&&bb.right<=pb.right+0.5&&bb.top>=pb.top-0.5&&bb.bottom<=pb.bottom+0.5)in_++;"
	"else out++;}"
	"var sr=s.getBoundingClientRect();document.body.dataset.timeline=[Math.round(sr.left+window.scrollX),"
	"Math.round(sr.top+window.scrollY),Math.round(sr.width),Math.round(sr.height)].join(',');"
	"document.body.dataset.layout=['marks='+ms.length,'inside='+in_,'outside='+out,'ticks='+nt,"
	"'unit='+unit,'level='+(L+1),'levels='+D.levels.length,"
	"'legend='+document.querySelectorAll('.legend .sw').length,'dense='+(dense?1:0)].join(' ');}"
	"var pend=0;function redraw(){if(!pend){pend=1;requestAnimationFrame(function(){pend=0;draw();});}}"
	"function zoom(k,ct){var nw=Math.max((v1-v0)/k,Math.min(1000,D.span));"
	"if(nw>D.span)nw=D.span;v0=ct-(ct-v0)*nw/(v1-v0);v1=v0+nw;"
	"if(v0<0){v1-=v0;v0=0;}if(v1>D.span){v0-=v1-D.span;v1=D.span;}if(v0<0)v0=0;redraw();}"
	"function at(cx){var r=s.getBoundingClientRect(),pw=r.width-GUT-PR;"
	"return v0+Math.min(Math.max((cx-r.left-GUT)/pw,0),1)*(v1-v0);}"
	"s.addEventListener('wheel',function(e){e.preventDefault();zoom(e.deltaY<0?1.25:0.8,at(e.clientX));},"
	"{passive:false});"
	"var d=null;s.addEventListener('mousedown',function(e){d={x:e.clientX,a:v0,b:v1};});"
	"window.addEventListener('mouseup',function(){d=null;});"
	"window.addEventListener('mousemove',function(e){if(!d)return;var r=s.getBoundingClientRect(),"
	"dt=(e.clientX-d.x)/(r.width-GUT-PR)*(d.b-d.a);v0=d.a-dt;v1=d.b-dt;"
	"if(v0<0){v1-=v0;v0=0;}if(v1>D.span){v0-=v1-D.span;v1=D.span;}redraw();});"
	"window.addEventListener('resize',redraw);"
	"document.getElementById('zin').onclick=function(){zoom(2,(v0+v1)/2);};"
	"document.getElementById('zout').onclick=function(){zoom(0.5,(v0+v1)/2);};"
	"document.getElementById('zreset').onclick=function(){v0=0;v1=D.span>0?D.span:1;redraw();};"
	"if(location.hash=='#zoomtest'&&D.span>0){v0=D.span*15/32;v1=D.span*17/32;}"
	"draw();console.log('rqpath report ready');})();";

static double secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/*
 * A string inside the page's <script> data: JSON (rq_json_string(): valid UTF-8, controls
 * escaped) with < > & as \u escapes too, so that no name can close the script element.
 */
static void js_string(FILE *f, const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *mem = open_memstream(&buf, &n);

	if (!mem) {
		fputs("\"\"", f);
		return;
	}
	rq_json_string(mem, s, len);
	if (fclose(mem)) {
		free(buf);
		fputs("\"\"", f);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		switch (buf[i]) {
		case '<': fputs("\\u003c", f); break;
		case '>': fputs("\\u003e", f); break;
		case '&': fputs("\\u0026", f); break;
		default: fputc(buf[i], f); break;
		}
	}
	free(buf);
}

/* The task names the data carries: the first RQ_HTML_COMMS pids that top a column. */
#define RQ_HTML_COMMS 4096

struct comm_table {
	int pid[RQ_HTML_COMMS];
	char comm[RQ_HTML_COMMS][RQ_COMM_LEN];
	int n;
};

static void comm_add(struct comm_table *t, int pid, const char *comm)
{
	for (int i = 0; i < t->n; i++)
		if (t->pid[i] == pid)
			return;
	if (t->n == RQ_HTML_COMMS)
		return;
	t->pid[t->n] = pid;
	memcpy(t->comm[t->n], comm, RQ_COMM_LEN);
	t->comm[t->n][RQ_COMM_LEN - 1] = '\0';
	t->n++;
}

/* Busy level 0..10 of a merged column of group buckets. */
static int busy_level(const struct rq_html *h, const struct rq_html_col *m, int group)
{
	int l = (int)llround(10.0 * (double)m->busy_ns / (double)(h->width * (uint64_t)group));

	return l > 10 ? 10 : l < 0 ? 0 : l;
}

/*
 * One zoom level: columns of group buckets, per CPU run-length coded as n, busy level,
 * pid (0: idle or unknown), and the flagged placements per column as col, finding, n.
 */
static void write_level(FILE *f, struct rq_html *h, int ncols_used, int group,
			struct comm_table *ct)
{
	int ncols = (ncols_used + group - 1) / group;

	fprintf(f, "{\"w\":%llu,\"n\":%d,\"cpu\":[", (unsigned long long)(h->width * (uint64_t)group),
		ncols);
	for (int cpu = 0; cpu < h->nr_cpus; cpu++) {
		int run = 0, last_l = -1, last_p = -1;
		bool first = true;

		fputs(cpu ? ",[" : "[", f);
		for (int c = 0; c <= ncols; c++) {
			struct rq_html_col m = { 0 };
			int l = -2, p = -2;

			if (c < ncols) {
				for (int k = 0; k < group && c * group + k < h->nb; k++)
					merge_col(&m, &m, col(h, cpu, c * group + k));
				l = busy_level(h, &m, group);
				p = l > 0 && m.top_pid > 0 ? m.top_pid : 0;
				if (p > 0)
					comm_add(ct, p, m.top_comm);
			}
			if (l == last_l && p == last_p) {
				run++;
				continue;
			}
			if (run) {
				fprintf(f, "%s%d,%d,%d", first ? "" : ",", run, last_l, last_p);
				first = false;
			}
			run = 1;
			last_l = l;
			last_p = p;
		}
		fputc(']', f);
	}
	fputs("],\"found\":[", f);
	for (int c = 0, any = 0; c < ncols; c++)
		for (int fi = 0; fi < RQ_FIND__COUNT; fi++) {
			uint64_t n = 0;

			for (int k = 0; k < group && c * group + k < h->nb; k++)
				n += h->found[c * group + k][fi];
			if (n)
				fprintf(f, "%s%d,%d,%llu", any++ ? "," : "", c, fi, (unsigned long long)n);
		}
	fputs("]}", f);
}

static void write_mark(FILE *f, const struct rq_html *h, const struct rq_html_mark *m,
		       bool *first)
{
	fprintf(f, "%s[%llu,%d,%d,%u,%lld,%d,%d,", *first ? "" : ",\n",
		(unsigned long long)(m->ts >= h->t0 ? m->ts - h->t0 : 0), m->from, m->to,
		m->findings, (long long)m->delay, (int)m->path, m->pid);
	js_string(f, m->comm, strnlen(m->comm, RQ_COMM_LEN));
	fputc(',', f);
	js_string(f, m->why, strnlen(m->why, sizeof(m->why)));
	fputc(']', f);
	*first = false;
}

/* The data the script draws from, as JSON in a script element of its own. */
static void write_data(FILE *f, struct rq_html *h, uint64_t span)
{
	struct comm_table *ct = calloc(1, sizeof(*ct));
	int used = (int)((span + h->width - 1) / h->width), group = 1;
	bool first = true;

	if (used < 1)
		used = 1;
	if (used > h->nb)
		used = h->nb;
	while ((used + group - 1) / group > RQ_HTML_COLS)
		group++;
	fprintf(f, "<script type=\"application/json\" id=\"rqdata\">{\"span\":%llu,\"t0\":%.9f,"
		   "\"cpus\":%d,\"levels\":[", (unsigned long long)span, secs(h->t0), h->nr_cpus);
	if (ct) {
		write_level(f, h, used, group, ct);
		if (group > 1) {
			fputc(',', f);
			write_level(f, h, used, 1, ct);
		}
	}
	fputs("],\n\"comm\":{", f);
	for (int i = 0; ct && i < ct->n; i++) {
		fprintf(f, "%s\"%d\":", i ? "," : "", ct->pid[i]);
		js_string(f, ct->comm[i], strnlen(ct->comm[i], RQ_COMM_LEN));
	}
	fputs("},\n\"findings\":[", f);
	for (int fi = 0; fi < RQ_FIND__COUNT; fi++)
		fprintf(f, "%s[\"%s\",\"%s\"]", fi ? "," : "", rq_finding_ids[fi],
			rq_findings[fi].colour);
	fputs("],\n\"paths\":[", f);
	for (int p = 0; p < RQ_PATH__COUNT; p++)
		fprintf(f, "%s\"%s\"", p ? "," : "", rq_paths[p].id);
	fputs("],\n\"marks\":[", f);
	for (int i = 0; i < h->nplain; i++)
		write_mark(f, h, &h->plain[i], &first);
	for (int i = 0; i < h->nflagged; i++)
		write_mark(f, h, &h->flagged[i], &first);
	fputs("]}</script>\n", f);
	free(ct);
}

/* The per-CPU timeline: the controls, the legend, the SVG the script draws, its data. */
static void write_timeline(FILE *f, struct rq_html *h)
{
	uint64_t span;

	if (!h->cols) {
		fputs("<p>No timeline: the trace had no events, or memory ran out.</p>\n", f);
		return;
	}
	span = h->last_ts > h->t0 ? h->last_ts - h->t0 : 0;
	fprintf(f, "<p class=\"controls\"><button id=\"zin\">zoom in</button>"
		   "<button id=\"zout\">zoom out</button><button id=\"zreset\">reset</button> "
		   "<span id=\"zoom\">1.0x</span> (wheel zooms, drag pans; hover a mark for "
		   "its explanation)</p>\n<p class=\"legend\">"
		   "<span><i class=\"ramp\"></i>a task's colour (one hue per task), "
		   "its opacity how busy the CPU was</span>"
		   "<span><i class=\"sw\" style=\"background:#f4f4f4;border:1px solid #ccc\"></i>"
		   "idle</span>");
	for (int fi = 0; fi < RQ_FIND__COUNT; fi++)
		fprintf(f, "<span><i class=\"sw\" style=\"background:%s\"></i>%s</span>",
			rq_findings[fi].colour, rq_finding_ids[fi]);
	fputs("<span><i class=\"sw\" style=\"background:#555\"></i>other placement</span></p>\n"
	      "<svg id=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" "
	      "aria-label=\"per-CPU timeline\"></svg>\n<noscript><p>The timeline is drawn by "
	      "the page's script: JavaScript is off.</p></noscript>\n", f);
	write_data(f, h, span);
	fprintf(f, "<p>%.6f s from %.6f s. A lane per CPU: in each column the task that ran "
		   "longest, its opacity how busy the CPU was. A mark goes from the CPU the task "
		   "was on to the CPU it was put on (a dot for a flagged one, drawn on top); the "
		   "strip below counts the flagged placements of each finding per column, every "
		   "one of them. Marks drawn: %d of %llu flagged, %d of %llu other placements%s. "
		   "Zooming draws finer columns (%d per CPU at the finest).</p>\n",
		secs(span), secs(h->t0), h->nflagged, (unsigned long long)h->seen_flagged, h->nplain,
		(unsigned long long)h->seen_plain,
		h->stride_flagged > 1 || h->stride_plain > 1 ?
		" (one in every few, spread over the trace)" : "", h->nb);
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

/*
 * Each finding's verdict: its count, or "not judged", beside its possible ones and the
 * ones the kernel's state showed made no selection (0 without rqpath:truth records).
 */
static void write_findings(FILE *f, struct rq_html *h)
{
	const struct rq_summary *sum = rq_analysis_summary(h->an);

	fputs("<table><tr><th>finding</th><th>count</th><th>possible</th><th>no selection</th>"
	      "<th>not judged</th><th>judged</th></tr>\n", f);
	for (int fi = 0; fi < RQ_FIND__COUNT; fi++) {
		const struct rq_finding_store *st = &sum->findings[fi];
		char count[24];

		fprintf(f, "<tr><td><i class=\"sw\" style=\"background:%s\"></i>%s</td><td>%s</td>"
			   "<td>%llu</td><td>%llu</td><td>%llu</td><td>%llu</td></tr>\n",
			rq_findings[fi].colour, rq_finding_ids[fi],
			verdict_text(st, count, sizeof(count)), (unsigned long long)st->possible,
			(unsigned long long)st->no_selection, (unsigned long long)st->not_judged,
			(unsigned long long)st->judged);
	}
	fputs("</table>\n<p>Where they are in time: the strip under the CPUs of the "
	      "timeline.</p>\n", f);
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

/*
 * A histogram of queue delays, 100 ns to 10 s, two bins a decade, as an SVG with its axes:
 * x the delay (log scale, labelled per decade), y the placements (0, half, the largest
 * bin, with grid lines).
 */
static void delay_histogram(FILE *f, const char *label, const struct rq_sketch *s,
			    const char *colour)
{
	enum { LO = 2, PER = 2, N = 16, X0 = 46, BW = 16, Y0 = 8, PH = 70 };
	static const char *const ticks[] = { "100ns", "1\u00b5s", "10\u00b5s", "100\u00b5s",
					     "1ms", "10ms", "100ms", "1s", "10s" };
	uint64_t c[N], max = 1;

	if (!s->n)
		return;
	rq_sketch_histogram(s, LO, PER, N, c);
	for (int i = 0; i < N; i++)
		max = c[i] > max ? c[i] : max;
	fprintf(f, "<figure style=\"display:inline-block;margin:0 1.5em 1em 0\"><svg width=\"%d\" "
		   "height=\"%d\" font-size=\"9\" role=\"img\" aria-label=\"queue delay histogram, "
		   "%s\">", X0 + N * BW + 16, Y0 + PH + 34, label);
	/* y axis: grid and labels at 0, half and the largest bin */
	for (int k = 0; k <= 2; k++) {
		double y = Y0 + PH - PH * k / 2.0;

		fprintf(f, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\"/>"
			   "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\" class=\"ytick\">%llu</text>",
			X0, y, X0 + N * BW, y, k ? "#ddd" : "#333", X0 - 4, y + 3,
			(unsigned long long)(max * (uint64_t)k / 2));
	}
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>"
		   "<text transform=\"translate(10,%d) rotate(-90)\" text-anchor=\"middle\">"
		   "placements</text>", X0, Y0, X0, Y0 + PH, Y0 + PH / 2);
	for (int i = 0; i < N; i++)
		if (c[i])
			fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" "
				   "fill=\"%s\"><title>%llu</title></rect>", X0 + 1 + i * BW,
				Y0 + PH - (double)PH * (double)c[i] / (double)max, BW - 2,
				(double)PH * (double)c[i] / (double)max, colour,
				(unsigned long long)c[i]);
	for (int t = 0; t <= N / PER; t++)
		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#333\"/>"
			   "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" class=\"xtick\">%s</text>",
			X0 + t * PER * BW, Y0 + PH, X0 + t * PER * BW, Y0 + PH + 4, X0 + t * PER * BW,
			Y0 + PH + 14, ticks[t]);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">queue delay (log scale)"
		   "</text></svg><figcaption>%s (%llu)</figcaption></figure>\n",
		X0 + N * BW / 2, Y0 + PH + 29, label, (unsigned long long)s->n);
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
	fputs("<h2>Findings</h2>\n", f);
	write_findings(f, h);
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
