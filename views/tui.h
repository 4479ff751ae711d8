/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tui.h - the curses front end shared by every view.
 *
 * tig's model: one file per view, each ending in one struct view_ops; the keys and the
 * help view come from one key table (keys.c).  Views only read the engine's model
 * (struct rq_analysis); tui.c owns the replay or live source and the terminal.
 */
#ifndef RQPATH_TUI_H
#define RQPATH_TUI_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis.h"
#include "session.h"

struct rq_session;

enum tui_action {
	ACT_NONE,
	ACT_QUIT,		/* q: close this view; quit from the first one */
	ACT_QUIT_ALL,		/* F10, ^C: quit from any view */
	ACT_BACK,
	ACT_HELP,
	ACT_VIEW_DASHBOARD,
	ACT_VIEW_PLACEMENTS,
	ACT_VIEW_TASKS,
	ACT_VIEW_FINDINGS,
	ACT_VIEW_TEACH,
	ACT_VIEW_TIMELINE,
	ACT_ZOOM_IN,
	ACT_ZOOM_OUT,
	ACT_PAN_LEFT,
	ACT_PAN_RIGHT,
	ACT_PREV_PLACEMENT,
	ACT_NEXT_PLACEMENT,
	ACT_NEXT_VIEW,
	ACT_PREV_VIEW,
	ACT_UP,
	ACT_DOWN,
	ACT_PGUP,
	ACT_PGDN,
	ACT_HOME,
	ACT_END,
	ACT_ENTER,
	ACT_PLAY,
	ACT_FASTER,
	ACT_SLOWER,
	ACT_STEP,
	ACT_START,		/* R: restart the replay (asks first) */
	ACT_FINISH,
	ACT_JUMP_TIME,
	ACT_SEARCH,
	ACT_SEARCH_NEXT,
	ACT_SEARCH_PREV,
	ACT_FILTER,
	ACT_FILTER_CLEAR,
	ACT_SORT,
	ACT_SORT_REVERSE,
	ACT_SORT_PREV,
	ACT_SORT_PICK,
	ACT_REDRAW,
	ACT_TIME_FORMAT,
	ACT_COLOR_BY,
	ACT_FREEZE,		/* live: Z */
	ACT_RESET,		/* live: R */
	ACT_VIEW_COMPARE,
	ACT_SWITCH_SIDE,
	ACT_ENTER_BASE,
	ACT_NEXT_RUN,
	/* the prompt's editing keys (scope "prompt": only while a prompt is open) */
	ACT_P_CANCEL,
	ACT_P_RUN,
	ACT_P_OLDER,
	ACT_P_NEWER,
	ACT_P_LEFT,
	ACT_P_RIGHT,
	ACT_P_START,
	ACT_P_END,
	ACT_P_BKSP,
	ACT_P_DEL,
	ACT_P_KILL_START,
	ACT_P_KILL_END,
	ACT_P_KILL_WORD,
};

/* One row of the key table: keys, help view and help line are all generated from it. */
struct tui_key {
	int key;
	const char *name;	/* as shown to the user */
	enum tui_action act;
	/* NULL: everywhere; "replay", "live", "compare-mode": that mode; else view names */
	const char *scope;
	const char *help;	/* for the help view */
	const char *brief;	/* for the bottom help line, NULL: not shown there */
};

extern const struct tui_key tui_keys[];
extern const int tui_nr_keys;

struct view;
struct tui;

/* What a key handler did (htop's REDRAW/RESCAN idea): the framework acts on it. */
enum view_key {
	VK_UNHANDLED,		/* not this view's key: the framework's (global keys) */
	VK_NONE,		/* handled, nothing to show */
	VK_REDRAW,		/* handled, draw the screen again */
	VK_RESCAN,		/* handled, and the view's rows must be rebuilt (filter, sort) */
};

/*
 * A view (tig's model): the framework allocates private_size bytes of zeroed state for
 * it once (v->priv, kept while the TUI runs, freed at the end) and calls open on every
 * push; the view reads the engine's model when it draws.
 */
struct view_ops {
	const char *name;	/* "dashboard": also the key-table scope */
	const char *title;
	size_t private_size;	/* v->priv */
	/* Opened (pushed) with an optional argument; 0, or -1 to refuse. */
	int (*open)(struct view *v, const void *arg);
	/* Release what priv points to (priv itself is the framework's); may be NULL. */
	void (*done)(struct view *v);
	/* Draw rows y0 .. y0+h-1, full width. */
	void (*draw)(struct view *v, int y0, int h);
	enum view_key (*key)(struct view *v, enum tui_action act);
	/* Search (search.c): the number of rows, and whether one row matches. */
	int (*rows)(struct view *v);
	bool (*match)(struct view *v, int row, const char *needle, bool icase);
	const char *search_what;	/* " (comm, pid, path)" for the prompt */
	/*
	 * Optional, for long lists: the next match of needle after (dir > 0) or before
	 * screen row from, wrapping (*wrapped), its rank *k of *total; -1 none, -2 use the
	 * scan of match().
	 */
	int (*find)(struct view *v, int from, int dir, const char *needle, bool icase, int *k,
		    int *total, bool *wrapped);
	/* Optional: work while the TUI waits (about budget rows, 0 all); true if more. */
	bool (*idle)(struct view *v, unsigned int budget);
	/* A click (open: a double click) at y, x that is not on a list row; true if taken. */
	bool (*mouse)(struct view *v, int y, int x, bool open);
	const char *help;	/* one line: what this view shows */
};

struct view {
	const struct view_ops *ops;
	struct tui *t;
	int top, sel;		/* first shown row, selected row */
	int height;		/* rows drawn last time */
	bool stale;		/* VK_RESCAN: rebuild the rows before the next draw */
	int list_y;		/* screen row of the list's first row (mouse), 0: no list */
	void *priv;		/* private_size bytes, allocated by the framework */
};

enum tui_view_id {
	VIEW_DASHBOARD,
	VIEW_PLACEMENTS,
	VIEW_TASKS,
	VIEW_FINDINGS,
	VIEW_TEACH,
	VIEW_TIMELINE,
	VIEW_COMPARE,
	VIEW_DETAIL,
	VIEW_HELP,
	VIEW__COUNT
};

extern const struct view_ops dashboard_ops, placements_ops, tasks_ops, findings_ops,
	teach_ops, timeline_ops, compare_ops, detail_ops, help_ops;

/* Rate history of each finding over trace time, for the sparkline. */
#define TUI_HIST 128
struct tui_hist {
	uint64_t base_ts;	/* trace time of bucket 0, 0 = not started */
	uint64_t width_ns;
	int used;		/* buckets in use */
	uint32_t n[RQ_FIND__COUNT][TUI_HIST];
};

/* Placement filter (placements view); -1 / "" = any. */
struct pl_filter {
	int pid;
	int cpu;
	int kind;
	int path;
	int finding;
	int possible;		/* a finding whose selection is not proven (rq_placement.possible) */
	int with;		/* proven or possible: both, in two sections (Enter on a finding) */
	int flagged;		/* 1: with a finding, 0: without */
	int node;		/* rq_teach_nodes[] index: placements that took that step */
	bool node_maybe;	/* ...or that may have taken it (node=ID?: the candidates) */
	char comm[RQ_COMM_LEN * 4 + 1];
};

/* What the bottom line asks before doing it: y does it, any other key does not. */
enum tui_confirm {
	CONFIRM_NONE,
	CONFIRM_QUIT,		/* live without -o: the recording is not kept */
	CONFIRM_RESTART,	/* replay: R starts again from 0 */
	CONFIRM_RESET,		/* live: R counts from now */
};

typedef void (*tui_prompt_fn)(struct tui *t, const char *text, void *data);

/* One prompt's history (prompt.c), newest first. */
#define TUI_PROMPT_KINDS 8
#define TUI_PROMPT_HIST 16
struct prompt_hist {
	char label[48];
	char items[TUI_PROMPT_HIST][128];
	int n;
};

struct tl_index;
struct ev_cache;
struct tui_compare;

/*
 * One trace: its file or live source, the analysis and index read from it and the replay
 * clock over it.  Replay and live use side[0]; --compare loads BASE into side[0] and NEW
 * into side[1].  The views read the one shown, t->cur.
 */
struct tui_side {
	bool live;		/* the source: a live recording, else the trace file path */
	const char *path;	/* the trace file, NULL live */
	struct rq_session *session;	/* the file read or the recording (session.h) */
	struct tl_index *idx;	/* runs and placements of the whole trace (tlindex.h) */
	uint64_t trace_first;	/* first record timestamp, 0 unknown */
	uint64_t trace_last;	/* last one, 0 until seen */
	uint64_t play_ts;	/* trace time reached by playback */
	bool at_end;
	double progress;
	struct tui_hist hist;	/* findings over time, fed by the placement observer */
};

/* The side's analysis: its session's (a reset swaps it), NULL before it has a session. */
static inline struct rq_analysis *tui_side_an(const struct tui_side *s)
{
	return s->session ? rq_session_analysis(s->session) : NULL;
}

/* Replay: the options of the trace's analysis and the clock's state over it. */
struct tui_play {
	const char *topology;	/* --topology of replay, or NULL */
	bool no_truth;		/* --no-truth of replay */
	bool loading;		/* the initial load to the end, with progress */
	uint64_t seek_ts;	/* loading: feed up to this trace time (UINT64_MAX: all) */
	bool seek_placement;	/* loading: stop after the next placement (s) */
	bool playing;
	int speed;		/* index into the speed table */
};

/* Live: the recording and what the title line says about it. */
struct tui_rec {
	double started;		/* wall clock, seconds */
	double duration;	/* live --duration S: quit S seconds after the start, 0 never */
	double rate;		/* events per second, exponentially weighted (decays) */
	uint64_t rate_events;
	double rate_at;
	char release[128];
	bool live_ready;	/* analysis begun */
	const char *output;	/* live -o FILE, NULL: a temporary file, deleted at the end */
	double events_at;	/* wall clock of the last records read */
	bool kernel_events;	/* a tracepoint record (not kernel truth) since the last advance */
	bool frozen;		/* Z: the display waits; recording and analysis go on */
	double counting_since;	/* wall clock of the analysis' start (R, Z resets it) */
	const char *stall;	/* why no event can come (rq_recorder_stalled()), NULL */
};

/* The prompt being edited on the bottom line (prompt.c). */
struct tui_prompt {
	bool active;
	char label[96];
	char buf[128];
	int len, pos;		/* text length, cursor */
	int at;			/* history entry shown, -1: the text typed */
	struct prompt_hist *h;
	struct prompt_hist hist[TUI_PROMPT_KINDS];
	tui_prompt_fn done;
	void *data;
};

struct tui {
	struct tui_side side[2];	/* the traces: 0 BASE (or the only one), 1 NEW */
	struct tui_side *cur;	/* the side the views show */
	struct tui_compare *cmp;	/* --compare: the diff of the two sides (compare.c) */
	struct tui_play play;	/* replay */
	struct tui_rec rec;	/* live */

	/* the terminal */
	bool abs_time;		/* T: absolute timestamps as trace-cmd report prints them */
	bool test_mode;		/* RQPATH_TUI_TEST=1 or a script: no wall clock on screen */
	struct tui_script *script;	/* RQPATH_TUI_SCRIPT: keys from a file (script.c) */
	bool utf8, color;
	bool quit;

	struct ev_cache *evidence;	/* the detail's evidence reader (evidence.c) */
	uint64_t generation;	/* bumped on every model change */

	struct view views[VIEW__COUNT];
	struct view *stack[16];
	int depth;

	char search[64];	/* the last / pattern, shared by the views */
	bool dirty;		/* something to draw */

	/* bottom line: a question, a message, or a prompt being edited */
	enum tui_confirm confirm;	/* a y/n question on the bottom line */
	char msg[256];
	struct tui_prompt prompt;
};

/* tui.c */
/* The views' background work (view_ops.idle), budget rows (0: all); true if more. */
bool tui_idle(struct tui *t, unsigned int budget);
void tui_push(struct tui *t, enum tui_view_id id, const void *arg);
void tui_switch(struct tui *t, enum tui_view_id id, const void *arg);
void tui_pop(struct tui *t);
void tui_message(struct tui *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * prompt.c: a prompt on the bottom line; it starts empty, current (the value in force,
 * may be NULL) and the earlier entries are recalled with Up.
 */
void tui_prompt(struct tui *t, const char *label, const char *current, tui_prompt_fn done,
		void *data);
void tui_prompt_key(struct tui *t, int ch);
void tui_prompt_draw(struct tui *t, int y);
struct view *tui_top(struct tui *t);
/* Live: wall-clock seconds since the recording started. */
double tui_wall_elapsed(const struct tui *t);
/* The replay clock (trace time the user is at), or the last event when live. */
uint64_t tui_position(const struct tui *t);
/* Seconds of trace time since the first record. */
double tui_rel(const struct tui *t, uint64_t ts);
/*
 * A timestamp as shown (T toggles): seconds since the first record, or absolute trace
 * time in trace-cmd report's format (seconds.microseconds); width as printf's.
 */
const char *tui_fmt_ts(const struct tui *t, uint64_t ts, int width, char *buf, size_t size);
/* Columns a time needs in a list: 10, or more for absolute times. */
int tui_time_width(const struct tui *t);

/* draw.c: glyphs, colors and safe text output */
enum tui_color {
	C_NORMAL,
	C_TITLE,	/* title and status bars */
	C_HEADER,	/* section rules and column headers */
	C_SELECT,	/* selected row */
	C_FINDING,	/* findings, warnings */
	C_TAKEN,	/* the branch taken */
	C_MAYBE,	/* a branch possibly taken */
	C_DIM,
	C_BAR,
	C__COUNT
};

struct tui_glyphs {
	const char *hline, *vline, *tee, *ell, *arrow, *bar_full, *play, *pause, *mark;
	const char *cut;	/* ends text cut to fit: an ellipsis, or ~ in ASCII */
	const char *idle, *down;	/* timeline: an idle CPU; the selected column */
	const char *const *spark;	/* 8 levels */
	const char *const *bar_part;	/* 8 levels, [0] = empty */
};
extern struct tui_glyphs tui_g;

void tui_draw_init(struct tui *t);
int tui_attr(enum tui_color c);
/* A colour per task (by pid), for the timeline lanes; bold/normal without colours. */
int tui_task_attr(int pid);
/*
 * Print trusted (program) text at y,x clipped to w columns (text that does not fit ends
 * in tui_g.cut); returns columns used.
 */
int tui_puts(int y, int x, int w, const char *s);
/* Print attacker-controlled text (comm, file name): tui_display(), then clipped. */
int tui_puts_untrusted(int y, int x, int w, const char *s, size_t len);
/*
 * Attacker-controlled text (len bytes) as the terminal may show it, into buf; returns
 * buf.  In a UTF-8 locale valid UTF-8 that prints stays (wide and combining characters
 * too); escaped are control bytes, backslash and bytes that are not UTF-8 (as
 * rq_escape_c(): \n, \\, \xHH) and, as \uXXXX, the characters that reorder, hide or
 * fake text (rq_unsafe_codepoint()), those the locale cannot print, variation selectors,
 * a combining mark with no character before it and more than two on one character.
 * Elsewhere all but printable ASCII is escaped (rq_escape_c()).  tui_width() gives the
 * columns of the result.
 */
const char *tui_display(const char *s, size_t len, char *buf, size_t size);
/*
 * s padded with spaces to cols columns (tui_width(), not bytes), on the left when right
 * (right-aligned), into buf; a wider s stays whole.  For printf columns of names.
 */
const char *tui_pad(const char *s, int cols, bool right, char *buf, size_t size);
/* tui_display() of a NUL-terminated s. */
const char *tui_esc(const char *s, char *buf, size_t size);
/*
 * A search or filter on a name: needle in the name as shown (tui_display()) or in its
 * C escapes (so \xe6 finds the bytes whatever the locale).
 */
bool tui_name_has(const char *name, size_t len, const char *needle, bool icase);
/* Clear a row from x to the right edge. */
void tui_clear_row(int y, int x);
/* A full-width rule with an optional title. */
void tui_rule(struct tui *t, int y, const char *title);
/* A horizontal bar of value/max over w columns. */
void tui_bar(int y, int x, int w, uint64_t value, uint64_t max);
/* A sparkline of n values over w columns. */
void tui_spark(int y, int x, int w, const uint32_t *vals, int n);
/* Columns a UTF-8 string takes on the screen (wcwidth() per character). */
int tui_width(const char *s);
/* Wrap text into w columns starting at (*y, x), stopping before ymax; returns lines. */
int tui_wrap(int *y, int ymax, int x, int w, const char *text, int skip);

/* list.c: the list component.  Common list movement; true if act was a movement. */
bool tui_list_key(struct view *v, enum tui_action act, int n);
bool tui_pager_key(struct view *v, enum tui_action act, int n);
void tui_list_clamp(struct view *v, int n, int h);
/* A pager of n lines h high: v->top kept so that the last screen is full (or 0). */
void tui_pager_clamp(struct view *v, int n, int h);
/* One row of a list: draw row i of v at screen row y. */
typedef void (*tui_list_row_fn)(struct view *v, int y, int i, bool sel);
/*
 * The rows of a list of n rows on screen rows y .. y + h - 1 from v->top: the cursor
 * clamped, v->height and v->list_y set, each row drawn by row().
 */
void tui_list_draw(struct view *v, int y, int h, int n, tui_list_row_fn row);
/* The selected row's bar: C_SELECT on and the row cleared (the row attroff()s it). */
void tui_list_bar(int y, bool sel);

/* The mouse (ncurses; RQPATH_NO_MOUSE=1 turns it off): a click selects a list row, a
 * double click opens it, the wheel scrolls. */
enum tui_mouse { TUI_CLICK, TUI_DCLICK, TUI_WHEEL_UP, TUI_WHEEL_DOWN };
void tui_mouse(struct tui *t, int y, int x, enum tui_mouse what);

/* script.c: RQPATH_TUI_SCRIPT, keys from a file and a screen dump after each step */
struct tui_script;
int tui_script_open(struct tui *t, const char *path, char *err, size_t errlen);
void tui_script_close(struct tui *t);
void tui_script_size(int *w, int *h);
int tui_script_key(struct tui *t);

/* search.c: / n N for views with rows and match */
enum view_key tui_search_key(struct view *v, enum tui_action act);
/* Smart case: true when needle has no capital (match either case). */
bool tui_search_icase(const char *needle);
bool tui_text_has(const char *hay, const char *needle, bool icase);
/* The search's matches on the list rows of v, as drawn (after its draw). */
#define TUI_MATCH_ATTR (A_BOLD | A_UNDERLINE | A_ITALIC)
void tui_search_highlight(struct view *v);

/* sort.c: < > o O F6 in the tasks and placements lists */
struct tui_sort {
	int col;
	bool reverse;
};
enum view_key tui_sort_key(struct view *v, struct tui_sort *s, const char *const *names, int n,
			   enum tui_action act);
/* A column of a list's title line. */
struct tui_col {
	const char *title;
	int width;
	bool right;
};
void tui_sort_header(const struct tui *t, const struct tui_sort *s, const struct tui_col *cols,
		     int n, char *buf, size_t size);

/* keys.c */
enum tui_action tui_key_action(const struct tui *t, int key);
/* Is name one of the space-separated words of a key's scope ("tasks placements")? */
bool tui_scope_has(const char *scope, const char *name);
/* The action of a key in the open prompt (scope "prompt"), ACT_NONE: text. */
enum tui_action tui_prompt_action(int key);
/* The name of the key that does act in the view on top ("?" if none does). */
const char *tui_key_name(const struct tui *t, enum tui_action act);
/* The bottom help line for a view. */
void tui_help_line(const struct tui *t, char *buf, size_t size);

/*
 * evidence.c: up to max records around p in the trace file path, as trace-cmd report
 * prints them ('>' marks the placement's own record); -1 with err.  The reader stays
 * open and reads on for the next placement (stepping forward costs the distance only).
 */
#define TUI_EV_LEN 200
int tui_evidence(struct tui *t, const char *path, const struct rq_placement *p,
		 char (*rec)[TUI_EV_LEN], int max, char *err, size_t errlen);
/* The reader tui_evidence() keeps between calls (in t), and its records: released. */
void tui_evidence_free(struct tui *t);
/* Whether p's evidence is kept, or can be read on to without reading from the start. */
bool tui_evidence_near(struct tui *t, const char *path, const struct rq_placement *p);
/* The evidence of up to TUI_EV_PREFETCH placements read in one pass, kept for later. */
#define TUI_EV_PREFETCH 32
void tui_evidence_prefetch(struct tui *t, const char *path, const struct rq_placement *ps,
			   int n);

/*
 * detail.c: the facts of placement p, one line at a time (the detail view's lines, and
 * rqpath why's text: one code for both): its records ev[0..nev) (nev < 0: ev_err says
 * why there are none), text wrapped to width.  Every line is already escaped.
 */
typedef void (*tui_fact_fn)(enum tui_color c, const char *text, void *data);
void tui_detail_facts(struct tui *t, const struct rq_placement *p,
		      const char (*ev)[TUI_EV_LEN], int nev, const char *ev_err, int width,
		      tui_fact_fn fn, void *data);

/*
 * The detail's [ ] (n N): step the list view below it (placements, timeline) by dir and
 * open the detail of its new selection; false at the end of the list.
 */
bool pl_step(struct view *v, int dir);
bool tl_step(struct view *v, int dir);

/*
 * compare.c: `rqpath replay BASE... --compare NEW...`.  The first file of each side is
 * loaded whole (analysis, index, replay state) into its struct tui_side (t->side[0] BASE,
 * t->side[1] NEW); the views show the one t->cur points to, and tui_compare_swap() points
 * it at the other.  The other files of a side are audited for their numbers only.  The
 * compare view shows src/output/diff.c's rows.
 */
/* NULL and a line in err when a file cannot be read (audits the extra runs). */
struct tui_compare *tui_compare_new(const char *const *base, int nbase,
				    const char *const *new, int nnew, const char *topology,
				    bool no_truth,
				    char *err, size_t errlen);
void tui_compare_free(struct tui_compare *c);
/* The file of a side (0 BASE, 1 NEW) loaded now; the side the views show now. */
const char *tui_compare_path(const struct tui_compare *c, int side);
int tui_compare_side(const struct tui *t);
/* Exchange the shown trace with the other one; the views start over on it. */
void tui_compare_swap(struct tui *t);
/* The shown side has been read to its end: keep its numbers for the diff. */
void tui_compare_take(struct tui *t);
/* Show side (0 BASE, 1 NEW): false, with a message, while a trace is still loading. */
bool tui_compare_show(struct tui *t, int side);
/* The next file of the side shown (several runs a side): loaded as at the start. */
void tui_compare_next_run(struct tui *t);
/* tui.c: read path into the trace shown, from its start to its end (the loop loads it). */
int tui_replay_load(struct tui *t, const char *path);

/* detail.c: the detail of a placement, from the engine's copy when it still has it */
void tui_open_placement(struct tui *t, const struct rq_placement *p);

/* placements.c: a filter from "pid=1 comm=x cpu=0 kind=fork path=fork-moved finding=…" */
int pl_filter_parse(struct pl_filter *f, const char *text, char *err, size_t errlen);
void pl_filter_clear(struct pl_filter *f);
void pl_filter_format(const struct pl_filter *f, char *buf, size_t size);
bool pl_filter_match(const struct pl_filter *f, const struct rq_placement *p);
/*
 * Letters for the finding bits of a placement: N O I M, '.' when not set; a possible
 * one (selection not proven) in lower case.
 */
void pl_finding_marks(unsigned int findings, unsigned int possible, char *buf);

#endif
