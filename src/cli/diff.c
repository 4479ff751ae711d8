// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - `rqpath diff BASE.dat NEW.dat` and `rqpath diff BASE... -- NEW...`: audit each
 * trace, compare the sides (src/output/diff.c) and print the table; --fail-on gates on the NEW
 * side's increase.  `rqpath diff --runs N -- BASE_CMD --- NEW_CMD` records the runs itself
 * (root): N of each, alternating base and new, each analysed as it is recorded.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bsd/string.h>

#include "child.h"
#include "commands.h"
#include "diff.h"
#include "escape.h"
#include "session.h"

#define MAX_RULES 16
#define MAX_RUNS 64
static char SEP[] = "\001--";

/*
 * --fail-on RULE[=[+]N[%|UNIT]]: the row a rule gates, and the increase it allows; a
 * finding's rule trips too when NEW judged it in no run, unless RULE ends in :judged-ok.
 * RULE as audit's (a finding id: its proven count per 1000 placements; ID:possible: the
 * possible count), or a path id or a kind (its share of the placements) or "all" (the
 * placements' count) -- with --per-second each of these its rate per second, the row the
 * table shows either way -- or delay.p50:KEY or
 * delay.p99:KEY (the queue delay quantile of a finding, a kind, flagged or unflagged;
 * N in ns, or with a unit ns, us, ms, s).
 */
struct diff_rule {
	char text[256];			/* as given (escaped), for the message */
	char section[16], key[64];
	const char *metric;		/* per_s: the row the table shows (shown_row()) */
	double max;			/* the increase allowed (ns for a delay) */
	bool pct;			/* max is a percentage of the base median */
	bool judged_ok;			/* ID:judged-ok: NEW judging nothing passes */
};

static bool is_finding(const char *id)
{
	for (int i = 0; i < RQ_FIND__COUNT; i++)
		if (!strcmp(id, rq_finding_ids[i]))
			return true;
	return false;
}

static bool is_kind(const char *id)
{
	for (int k = 0; k < RQ_KIND__COUNT; k++)
		if (!strcmp(id, rq_kind_names[k]))
			return true;
	return false;
}

static bool is_path(const char *id)
{
	for (int i = 0; i < RQ_PATH__COUNT; i++)
		if (!strcmp(id, rq_paths[i].id))
			return true;
	return false;
}

/* The row RULE names (text before any '='), into r; -1 if it names none. */
static int rule_row(const char *name, struct diff_rule *r)
{
	static const char *const delay[][2] = { { "delay.p50:", "p50_ns" },
						 { "delay.p99:", "p99_ns" } };
	size_t n = strlen(name);

	/* a finding's rule trips when NEW judged nothing, as audit's, unless :judged-ok */
	if (n > 10 && !strcmp(name + n - 10, ":judged-ok")) {
		char base[64];

		snprintf(base, sizeof(base), "%.*s", (int)(n - 10), name);
		if (rule_row(base, r) || strcmp(r->section, "finding"))
			return -1;
		r->judged_ok = true;
		return 0;
	}
	for (size_t i = 0; i < 2; i++) {
		const char *key = name + strlen(delay[i][0]);

		if (strncmp(name, delay[i][0], strlen(delay[i][0])))
			continue;
		if (!is_finding(key) && !is_kind(key) && strcmp(key, "flagged") &&
		    strcmp(key, "unflagged"))
			return -1;
		snprintf(r->section, sizeof(r->section), "delay");
		snprintf(r->key, sizeof(r->key), "%s", key);
		r->metric = delay[i][1];
		return 0;
	}
	if (n > 9 && !strcmp(name + n - 9, ":possible")) {
		snprintf(r->key, sizeof(r->key), "%.*s", (int)(n - 9), name);
		snprintf(r->section, sizeof(r->section), "finding");
		r->metric = "possible";
		return is_finding(r->key) ? 0 : -1;
	}
	snprintf(r->key, sizeof(r->key), "%s", name);
	r->metric = "per_s";
	if (is_finding(name))
		snprintf(r->section, sizeof(r->section), "finding");
	else if (is_kind(name))
		snprintf(r->section, sizeof(r->section), "kind");
	else if (is_path(name) || !strcmp(name, "all"))
		snprintf(r->section, sizeof(r->section), "placements");
	else
		return -1;
	return 0;
}

/*
 * The row a rate rule is checked on: the one the text table shows, so that what trips is
 * a number the user sees -- per placement, or with --per-second the rate per second.
 */
static const struct rq_diff_row *shown_row(const struct rq_diff *d, const struct diff_rule *ru,
					   bool per_second)
{
	if (strcmp(ru->metric, "per_s") || per_second)
		return rq_diff_find(d, ru->section, ru->key, ru->metric);
	if (!strcmp(ru->section, "finding"))
		return rq_diff_find(d, "finding", ru->key, "per_1k");
	if (!strcmp(ru->section, "kind"))
		return rq_diff_find(d, "kind", ru->key, "share_pct");
	if (!strcmp(ru->key, "all"))
		return rq_diff_find(d, "placements", "all", "count");
	return rq_diff_find(d, "share", ru->key, "share_pct");
}

static int parse_rule(const char *arg, struct diff_rule *r)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 },
	};
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	char name[64];
	const char *v;
	char *end;

	if (!n || n >= sizeof(name) || strlen(arg) >= 64)
		return -1;
	memcpy(name, arg, n);
	name[n] = '\0';
	memset(r, 0, sizeof(*r));
	rq_escape_c(arg, strlen(arg), r->text, sizeof(r->text));
	if (rule_row(name, r))
		return -1;
	if (!eq)
		return 0;
	v = eq + 1 + (eq[1] == '+');	/* "+20%": an increase, as every rule is */
	errno = 0;
	r->max = strtod(v, &end);
	if (end == v || errno || r->max < 0 || !isfinite(r->max) || *v == '-' || *v == '+')
		return -1;
	if (*end == '%') {
		r->pct = true;
		end++;
	} else if (*end && !strcmp(r->section, "delay")) {
		size_t i;

		for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
			if (!strcmp(end, units[i].unit))
				break;
		if (i == sizeof(units) / sizeof(units[0]))
			return -1;
		r->max *= units[i].ns;
		end += strlen(end);
	}
	return *end ? -1 : 0;
}

static int audit_one(const char *file, const struct cli_trace_opts *t, struct rq_diff_run *run)
{
	struct rq_analysis_opts aopts = { 0 };
	char err[2048];

	cli_trace_analysis(t, &aopts);
	if (rq_session_diff_run(run, file, &aopts, isatty(STDERR_FILENO), err, sizeof(err))) {
		rq_error("%s", err);
		return -1;
	}
	return 0;
}

/*
 * Record cmd (as the invoking user, as audit --live does) and analyse it as it is
 * recorded into run; the recording is a file without a name, dropped after.  0, or -1
 * with a message given.
 */
static int record_one(char **cmd, const struct cli_trace_opts *t, const char *side, int i,
		      struct rq_diff_run *run)
{
	struct rq_analysis_opts aopts = { .recent_capacity = RQ_RECENT_NONE };
	struct rq_record_opts ro = { 0 };
	struct rq_record_stats st;
	struct cli_child child = { 0 };
	struct rq_session *s;
	char err[512], msg[512], name[64];
	int fd = -1, ret = -1, saved_stdout;

	cli_trace_analysis(t, &aopts);
	snprintf(name, sizeof(name), "%s run %d", side, i + 1);
	aopts.source_name = name;
	s = rq_session_open_live(&ro, &st, &aopts);
	if (!s) {
		rq_error("diff: out of memory");
		return -1;
	}
	ro.output_fd = &fd;
	ro.quiet = true;
	ro.no_bpf = t->no_truth;
	if (cli_child_user(&child, NULL, false, err, sizeof(err)) < 0) {
		rq_error("diff: %s", err);
		goto out;
	}
	child.foreground = true;
	ro.cmd = cli_child_init(&child, cmd);
	ro.stop = &cli_stop_signal;
	/* stdout carries the table: what the command prints goes to stderr */
	fflush(stdout);
	saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved_stdout >= 0)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	cli_catch_stop_signals();
	ret = rq_session_run(s, NULL) == RQ_PUMP_ERROR ? -1 : 0;
	cli_restore_signals();
	if (saved_stdout >= 0) {
		dup2(saved_stdout, STDOUT_FILENO);
		close(saved_stdout);
	}
	if (fd >= 0)
		close(fd);
	if (ret) {
		rq_error("diff: %s: %s", name, rq_session_error(s));
		goto out;
	}
	if (cli_stop_signal) {
		rq_error("diff: %s: stopped by a signal", name);
		ret = -1;
		goto out;
	}
	if (cli_child_failed(&child, msg, sizeof(msg))) {
		rq_error("diff: %s: %s", name, msg);
		ret = -1;
		goto out;
	}
	rq_diff_run_from(run, rq_session_analysis(s));
	fprintf(stderr, "rqpath: diff: %s: %llu placements, %.3f s\n", name,
		(unsigned long long)run->placements, run->duration_s);
out:
	rq_session_close(s);
	return ret;
}

static int cmd_diff(int argc, char **argv);

/* the short forms diff has always accepted */
enum { OPT_FAIL_ON = 'F', OPT_ALPHA = 256, OPT_MIN_COUNT, OPT_PER_SECOND, OPT_RUNS };

static const struct cli_option diff_options[] = {
	{ "format", 'f', CLI_CHOICE, "text|json|csv|html", 0, 0, 0,
	  "output format (default text)" },
	CLI_OUTPUT_OPTION(0, CLI_OUTPUT_HELP),
	CLI_FORCE_OPTION(CLI_NESTED, CLI_FORCE_HELP),
	{ "fail-on", OPT_FAIL_ON, CLI_STRING, "RULE[=[+]N[%]]", 0, 0, CLI_REPEAT,
	  "exit 1 when RULE's row is changed and grew by more than N (or N % of the base)" },
	{ "alpha", OPT_ALPHA, CLI_STRING, "P", 0, 0, 0,
	  "three runs or more a side: changed when the rank test's p <= P (default 0.05)" },
	{ "min-count", OPT_MIN_COUNT, CLI_INT, "N", 1, 1000000000, 0,
	  "fewer than three runs a side: --fail-on needs N events behind the row in a run "
	  "(default 10)" },
	{ "per-second", OPT_PER_SECOND, CLI_FLAG, NULL, 0, 0, 0,
	  "text and HTML: rates per second of trace instead of per placement" },
	{ "runs", OPT_RUNS, CLI_INT, "N", 1, MAX_RUNS, CLI_IN_LEAD,
	  "record N runs of each command, alternating (root): -- BASE_CMD --- NEW_CMD" },
	CLI_PROFILE_OPTION("override the kernel profile of every trace"),
	CLI_TOPOLOGY_OPTION("the LLC/SMT/node groups and CPU capacities, for every trace"),
	CLI_NO_TRUTH_OPTION("ignore the kernel's state recorded through BPF in every trace"),
	{ NULL },
};

const struct cli_command cli_diff = {
	.name = "diff",
	.fn = cmd_diff,
	.lead = "BASE.dat NEW.dat | BASE.dat... -- NEW.dat... | --runs N -- BASE_CMD --- NEW_CMD",
	.summary = "before and after: per path and finding rates, delays, the change of each",
	.description =
		"Audit each trace and compare the NEW side with the BASE side, per path and\n"
		"finding: counts per placement (--per-second: rates), shares, queue delay,\n"
		"min/median/max per side; rows 0 in every run fold into one line.  With three\n"
		"runs or more a side a row is changed when the Mann-Whitney rank test gives\n"
		"p <= P; with fewer there is no noise estimate and no row is changed.  --runs N\n"
		"records N runs of each command itself, alternating.  RULE: the row the table\n"
		"shows of a finding id (per 1000 placements), ID:possible (the possible count),\n"
		"a path id or a kind (its share) or all (the placements), each its rate per\n"
		"second with --per-second; delay.p50:KEY or delay.p99:KEY (KEY a finding, a kind, flagged or\n"
		"unflagged; N in ns or with us, ms, s); exit 1 when that row is changed and grew\n"
		"by more than N (default 0), or when NEW judged the finding in no run (not\n"
		"judged; ID:judged-ok passes).  Example: --fail-on delay.p99:wakeup=+20%.",
	.options = diff_options,
};

/* Everything `rqpath diff` was told. */
struct diff_args {
	struct cli_trace_opts t;	/* the shared options (opts.h) */
	struct diff_rule rules[MAX_RULES];
	int nrules;
	enum rq_diff_format fmt;
	struct rq_diff_opts dopts;
	int nruns;		/* --runs N: the commands are recorded N times each */
	char **base, **new;	/* the files of each side, or (--runs) the two commands */
	int nbase, nnew;
	char **operands;	/* every operand: the inputs -o FILE must not be */
	int noperands;
};

/* --alpha P: 0, or -1 after the error line. */
static int parse_alpha(const char *arg, double *alpha)
{
	char esc[256], *end;

	errno = 0;
	*alpha = strtod(arg, &end);
	if (end == arg || *end || errno || !(*alpha > 0 && *alpha < 1)) {
		rq_escape_c(arg, strlen(arg), esc, sizeof(esc));
		rq_error("diff: --alpha wants a number in (0, 1), not '%s'", esc);
		return -1;
	}
	return 0;
}

/* diff's own options (cli_option_fn) */
static int diff_option(struct cli_parser *p, int key, void *ctx)
{
	struct diff_args *a = ctx;
	char esc[256], word[16];

	switch (key) {
	case 'f':
		/* the renderer of the word's name (rq_diff_format_names[]) */
		cli_choice_word(p->opt->arg, (int)p->num, word, sizeof(word));
		if (rq_diff_format_find(word, &a->fmt)) {
			rq_error("diff: --format %s has no renderer", word);
			return -1;
		}
		return 1;
	case OPT_FAIL_ON:
		if (a->nrules == MAX_RULES || parse_rule(p->arg, &a->rules[a->nrules])) {
			rq_escape_c(p->arg, strlen(p->arg), esc, sizeof(esc));
			rq_error("diff: bad --fail-on '%s': RULE[=[+]N[%%]], RULE a finding id "
				 "(ID:possible), a path id, a kind, all, or delay.p50:KEY or "
				 "delay.p99:KEY (N in ns, us, ms, s)", esc);
			return -1;
		}
		a->nrules++;
		return 1;
	case OPT_ALPHA:
		return parse_alpha(p->arg, &a->dopts.alpha) ? -1 : 1;
	case OPT_MIN_COUNT:
		a->dopts.min_count = (uint64_t)p->num;
		return 1;
	case OPT_PER_SECOND:
		a->dopts.per_second = true;
		return 1;
	case OPT_RUNS:
		a->nruns = (int)p->num;
		return 1;
	}
	return 0;
}

/*
 * --runs N -- BASE_CMD ARGS... --- NEW_CMD ARGS...: the two commands, from argv[first] on
 * (getopt stopped at "--"); sep is the "--" among the operands of files, if any.  0, or
 * -1 after the error line.
 */
static int runs_commands(struct diff_args *a, int argc, char **argv, int first, int sep)
{
	int sep2 = -1;

	if (sep >= 0 || first < 2 || strcmp(argv[first - 1], "--")) {
		rq_error("diff: --runs N records commands: -- BASE_CMD --- NEW_CMD "
			 "(no trace files)");
		return -1;
	}
	sep = first - 1;
	for (int i = sep + 1; i < argc; i++)
		if (!strcmp(argv[i], "---")) {
			sep2 = i;
			break;
		}
	if (sep2 < 0 || sep2 == sep + 1 || sep2 == argc - 1) {
		rq_error("diff: --runs N: -- BASE_CMD ARGS... --- NEW_CMD ARGS..., both "
			 "commands given");
		return -1;
	}
	if (geteuid() != 0) {
		rq_error("diff: --runs records the commands through tracefs: run it as "
			 "root (sudo rqpath diff --runs ...)");
		return -1;
	}
	argv[sep2] = NULL;	/* BASE_CMD ends here: argv lists for the child */
	a->base = &argv[sep + 1];
	a->new = &argv[sep2 + 1];
	a->nbase = a->nnew = a->nruns;
	return 0;
}

/*
 * The operands from argv[first] on: the two sides (BASE NEW, BASE... SEP NEW..., or the
 * commands of --runs), checked with --profile.  0, or -1 after the error line.
 */
static int diff_sides(struct diff_args *a, int argc, char **argv, int first)
{
	char err[512];
	int sep = -1;

	a->operands = &argv[first];
	a->noperands = argc - first;
	for (int i = first; i < argc; i++)
		if (argv[i] == SEP) {
			sep = i;
			break;
		}
	if (a->nruns) {
		if (runs_commands(a, argc, argv, first, sep))
			return -1;
	} else if (sep >= 0) {
		a->base = &argv[first];
		a->nbase = sep - first;
		a->new = &argv[sep + 1];
		a->nnew = argc - sep - 1;
	} else {
		a->nbase = a->nnew = 1;
		if (argc - first != 2) {
			rq_error("diff: give BASE.dat NEW.dat, or BASE... -- NEW... (%d file%s given)",
				 argc - first, argc - first == 1 ? "" : "s");
			return -1;
		}
		a->base = &argv[first];
		a->new = &argv[first + 1];
	}
	if (a->nbase < 1 || a->nnew < 1 || a->nbase > MAX_RUNS || a->nnew > MAX_RUNS) {
		rq_error("diff: each side needs 1 to %d trace files (base %d, new %d)", MAX_RUNS,
			 a->nbase, a->nnew);
		return -1;
	}
	if (cli_trace_check(&a->t, err, sizeof(err))) {
		rq_error("diff: %s", err);
		return -1;
	}
	return 0;
}

/*
 * The options and the operands.  false when the command ends here with *status
 * (--help, a bad option or operand).
 */
static bool diff_parse(struct diff_args *a, int argc, char **argv, int *status)
{
	struct cli_parser p;
	int r;

	/*
	 * BASE... -- NEW...: the first "--" becomes an operand that getopt keeps in place
	 * among the files (it moves operands after the options, in order), so options may
	 * come anywhere.  No file name can be SEP: it holds a control byte.
	 */
	for (int i = 1; i < argc; i++) {
		/* --runs: what follows "--" is commands, never options of diff */
		if (!strcmp(argv[i], "--runs") || !strncmp(argv[i], "--runs=", 7))
			break;
		if (!strcmp(argv[i], "--")) {
			argv[i] = SEP;
			break;
		}
	}
	cli_parser_init(&p, &cli_diff, argc, argv);
	r = cli_parse_options(&p, &a->t, diff_option, a);
	if (r != CLI_END) {
		*status = cli_stop(&p, r);
		return false;
	}
	if (diff_sides(a, argc, argv, p.optind)) {
		*status = RQ_EXIT_ERROR;
		return false;
	}
	return true;
}

/* Each side's runs: recorded (--runs, alternating) or audited from the files.  0 or -1. */
static int diff_collect(const struct diff_args *a, struct rq_diff_run *runs)
{
	for (int i = 0; a->nruns && i < 2 * a->nruns; i++) {
		/* base 1, new 1, base 2, ...: a drift of the machine falls on both sides */
		int side = i % 2, k = i / 2;

		if (record_one(side ? a->new : a->base, &a->t, side ? "new" : "base", k,
			       &runs[side ? a->nbase + k : k]))
			return -1;
	}
	for (int i = 0; !a->nruns && i < a->nbase + a->nnew; i++)
		if (audit_one(i < a->nbase ? a->base[i] : a->new[i - a->nbase], &a->t, &runs[i]))
			return -1;
	return 0;
}

/*
 * Whether rule ru trips on the diff: RQ_EXIT_TRIPPED after the line saying so, else
 * RQ_EXIT_OK.
 */
static int gate_rule(const struct diff_args *a, const struct rq_diff *d,
		     const struct diff_rule *ru)
{
	const struct rq_diff_row *r = shown_row(d, ru, a->dopts.per_second);
	char label[64], b[32], n[32], pv[32];
	double allowed;

	/* a path or delay seen in no trace: nothing on either side */
	if (!r)
		return RQ_EXIT_OK;
	if (!strcmp(r->section, "finding") && r->unjudged[1] && !ru->judged_ok) {
		fprintf(stderr, "rqpath: --fail-on %s tripped: %s not judged in NEW (it had "
			"candidates, none could be judged; %s:judged-ok accepts that)\n",
			ru->text, r->key, r->key);
		return RQ_EXIT_TRIPPED;
	}
	allowed = ru->pct ? ru->max * r->base.median / 100.0 : ru->max;
	/*
	 * Below RQ_DIFF_MIN_RUNS runs a side no row is "changed": the gate is then the
	 * growth itself, when enough events are behind the row (--min-count), and the
	 * message says there is no noise estimate.
	 */
	if (r->verdict == RQ_DIFF_NO_NOISE ? r->events < d->min_count :
	    r->verdict != RQ_DIFF_CHANGED)
		return RQ_EXIT_OK;
	if (!(r->change > 0) || !(r->change > allowed))
		return RQ_EXIT_OK;
	rq_diff_row_label(r, label, sizeof(label));
	/* the table's section title says "per second"; this line has no title */
	if (!strcmp(r->metric, "per_s") && strcmp(r->section, "finding"))
		strlcat(label, " per s", sizeof(label));
	fprintf(stderr, "rqpath: --fail-on %s tripped: %s %s -> %s (%s%s)\n", ru->text,
		label, rq_diff_fmt_value(r, r->base.median, b, sizeof(b)),
		rq_diff_fmt_value(r, r->new.median, n, sizeof(n)),
		r->verdict == RQ_DIFF_NO_NOISE ? rq_diff_verdict_text(r) : "changed",
		rq_diff_fmt_p(r, pv, sizeof(pv)));
	return RQ_EXIT_TRIPPED;
}

/* The table onto -o FILE (or stdout), then the rules: the exit status. */
static int diff_report(const struct diff_args *a, const struct rq_diff *d)
{
	struct cli_output outf = { 0 };
	int ret = RQ_EXIT_OK;
	FILE *dst;

	dst = cli_output_open(&outf, "diff", a->t.output, a->t.force, a->operands,
			      a->noperands);
	if (!dst) {
		ret = RQ_EXIT_ERROR;
	} else if (rq_diff_write(dst, d, a->fmt)) {
		rq_error("diff: cannot write the output: %s", strerror(errno));
		ret = RQ_EXIT_ERROR;
	} else {
		for (int i = 0; i < a->nrules; i++)
			if (gate_rule(a, d, &a->rules[i]) == RQ_EXIT_TRIPPED)
				ret = RQ_EXIT_TRIPPED;
	}
	if (cli_output_close(&outf, "diff", ret != RQ_EXIT_ERROR))
		ret = RQ_EXIT_ERROR;
	return ret;
}

static int cmd_diff(int argc, char **argv)
{
	struct diff_args a = { .fmt = RQ_DIFF_TEXT,
			       .dopts = { RQ_DIFF_ALPHA, RQ_DIFF_MIN_COUNT, false } };
	struct rq_diff_run *runs;
	struct rq_diff d = { 0 };
	int ret;

	if (!diff_parse(&a, argc, argv, &ret))
		return ret;
	runs = calloc((size_t)(a.nbase + a.nnew), sizeof(*runs));
	if (!runs) {
		rq_error("diff: out of memory");
		return RQ_EXIT_ERROR;
	}
	if (diff_collect(&a, runs)) {
		ret = RQ_EXIT_ERROR;
	} else if (rq_diff_compute(&d, runs, a.nbase, runs + a.nbase, a.nnew, &a.dopts)) {
		rq_error("diff: out of memory");
		ret = RQ_EXIT_ERROR;
	} else {
		ret = diff_report(&a, &d);
	}
	rq_diff_free(&d);
	free(runs);
	return ret;
}
