// SPDX-License-Identifier: GPL-2.0
/*
 * tui.c - `rqpath replay FILE` and `rqpath live`: the terminal, the event source
 * (step-wise replay with play/pause, or live recording), the view stack and the key
 * dispatch.  The views (one file each) only read the model.
 *
 * The terminal is restored on every way out: q, Ctrl-C (a key in raw mode),
 * SIGINT/SIGTERM/SIGHUP (a flag the loop checks), a fatal signal (termios and the
 * terminfo exit strings written from the handler), and atexit().
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <curses.h>
#include <term.h>

#include "decode.h"
#include "escape.h"
#include "msg.h"
#include "recorder.h"
#include "pump.h"
#include "session.h"
#include "tlindex.h"
#include "tui.h"
#include "tui_main.h"

static const struct view_ops *const view_table[VIEW__COUNT] = {
	[VIEW_DASHBOARD] = &dashboard_ops,
	[VIEW_PLACEMENTS] = &placements_ops,
	[VIEW_TASKS] = &tasks_ops,
	[VIEW_FINDINGS] = &findings_ops,
	[VIEW_TEACH] = &teach_ops,
	[VIEW_TIMELINE] = &timeline_ops,
	[VIEW_COMPARE] = &compare_ops,
	[VIEW_DETAIL] = &detail_ops,
	[VIEW_HELP] = &help_ops,
};

static const double speeds[] = { 0.01, 0.1, 0.25, 0.5, 1, 2, 5, 10, 100, 1000 };
#define NR_SPEEDS (int)(sizeof(speeds) / sizeof(speeds[0]))
#define SPEED_1X 4

/* ---- terminal life cycle ---------------------------------------------------------- */

static volatile sig_atomic_t sig_quit;
static volatile sig_atomic_t curses_on;
static struct termios saved_tio;
static bool tio_saved;
static char exit_seq[256];	/* sgr0, cnorm, rmcup: written by the fatal handler */
static size_t exit_seq_len;

static void term_end(void)
{
	if (curses_on) {
		curses_on = 0;
		endwin();
	}
}

static void on_quit_signal(int sig)
{
	sig_quit = 1;
}

static void on_fatal_signal(int sig)
{
	if (curses_on) {
		if (tio_saved)
			tcsetattr(STDIN_FILENO, TCSANOW, &saved_tio);
		if (write(STDOUT_FILENO, exit_seq, exit_seq_len) < 0)
			(void)0;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

static void add_exit_cap(const char *name)
{
	char *s = tigetstr((char *)name);
	size_t n;

	if (!s || s == (char *)-1)
		return;
	n = strlen(s);
	if (exit_seq_len + n < sizeof(exit_seq)) {
		memcpy(exit_seq + exit_seq_len, s, n);
		exit_seq_len += n;
	}
}

static bool locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);

	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

static void term_modes(struct tui *t)
{
	raw();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	if ((!getenv("RQPATH_NO_MOUSE") || !*getenv("RQPATH_NO_MOUSE")) &&
	    mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED |
		      BUTTON5_PRESSED, NULL)) {
		/* a fatal signal must give the mouse back too (xterm's mouse reporting off) */
		static const char off[] = "\033[?1000l";

		if (exit_seq_len + sizeof(off) - 1 < sizeof(exit_seq)) {
			memcpy(exit_seq + exit_seq_len, off, sizeof(off) - 1);
			exit_seq_len += sizeof(off) - 1;
		}
	}
	tui_draw_init(t);
}

/* Scripted keys (script.c): a virtual screen of RQPATH_TUI_SIZE, drawn to /dev/null. */
static int term_start_script(struct tui *t, const char *script, char *err, size_t errlen)
{
	const char *term = getenv("RQPATH_TUI_TERM");
	FILE *out, *in;
	int w, h;

	setlocale(LC_ALL, "");
	t->utf8 = locale_is_utf8();
	t->test_mode = true;
	if (tui_script_open(t, script, err, errlen))
		return -1;
	out = fopen("/dev/null", "w");
	in = fopen("/dev/null", "r");
	if (!out || !in || !newterm(term && *term ? term : "xterm-256color", out, in)) {
		snprintf(err, errlen, "cannot start a virtual screen for RQPATH_TUI_SCRIPT");
		if (out)
			fclose(out);
		if (in)
			fclose(in);
		tui_script_close(t);
		return -1;
	}
	curses_on = 1;
	atexit(term_end);
	tui_script_size(&w, &h);
	resizeterm(h, w);
	t->color = has_colors() && !(getenv("NO_COLOR") && *getenv("NO_COLOR"));
	term_modes(t);
	return 0;
}

/*
 * A full-screen TUI needs cursor addressing: TERM=dumb (or unset, or a terminal without
 * cup) is refused with one line before anything is drawn.
 */
static bool term_can_address(char *err, size_t errlen)
{
	const char *term = getenv("TERM");
	TERMINAL *saved = cur_term;
	int e = 0;
	bool ok = false;

	if (term && *term && setupterm(term, STDOUT_FILENO, &e) == OK) {
		const char *cup = tigetstr("cup");

		ok = cup && cup != (char *)-1;
		del_curterm(cur_term);
		set_curterm(saved);
	}
	if (!ok) {
		char esc[64];

		rq_escape_c(term ? term : "", term ? strnlen(term, 32) : 0, esc, sizeof(esc));
		snprintf(err, errlen, "TERM=%s has no cursor addressing; use 'rqpath audit' for "
			 "text", esc);
	}
	return ok;
}

static int term_start(struct tui *t, char *err, size_t errlen)
{
	/* every signal that kills by default ends the TUI through its loop, terminal back */
	static const int quit_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
					 SIGALRM, SIGPIPE, SIGVTALRM, SIGPROF, SIGXCPU, SIGIO,
					 SIGPWR };
	static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL };
	struct sigaction sa;
	const char *nc = getenv("NO_COLOR");
	const char *tm = getenv("RQPATH_TUI_TEST");
	const char *script = getenv("RQPATH_TUI_SCRIPT");

	memset(&sa, 0, sizeof(sa));
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_quit_signal;
	for (size_t i = 0; i < sizeof(quit_sigs) / sizeof(quit_sigs[0]); i++)
		sigaction(quit_sigs[i], &sa, NULL);
	if (script && *script)
		return term_start_script(t, script, err, errlen);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		snprintf(err, errlen, "the TUI needs a terminal; for text output use "
			 "'rqpath audit'");
		return -1;
	}
	setlocale(LC_ALL, "");
	t->utf8 = locale_is_utf8();
	t->test_mode = tm && *tm && strcmp(tm, "0");
	if (!term_can_address(err, errlen))
		return -1;
	if (tcgetattr(STDIN_FILENO, &saved_tio) == 0)
		tio_saved = true;

	sa.sa_handler = on_fatal_signal;
	sa.sa_flags = SA_RESETHAND;
	for (size_t i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		sigaction(fatal_sigs[i], &sa, NULL);

	if (!newterm(NULL, stdout, stdin)) {
		snprintf(err, errlen, "cannot initialize the terminal (TERM=%s)",
			 getenv("TERM") ? getenv("TERM") : "");
		return -1;
	}
	curses_on = 1;
	atexit(term_end);
	exit_seq_len = 0;
	add_exit_cap("sgr0");
	add_exit_cap("cnorm");
	add_exit_cap("rmcup");
	t->color = has_colors() && !(nc && *nc);
	term_modes(t);
	return 0;
}

/* ---- helpers for views ------------------------------------------------------------ */

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

double tui_wall_elapsed(const struct tui *t)
{
	return wall_now() - t->rec.started;
}

double tui_rel(const struct tui *t, uint64_t ts)
{
	const struct tui_side *s = t->cur;
	uint64_t base = s->trace_first ? s->trace_first :
			(tui_side_an(s) ? rq_analysis_summary(tui_side_an(s))->first_ts : 0);

	if (ts < base)
		return 0;
	return (ts - base) / 1e9;
}

const char *tui_fmt_ts(const struct tui *t, uint64_t ts, int width, char *buf, size_t size)
{
	if (t->abs_time) {
		/* microseconds rounded, as trace-cmd report prints them */
		uint64_t us = (ts + 500) / 1000;

		snprintf(buf, size, "%*llu.%06llu", width > 7 ? width - 7 : 0,
			 (unsigned long long)(us / 1000000), (unsigned long long)(us % 1000000));
	}
	else
		snprintf(buf, size, "%*.6f", width, tui_rel(t, ts));
	return buf;
}

int tui_time_width(const struct tui *t)
{
	char buf[64];
	const struct tui_side *s = t->cur;
	uint64_t last = s->trace_last ? s->trace_last :
			tui_side_an(s) ? rq_analysis_summary(tui_side_an(s))->last_ts : 0;
	int w;

	if (!t->abs_time)
		return 10;
	w = (int)strlen(tui_fmt_ts(t, last, 0, buf, sizeof(buf)));
	return w > 10 ? w : 10;
}

struct view *tui_top(struct tui *t)
{
	return t->depth ? t->stack[t->depth - 1] : NULL;
}

void tui_message(struct tui *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->msg, sizeof(t->msg), fmt, ap);
	va_end(ap);
}

static int open_view(struct tui *t, enum tui_view_id id, const void *arg)
{
	struct view *v = &t->views[id];

	v->ops = view_table[id];
	v->t = t;
	if (!v->priv && v->ops->private_size) {
		v->priv = calloc(1, v->ops->private_size);
		if (!v->priv) {
			tui_message(t, "out of memory");
			return -1;
		}
	}
	v->stale = true;
	if (v->ops->open && v->ops->open(v, arg))
		return -1;
	t->dirty = true;
	return 0;
}

void tui_push(struct tui *t, enum tui_view_id id, const void *arg)
{
	struct view *v = &t->views[id];

	/* a view is on the stack once: opening it again brings it to the top */
	for (int i = 0; i < t->depth; i++) {
		if (t->stack[i] == v) {
			memmove(&t->stack[i], &t->stack[i + 1],
				(t->depth - i - 1) * sizeof(t->stack[0]));
			t->depth--;
			break;
		}
	}
	if (t->depth == (int)(sizeof(t->stack) / sizeof(t->stack[0])))
		return;
	if (open_view(t, id, arg))
		return;
	t->stack[t->depth++] = v;
}

void tui_switch(struct tui *t, enum tui_view_id id, const void *arg)
{
	t->depth = 0;
	tui_push(t, id, arg);
}

void tui_pop(struct tui *t)
{
	if (t->depth > 1)
		t->depth--;
}

bool tui_idle(struct tui *t, unsigned int budget)
{
	bool more = false;

	for (int i = 0; i < VIEW__COUNT; i++) {
		struct view *v = &t->views[i];

		if (!view_table[i]->idle)
			continue;
		/* a list can prepare before it is first opened */
		if (!v->priv) {
			v->ops = view_table[i];
			v->t = t;
			v->priv = calloc(1, v->ops->private_size);
			if (!v->priv)
				continue;
			if (v->ops->open)
				v->ops->open(v, NULL);
		}
		more |= view_table[i]->idle(v, budget);
	}
	return more;
}

/* ---- sampling the findings' rate -------------------------------------------------- */

static void hist_reset(struct tui *t)
{
	memset(&t->cur->hist, 0, sizeof(t->cur->hist));
}

static void hist_add(struct tui_hist *h, uint64_t ts, unsigned int findings)
{
	uint64_t idx;

	if (!h->base_ts) {
		h->base_ts = ts ? ts : 1;
		h->width_ns = 1000000;	/* 1 ms, doubled as the trace grows */
	}
	if (ts < h->base_ts)
		ts = h->base_ts;
	idx = (ts - h->base_ts) / h->width_ns;
	while (idx >= TUI_HIST) {
		for (int f = 0; f < RQ_FIND__COUNT; f++) {
			for (int k = 0; k < TUI_HIST / 2; k++)
				h->n[f][k] = h->n[f][2 * k] + h->n[f][2 * k + 1];
			memset(&h->n[f][TUI_HIST / 2], 0, sizeof(h->n[f][0]) * TUI_HIST / 2);
		}
		h->width_ns *= 2;
		h->used = (h->used + 1) / 2;
		idx = (ts - h->base_ts) / h->width_ns;
	}
	if ((int)idx + 1 > h->used)
		h->used = idx + 1;
	for (int f = 0; f < RQ_FIND__COUNT; f++)
		if (findings & (1u << f))
			h->n[f][idx]++;
}

/* The pump feeding the side's analysis, NULL before its source opened (or if it failed). */
static struct rq_pump *side_pump(const struct tui_side *s)
{
	return s->session ? rq_session_pump(s->session) : NULL;
}

/*
 * The observers of the model, called from inside the pump: no drawing here, only
 * notes for the next draw.  Every placement reaches the sparkline (a ring of recent
 * placements would drop some when one feed overruns it).
 */
static void on_placement(void *data, const struct rq_placement *p)
{
	struct tui *t = data;

	if (!t->cur->hist.base_ts && t->cur->trace_first)
		hist_add(&t->cur->hist, t->cur->trace_first, 0);
	hist_add(&t->cur->hist, p->ts, p->findings);
	if (t->play.seek_placement && side_pump(t->cur))
		rq_pump_stop(side_pump(t->cur));
}

/* A later verdict (an exec settled by a marker) adds its finding to the sparkline. */
static void on_settled(void *data, const struct rq_placement *p)
{
	struct tui *t = data;

	if (p->late_findings)
		hist_add(&t->cur->hist, p->ts, p->late_findings);
}

static void subscribe(struct tui *t)
{
	rq_analysis_subscribe(tui_side_an(t->cur), &(struct rq_observer){
		.on_placement = on_placement, .on_settled = on_settled, .ctx = t });
}

/*
 * New events arrived, replay or live: views must drop their row pointers (a frozen screen
 * keeps its).  Live also notes when tracepoint records last came and the first one's time.
 */
static void on_advance(void *data, uint64_t ts)
{
	struct tui *t = data;
	struct tui_side *s = t->cur;

	(void)ts;
	if (s->live) {
		if (t->rec.kernel_events)
			t->rec.events_at = wall_now();
		t->rec.kernel_events = false;
		struct rq_analysis *an = tui_side_an(s);

		if (!s->trace_first && an && rq_analysis_summary(an)->first_ts)
			s->trace_first = rq_analysis_summary(an)->first_ts;
	}
	if (!t->rec.frozen)
		t->generation++;
}

/*
 * The side's fresh analysis, replay or live, is read from here: the TUI observes it and
 * its pump, and the sparkline and the views' rows start over.
 */
static void side_begun(struct tui *t)
{
	subscribe(t);
	rq_pump_on_advance(side_pump(t->cur), on_advance, t);
	hist_reset(t);
	t->generation++;
}

/* ---- replay source ---------------------------------------------------------------- */

/* RQPATH_TUI_RING=N: how many placements the engine keeps whole (tests make it small). */
static const struct rq_filter *replay_filter;

void tui_set_filter(const struct rq_filter *f)
{
	replay_filter = f;
}

/* The options of the side's analysis, a file's or live. */
static void analysis_opts(const struct tui *t, struct rq_analysis_opts *o)
{
	const char *e = getenv("RQPATH_TUI_RING");

	*o = (struct rq_analysis_opts){ .topology = t->play.topology,
					.no_truth = t->play.no_truth,
					.filter = t->cur->live ? NULL : replay_filter };
	if (e && *e && atoi(e) > 0)
		o->recent_capacity = atoi(e);
}

/* The side's file from its first record: a new session, its analysis observed. */
static int replay_reopen(struct tui *t)
{
	struct tui_side *s = t->cur;
	struct rq_analysis_opts o;

	rq_session_close(s->session);
	analysis_opts(t, &o);
	s->session = rq_session_open_file(s->path, &o, 0);
	if (!s->session) {
		tui_message(t, "out of memory");
		return -1;
	}
	/* the index of the whole trace is built by the first pass that reaches the end */
	if (s->idx && !s->idx->complete)
		tl_index_attach(s->idx, tui_side_an(s));
	if (rq_session_start(s->session)) {
		tui_message(t, "%s", rq_session_cause(s->session));
		return -1;
	}
	s->trace_first = rq_session_next_ts(s->session);
	if (s->trace_first == UINT64_MAX)
		s->trace_first = 0;
	s->play_ts = s->trace_first;
	s->at_end = false;
	t->play.playing = false;
	t->play.loading = false;
	s->progress = 0;
	side_begun(t);
	return 0;
}

/* Feed toward t->play.seek_ts for at most budget seconds.  true when that target is reached. */
static bool replay_feed(struct tui *t, double budget)
{
	struct rq_budget b = { .max_seconds = budget };
	bool done = false;

	if (!side_pump(t->cur)) {
		t->cur->at_end = true;
		return true;
	}
	if (t->play.seek_ts != UINT64_MAX)
		b.until_ts = t->play.seek_ts;
	if (!t->cur->at_end) {
		switch (rq_session_run(t->cur->session, &b)) {
		case RQ_PUMP_ERROR:
			tui_message(t, "%s; stopped here", rq_session_cause(t->cur->session));
			t->cur->at_end = true;
			break;
		case RQ_PUMP_END:
			t->cur->at_end = true;
			t->cur->trace_last = rq_analysis_summary(tui_side_an(t->cur))->last_ts;
			if (t->cur->idx && !t->cur->idx->complete) {
				tl_index_complete(t->cur->idx);
				tl_index_detach(t->cur->idx, tui_side_an(t->cur));
			}
			break;
		case RQ_PUMP_UNTIL:
		case RQ_PUMP_STOPPED:
			done = true;
			break;
		default:
			break;
		}
	}
	if (t->cur->at_end)
		done = true;
	t->cur->progress = t->cur->at_end ? 1.0 : rq_session_progress(t->cur->session);
	return done;
}

static void replay_seek(struct tui *t, uint64_t limit, bool until_placement)
{
	t->play.seek_ts = limit;
	t->play.seek_placement = until_placement;
	t->play.loading = true;
	t->play.playing = false;
}

/* The replay clock: where the user is in the trace (>= the last event fed). */
static uint64_t position(const struct tui *t)
{
	if (t->cur->live)
		return tui_side_an(t->cur) ? rq_analysis_summary(tui_side_an(t->cur))->last_ts : 0;
	return t->cur->play_ts;
}

uint64_t tui_position(const struct tui *t)
{
	return position(t);
}

static void jump_done(struct tui *t, const char *text, void *data)
{
	char *end;
	double s;
	uint64_t target, now = position(t);
	const struct rq_summary *sum;
	char buf[64];

	(void)data;
	bool rel = text[0] == '+' || text[0] == '-';

	errno = 0;
	s = strtod(text, &end);
	while (*end == ' ' || *end == 's')
		end++;
	if (errno || end == text || *end || isnan(s)) {
		tui_message(t, "not a time: '%s' (seconds, or +N / -N)", text);
		return;
	}
	if (rel)
		s += tui_rel(t, now);
	if (s < 0)
		s = 0;
	/* the times on screen are absolute: so is the answer */
	target = t->abs_time && !rel ? (uint64_t)(s * 1e9) :
		 t->cur->trace_first + (uint64_t)(s * 1e9);
	if (target < t->cur->trace_first)
		target = t->cur->trace_first;
	if (t->cur->trace_last && target > t->cur->trace_last) {
		tui_message(t, "%s is past the end of the trace (%s): at the end", text,
			    tui_fmt_ts(t, t->cur->trace_last, 0, buf, sizeof(buf)));
		target = t->cur->trace_last;
	}
	sum = rq_analysis_summary(tui_side_an(t->cur));
	if (sum->nr_events && target < sum->last_ts) {
		if (replay_reopen(t))
			return;
	}
	replay_seek(t, target, false);
}

static void replay_action(struct tui *t, enum tui_action act)
{
	switch (act) {
	case ACT_PLAY:
		if (t->cur->at_end) {
			tui_message(t, "at the end of the trace: R restarts from the start");
			break;
		}
		t->play.loading = false;
		t->play.playing = !t->play.playing;
		t->cur->play_ts = position(t);
		break;
	case ACT_FASTER:
		if (t->play.speed < NR_SPEEDS - 1)
			t->play.speed++;
		break;
	case ACT_SLOWER:
		if (t->play.speed > 0)
			t->play.speed--;
		break;
	case ACT_STEP:
		if (t->cur->at_end) {
			tui_message(t, "at the end of the trace: R restarts from the start");
			break;
		}
		replay_seek(t, UINT64_MAX, true);
		break;
	case ACT_FINISH:
		replay_seek(t, UINT64_MAX, false);
		break;
	case ACT_JUMP_TIME:
		tui_prompt(t, t->abs_time ? "jump to time (absolute s, or +N / -N): " :
			   "jump to time (s, or +N / -N): ", NULL, jump_done, NULL);
		break;
	default:
		break;
	}
}

/* ---- drawing ---------------------------------------------------------------------- */

static void draw_title(struct tui *t)
{
	char right[160], pos[64] = "";
	struct view *v = tui_top(t);
	int x = 0, rw;

	attron(tui_attr(C_TITLE));
	tui_clear_row(0, 0);
	for (int i = 0; i < COLS; i++)
		mvaddch(0, i, ' ');
	x += tui_puts(0, x, -1, " rqpath ");
	if (t->cur->live) {
		x += tui_puts(0, x, -1, "live");
	} else {
		x += tui_puts(0, x, -1, "replay ");
		if (t->cmp)	/* which of the two traces the views show */
			x += tui_puts(0, x, -1, tui_compare_side(t) ? "NEW " : "BASE ");
	}
	if (t->cur->live) {
		char state[96];
		double quiet = wall_now() - t->rec.events_at;

		/*
		 * No event for seconds and the recorder knows why (tracing switched off, the
		 * instance removed): stalled, not recording.  Quiet alone is only quiet.
		 */
		if (!t->rec.live_ready)
			snprintf(state, sizeof(state), "starting");
		else if (t->rec.stall)
			snprintf(state, sizeof(state), "stalled: no events for %.0fs, %s",
				 t->rec.events_at ? quiet : wall_now() - t->rec.started,
				 t->rec.stall);
		/* Z zooms in the timeline: name the key that thaws */
		else if (t->rec.frozen)
			snprintf(state, sizeof(state), "FROZEN (%s: live again)",
				 tui_key_name(t, ACT_FREEZE));
		else if (t->rec.events_at && quiet >= 3)
			snprintf(state, sizeof(state), "recording, quiet for %.0fs", quiet);
		else
			snprintf(state, sizeof(state), "recording");
		snprintf(right, sizeof(right), "%s  %s ", v ? v->ops->title : "", state);
	} else {
		const char *state;
		char sp[32];

		snprintf(sp, sizeof(sp), "%gx", speeds[t->play.speed]);
		if (t->play.loading && t->play.seek_ts == UINT64_MAX && !t->play.seek_placement)
			state = "loading";
		else if (t->play.loading)
			state = "seeking";
		else if (t->cur->at_end)
			state = "END";
		else if (t->play.playing)
			state = "playing";
		else
			state = "paused";
		if (t->play.loading && t->play.seek_ts == UINT64_MAX && !t->play.seek_placement)
			snprintf(pos, sizeof(pos), "%3.0f%%", t->cur->progress * 100);
		else
		{
			char ts[48];

			snprintf(pos, sizeof(pos), "%ss", tui_fmt_ts(t, position(t), 0, ts,
								   sizeof(ts)));
		}
		snprintf(right, sizeof(right), "%s  %s %s %s %s ", v ? v->ops->title : "",
			 t->play.playing ? tui_g.play : tui_g.pause, state, sp, pos);
	}
	rw = tui_width(right);
	if (!t->cur->live && t->cur->path)
		tui_puts_untrusted(0, x, COLS - x - rw - 1, t->cur->path, strlen(t->cur->path));
	if (t->cur->live && t->rec.output) {
		struct stat st;
		char size[32] = "";

		if (stat(t->rec.output, &st) == 0)
			snprintf(size, sizeof(size), " %.1f MB", st.st_size / 1e6);
		x += tui_puts(0, x, -1, " ");
		x += tui_puts(0, x, -1, tui_g.arrow);
		x += tui_puts(0, x, -1, " ");
		x += tui_puts_untrusted(0, x, COLS - x - rw - 1 - (int)strlen(size), t->rec.output,
					strlen(t->rec.output));
		tui_puts(0, x, COLS - x - rw - 1, size);
	} else if (t->cur->live) {
		tui_puts(0, x, COLS - x - rw - 1, " (not kept: no -o)");
	}
	tui_puts(0, COLS - rw > x ? COLS - rw : x, rw, right);
	attroff(tui_attr(C_TITLE));
}

static void draw_bottom(struct tui *t)
{
	int y = LINES - 1;
	char line[512];

	tui_clear_row(y, 0);
	if (t->prompt.active) {
		tui_prompt_draw(t, y);
		return;
	}
	if (t->confirm) {
		static const char *const ask[] = {
			[CONFIRM_QUIT] = "end the recording? It is not kept (no -o FILE). y ends "
					 "it, any other key goes on",
			[CONFIRM_RESTART] = "restart the replay from the start, every count "
					    "from 0? y restarts, any other key does not",
			[CONFIRM_RESET] = "reset the counters and count from now? y resets, any "
					  "other key does not",
		};

		attron(tui_attr(C_FINDING));
		tui_puts(y, 0, -1, ask[t->confirm]);
		attroff(tui_attr(C_FINDING));
		return;
	}
	if (t->msg[0]) {
		attron(tui_attr(C_FINDING));
		tui_puts(y, 0, -1, t->msg);
		attroff(tui_attr(C_FINDING));
		return;
	}
	tui_help_line(t, line, sizeof(line));
	attron(tui_attr(C_TITLE));
	for (int i = 0; i < COLS; i++)
		mvaddch(y, i, ' ');
	tui_puts(y, 0, -1, line);
	attroff(tui_attr(C_TITLE));
}

static void draw(struct tui *t)
{
	struct view *v = tui_top(t);

	erase();
	if (LINES < 12 || COLS < 60) {
		mvprintw(0, 0, "rqpath needs 80x24 (now %dx%d)", COLS, LINES);
		refresh();
		return;
	}
	draw_title(t);
	if (v) {
		v->height = LINES - 2;
		v->ops->draw(v, 1, LINES - 2);
		tui_search_highlight(v);
	}
	draw_bottom(t);
	refresh();
}

/* ---- keys ------------------------------------------------------------------------- */

void tui_mouse(struct tui *t, int y, int x, enum tui_mouse what)
{
	struct view *v = tui_top(t);
	int n;

	t->dirty = true;
	if (!v || !v->ops->key || t->prompt.active)
		return;
	if (what == TUI_WHEEL_UP || what == TUI_WHEEL_DOWN) {
		for (int i = 0; i < 3; i++)
			v->ops->key(v, what == TUI_WHEEL_UP ? ACT_UP : ACT_DOWN);
		return;
	}
	/* the view's own places (the timeline's marks) */
	if (v->ops->mouse && (what == TUI_CLICK || what == TUI_DCLICK) &&
	    v->ops->mouse(v, y, x, what == TUI_DCLICK))
		return;
	/* a row of a list: select it; twice: open it */
	if (!v->list_y || y < v->list_y || !v->ops->rows)
		return;
	n = v->ops->rows(v);
	if (v->top + (y - v->list_y) >= n)
		return;
	v->sel = v->top + (y - v->list_y);
	v->ops->key(v, ACT_NONE);	/* the view takes note of the selection */
	if (what == TUI_DCLICK)
		v->ops->key(v, ACT_ENTER);
}

static void mouse_event(struct tui *t)
{
	MEVENT me;

	if (getmouse(&me) != OK)
		return;
	if (me.bstate & BUTTON4_PRESSED)
		tui_mouse(t, me.y, me.x, TUI_WHEEL_UP);
	else if (me.bstate & BUTTON5_PRESSED)
		tui_mouse(t, me.y, me.x, TUI_WHEEL_DOWN);
	else if (me.bstate & BUTTON1_DOUBLE_CLICKED)
		tui_mouse(t, me.y, me.x, TUI_DCLICK);
	else if (me.bstate & BUTTON1_CLICKED)
		tui_mouse(t, me.y, me.x, TUI_CLICK);
}

static void source_action(struct tui *t, enum tui_action act);
static void side_restart(struct tui *t);

static void handle_key(struct tui *t, int ch)
{
	static const enum tui_view_id cycle[] = { VIEW_DASHBOARD, VIEW_PLACEMENTS, VIEW_TASKS,
						  VIEW_FINDINGS, VIEW_TEACH, VIEW_TIMELINE };
	const int ncycle = sizeof(cycle) / sizeof(cycle[0]);
	struct view *v = tui_top(t);
	enum tui_action act;

	t->dirty = true;
	if (ch == KEY_RESIZE)
		return;
	if (ch == KEY_MOUSE) {
		mouse_event(t);
		return;
	}
	if (ch == 3) {		/* Ctrl-C, also while a prompt is open */
		t->quit = true;
		return;
	}
	if (t->prompt.active) {
		tui_prompt_key(t, ch);
		return;
	}
	t->msg[0] = '\0';
	if (t->confirm) {
		enum tui_confirm what = t->confirm;
		bool yes = ch == 'y' || ch == 'Y';

		t->confirm = CONFIRM_NONE;
		if (what == CONFIRM_QUIT && yes)
			t->quit = true;
		else if (what == CONFIRM_QUIT)
			tui_message(t, "still recording");
		else if (!yes)
			tui_message(t, "%s", what == CONFIRM_RESTART ? "not restarted" :
				    "not reset");
		else
			side_restart(t);
		return;
	}
	act = tui_key_action(t, ch);
	if (act == ACT_NONE)
		return;
	/* q closes a nested view (as in tig and less); from the first one, and F10, quit */
	if (act == ACT_QUIT && t->depth > 1) {
		tui_pop(t);
		return;
	}
	if (act == ACT_QUIT || act == ACT_QUIT_ALL) {
		/* q would throw away a live recording nobody asked to keep: ask */
		if (t->cur->live && !t->rec.output)
			t->confirm = CONFIRM_QUIT;
		else
			t->quit = true;
		return;
	}
	if (v) {
		enum view_key r = v->ops->key ? v->ops->key(v, act) : VK_UNHANDLED;

		if (r == VK_UNHANDLED)
			r = tui_search_key(v, act);
		if (r == VK_RESCAN)
			v->stale = true;
		if (r == VK_NONE)
			t->dirty = false;
		if (r != VK_UNHANDLED)
			return;
	}
	switch (act) {
	case ACT_BACK:
		/* Esc never quits (it also cancels prompts: Esc Esc must be harmless) */
		if (t->depth <= 1)
			tui_message(t, "first view: q quits");
		else
			tui_pop(t);
		break;
	case ACT_HELP:
		if (v != &t->views[VIEW_HELP])
			tui_push(t, VIEW_HELP, NULL);
		break;
	case ACT_VIEW_DASHBOARD:
		tui_switch(t, VIEW_DASHBOARD, NULL);
		break;
	case ACT_VIEW_PLACEMENTS:
		tui_switch(t, VIEW_PLACEMENTS, NULL);
		break;
	case ACT_VIEW_TASKS:
		tui_switch(t, VIEW_TASKS, NULL);
		break;
	case ACT_VIEW_FINDINGS:
		tui_switch(t, VIEW_FINDINGS, NULL);
		break;
	case ACT_VIEW_TEACH:
		tui_switch(t, VIEW_TEACH, NULL);
		break;
	case ACT_VIEW_TIMELINE:
		tui_switch(t, VIEW_TIMELINE, NULL);
		break;
	case ACT_VIEW_COMPARE:
		if (t->cmp)
			tui_switch(t, VIEW_COMPARE, NULL);
		else
			tui_message(t, "no compare: start with rqpath replay BASE.dat --compare "
				    "NEW.dat");
		break;
	case ACT_SWITCH_SIDE: {
		enum tui_view_id bottom = t->depth ? (enum tui_view_id)(t->stack[0] - t->views) :
					  VIEW_DASHBOARD;

		if (!t->cmp) {
			tui_message(t, "x switches between the traces of rqpath replay BASE.dat "
				    "--compare NEW.dat");
			break;
		}
		if (tui_compare_show(t, !tui_compare_side(t))) {
			char name[256];

			tui_switch(t, bottom, NULL);
			tui_esc(t->cur->path, name, sizeof(name));
			tui_message(t, "the views show %s: %s", tui_compare_side(t) ? "NEW" :
				    "BASE", name);
		}
		break;
	}
	case ACT_NEXT_RUN:
		if (t->cmp)
			tui_compare_next_run(t);
		break;
	case ACT_NEXT_VIEW:
	case ACT_PREV_VIEW: {
		/* with two traces the compare view is in the cycle, after the timeline */
		int n = ncycle + (t->cmp != NULL), cur = 0;
		int dir = act == ACT_NEXT_VIEW ? 1 : n - 1;

		for (int i = 0; i < ncycle; i++)
			if (t->depth && t->stack[0] == &t->views[cycle[i]])
				cur = i;
		if (t->cmp && t->depth && t->stack[0] == &t->views[VIEW_COMPARE])
			cur = ncycle;
		cur = (cur + dir) % n;
		tui_switch(t, cur == ncycle ? VIEW_COMPARE : cycle[cur], NULL);
		break;
	}
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_TIME_FORMAT:
		t->abs_time = !t->abs_time;
		for (int i = 0; i < VIEW__COUNT; i++)
			t->views[i].stale = true;
		tui_message(t, "times are %s", t->abs_time ?
			    "absolute (trace clock, as trace-cmd report prints them)" :
			    "seconds since the first record");
		break;
	case ACT_SEARCH:
	case ACT_SEARCH_NEXT:
	case ACT_SEARCH_PREV:
		tui_message(t, "no search in this view");
		break;
	case ACT_PLAY:
	case ACT_FASTER:
	case ACT_SLOWER:
	case ACT_STEP:
	case ACT_START:
	case ACT_FINISH:
	case ACT_JUMP_TIME:
	case ACT_FREEZE:
	case ACT_RESET:
		source_action(t, act);
		break;
	default:
		break;
	}
}

/* ---- the end of a TUI ------------------------------------------------------------- */

/*
 * A TUI on one side, a trace file (path: its index is built as it loads) or a live source
 * (its analysis and index begin with the recording); NULL when out of memory.
 */
static struct tui *tui_new(bool live, const char *path, const char *topology, bool no_truth)
{
	struct tui *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->cur = &t->side[0];
	t->cur->live = live;
	t->cur->path = path;
	t->play.topology = topology;
	t->play.no_truth = no_truth;
	t->play.speed = SPEED_1X;
	if (!live)
		t->cur->idx = tl_index_new();
	return t;
}

/* The TUI and both its sides, freed. */
static void tui_free(struct tui *t)
{
	for (int i = 0; i < VIEW__COUNT; i++) {
		if (t->views[i].priv && t->views[i].ops && t->views[i].ops->done)
			t->views[i].ops->done(&t->views[i]);
		free(t->views[i].priv);
		t->views[i].priv = NULL;
	}
	for (int i = 0; i < 2; i++) {
		struct tui_side *s = &t->side[i];

		tl_index_free(s->idx);
		s->idx = NULL;
		rq_session_close(s->session);
		s->session = NULL;
		}
	tui_compare_free(t->cmp);
	free(t);
}

/* Rows of background work a turn (view_ops.idle): a few milliseconds. */
#define IDLE_BUDGET (1u << 18)

int tui_replay_load(struct tui *t, const char *path)
{
	struct tl_index *idx = tl_index_new();

	if (!idx) {
		tui_message(t, "out of memory");
		return -1;
	}
	tl_index_free(t->cur->idx);
	t->cur->idx = idx;
	t->cur->path = path;
	if (replay_reopen(t))
		return -1;
	replay_seek(t, UINT64_MAX, false);
	return 0;
}

/*
 * --compare: read the trace shown whole before the screen opens (both sides, so that a
 * file that breaks off is one line and exit 2, as in rqpath diff); -1 and err if it fails.
 */
static int compare_load(struct tui *t, char *err, size_t errlen)
{
	bool progress = isatty(STDERR_FILENO);
	char name[1024];
	int rc = 0;

	rq_escape_c(t->cur->path, strlen(t->cur->path), name, sizeof(name));
	if (!t->cur->idx && !(t->cur->idx = tl_index_new())) {
		snprintf(err, errlen, "replay: out of memory");
		return -1;
	}
	if (!t->cur->session && replay_reopen(t)) {
		rc = -1;
	} else {
		replay_seek(t, UINT64_MAX, false);
		while (!replay_feed(t, 0.2))
			if (progress)
				rq_progress("reading %s %3.0f%%", name, t->cur->progress * 100);
		if (progress)
			rq_progress(NULL);
		t->play.loading = false;
		t->cur->play_ts = rq_analysis_summary(tui_side_an(t->cur))->nr_events ?
			     rq_analysis_summary(tui_side_an(t->cur))->last_ts : t->cur->trace_first;
		/* an error while reading ends the feed early: an index never completed */
		rc = t->msg[0] || !t->cur->idx->complete ? -1 : 0;
		tui_compare_take(t);
	}
	if (rc)
		snprintf(err, errlen, "%s: %s", name, t->msg[0] ? t->msg : "cannot read the trace");
	return rc;
}

static int tui_loop(struct tui *t);

static int replay_main(const char *const *base, int nbase, const char *const *new, int nnew,
		       const char *topology, bool no_truth, char *err, size_t errlen)
{
	struct tui *t;
	char terr[512];
	int rc;

	t = tui_new(false, base[0], topology, no_truth);
	if (!t) {
		snprintf(err, errlen, "replay: out of memory");
		return -1;
	}
	/* open once before touching the terminal: a bad file is one line on stderr */
	if (replay_reopen(t)) {
		char name[1024];

		rq_escape_c(t->cur->path, strlen(t->cur->path), name, sizeof(name));
		snprintf(err, errlen, "%s: %s", name, t->msg[0] ? t->msg : "cannot open the trace");
		tui_free(t);
		return -1;
	}
	if (nnew) {
		bool ok;

		t->cmp = tui_compare_new(base, nbase, new, nnew, topology, no_truth, err,
					 errlen);
		ok = t->cmp && !compare_load(t, err, errlen);
		if (ok) {
			/* NEW in the other side, then back to BASE */
			tui_compare_swap(t);
			t->cur->path = new[0];
			ok = !compare_load(t, err, errlen);
			tui_compare_swap(t);
		}
		if (!ok) {
			tui_free(t);
			return -1;
		}
	}
	if (term_start(t, terr, sizeof(terr))) {
		snprintf(err, errlen, "replay: %s", terr);
		tui_free(t);
		return -1;
	}
	tui_switch(t, t->cmp ? VIEW_COMPARE : VIEW_DASHBOARD, NULL);
	replay_seek(t, UINT64_MAX, false);	/* load everything, paused at the end */
	rc = tui_loop(t);
	term_end();
	tui_script_close(t);
	tui_free(t);
	return rc;
}

int tui_replay(const char *path, const char *topology, bool no_truth, char *err, size_t errlen)
{
	return replay_main(&path, 1, NULL, 0, topology, no_truth, err, errlen);
}

int tui_compare(const char *const *base, int nbase, const char *const *new, int nnew,
		const char *topology, bool no_truth, char *err, size_t errlen)
{
	return replay_main(base, nbase, new, nnew, topology, no_truth, err, errlen);
}

/* ---- rqpath why: the detail's facts as text ------------------------------------------ */

static void why_line(enum tui_color c, const char *text, void *data)
{
	(void)c;
	fprintf(data, "%s\n", text);
}

int tui_why(const char *path, const char *topology, bool no_truth, int pid, bool at_given,
	    double at, FILE *out, char *err, size_t errlen)
{
	char ev[TUI_EV_PREFETCH][TUI_EV_LEN];
	char name[1024], ev_err[160];
	struct rq_placement *ps = NULL, p;
	size_t n = 0, cap = 0, best = 0;
	struct tui *t;
	int rc = 0;

	rq_escape_c(path, strlen(path), name, sizeof(name));
	t = tui_new(false, path, topology, no_truth);
	if (!t) {
		snprintf(err, errlen, "why: out of memory");
		return -1;
	}
	setlocale(LC_ALL, "");
	t->utf8 = locale_is_utf8();
	t->test_mode = true;
	tui_draw_init(t);	/* the glyphs only: no colour, no terminal */
	if (!t->cur->idx || replay_reopen(t)) {
		snprintf(err, errlen, "%s: %s", name, t->msg[0] ? t->msg : "cannot open the trace");
		rc = -1;
		goto out;
	}
	replay_seek(t, UINT64_MAX, false);
	while (!replay_feed(t, 0.5))
		;
	if (t->msg[0] || !t->cur->idx->complete) {
		snprintf(err, errlen, "%s: %s", name, t->msg[0] ? t->msg : "cannot read the trace");
		rc = -1;
		goto out;
	}
	tl_index_sort(t->cur->idx);
	for (size_t i = 0; i < t->cur->idx->npl; i++) {
		if (t->cur->idx->pl[i].pid != pid)
			continue;
		if (n == cap) {
			struct rq_placement *np = realloc(ps, (cap ? 2 * cap : 64) * sizeof(*ps));

			if (!np) {
				snprintf(err, errlen, "why: out of memory");
				rc = -1;
				goto out;
			}
			ps = np;
			cap = cap ? 2 * cap : 64;
		}
		tl_pl_expand(t->cur->idx, &t->cur->idx->pl[i], &ps[n]);
		/* the one nearest at: the first of two as near */
		if (at_given && n && fabs(tui_rel(t, ps[n].ts) - at) <
		    fabs(tui_rel(t, ps[best].ts) - at))
			best = n;
		n++;
	}
	if (!n) {
		snprintf(err, errlen, "%s: no placement of pid %d in the trace", name, pid);
		rc = 1;
		goto out;
	}
	for (size_t i = at_given ? best : 0; i < (at_given ? best + 1 : n); i++) {
		int nev;

		p = ps[i];
		ev_err[0] = '\0';
		nev = tui_evidence(t, path, &p, ev, 24, ev_err, sizeof(ev_err));
		if (i != (at_given ? best : 0))
			fputc('\n', out);
		tui_detail_facts(t, &p, (const char (*)[TUI_EV_LEN])ev, nev, ev_err, 80,
				 why_line, out);
	}
out:
	free(ps);
	tui_evidence_free(t);
	tui_free(t);
	return rc;
}

/* ---- live --------------------------------------------------------------------------- */

#define LIVE_FRAME	0.25	/* seconds between two redraws while events flow */
#define LIVE_GAP	(RQ_RECORD_GAP_MS / 1000.0)	/* between two reads of the ring buffers */
#define LIVE_SLICE	0.015	/* the recording's share of one turn of the loop */
#define LIVE_QUIET	3.0	/* no event for this long: ask the recorder why */
#define RATE_TAU	2.0	/* the events/s shown decay with this time constant (s) */
#define LIVE_SCRIPT_GAP	0.020	/* RQPATH_TUI_SCRIPT: shortest turn */

/* The TUI's sink of the recording's pump (after the session's analysis): what came. */
static void live_sink(void *data, const struct rq_event *ev)
{
	struct tui *t = data;

	/* kernel truth (BPF) goes on while tracing is off: only the tracepoints' count */
	t->rec.kernel_events |= ev->type != RQ_EV_TRUTH;
}

/*
 * The session's analysis is read from now on (at the start; on R, reset first: a frozen
 * screen does not stop the analysis, so thawing keeps everything counted).
 */
static int live_begin(struct tui *t, bool reset)
{
	struct tui_side *s = t->cur;
	struct tl_index *idx = tl_index_new();

	if (!idx)
		return -1;
	if (reset) {
		tl_index_detach(s->idx, tui_side_an(s));
		if (rq_session_restart(s->session)) {
			tl_index_attach(s->idx, tui_side_an(s));
			tl_index_free(idx);
			return -1;
		}
	}
	tl_index_free(s->idx);
	s->idx = idx;
	/* live runs for hours: the timeline keeps the last 1M placements and 2M runs */
	tl_index_window(s->idx, 1 << 20, 2 << 20);
	tl_index_attach(s->idx, tui_side_an(s));
	s->trace_first = 0;
	t->rec.counting_since = wall_now();
	for (int i = 0; i < VIEW__COUNT; i++)
		t->views[i].stale = true;
	side_begun(t);
	t->rec.live_ready = true;
	return 0;
}

static void live_action(struct tui *t, enum tui_action act)
{
	switch (act) {
	case ACT_FREEZE:
		t->rec.frozen = !t->rec.frozen;
		if (t->rec.frozen) {
			tui_message(t, "frozen: the screen waits, recording and analysis go on "
				    "(%s: live again)", tui_key_name(t, ACT_FREEZE));
		} else {
			uint64_t n = rq_analysis_summary(tui_side_an(t->cur))->nr_events;

			/* the rows the views kept while frozen are old now */
			for (int i = 0; i < VIEW__COUNT; i++)
				t->views[i].stale = true;
			t->generation++;

			tui_message(t, "live again: nothing was missed while frozen (%llu events "
				    "counted)", (unsigned long long)n);
		}
		break;
	default:
		break;
	}
}

/*
 * The source's keys, replay or live: play, speed, step, finish and jump in a trace file,
 * freeze live; restart (a file) and reset (live) ask first.  A key of the other kind of
 * source does nothing.
 */
static void source_action(struct tui *t, enum tui_action act)
{
	if (act == ACT_START || act == ACT_RESET) {
		/* every count goes back to 0: ask (g and Home are the top of a list) */
		if ((act == ACT_RESET) == t->cur->live)
			t->confirm = t->cur->live ? CONFIRM_RESET : CONFIRM_RESTART;
		return;
	}
	if (t->cur->live)
		live_action(t, act);
	else
		replay_action(t, act);
}

/* y to restart or reset: every count from 0 (a file from its start, live from now). */
static void side_restart(struct tui *t)
{
	if (!t->cur->live) {
		replay_reopen(t);
		return;
	}
	t->rec.frozen = false;
	if (live_begin(t, true))
		tui_message(t, "out of memory");
	else
		tui_message(t, "counters reset: counting from now");
	t->rec.rate = 0;
	t->rec.rate_events = rq_pump_records(side_pump(t->cur));
	t->rec.rate_at = wall_now();
}

/* Rates that decay, and whether a quiet source is stalled. */
static void live_status(struct tui *t, double now)
{
	uint64_t n = rq_pump_records(side_pump(t->cur));
	double dt = now - t->rec.rate_at;

	if (dt >= 0.5) {
		/* exponentially weighted: a burst fades within a few seconds */
		t->rec.rate = rq_rate_decay(t->rec.rate, n - t->rec.rate_events, dt, RATE_TAU);
		t->rec.rate_events = n;
		t->rec.rate_at = now;
	}
	t->rec.stall = NULL;
	if (!t->rec.events_at || now - t->rec.events_at >= LIVE_QUIET)
		t->rec.stall = rq_recorder_stalled(rq_session_recorder(t->cur->session));
}

/*
 * The one main loop, replay and live alike: keys (a script's at rest), the screen of a
 * key before any work, the source's turn (replay: loading, playback, or the views'
 * background work; live: a slice of the recording), the screen again when that changed
 * it, then wait for the terminal (and live, the ring buffers).  -1 if the recording
 * failed.
 */
struct loop {
	double last;		/* replay: wall clock of the last playback step */
	bool idle_more;		/* replay: the views' background work goes on */
	double last_draw, last_read;	/* live */
	bool more;		/* live: the recorder has records waiting */
	bool failed;		/* live: the recording failed */
	struct pollfd *fds;
	int ncpu;
};

/* Replay's turn: feed toward the target, play on, or work in the background at rest. */
static void replay_turn(struct tui *t, struct loop *l)
{
	if (t->play.loading) {
		if (replay_feed(t, 0.05)) {
			const struct rq_summary *sum = rq_analysis_summary(tui_side_an(t->cur));

			t->play.loading = false;
			t->dirty = true;
			if (t->cur->at_end || t->play.seek_placement)
				t->cur->play_ts = sum->nr_events ? sum->last_ts :
						  t->cur->trace_first;
			else
				t->cur->play_ts = t->play.seek_ts;
		}
		l->last = wall_now();
	} else if (t->play.playing) {
		/* a script plays on a virtual clock: 40 ms a turn */
		double now = t->script ? l->last + 0.04 : wall_now();

		t->cur->play_ts += (uint64_t)((now - l->last) * speeds[t->play.speed] * 1e9);
		l->last = now;
		t->play.seek_ts = t->cur->play_ts;
		t->play.seek_placement = false;
		replay_feed(t, 0.03);
		if (t->cur->at_end) {
			t->play.playing = false;
			t->dirty = true;
			t->cur->play_ts = rq_analysis_summary(tui_side_an(t->cur))->last_ts;
		}
	} else {
		l->last = wall_now();
		/* at rest, no key waiting: the lists' sort orders (not scripted: the dumps
		 * are exact, a script asks with :idle) */
		l->idle_more = !t->script && tui_idle(t, IDLE_BUDGET);
	}
}

/* Live's turn: a slice of the recording when its gap has passed; false when it ended. */
static bool live_turn(struct tui *t, struct loop *l)
{
	const struct rq_budget slice = { .max_seconds = LIVE_SLICE };
	double now = wall_now();

	/* --duration S: the recording ends as the user would end it (q) */
	if (t->rec.duration > 0 && now - t->rec.started >= t->rec.duration)
		t->quit = true;
	if (l->more || now - l->last_read >= LIVE_GAP) {
		enum rq_pump_status st = rq_session_run(t->cur->session, &slice);

		if (st == RQ_PUMP_END || st == RQ_PUMP_ERROR) {
			l->failed = st == RQ_PUMP_ERROR;
			return false;
		}
		l->last_read = now;
		l->more = rq_session_more(t->cur->session);
	}
	live_status(t, wall_now());
	return true;
}

/* Whether the screen is drawn now: what changed, and live every frame unless frozen. */
static bool loop_draws(const struct tui *t, const struct loop *l, bool after_turn)
{
	if (t->dirty)
		return true;
	if (!after_turn)
		return false;
	if (!t->cur->live)
		return t->play.loading || t->play.playing;
	/* a frozen screen waits for a key (a script's dumps show it waiting) */
	if (t->rec.frozen)
		return false;
	return t->script || wall_now() - l->last_draw >= LIVE_FRAME;
}

/* Wait for the terminal, and live for the ring buffers once their gap has passed. */
static void loop_wait(struct tui *t, struct loop *l)
{
	double now = wall_now(), wait;
	int n = 0;

	if (!t->cur->live) {
		if (t->script || t->play.loading || l->idle_more)
			return;
		wait = t->play.playing ? 0.04 : 0.25;
	} else {
		if (l->more)
			return;
		wait = LIVE_FRAME - (now - l->last_draw);
		if (t->script) {
			/*
			 * A script has no terminal: a turn per step, paced as the recorder's
			 * rounds (at least LIVE_SCRIPT_GAP, at most LIVE_FRAME without data).
			 */
			struct timespec gap = { 0, (long)(LIVE_SCRIPT_GAP * 1e9) };

			nanosleep(&gap, NULL);
			wait = LIVE_FRAME;
		} else if (now - l->last_read < LIVE_GAP) {
			if (wait > LIVE_GAP - (now - l->last_read))
				wait = LIVE_GAP - (now - l->last_read);
		}
	}
	if (!t->script) {
		l->fds[n].fd = STDIN_FILENO;
		l->fds[n].events = POLLIN;
		n++;
	}
	if (t->cur->live && (t->script || now - l->last_read >= LIVE_GAP))
		n += rq_recorder_pollfds(rq_session_recorder(t->cur->session), l->fds + n,
					 l->ncpu + 1);
	poll(l->fds, (nfds_t)n, wait > 0 ? (int)(wait * 1000) + 1 : 0);
}

static int tui_loop(struct tui *t)
{
	struct loop l = { .last = wall_now() };
	int ch;

	l.ncpu = t->cur->live ? rq_pump_cpus(side_pump(t->cur)) : 0;
	/* the keyboard, each CPU's ring buffer, the BPF ring buffer */
	l.fds = calloc((size_t)l.ncpu + 2, sizeof(*l.fds));
	if (!l.fds)
		return -1;
	t->dirty = true;
	while (!t->quit && !sig_quit) {
		/* keys first, and their screen at once: the source's work comes after */
		if (t->script) {
			/* one scripted key per turn, replay only at rest: the dumps are exact */
			if (t->cur->live || (!t->play.loading && !t->play.playing)) {
				ch = tui_script_key(t);
				if (ch != ERR)
					handle_key(t, ch);
			}
		} else {
			timeout(0);
			while (!t->quit && (ch = getch()) != ERR)
				handle_key(t, ch);
		}
		if (t->quit)
			break;
		if (loop_draws(t, &l, false)) {
			draw(t);
			t->dirty = false;
			l.last_draw = wall_now();
		}
		if (t->cur->live) {
			if (!live_turn(t, &l))
				break;
		} else {
			replay_turn(t, &l);
		}
		if (loop_draws(t, &l, true)) {
			draw(t);
			t->dirty = false;
			l.last_draw = wall_now();
		}
		loop_wait(t, &l);
	}
	free(l.fds);
	return l.failed ? -1 : 0;
}

int tui_live(const struct tui_live_opts *o, char *err, size_t errlen)
{
	struct rq_record_opts opts = { 0 };
	struct rq_record_stats st = { 0 };
	struct rq_analysis_opts ao;
	struct utsname un;
	const char *keep = o->output;	/* -o FILE: keep the recording there */
	char rerr[512];
	struct tui *t;
	int fd = -1, rc;

	t = tui_new(true, NULL, NULL, false);
	if (!t) {
		snprintf(err, errlen, "live: out of memory");
		return -1;
	}
	t->rec.output = o->output;
	t->rec.duration = o->duration;
	if (uname(&un) == 0)
		snprintf(t->rec.release, sizeof(t->rec.release), "%s", un.release);
	if (term_start(t, rerr, sizeof(rerr))) {
		snprintf(err, errlen, "live: %s", rerr);
		tui_free(t);
		return -1;
	}
	t->rec.started = t->rec.rate_at = wall_now();
	tui_switch(t, VIEW_DASHBOARD, NULL);
	draw(t);
	/* without -o the recording goes to a file that never has a name (nothing left) */
	opts.buffer_kb = o->buffer_kb;
	opts.output = keep;
	opts.output_fd = keep ? NULL : &fd;
	opts.force = o->force;
	opts.mode = o->mode;
	opts.no_bpf = o->no_bpf;
	opts.quiet = true;
	opts.stop = &sig_quit;	/* a signal that would end rqpath ends the recording */
	rerr[0] = '\0';
	analysis_opts(t, &ao);
	t->cur->session = rq_session_open_live(&opts, &st, &ao);
	rc = -1;
	if (!t->cur->session) {
		snprintf(rerr, sizeof(rerr), "out of memory");
	} else if (rq_session_start(t->cur->session)) {
		snprintf(rerr, sizeof(rerr), "%s", rq_session_error(t->cur->session));
	} else if (live_begin(t, false) || rq_pump_add_sink(side_pump(t->cur), live_sink, t)) {
		snprintf(rerr, sizeof(rerr), "out of memory");
	} else {
		/* q, --duration or the recording's own end: stopped, drained, written */
		rc = tui_loop(t);
		if (rq_session_stop(t->cur->session) == RQ_PUMP_ERROR) {
			snprintf(rerr, sizeof(rerr), "%s", rq_session_error(t->cur->session));
			rc = -1;
		}
	}
	term_end();
	tui_script_close(t);
	if (fd >= 0)
		close(fd);
	tui_free(t);
	if (rc) {
		snprintf(err, errlen, "live: %s", rerr[0] ? rerr : "recording failed");
		return -1;
	}
	return 0;
}
