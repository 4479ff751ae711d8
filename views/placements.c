// SPDX-License-Identifier: GPL-2.0
/*
 * placements.c - the scrolling list of recent placements (the engine's ring), oldest
 * first, with a filter (pid, comm, CPU, kind, path, finding, teach node) and / search.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curses.h>

#include "escape.h"
#include "order.h"
#include "teach.h"
#include "tlindex.h"
#include "tui.h"

enum pl_sort { PS_TIME, PS_KIND, PS_PID, PS_COMM, PS_CPU, PS_PATH, PS_CONF, PS_FINDINGS,
	       PS__COUNT };

/*
 * Rows come from the whole-trace index once the trace has been read to its end (every
 * placement reachable, up to the replay position), else from the engine's ring of the
 * most recent ones (while loading, and live).
 */
struct pl_state {
	struct pl_filter filter;
	const struct rq_placement **rows;	/* ring rows */
	uint32_t *irows;			/* index rows made here: positions in idx->pl */
	/*
	 * The index rows shown: positions in idx->pl, from irows, the base or a column's
	 * order as they are (no copy), NULL for all of them in time order; read backwards
	 * when rev.  pos_of() gives a data row's position.
	 */
	const uint32_t *rowp;
	bool rev;
	bool indexed;
	struct rq_placement scratch[4];		/* index rows expanded, briefly */
	int next_scratch;
	int nrows, cap;
	uint64_t generation;
	bool built;
	uint64_t sel_seq;
	int sel_title;		/* the selection is on a section's title: -1 or -2, else 0 */
	bool follow;		/* the last row was selected: stay there as rows arrive */
	/*
	 * with=F: two sections, each under a title row, the proven placements first, then
	 * the possible ones.  Screen rows (v->sel, v->top, rows(), match()) count the two
	 * titles; data rows (rows[], irows[], row_pl()) do not.
	 */
	bool sections;
	int nproven;
	bool first;		/* select the first placement at the next rebuild */
	uint32_t sel_pos;	/* index rows: the selected placement's position in idx->pl */
	/*
	 * Index rows (up to every placement of a long trace: millions) answer a sort key or
	 * a search step without a pass over the 56-byte records:
	 *  - base: the filter's rows in time order, made when the filter or the replay
	 *    position changes (all: no filter, the first n_until positions);
	 *  - order[c]: every position by column c (rq_order, a stable radix sort), made once
	 *    per index and kept, in the background (placements_idle()) or at the first use;
	 *    a sort key is one pass over it keeping the base's rows;
	 *  - columns: per position its comm id, path and pid, so a search is one pass over
	 *    the columns it needs (a comm or a path: 5 bytes a row; digits: the pid too;
	 *    nothing can match: no pass) into a bitmap (mbits), and one over the rows into
	 *    a list of the matching screen rows (mrows), which n and N walk by bisection.
	 */
	const struct tl_index *ox;	/* the index of the orders and columns below */
	size_t on;			/* its sorted placements then */
	struct rq_order *order[PS__COUNT];
	uint32_t *comm_rank;		/* comm id -> rank of its name (the comm order's key) */
	int path_rank[RQ_PATH__COUNT];
	uint32_t *col_comm;
	uint8_t *col_path;
	int32_t *col_pid;
	size_t ncols;			/* made so far */
	size_t nmatch;			/* positions in mbits */
	int32_t max_pid;
	uint32_t *base;			/* the filtered rows (NULL: all of the first n_until) */
	uint64_t *inbase;		/* ... as a bitmap of positions */
	size_t n_until, nbase, basecap;
	bool base_ok;
	uint64_t base_gen;
	uint64_t rows_ver;		/* bumped whenever the rows change */
	uint64_t *mbits;		/* positions that match msearch */
	char msearch[64];
	bool micase, mbits_ok;
	int *mrows, nm, mcap;		/* screen rows that match, ascending */
	uint64_t mrows_ver;
	struct tui_sort sort;	/* sort.c; col 0 (time), not reversed: the trace's order */
};

static const char *const ps_names[PS__COUNT] = { "time", "kind", "pid", "comm", "cpu", "path",
						 "conf", "findings" };

/* What a sort compares, from a ring placement or an index entry alike. */
struct pl_key {
	uint64_t ts;
	uint32_t seq;
	int pid, to, path, conf;
	unsigned int findings;
	const char *comm;
};


void pl_finding_marks(unsigned int findings, unsigned int possible, char *buf)
{
	for (int f = 0; f < RQ_FIND__COUNT; f++) {
		char c = rq_finding_letters[f];

		buf[f] = findings & (1u << f) ? c : possible & (1u << f) ?
			 (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) : '.';
	}
	buf[RQ_FIND__COUNT] = '\0';
}

void pl_filter_clear(struct pl_filter *f)
{
	f->pid = f->cpu = f->kind = f->path = f->finding = f->possible = f->with = f->flagged =
		f->node = -1;
	f->node_maybe = false;
	f->comm[0] = '\0';
}

static int lookup(const char *v, const char *const *names, int n, size_t stride)
{
	for (int i = 0; i < n; i++) {
		const char *name = *(const char *const *)((const char *)names + i * stride);

		if (!strcmp(v, name))
			return i;
	}
	return -1;
}

int pl_filter_parse(struct pl_filter *f, const char *text, char *err, size_t errlen)
{
	char buf[256], *save = NULL, *tok;
	struct pl_filter nf;

	pl_filter_clear(&nf);
	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(tok, '='), *end;
		const char *key = tok, *val;

		if (!eq) {
			snprintf(nf.comm, sizeof(nf.comm), "%s", tok);
			continue;
		}
		*eq = '\0';
		val = eq + 1;
		if (!strcmp(key, "pid") || !strcmp(key, "cpu")) {
			long n = strtol(val, &end, 10);

			if (!*val || *end || n < 0 || n > 1 << 30) {
				snprintf(err, errlen, "%s wants a number, not '%s'", key, val);
				return -1;
			}
			if (key[0] == 'p')
				nf.pid = (int)n;
			else
				nf.cpu = (int)n;
		} else if (!strcmp(key, "comm")) {
			snprintf(nf.comm, sizeof(nf.comm), "%s", val);
		} else if (!strcmp(key, "kind")) {
			nf.kind = lookup(val, (const char *const *)rq_kind_names, RQ_KIND__COUNT,
					 sizeof(rq_kind_names[0]));
			if (nf.kind < 0) {
				snprintf(err, errlen, "no kind '%s' (fork, exec, wakeup, balance, "
					 "newidle, stopper, affinity, numa, unknown)", val);
				return -1;
			}
		} else if (!strcmp(key, "path")) {
			nf.path = lookup(val, &rq_paths[0].id, RQ_PATH__COUNT, sizeof(rq_paths[0]));
			if (nf.path < 0) {
				snprintf(err, errlen, "no path '%s' (see the dashboard or "
					 "rqpath-paths(7))", val);
				return -1;
			}
		} else if (!strcmp(key, "finding")) {
			nf.finding = lookup(val, (const char *const *)rq_finding_ids,
					    RQ_FIND__COUNT, sizeof(rq_finding_ids[0]));
			if (nf.finding < 0) {
				snprintf(err, errlen, "no finding '%s' (%s)", val,
					 rq_finding_id_list());
				return -1;
			}
		} else if (!strcmp(key, "possible") || !strcmp(key, "with")) {
			int *to = key[0] == 'p' ? &nf.possible : &nf.with;

			*to = lookup(val, (const char *const *)rq_finding_ids, RQ_FIND__COUNT,
				     sizeof(rq_finding_ids[0]));
			if (*to < 0) {
				snprintf(err, errlen, "no finding '%s' (%s)", val,
					 rq_finding_id_list());
				return -1;
			}
		} else if (!strcmp(key, "flagged")) {
			if (strcmp(val, "yes") && strcmp(val, "no")) {
				snprintf(err, errlen, "flagged wants yes or no, not '%s'", val);
				return -1;
			}
			nf.flagged = val[0] == 'y';
		} else if (!strcmp(key, "node")) {
			/* an id, or the step number rqpath explain and the teach view print; a
			 * trailing ? asks for the placements that may have taken the step */
			char id[64];
			size_t n = strlen(val);
			long num;

			nf.node_maybe = n && val[n - 1] == '?';
			snprintf(id, sizeof(id), "%.*s", (int)(n - nf.node_maybe), val);
			num = strtol(id, &end, 10);
			if (id[0] && !*end)
				nf.node = num >= 1 && num <= rq_teach_nr_nodes ? (int)num - 1 : -1;
			else
				nf.node = lookup(id, &rq_teach_nodes[0].id, rq_teach_nr_nodes,
						 sizeof(rq_teach_nodes[0]));
			if (nf.node < 0) {
				snprintf(err, errlen, "no teach step '%s' (1-%d, or an id)", val,
					 rq_teach_nr_nodes);
				return -1;
			}
		} else {
			snprintf(err, errlen, "unknown filter key '%s' (pid comm cpu kind path "
				 "finding possible with flagged node)", key);
			return -1;
		}
	}
	*f = nf;
	return 0;
}

void pl_filter_format(const struct pl_filter *f, char *buf, size_t size)
{
	size_t off = 0;

#define ADD(...) (off += snprintf(buf + off, off < size ? size - off : 0, __VA_ARGS__))
	buf[0] = '\0';
	if (f->pid >= 0)
		ADD("%spid=%d", off ? " " : "", f->pid);
	if (f->comm[0])
		ADD("%scomm=%s", off ? " " : "", f->comm);
	if (f->cpu >= 0)
		ADD("%scpu=%d", off ? " " : "", f->cpu);
	if (f->kind >= 0)
		ADD("%skind=%s", off ? " " : "", rq_kind_names[f->kind]);
	if (f->path >= 0)
		ADD("%spath=%s", off ? " " : "", rq_paths[f->path].id);
	if (f->finding >= 0)
		ADD("%sfinding=%s", off ? " " : "", rq_finding_ids[f->finding]);
	if (f->possible >= 0)
		ADD("%spossible=%s", off ? " " : "", rq_finding_ids[f->possible]);
	if (f->with >= 0)
		ADD("%swith=%s", off ? " " : "", rq_finding_ids[f->with]);
	if (f->flagged >= 0)
		ADD("%sflagged=%s", off ? " " : "", f->flagged ? "yes" : "no");
	if (f->node >= 0)
		ADD("%snode=%s%s", off ? " " : "", rq_teach_nodes[f->node].id,
		    f->node_maybe ? "?" : "");
#undef ADD
}

static bool comm_has(const char *comm, const char *needle)
{
	return tui_name_has(comm, strnlen(comm, RQ_COMM_LEN), needle, false);
}

bool pl_filter_match(const struct pl_filter *f, const struct rq_placement *p)
{
	if (f->pid >= 0 && p->pid != f->pid)
		return false;
	if (f->cpu >= 0 && p->from_cpu != f->cpu && p->to_cpu != f->cpu)
		return false;
	if (f->kind >= 0 && (int)rq_paths[p->path].kind != f->kind)
		return false;
	if (f->path >= 0 && (int)p->path != f->path)
		return false;
	if (f->finding >= 0 && !(p->findings & (1u << f->finding)))
		return false;
	if (f->possible >= 0 && !(p->possible & (1u << f->possible)))
		return false;
	if (f->with >= 0 && !((p->findings | p->possible) & (1u << f->with)))
		return false;
	if (f->flagged >= 0 && !p->findings != !f->flagged)
		return false;
	if (f->node >= 0 && rq_teach_node_mark(f->node, p->path) !=
	    (f->node_maybe ? RQ_TEACH_MAYBE : RQ_TEACH_TAKEN))
		return false;
	if (f->comm[0] && !comm_has(p->comm, f->comm))
		return false;
	return true;
}

static int cmp_ts(const void *a, const void *b)
{
	const struct rq_placement *x = *(const struct rq_placement *const *)a;
	const struct rq_placement *y = *(const struct rq_placement *const *)b;

	if (x->ts != y->ts)
		return x->ts < y->ts ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Screen rows: the data rows and, with sections, their two titles. */
static int nshown(const struct pl_state *s)
{
	return s->nrows + (s->sections ? 2 : 0);
}

/* The data row of screen row r; a title: -1 (proven) or -2 (possible). */
static int data_of(const struct pl_state *s, int r)
{
	if (!s->sections)
		return r;
	if (r == 0)
		return -1;
	if (r <= s->nproven)
		return r - 1;
	return r == s->nproven + 1 ? -2 : r - 2;
}

static int screen_of(const struct pl_state *s, int d)
{
	if (!s->sections)
		return d;
	return d < 0 ? (d == -1 ? 0 : s->nproven + 1) : d < s->nproven ? d + 1 : d + 2;
}

/* Data row d's position in idx->pl (index rows). */
static uint32_t pos_of(const struct pl_state *s, int d)
{
	int i = s->rev ? s->nrows - 1 - d : d;

	return s->rowp ? s->rowp[i] : (uint32_t)i;
}

/* Row i as a placement: the ring's, or an index entry expanded into a scratch slot. */
static const struct rq_placement *row_pl(struct view *v, int i)
{
	struct pl_state *s = v->priv;
	struct rq_placement *p;

	if (!s->indexed)
		return s->rows[i];
	p = &s->scratch[s->next_scratch++ % 4];
	tl_pl_expand(v->t->cur->idx, &v->t->cur->idx->pl[pos_of(s, i)], p);
	return p;
}

static uint32_t row_seq(struct view *v, int i)
{
	struct pl_state *s = v->priv;

	return s->indexed ? v->t->cur->idx->pl[pos_of(s, i)].seq : (uint32_t)s->rows[i]->seq;
}

/*
 * pl_filter_match() on an index entry, without expanding it; cm (may be NULL): whether
 * each comm id matches comm=, worked out once per filter.
 */
static bool match_compact(const struct pl_filter *f, const struct tl_index *x,
			  const struct tl_pl *c, const uint8_t *cm)
{
	int path = c->path < RQ_PATH__COUNT ? c->path : RQ_PATH_UNKNOWN;

	if (f->pid >= 0 && c->pid != f->pid)
		return false;
	if (f->cpu >= 0 && c->from != f->cpu && c->to != f->cpu)
		return false;
	if (f->kind >= 0 && (int)rq_paths[path].kind != f->kind)
		return false;
	if (f->path >= 0 && path != f->path)
		return false;
	if (f->finding >= 0 && !(c->findings & (1u << f->finding)))
		return false;
	if (f->possible >= 0 && !(TL_POSSIBLE(c) & (1u << f->possible)))
		return false;
	if (f->with >= 0 && !((c->findings | TL_POSSIBLE(c)) & (1u << f->with)))
		return false;
	if (f->flagged >= 0 && !c->findings != !f->flagged)
		return false;
	if (f->node >= 0 && rq_teach_node_mark(f->node, path) !=
	    (f->node_maybe ? RQ_TEACH_MAYBE : RQ_TEACH_TAKEN))
		return false;
	if (f->comm[0] && cm)
		return c->comm < x->ncomms && cm[c->comm];
	if (f->comm[0] && !comm_has(tl_comm(x, c->comm), f->comm))
		return false;
	return true;
}

static bool filter_empty(const struct pl_filter *f)
{
	return f->pid < 0 && f->cpu < 0 && f->kind < 0 && f->path < 0 && f->finding < 0 &&
	       f->possible < 0 && f->with < 0 && f->flagged < 0 && f->node < 0 && !f->comm[0];
}

#define BIT_SET(m, i) ((m)[(i) >> 6] |= 1ull << ((i) & 63))
#define BIT_HAS(m, i) (((m)[(i) >> 6] >> ((i) & 63)) & 1)

/* The orders and the search columns belong to one index: drop them for another. */
static void index_reset(struct pl_state *s, const struct tl_index *x)
{
	if (s->ox == x && s->on == x->sorted)
		return;
	for (int c = 0; c < PS__COUNT; c++) {
		rq_order_free(s->order[c]);
		s->order[c] = NULL;
	}
	free(s->comm_rank);
	free(s->col_comm);
	free(s->col_path);
	free(s->col_pid);
	free(s->mbits);
	free(s->inbase);
	s->comm_rank = NULL;
	s->col_comm = NULL;
	s->col_path = NULL;
	s->col_pid = NULL;
	s->mbits = NULL;
	s->inbase = NULL;
	s->ncols = 0;
	s->max_pid = 0;
	s->mbits_ok = false;
	s->base_ok = false;
	s->built = false;	/* the rows may point into the orders */
	s->rowp = NULL;
	s->nrows = 0;
	s->ox = x;
	s->on = x->sorted;
}

/* The filter's rows in time order, up to the replay position. */
static int rebuild_base(struct view *v)
{
	struct pl_state *s = v->priv;
	struct tl_index *x = v->t->cur->idx;
	struct rq_analysis *an = tui_side_an(v->t->cur);
	uint64_t until = an ? rq_analysis_summary(an)->last_ts : 0;
	uint8_t *cm = NULL;

	tl_index_sort(x);
	index_reset(s, x);
	s->n_until = until == UINT64_MAX ? x->sorted : tl_pl_at(x, until + 1);
	if (s->base_ok && s->base_gen == v->t->generation)
		return 0;
	s->base_ok = false;
	free(s->base);
	s->base = NULL;
	s->rowp = NULL;
	s->nrows = 0;
	s->nbase = s->n_until;
	if (filter_empty(&s->filter)) {
		s->base_ok = true;
		s->base_gen = v->t->generation;
		return 0;
	}
	s->base = malloc((s->n_until ? s->n_until : 1) * sizeof(*s->base));
	free(s->inbase);
	s->inbase = calloc(x->sorted / 64 + 1, sizeof(*s->inbase));
	if (!s->base || !s->inbase)
		return -1;
	s->nbase = 0;
	/* comm= matched once per distinct name, not once per row */
	if (s->filter.comm[0] && (cm = malloc((size_t)x->ncomms + 1)))
		for (uint32_t i = 0; i < x->ncomms; i++)
			cm[i] = comm_has(tl_comm(x, i), s->filter.comm);
	for (size_t i = 0; i < s->n_until; i++) {
		if (match_compact(&s->filter, x, &x->pl[i], cm)) {
			s->base[s->nbase++] = (uint32_t)i;
			BIT_SET(s->inbase, i);
		}
	}
	free(cm);
	s->base_ok = true;
	s->base_gen = v->t->generation;
	return 0;
}

static bool in_base(const struct pl_state *s, uint32_t pos)
{
	return s->base ? BIT_HAS(s->inbase, pos) : pos < s->n_until;
}

/* What each column's order compares: one 32-bit key a placement, ties by position. */
struct okey {
	const struct tl_index *x;
	const struct pl_state *s;
	int col;
};

static uint32_t okey_of(void *data, uint32_t i)
{
	const struct okey *k = data;
	const struct tl_pl *c = &k->x->pl[i];
	int path = c->path < RQ_PATH__COUNT ? c->path : RQ_PATH_UNKNOWN;

	switch (k->col) {
	case PS_KIND:
		return rq_paths[path].kind;
	case PS_PID:
		return (uint32_t)c->pid;
	case PS_COMM:
		return c->comm < k->x->ncomms ? k->s->comm_rank[c->comm] : 0;
	case PS_CPU:
		return (uint32_t)(c->to + 32768);
	case PS_PATH:
		return (uint32_t)k->s->path_rank[path];
	case PS_CONF:
		return TL_CONF(c);
	case PS_FINDINGS:	/* flagged first, the most findings first */
		return (uint32_t)(8 - __builtin_popcount(c->findings)) << 8 |
		       (uint32_t)(255 - c->findings);
	default:
		return 0;
	}
}

static const struct tl_index *rank_x;

static int cmp_comm_id(const void *pa, const void *pb)
{
	return strncmp(tl_comm(rank_x, *(const uint32_t *)pa),
		       tl_comm(rank_x, *(const uint32_t *)pb), RQ_COMM_LEN);
}

static int cmp_path_id(const void *pa, const void *pb)
{
	return strcmp(rq_paths[*(const int *)pa].id, rq_paths[*(const int *)pb].id);
}

/* The ranks of the names: comms (equal names share a rank) and paths. */
static int make_ranks(struct pl_state *s, const struct tl_index *x)
{
	int order[RQ_PATH__COUNT];
	uint32_t *ids;

	if (s->comm_rank)
		return 0;
	ids = malloc(((size_t)x->ncomms + 1) * sizeof(*ids));
	s->comm_rank = malloc(((size_t)x->ncomms + 1) * sizeof(*s->comm_rank));
	if (!ids || !s->comm_rank) {
		free(ids);
		free(s->comm_rank);
		s->comm_rank = NULL;
		return -1;
	}
	for (uint32_t i = 0; i < x->ncomms; i++)
		ids[i] = i;
	rank_x = x;
	qsort(ids, x->ncomms, sizeof(*ids), cmp_comm_id);
	for (uint32_t i = 0, k = 0; i < x->ncomms; i++) {
		if (i && strncmp(tl_comm(x, ids[i]), tl_comm(x, ids[i - 1]), RQ_COMM_LEN))
			k = i;
		s->comm_rank[ids[i]] = k;
	}
	free(ids);
	for (int i = 0; i < RQ_PATH__COUNT; i++)
		order[i] = i;
	qsort(order, RQ_PATH__COUNT, sizeof(order[0]), cmp_path_id);
	for (int i = 0; i < RQ_PATH__COUNT; i++)
		s->path_rank[order[i]] = i;
	return 0;
}

static struct okey okeys[PS__COUNT];

/* Work on column col's order for about budget placements (0: finish it); true when done. */
static bool order_step(struct pl_state *s, const struct tl_index *x, int col, uint32_t budget)
{
	if (!s->order[col]) {
		if (make_ranks(s, x))
			return false;
		okeys[col] = (struct okey){ x, s, col };
		s->order[col] = rq_order_new((uint32_t)x->sorted, okey_of, &okeys[col]);
		if (!s->order[col])
			return false;
	}
	return rq_order_step(s->order[col], budget);
}

/* The search's columns, made for about budget placements (0: all). */
static bool cols_step(struct pl_state *s, const struct tl_index *x, size_t budget)
{
	size_t end, n = x->sorted ? x->sorted : 1;

	if (!s->col_comm) {
		s->col_comm = malloc(n * sizeof(*s->col_comm));
		s->col_path = malloc(n * sizeof(*s->col_path));
		s->col_pid = malloc(n * sizeof(*s->col_pid));
		if (!s->col_comm || !s->col_path || !s->col_pid) {
			free(s->col_comm);
			free(s->col_path);
			free(s->col_pid);
			s->col_comm = NULL;
			s->col_path = NULL;
			s->col_pid = NULL;
			return false;
		}
	}
	end = !budget || x->sorted - s->ncols < budget ? x->sorted : s->ncols + budget;
	for (size_t i = s->ncols; i < end; i++) {
		const struct tl_pl *c = &x->pl[i];

		s->col_comm[i] = c->comm;
		s->col_path[i] = c->path < RQ_PATH__COUNT ? c->path : RQ_PATH_UNKNOWN;
		s->col_pid[i] = c->pid;
		if (c->pid > s->max_pid)
			s->max_pid = c->pid;
	}
	s->ncols = end;
	return s->ncols == x->sorted;
}

static int rebuild_ring(struct view *v)
{
	struct pl_state *s = v->priv;
	const struct rq_analysis *an = tui_side_an(v->t->cur);
	const struct rq_summary *sum = an ? rq_analysis_summary(an) : NULL;
	unsigned int n = an ? sum->recent_len : 0;

	if ((int)n > s->cap) {
		const struct rq_placement **r = realloc(s->rows, n * sizeof(*r));

		if (!r)
			return -1;
		s->rows = r;
		s->cap = n;
	}
	s->nrows = 0;
	for (unsigned int i = n; i-- > 0;) {
		const struct rq_placement *p = rq_recent(an, i);

		if (p && pl_filter_match(&s->filter, p))
			s->rows[s->nrows++] = p;
	}
	/* the ring is in classification order; show trace time order */
	if (s->nrows > 1)
		qsort(s->rows, s->nrows, sizeof(s->rows[0]), cmp_ts);
	return 0;
}

static struct pl_key key_of_ring(const struct rq_placement *p)
{
	return (struct pl_key){ p->ts, (uint32_t)p->seq, p->pid, p->to_cpu, p->path, p->conf,
				p->findings, p->comm };
}

#define CMP(a, b) (((a) > (b)) - ((a) < (b)))

/* Times, names and numbers smallest first; flagged placements (more findings) first. */
static int cmp_key(const struct pl_key *a, const struct pl_key *b, const struct tui_sort *k)
{
	int c = 0;

	switch (k->col) {
	case PS_KIND:
		c = CMP(rq_paths[a->path].kind, rq_paths[b->path].kind);
		break;
	case PS_PID:
		c = CMP(a->pid, b->pid);
		break;
	case PS_COMM:
		c = strncmp(a->comm, b->comm, RQ_COMM_LEN);
		break;
	case PS_CPU:
		c = CMP(a->to, b->to);
		break;
	case PS_PATH:
		c = strcmp(rq_paths[a->path].id, rq_paths[b->path].id);
		break;
	case PS_CONF:
		c = CMP(a->conf, b->conf);
		break;
	case PS_FINDINGS:
		c = CMP(__builtin_popcount(b->findings), __builtin_popcount(a->findings));
		if (!c)
			c = CMP(b->findings, a->findings);
		break;
	default:
		break;
	}
	if (!c)
		c = CMP(a->ts, b->ts);
	if (!c)
		c = CMP(a->seq, b->seq);
	return k->reverse ? -c : c;
}

struct sort_ctx {
	const struct tl_index *x;
	const struct tui_sort *k;
};

static int cmp_ring(const void *pa, const void *pb, void *data)
{
	const struct sort_ctx *c = data;
	struct pl_key a = key_of_ring(*(const struct rq_placement *const *)pa);
	struct pl_key b = key_of_ring(*(const struct rq_placement *const *)pb);

	return cmp_key(&a, &b, c->k);
}

/* Room for n index rows of our own in irows. */
static int irows_room(struct pl_state *s, size_t n)
{
	if (n > (size_t)s->cap) {
		uint32_t *r = realloc(s->irows, n * sizeof(*r));

		if (!r)
			return -1;
		s->irows = r;
		s->cap = (int)n;
	}
	return 0;
}

/*
 * The index rows in the sort's order: the base itself (time), or the base's rows taken
 * from the column's order: the order itself when the base is every placement (a sort key
 * is then no pass at all); reversed by reading backwards.
 */
static int sort_index(struct view *v)
{
	struct pl_state *s = v->priv;
	const struct tl_index *x = v->t->cur->idx;
	const uint32_t *ids;
	uint32_t n;

	s->rev = s->sort.reverse;
	s->rowp = NULL;
	s->nrows = (int)s->nbase;
	if (s->sort.col == PS_TIME) {
		s->rowp = s->base;	/* NULL: all, in time order */
		return 0;
	}
	/* the first use before the background made it: now, whole */
	if (!order_step(s, x, s->sort.col, 0))
		return -1;
	ids = rq_order_ids(s->order[s->sort.col]);
	n = rq_order_len(s->order[s->sort.col]);
	if (!s->base && s->n_until == n) {
		s->rowp = ids;
		return 0;
	}
	if (irows_room(s, s->nbase ? s->nbase : 1))
		return -1;
	s->nrows = 0;
	for (uint32_t i = 0; i < n; i++)
		if (in_base(s, ids[i]))
			s->irows[s->nrows++] = ids[i];
	s->rowp = s->irows;
	return 0;
}

/* The ring's rows come in time order: another order is a sort, time reversed a reversal. */
static void sort_ring(struct view *v)
{
	struct pl_state *s = v->priv;
	struct sort_ctx c = { v->t->cur->idx, &s->sort };

	if (s->nrows < 2 || (s->sort.col == PS_TIME && !s->sort.reverse))
		return;
	if (s->sort.col == PS_TIME) {
		for (int i = 0, j = s->nrows - 1; i < j; i++, j--) {
			const struct rq_placement *t = s->rows[i];

			s->rows[i] = s->rows[j];
			s->rows[j] = t;
		}
		return;
	}
	qsort_r(s->rows, s->nrows, sizeof(s->rows[0]), cmp_ring, &c);
}

/* with=F: the proven placements first, then the possible ones, each in its order. */
static void section_rows(struct view *v)
{
	struct pl_state *s = v->priv;
	const struct tl_index *x = v->t->cur->idx;
	unsigned int bit;
	void *tmp;
	size_t size = s->indexed ? sizeof(uint32_t) : sizeof(s->rows[0]);
	int k = 0;

	s->sections = s->filter.with >= 0;
	s->nproven = 0;
	if (!s->sections || !s->nrows)
		return;
	bit = 1u << s->filter.with;
	tmp = malloc((size_t)s->nrows * size);
	if (!tmp) {
		tui_message(v->t, "out of memory");
		return;
	}
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < s->nrows; i++) {
			bool proven = s->indexed ? x->pl[pos_of(s, i)].findings & bit :
					  s->rows[i]->findings & bit;

			if (proven != !pass)
				continue;
			if (s->indexed)
				((uint32_t *)tmp)[k++] = pos_of(s, i);
			else
				((const struct rq_placement **)tmp)[k++] = s->rows[i];
		}
		if (!pass)
			s->nproven = k;
	}
	if (s->indexed) {
		/* the rows are ours now, in this order */
		if (irows_room(s, (size_t)s->nrows)) {
			free(tmp);
			s->sections = false;
			return;
		}
		s->rowp = s->irows;
		s->rev = false;
	}
	memcpy(s->indexed ? (void *)s->irows : (void *)s->rows, tmp, (size_t)s->nrows * size);
	free(tmp);
}

static void rebuild(struct view *v)
{
	struct pl_state *s = v->priv;
	bool indexed = v->t->cur->idx && v->t->cur->idx->complete && !v->t->cur->live;
	int keep = -1;

	if (s->built && !v->stale && s->generation == v->t->generation && s->indexed == indexed)
		return;
	v->stale = false;
	if (indexed != s->indexed) {
		s->cap = 0;
		free(s->rows);
		free(s->irows);
		s->rows = NULL;
		s->irows = NULL;
		s->rowp = NULL;
		s->indexed = indexed;
	}
	if (indexed ? rebuild_base(v) || sort_index(v) : rebuild_ring(v)) {
		s->nrows = 0;
		tui_message(v->t, "placements: out of memory");
		return;
	}
	if (!indexed)
		sort_ring(v);
	section_rows(v);
	s->rows_ver++;
	s->generation = v->t->generation;
	s->built = true;
	/* keep the selection on the same placement, or on the newest when following */
	keep = s->nrows - 1;
	if (!s->follow && s->sel_seq && s->indexed) {
		/* one pass over the positions, not over the records */
		for (int i = 0; i < s->nrows; i++) {
			if (pos_of(s, i) == s->sel_pos) {
				keep = i;
				break;
			}
		}
	} else if (!s->follow && s->sel_seq) {
		for (int i = 0; i < s->nrows; i++) {
			if (row_seq(v, i) == (uint32_t)s->sel_seq) {
				keep = i;
				break;
			}
		}
	}
	if (!s->follow && s->sel_title && s->sections)
		keep = s->sel_title;
	if (s->first) {
		keep = 0;
		s->first = false;
	}
	if (keep < 0 && !s->sections)
		keep = 0;
	v->sel = screen_of(s, keep);
	tui_list_clamp(v, nshown(s), v->height - 3);
}

static void remember(struct view *v)
{
	struct pl_state *s = v->priv;
	int d = data_of(s, v->sel);

	s->follow = s->nrows && v->sel >= nshown(s) - 1;
	s->sel_title = d < 0 && s->sections ? d : 0;
	s->sel_seq = s->nrows && d >= 0 ? row_seq(v, d) : 0;
	if (s->indexed && s->nrows && d >= 0)
		s->sel_pos = pos_of(s, d);
}

static int placements_open(struct view *v, const void *arg)
{
	struct pl_state *s = v->priv;

	if (arg)
		s->filter = *(const struct pl_filter *)arg;
	else
		pl_filter_clear(&s->filter);
	s->built = false;
	s->base_ok = false;
	s->follow = true;
	s->sel_seq = 0;
	s->sel_title = 0;
	v->top = v->sel = 0;
	/* a finding's two sections open on their first placement */
	if (s->filter.with >= 0) {
		s->follow = false;
		s->first = true;
	}
	return 0;
}

bool pl_step(struct view *v, int dir)
{
	struct pl_state *s = v->priv;

	int r, d;

	rebuild(v);
	/* over the sections' titles */
	for (r = v->sel + dir; r >= 0 && r < nshown(s) && data_of(s, r) < 0; r += dir)
		;
	if (r < 0 || r >= nshown(s))
		return false;
	v->sel = r;
	d = data_of(s, r);
	tui_list_clamp(v, nshown(s), v->height > 0 ? v->height : 10);
	remember(v);
	/* backwards past what the evidence's reader still holds: the rows before this one
	 * all in the one pass from the start, not a pass each */
	if (dir < 0 && !v->t->cur->live && v->t->cur->path &&
	    !tui_evidence_near(v->t, v->t->cur->path, row_pl(v, d))) {
		struct rq_placement *ps = malloc(TUI_EV_PREFETCH * sizeof(*ps));
		int n = 0;

		for (int i = d; ps && i >= 0 && n < TUI_EV_PREFETCH; i--)
			ps[n++] = *row_pl(v, i);
		if (ps)
			tui_evidence_prefetch(v->t, v->t->cur->path, ps, n);
		free(ps);
	}
	tui_open_placement(v->t, row_pl(v, d));
	if (s->sections)
		tui_message(v->t, "%s placement %d of %d in the list", d < s->nproven ?
			    "proven" : "possible", d < s->nproven ? d + 1 : d - s->nproven + 1,
			    d < s->nproven ? s->nproven : s->nrows - s->nproven);
	else
		tui_message(v->t, "placement %d of %d in the list", d + 1, s->nrows);
	return true;
}

static int comm_width(const struct tui *t)
{
	int extra = COLS - 80 - (tui_time_width(t) - 10);

	if (extra < 0)
		return 14 + extra > 6 ? 14 + extra : 6;
	return 14 + (extra > 18 ? 18 : extra);
}

static void draw_row(struct view *v, int y, const struct rq_placement *p, bool sel)
{
	struct tui *t = v->t;
	char buf[160], from[16], marks[8], ts[48];
	int x, cw = comm_width(t);

	tui_list_bar(y, sel);
	if (p->from_cpu >= 0)
		snprintf(from, sizeof(from), "%d", p->from_cpu);
	else
		snprintf(from, sizeof(from), "?");
	snprintf(buf, sizeof(buf), "%s %-8s %7d ",
		 tui_fmt_ts(t, p->ts, tui_time_width(t), ts, sizeof(ts)), rq_kind_names[rq_paths[p->path].kind], p->pid);
	x = tui_puts(y, 0, -1, buf);
	tui_puts_untrusted(y, x, cw, p->comm, strnlen(p->comm, RQ_COMM_LEN));
	x += cw + 1;
	snprintf(buf, sizeof(buf), "%3s%s%-3d", from, tui_g.arrow, p->to_cpu);
	x += tui_puts(y, x, -1, buf) + 1;
	snprintf(buf, sizeof(buf), "%-16s %-5.5s ", rq_paths[p->path].id,
		 p->conf == RQ_CONF_EXACT ? "exact" : p->conf == RQ_CONF_INFERRED ? "infer" : "?");
	x += tui_puts(y, x, -1, buf);
	pl_finding_marks(p->findings, p->possible, marks);
	if (p->findings && !sel)
		attron(tui_attr(C_FINDING));
	tui_puts(y, x, -1, marks);
	if (p->findings && !sel)
		attroff(tui_attr(C_FINDING));
	if (sel)
		attroff(tui_attr(C_SELECT));
}

/* A section's title: which verdict its rows have, and how many. */
static void draw_title_row(struct view *v, int y, int d, bool sel)
{
	struct pl_state *s = v->priv;
	const char *id = rq_finding_ids[s->filter.with];
	char buf[200];

	if (d == -1)
		snprintf(buf, sizeof(buf), "proven %s: %d (counted: the trace shows the "
			 "selection)", id, s->nproven);
	else
		snprintf(buf, sizeof(buf), "possible %s: %d (not counted: selection not proven)",
			 id, s->nrows - s->nproven);
	tui_rule(v->t, y, buf);
	if (sel)
		mvchgat(y, 0, -1, tui_attr(C_SELECT), 0, NULL);
}

/* Screen row i: a placement, or a section's title. */
static void placements_row(struct view *v, int y, int i, bool sel)
{
	int d = data_of(v->priv, i);

	if (d < 0)
		draw_title_row(v, y, d, sel);
	else
		draw_row(v, y, row_pl(v, d), sel);
}

static void placements_draw(struct view *v, int y0, int h)
{
	struct rq_analysis *an = tui_side_an(v->t->cur);
	const struct rq_summary *sum = an ? rq_analysis_summary(an) : NULL;
	struct pl_state *s = v->priv;
	struct tui *t = v->t;
	char buf[512], f[200];
	int list_h = h - 2;

	char sect[64] = "";

	rebuild(v);
	tui_list_clamp(v, nshown(s), list_h);
	pl_filter_format(&s->filter, f, sizeof(f));
	if (s->sections)
		snprintf(sect, sizeof(sect), ": %d proven, %d possible", s->nproven,
			 s->nrows - s->nproven);
	snprintf(buf, sizeof(buf), " %d placement%s%s%s%s%s%s%s%s", s->nrows,
		 s->nrows == 1 ? "" : "s", f[0] ? " matching " : "", f, sect,
		 s->sort.col || s->sort.reverse ? ", sorted by " : "",
		 s->sort.col || s->sort.reverse ? ps_names[s->sort.col] : "",
		 s->sort.reverse ? " reversed" : "", !s->indexed && sum && sum->nr_placements > sum->recent_len ?
		 " (the most recent ones; the rest are counted, not kept)" : "");
	/* the filter and the search are typed by the user: printable ASCII only */
	tui_puts(y0, 0, -1, buf);
	if (t->search[0] && tui_width(buf) + 22 < COLS) {
		snprintf(buf, sizeof(buf), "/%s", t->search);
		tui_puts(y0, COLS - 20, 20, buf);
	}
	{
		const struct tui_col cols[PS__COUNT] = {
			{ t->abs_time ? "time" : "time s", tui_time_width(t), true },
			{ "kind", 8, false }, { "pid", 7, true }, { "comm", comm_width(t), false },
			{ "cpu", 7, false }, { "path", 16, false }, { "conf", 5, false },
			{ rq_finding_letters, RQ_FIND__COUNT, false },
		};

		tui_sort_header(t, &s->sort, cols, PS__COUNT, buf, sizeof(buf));
	}
	attron(tui_attr(C_HEADER) | A_UNDERLINE);
	tui_clear_row(y0 + 1, 0);
	tui_puts(y0 + 1, 0, -1, buf);
	attroff(tui_attr(C_HEADER) | A_UNDERLINE);
	tui_list_draw(v, y0 + 2, list_h, nshown(s), placements_row);
	if (!s->nrows)
		tui_puts(y0 + 3, 2, -1, f[0] ? "nothing matches the filter (F clears it)" :
			 "no placements yet");
	remember(v);
}

static int placements_rows(struct view *v)
{
	rebuild(v);
	return nshown(v->priv);
}

static bool pid_has(int32_t pid, const char *needle)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", pid);
	return strstr(buf, needle) != NULL;
}

/*
 * The positions whose row matches needle, as placements_match() says, in one pass over
 * the search columns: each distinct comm, path and pid is matched once.
 */
static int search_bits(struct view *v, const char *needle, bool icase)
{
	struct pl_state *s = v->priv;
	const struct tl_index *x = v->t->cur->idx;
	bool digits = rq_is_decimal(needle), pm[RQ_PATH__COUNT];
	bool any_comm = false, any_path = false;
	uint8_t *cm, *pidm = NULL;
	unsigned int fm = 0;	/* the findings whose id has the needle (a row's flags) */

	if (s->mbits_ok && s->micase == icase && !strcmp(s->msearch, needle))
		return 0;
	if (!cols_step(s, x, 0))
		return -1;
	cm = malloc((size_t)x->ncomms + 1);
	free(s->mbits);
	s->mbits = calloc(x->sorted / 64 + 1, sizeof(*s->mbits));
	if (digits)
		pidm = calloc((size_t)s->max_pid + 1, 1);	/* 0 unknown, 1 no, 2 yes */
	if (!cm || !s->mbits || (digits && !pidm)) {
		free(cm);
		free(pidm);
		return -1;
	}
	for (uint32_t i = 0; i < x->ncomms; i++) {
		cm[i] = tui_name_has(tl_comm(x, i), strnlen(tl_comm(x, i), RQ_COMM_LEN), needle,
				     icase);
		any_comm |= cm[i];
	}
	cm[x->ncomms] = 0;
	for (int p = 0; p < RQ_PATH__COUNT; p++)
		any_path |= pm[p] = tui_text_has(rq_paths[p].id, needle, icase);
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		if (tui_text_has(rq_finding_ids[f], needle, icase))
			fm |= 1u << f;
	s->nmatch = 0;
	/* only the columns that can match are read (the flags from the record itself) */
	for (size_t i = 0; (any_comm || any_path || digits || fm) && i < x->sorted; i++) {
		bool m = (any_comm && cm[s->col_comm[i] < x->ncomms ? s->col_comm[i] :
					x->ncomms]) || (any_path && pm[s->col_path[i]]) ||
			 (fm && (x->pl[i].findings & fm));

		if (!m && digits) {
			int32_t pid = s->col_pid[i];

			if (pid < 0) {
				m = pid_has(pid, needle);
			} else {
				if (!pidm[pid])
					pidm[pid] = pid_has(pid, needle) ? 2 : 1;
				m = pidm[pid] == 2;
			}
		}
		if (m) {
			BIT_SET(s->mbits, i);
			s->nmatch++;
		}
	}
	free(cm);
	free(pidm);
	snprintf(s->msearch, sizeof(s->msearch), "%s", needle);
	s->micase = icase;
	s->mbits_ok = true;
	s->mrows_ver = 0;
	return 0;
}

/* The screen rows that match, ascending: one pass over the rows' positions. */
static int search_rows(struct view *v)
{
	struct pl_state *s = v->priv;

	if (s->mrows_ver == s->rows_ver)
		return 0;
	if (s->nrows > s->mcap) {
		int *r = realloc(s->mrows, (size_t)s->nrows * sizeof(*r));

		if (!r)
			return -1;
		s->mrows = r;
		s->mcap = s->nrows;
	}
	s->nm = 0;
	for (int d = 0; s->nmatch && d < s->nrows; d++)
		if (BIT_HAS(s->mbits, pos_of(s, d)))
			s->mrows[s->nm++] = screen_of(s, d);
	s->mrows_ver = s->rows_ver;
	return 0;
}

/* n N on index rows: the next match after (dir > 0) or before row from, by bisection. */
static int placements_find(struct view *v, int from, int dir, const char *needle, bool icase,
			   int *k, int *total, bool *wrapped)
{
	struct pl_state *s = v->priv;
	int lo = 0, hi;

	rebuild(v);
	if (!s->indexed)
		return -2;	/* the ring: a few rows, the plain scan */
	if (search_bits(v, needle, icase) || search_rows(v)) {
		tui_message(v->t, "search: out of memory");
		return -1;
	}
	if (!s->nm)
		return -1;
	/* lo = the first match after from */
	hi = s->nm;
	while (lo < hi) {
		int mid = lo + (hi - lo) / 2;

		if (s->mrows[mid] <= from)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (dir < 0) {
		/* the last match before from */
		while (lo > 0 && s->mrows[lo - 1] >= from)
			lo--;
		lo--;
	}
	*wrapped = lo < 0 || lo >= s->nm;
	if (lo >= s->nm)
		lo = 0;
	if (lo < 0)
		lo = s->nm - 1;
	*k = lo + 1;
	*total = s->nm;
	return s->mrows[lo];
}

static bool placements_match(struct view *v, int row, const char *needle, bool icase)
{
	struct pl_state *s = v->priv;
	int d = data_of(v->priv, row);
	const struct rq_placement *p;
	char pid[16];

	if (d < 0)
		return false;
	if (s->indexed && s->mbits_ok && s->micase == icase && !strcmp(s->msearch, needle))
		return BIT_HAS(s->mbits, pos_of(s, d));
	p = row_pl(v, d);
	snprintf(pid, sizeof(pid), "%d", p->pid);
	if (tui_name_has(p->comm, strnlen(p->comm, RQ_COMM_LEN), needle, icase) ||
	    strstr(pid, needle) || tui_text_has(rq_paths[p->path].id, needle, icase))
		return true;
	/* a flagged row by its finding's id: /offcpu finds the rows flagged O */
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		if ((p->findings & (1u << f)) && tui_text_has(rq_finding_ids[f], needle, icase))
			return true;
	return false;
}

static void filter_done(struct tui *t, const char *text, void *data)
{
	struct view *v = data;
	struct pl_state *s = v->priv;
	char err[160];

	if (pl_filter_parse(&s->filter, text, err, sizeof(err))) {
		tui_message(t, "filter: %s", err);
		return;
	}
	v->stale = true;
	s->base_ok = false;
	s->follow = true;
}

static enum view_key placements_key(struct view *v, enum tui_action act)
{
	struct pl_state *s = v->priv;
	char f[200];

	int d;

	rebuild(v);
	if (tui_list_key(v, act, nshown(s))) {
		remember(v);
		return VK_REDRAW;
	}
	d = data_of(s, v->sel);
	switch (act) {
	case ACT_ENTER:
		/* on a section's title: its first placement */
		if (d < 0) {
			if (d == -1)
				d = s->nproven ? 0 : -1;
			else
				d = s->nrows > s->nproven ? s->nproven : -1;
			if (d < 0)
				return VK_NONE;
			v->sel = screen_of(s, d);
			tui_list_clamp(v, nshown(s), v->height);
			remember(v);
		}
		if (s->nrows)
			tui_open_placement(v->t, row_pl(v, d));
		return VK_REDRAW;
	case ACT_FILTER:
		pl_filter_format(&s->filter, f, sizeof(f));
		tui_prompt(v->t, "filter: ", f, filter_done, v);
		return VK_REDRAW;
	case ACT_VIEW_TIMELINE:
		/* the timeline at the selected placement; Esc comes back */
		if (!s->nrows || d < 0)
			return VK_UNHANDLED;
		tui_push(v->t, VIEW_TIMELINE, row_pl(v, d));
		return VK_REDRAW;
	case ACT_SORT:
	case ACT_SORT_PREV:
	case ACT_SORT_REVERSE:
	case ACT_SORT_PICK:
		/* the selection stays on its placement */
		s->follow = false;
		remember(v);
		s->follow = false;
		return tui_sort_key(v, &s->sort, ps_names, PS__COUNT, act);
	case ACT_FILTER_CLEAR:
		pl_filter_clear(&s->filter);
		s->base_ok = false;
		s->follow = true;
		return VK_RESCAN;
	default:
		return VK_UNHANDLED;
	}
}

/*
 * While the TUI waits for keys: the search columns, then each column's order, about
 * budget placements a call (0: all); true while there is more to do.
 */
static bool placements_idle(struct view *v, unsigned int budget)
{
	struct pl_state *s = v->priv;
	struct tl_index *x = v->t->cur->idx;

	if (!x || !x->complete || v->t->cur->live || v->t->play.loading)
		return false;
	tl_index_sort(x);
	index_reset(s, x);
	/* a slice a call; out of memory (no columns, no order): nothing more to do */
	if (!s->col_comm || s->ncols < x->sorted) {
		cols_step(s, x, budget);
		if (!s->col_comm)
			return false;
		if (budget)
			return true;
	}
	for (int c = 1; c < PS__COUNT; c++) {
		if (rq_order_done(s->order[c]))
			continue;
		order_step(s, x, c, budget);
		if (!s->order[c])
			return false;
		if (budget)
			return true;
	}
	return false;
}

static void placements_done(struct view *v)
{
	struct pl_state *s = v->priv;

	for (int c = 0; c < PS__COUNT; c++)
		rq_order_free(s->order[c]);
	free(s->comm_rank);
	free(s->col_comm);
	free(s->col_path);
	free(s->col_pid);
	free(s->mbits);
	free(s->inbase);
	free(s->base);
	free(s->mrows);
	free(s->rows);
	free(s->irows);
}

const struct view_ops placements_ops = {
	.name = "placements",
	.title = "placements",
	.private_size = sizeof(struct pl_state),
	.open = placements_open,
	.done = placements_done,
	.draw = placements_draw,
	.key = placements_key,
	.rows = placements_rows,
	.match = placements_match,
	.find = placements_find,
	.idle = placements_idle,
	.search_what = " (comm, pid, path)",
	.help = "every recent placement: time, kind, task, CPUs, path, confidence, findings",
};
