// SPDX-License-Identifier: GPL-2.0
/*
 * audit.c - `rqpath audit`: replay a trace.dat (or record one live first) and print
 * the report; --fail-on turns findings into an exit status for CI.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bsd/string.h>

#include "commands.h"
#include "opts.h"
#include "escape.h"
#include "child.h"
#include "session.h"
#include "audit_many.h"
#include "writer.h"

#define MAX_RULES 16

/*
 * --fail-on RULE[=N]: RULE is a finding id (its proven count), or ID:possible; either
 * trips too when the finding was not judged at all, unless :judged-ok follows.
 */
struct fail_rule {
	int finding;
	bool possible;
	bool judged_ok;		/* a finding not judged passes */
	unsigned long long max;
};

/* Take the suffix sfx off name (n chars) if it ends with it. */
static bool take_suffix(char *name, size_t *n, const char *sfx)
{
	size_t l = strlen(sfx);

	if (*n <= l || strcmp(name + *n - l, sfx))
		return false;
	*n -= l;
	name[*n] = '\0';
	return true;
}

static int parse_rule(const char *arg, struct fail_rule *r)
{
	char name[64];
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	char *end;

	if (n >= sizeof(name))
		return -1;
	memcpy(name, arg, n);
	name[n] = '\0';
	r->judged_ok = take_suffix(name, &n, ":judged-ok");
	r->possible = take_suffix(name, &n, ":possible");
	r->finding = -1;
	for (int i = 0; i < RQ_FIND__COUNT; i++)
		if (!strcmp(name, rq_finding_ids[i]))
			r->finding = i;
	if (r->finding < 0)
		return -1;
	r->max = 0;
	if (eq) {
		errno = 0;
		r->max = strtoull(eq + 1, &end, 10);
		if (end == eq + 1 || *end || errno || eq[1] == '-')
			return -1;
	}
	return 0;
}

struct rules_ctx {
	const struct fail_rule *rules;
	int n;
};

/*
 * 1 if a --fail-on rule tripped, else 0.  Each tripped rule says so on stderr (naming
 * file, when given: several files were audited) and its name goes into tripped, a JSON
 * array's contents ("\"missed-idle\", ...").
 */
static int check_rules(const struct rq_analysis *an, const char *file, void *ctx,
		       char *tripped, size_t size)
{
	const struct rules_ctx *rc = ctx;
	char where[1100] = "";
	int any = 0;

	if (file) {
		char esc[1024];

		rq_escape_c(file, strlen(file), esc, sizeof(esc));
		snprintf(where, sizeof(where), "%s: ", esc);
	}
	if (size)
		tripped[0] = '\0';
	/* only proven counts trip a rule, unless the rule names the possible ones */
	for (int i = 0; i < rc->n; i++) {
		const struct fail_rule *r = &rc->rules[i];
		const struct rq_summary *sum = rq_analysis_summary(an);
		const struct rq_finding_store *s = &sum->findings[r->finding];
		unsigned long long n = r->possible ? s->possible : s->count;
		const char *id = rq_finding_ids[r->finding];
		bool unjudged = rq_finding_not_judged(s) && !r->judged_ok;

		if (sum->lacks[r->finding] != RQ_EV_OTHER && !s->judged && !s->count &&
		    !s->possible) {
			/* the trace cannot show it at all: not judged, and no verdict to gate */
			fprintf(stderr, "rqpath: %s--fail-on %s%s not checked: %s is not judged, the "
				"trace has no %s events\n", where, id, r->possible ? ":possible" : "",
				id, rq_event_name(sum->lacks[r->finding]));
			continue;
		}
		if (unjudged)
			fprintf(stderr, "rqpath: %s--fail-on %s%s tripped: not judged (%llu "
				"candidate(s), none could be judged; %s:judged-ok accepts that)\n",
				where, id, r->possible ? ":possible" : "",
				(unsigned long long)s->not_judged, id);
		else if (n > r->max)
			fprintf(stderr, "rqpath: %s--fail-on %s%s=%llu tripped: %llu found\n", where,
				id, r->possible ? ":possible" : "", r->max, n);
		else
			continue;
		if (size && size > strlen(tripped))
			snprintf(tripped + strlen(tripped), size - strlen(tripped), "%s\"%s%s\"",
				 any ? ", " : "", id, r->possible ? ":possible" : "");
		any = 1;
	}
	return any;
}

/* Everything `rqpath audit` was told. */
struct audit_args {
	struct cli_trace_opts t;	/* the shared options (opts.h) */
	struct rq_analysis_opts aopts;	/* t's, for each analysis */
	struct fail_rule rules[MAX_RULES];
	int nrules;
	bool live;		/* --live */
	char **cmd;		/* --live: the command after --, or NULL */
	const char *keep;	/* --keep FILE: the recording is written there too */
	bool threads_given;	/* -T N */
	bool perfetto_raw;	/* --perfetto-raw */
	const char *live_only;	/* the last option given that sets up a recording */
	/* the report (--format) and, instead of it, the placements (--placements) */
	const struct rq_writer_ops *report, *placements;
	char **files;		/* of -i and of the operands, in order */
	int nfiles;
};

/*
 * A live audit's recording: the command run as the invoking user, and stdout (the
 * report's stream is a copy of it) handed to the command's output while it runs.  The
 * recording goes to --keep's file, or to one that never has a name (O_TMPFILE) and is
 * dropped.
 */
struct audit_live {
	bool on;		/* --live: the session's source is this recording */
	struct rq_record_opts ro;
	struct rq_record_stats st;
	struct cli_child child;
	int fd;			/* the recording without a name, or -1 */
	int saved_stdout;	/* stdout while the command has it, or -1 */
};

/* The recorder's options and the command: 0, or -1 with the line in err. */
static int live_prepare(const struct audit_args *a, struct audit_live *lv, char *err,
			size_t errlen)
{
	lv->ro.output = a->keep;
	lv->ro.output_fd = a->keep ? NULL : &lv->fd;	/* a file without a name */
	lv->ro.duration = a->t.duration;
	lv->ro.quiet = !isatty(STDERR_FILENO);
	lv->ro.syscalls = a->t.syscalls;
	lv->ro.no_bpf = a->t.no_bpf;
	if (cli_child_user(&lv->child, a->t.user, a->t.preserve_env, err, errlen) < 0)
		return -1;
	lv->child.foreground = true;
	lv->ro.cmd = cli_child_init(&lv->child, a->cmd);
	lv->ro.stop = &cli_stop_signal;
	return 0;
}

/* Before the recording: what the command prints goes to stderr, stop signals caught. */
static void live_enter(struct audit_live *lv)
{
	if (!lv->on)
		return;
	fflush(stdout);
	lv->saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (lv->saved_stdout >= 0)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	cli_catch_stop_signals();
}

/*
 * After it (ok: it ran to its end): stdout back, the recording closed.  1 and msg when
 * the command failed on its own, else 0.
 */
static int live_leave(const struct audit_args *a, struct audit_live *lv, bool ok, char *msg,
		      size_t msglen)
{
	if (!lv->on)
		return 0;
	cli_restore_signals();
	/* quiet (stderr no terminal) kept the recorder's line: why there is no truth */
	if (ok && lv->ro.quiet && !lv->st.truth_on && !a->t.no_bpf)
		fprintf(stderr, "rqpath: sources: events=tracefs attributes=markers truth=none "
			"(%s)\n", lv->st.truth_why);
	if (lv->saved_stdout >= 0) {
		dup2(lv->saved_stdout, STDOUT_FILENO);
		close(lv->saved_stdout);
	}
	if (lv->fd >= 0)
		close(lv->fd);
	return ok && cli_child_failed(&lv->child, msg, msglen);
}

/* The report's stream during a live audit: a copy of stdout, not redirected with it. */
static FILE *stdout_copy(void)
{
	int fd;
	FILE *f;

	fflush(stdout);
	fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

/*
 * One report: file (NULL: --live) through ops onto dst.  many: several files, each
 * report headed by a blank line after the first (sep) and --fail-on lines naming it.
 * The session is opened, the writer subscribed, the session run: its source (a file or
 * the recording) opens in the run, after the writer began.
 */
static int audit_one(const char *file, bool many, const struct audit_args *a,
		     const struct rq_writer_ops *ops, FILE *dst, bool sep, char *tripped,
		     size_t tsize)
{
	struct audit_live lv = { .on = !file, .fd = -1, .saved_stdout = -1 };
	struct rq_session_source src = { .path = file, .show_progress = isatty(STDERR_FILENO),
					 .record = &lv.ro, .stats = &lv.st };
	struct rq_analysis_opts o = a->aopts;
	struct rules_ctx rc = { a->rules, a->nrules };
	struct rq_writer w = { 0 };
	char err[512], cmd_msg[512] = "";
	int cmd_failed, ret = RQ_EXIT_OK;
	struct rq_session *s;
	bool ok;

	if (lv.on)
		o.source_name = "live";
	s = rq_session_open(&src, &o);
	if (!s) {
		rq_error("audit: out of memory");
		return RQ_EXIT_ERROR;
	}
	if (sep)
		fputc('\n', dst);
	/* --placements: the output is every placement, streamed as the trace is read */
	if (rq_writer_begin(&w, ops, dst, rq_session_analysis(s))) {
		rq_error("audit: out of memory");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (lv.on && live_prepare(a, &lv, err, sizeof(err))) {
		rq_error("audit: %s", err);
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	live_enter(&lv);
	ok = rq_session_run(s, NULL) == RQ_PUMP_END;
	cmd_failed = live_leave(a, &lv, ok, cmd_msg, sizeof(cmd_msg));
	if (!ok) {
		/* a file's line names it; a recording's is the command's */
		rq_error("%s%s", lv.on ? "audit: " : "", rq_session_error(s));
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	/* the rules first: the JSON report names the tripped ones */
	if (a->nrules && check_rules(rq_session_analysis(s), many ? file : NULL, &rc, tripped,
				     tsize))
		ret = RQ_EXIT_TRIPPED;
	w.tripped = tripped;
	if (rq_writer_end(&w)) {
		rq_error("audit: cannot write the report: %s", strerror(errno));
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	/* the report is written, but a command that failed on its own fails the run */
	if (cmd_failed) {
		rq_error("audit: %s", cmd_msg);
		ret = RQ_EXIT_ERROR;
	}
out:
	rq_writer_free(&w);
	rq_session_close(s);
	return ret;
}

static int cmd_audit(int argc, char **argv);

/*
 * -F -P -l -T: the short forms audit has always accepted; -p is --pid now (as in
 * trace-cmd and perf), --placements has its long name only
 */
enum { OPT_FAIL_ON = 'F', OPT_LIVE = 'l', OPT_PLACEMENTS = 270, OPT_THREADS = 'T',
	OPT_KEEP = 256, OPT_PERFETTO_RAW };

static const struct cli_option audit_options[] = {
	{ "input", 'i', CLI_STRING, "FILE.dat", 0, 0, CLI_IN_LEAD | CLI_REPEAT,
	  "a trace to audit, as the FILE.dat operands (default: trace.dat here)" },
	{ "live", OPT_LIVE, CLI_FLAG, NULL, 0, 0, CLI_IN_LEAD,
	  "record this system first (root), then audit the recording" },
	CLI_DURATION_OPTION(CLI_IN_LEAD, "with --live: record S seconds (else until CMD exits)"),
	CLI_USER_OPTION(CLI_IN_LEAD,
			"with --live: run CMD as NAME (default: the user who ran sudo, else root)"),
	CLI_PRESERVE_ENV_OPTION(CLI_IN_LEAD,
				"with --live: CMD run as another user keeps rqpath's environment"),
	CLI_SYSCALLS_OPTION(CLI_IN_LEAD, "with --live: also record the sched_set* syscalls "
			    "(exact, slower syscalls)"),
	CLI_NO_BPF_OPTION(CLI_IN_LEAD,
			  "with --live: no kernel truth (do not load the BPF programs)"),
	{ "keep", OPT_KEEP, CLI_STRING, "FILE", 0, 0, CLI_IN_LEAD,
	  "with --live: also write the recording to FILE (a new file; its audit is the same)" },
	{ "format", 'f', CLI_CHOICE, "text|json|jsonl|csv|html|perfetto", 0, 0, 0,
	  "report format (default text; jsonl: one object per FILE)" },
	{ "perfetto-raw", OPT_PERFETTO_RAW, CLI_FLAG, NULL, 0, 0, 0,
	  "the perfetto format with its packets not deflated, for protoc's raw decoding" },
	{ "fail-on", OPT_FAIL_ON, CLI_STRING, "RULE[=N]", 0, 0, CLI_REPEAT,
	  "exit 1 when finding RULE proves more than N (default 0) or was not judged; "
	  "RULE:possible: the unproven; RULE:judged-ok: not judged passes" },
	CLI_PROFILE_OPTION("override the kernel profile: exec-callback, idle-stack, fork-util = "
			   "fixed|affected, delay-dequeue = on|off"),
	CLI_TOPOLOGY_OPTION("the LLC/SMT/node groups and CPU capacities of the traced machine "
			    "(rqpath topology)"),
	CLI_NO_TRUTH_OPTION("ignore the kernel's state recorded through BPF (rqpath:truth): the "
			    "tracepoint model alone"),
	{ "placements", OPT_PLACEMENTS, CLI_CHOICE, "csv|jsonl", 0, 0, 0,
	  "every placement instead of the report" },
	CLI_OUTPUT_OPTION(0, CLI_OUTPUT_HELP),
	CLI_FORCE_OPTION(CLI_NESTED, CLI_FORCE_HELP),
	{ "threads", OPT_THREADS, CLI_INT, "N", 1, 1024, 0,
	  "threads: with 2 or more one reads and decodes while the main one analyses, more "
	  "read ahead (default: the CPUs available, at most 4; the same output for any N)" },
	CLI_FILTER_OPTIONS,
	{ NULL },
};

const struct cli_command cli_audit = {
	.name = "audit",
	.fn = cmd_audit,
	.lead = "[[-i] FILE.dat... | --live --duration S [--keep FILE] [-- CMD ARGS...]]",
	.summary = "batch report: placements by path and the four findings; exit 1 if a rule trips",
	.description =
		"Audit FILE.dat (several: one report each, in text or jsonl; none: trace.dat\n"
		"here), or record this system first with --live: placements by path, the\n"
		"findings with examples.  -p, --comm, -C, --from/--to: only those placements.\n"
		"RULE is one of needless-callback, offcpu-fork, idle-stacking, missed-idle; only\n"
		"proven placements count (RULE:possible checks the unproven ones).",
	.options = audit_options,
};

/* --format WORD, --placements WORD: the writer of that name (writer.h's table), or NULL. */
static const struct rq_writer_ops *writer_of(const struct cli_parser *p, const char *prefix)
{
	char word[32], name[48];

	cli_choice_word(p->opt->arg, (int)p->num, word, sizeof(word));
	snprintf(name, sizeof(name), "%s%s", prefix, word);
	return rq_writer_find(name);
}

/* audit's own options (cli_option_fn) */
static int audit_option(struct cli_parser *p, int key, void *ctx)
{
	struct audit_args *a = ctx;

	if (p->opt && (p->opt->flags & CLI_IN_LEAD) && key != 'i' && key != OPT_LIVE)
		a->live_only = p->opt->name;
	switch (key) {
	case 'i':
		a->files[a->nfiles++] = (char *)p->arg;
		return 1;
	case 'f':
		a->report = writer_of(p, "");
		if (!a->report) {
			rq_error("audit: --format %s has no writer", p->arg);
			return -1;
		}
		return 1;
	case OPT_PLACEMENTS:
		a->placements = writer_of(p, "placements-");
		if (!a->placements) {
			rq_error("audit: --placements %s has no writer", p->arg);
			return -1;
		}
		return 1;
	case OPT_PERFETTO_RAW:
		a->perfetto_raw = true;
		return 1;
	case OPT_FAIL_ON:
		if (a->nrules == MAX_RULES || parse_rule(p->arg, &a->rules[a->nrules])) {
			rq_error("audit: bad --fail-on '%s': RULE[=N] with RULE one of %s (add "
				 ":possible for the unproven ones, :judged-ok to pass a finding "
				 "not judged)", p->arg, rq_finding_id_list());
			return -1;
		}
		a->nrules++;
		return 1;
	case OPT_LIVE:
		a->live = true;
		return 1;
	case OPT_THREADS:
		rq_session_set_threads((int)p->num);
		a->threads_given = true;
		return 1;
	case OPT_KEEP:
		a->keep = p->arg;
		return 1;
	}
	return 0;
}

/*
 * The options, then the operands: the FILEs, or after --live the CMD (getopt moved the
 * operands to the end); trace.dat here when no FILE is given.  false when the command
 * ends here with *status (--help, a bad option).
 */
static bool audit_parse(struct audit_args *a, int argc, char **argv, int *status)
{
	struct cli_parser p;
	int r;

	cli_parser_init(&p, &cli_audit, argc, argv);
	r = cli_parse_options(&p, &a->t, audit_option, a);
	if (r != CLI_END) {
		*status = cli_stop(&p, r);
		return false;
	}
	cli_trace_analysis(&a->t, &a->aopts);
	if (a->live && p.optind < argc)
		a->cmd = &argv[p.optind];
	else
		for (int i = p.optind; i < argc; i++)
			a->files[a->nfiles++] = argv[i];
	if (!a->live && !a->nfiles && rq_default_input())
		a->files[a->nfiles++] = (char *)rq_default_input();
	return true;
}

/* The report's format against the other options: 0, or -1 after the error line. */
static int audit_check_format(struct audit_args *a)
{
	if (a->perfetto_raw) {
		if (a->report != &rq_writer_text && a->report != &rq_writer_perfetto) {
			rq_error("audit: --perfetto-raw is --format perfetto uncompressed: not with "
				 "--format %s", a->report->name);
			return -1;
		}
		a->report = &rq_writer_perfetto_raw;
	}
	if (!a->live && a->nfiles > 1 && !(a->report->flags & RQ_WRITER_PER_FILE) &&
	    (a->report != &rq_writer_text || a->placements)) {
		rq_error("audit: several trace files: one report each in text or with --format "
			 "jsonl (one object per file; a command after -- goes with --live)");
		return -1;
	}
	if ((a->report->flags & RQ_WRITER_STREAM) && a->placements) {
		rq_error("audit: --placements replaces the report: not with --format %s",
			 a->report->name);
		return -1;
	}
	if ((a->report->flags & RQ_WRITER_PER_FILE) && (a->live || a->placements)) {
		rq_error("audit: --format jsonl is for trace files, without --live or "
			 "--placements");
		return -1;
	}
	return 0;
}

/* The source (FILEs or --live) and what goes with it: 0, or -1 after the error line. */
static int audit_check_source(const struct audit_args *a)
{
	const char *file = a->nfiles ? a->files[0] : NULL;
	char err[512];

	if (a->live && file) {
		rq_error("audit: give either a FILE or --live, not both");
		return -1;
	}
	if (!a->live && !file) {
		rq_error("audit: no trace file given and no trace.dat here (or use --live "
			 "--duration S)");
		return -1;
	}
	if (a->live && a->t.duration <= 0 && !a->cmd) {
		rq_error("audit: --live needs --duration S or a command after --");
		return -1;
	}
	if (cli_trace_check(&a->t, err, sizeof(err))) {
		rq_error("audit: %s", err);
		return -1;
	}
	if (a->keep && !a->live) {
		rq_error("audit: --keep FILE goes with --live");
		return -1;
	}
	if (a->keep && !strcmp(a->keep, "-")) {
		rq_error("audit: --keep - : standard output carries the report; give a file name");
		return -1;
	}
	return 0;
}

/* --format jsonl: one line per file, audit_many.c's workers. */
static int audit_run_many(const struct audit_args *a)
{
	struct rules_ctx rc = { a->rules, a->nrules };
	struct audit_many_job job = { .ops = a->report, .profile = a->aopts.profile_override,
				      .topology = a->aopts.topology,
				      .no_truth = a->aopts.no_truth, .filter = a->aopts.filter,
				      .check = a->nrules ? check_rules : NULL, .ctx = &rc };
	struct cli_output outf = { 0 };
	int ret = RQ_EXIT_ERROR;
	FILE *dst;

	dst = cli_output_open(&outf, "audit", a->t.output, a->t.force, a->files, a->nfiles);
	if (dst) {
		/* the workers use the CPUs already: one reading thread each, unless told */
		if (a->nfiles > 1 && !a->threads_given)
			rq_session_set_threads(1);
		ret = audit_many(a->files, a->nfiles, &job, dst);
	}
	if (cli_output_close(&outf, "audit", ret != RQ_EXIT_ERROR))
		ret = RQ_EXIT_ERROR;
	return ret;
}

/* One report per file (text), or of the live recording: the worst exit status. */
static int audit_run_reports(const struct audit_args *a)
{
	const struct rq_writer_ops *ops = a->placements ? a->placements : a->report;
	struct cli_output outf = { 0 };
	char tripped[512] = "";
	int ret = RQ_EXIT_OK;
	FILE *dst, *copy = NULL;

	/* the report goes beside -o FILE and takes its name only once complete */
	dst = cli_output_open(&outf, "audit", a->t.output, a->t.force, a->files, a->nfiles);
	if (dst == stdout && a->live)
		dst = copy = stdout_copy();
	if (!dst) {
		if (a->live && rq_is_stdout(a->t.output))
			rq_error("audit: cannot copy stdout: %s", strerror(errno));
		ret = RQ_EXIT_ERROR;
	}
	for (int fi = 0; dst && fi < (a->live ? 1 : a->nfiles); fi++) {
		int r = audit_one(a->live ? NULL : a->files[fi], a->nfiles > 1, a, ops, dst,
				  fi > 0, tripped, sizeof(tripped));

		if (r > ret)
			ret = r;
	}
	if (copy) {
		if (fclose(copy) && ret != RQ_EXIT_ERROR) {
			rq_error("audit: cannot write the output: %s", strerror(errno));
			ret = RQ_EXIT_ERROR;
		}
	} else if (cli_output_close(&outf, "audit", ret != RQ_EXIT_ERROR)) {
		ret = RQ_EXIT_ERROR;
	}
	return ret;
}

/* The options checked against each other, then the reports: the exit status. */
static int audit_check_run(struct audit_args *a)
{
	if (!a->live && a->live_only) {
		rq_error("audit: --%s goes with --live (it sets up a recording)", a->live_only);
		return RQ_EXIT_ERROR;
	}
	if (audit_check_format(a) || audit_check_source(a))
		return RQ_EXIT_ERROR;
	if (a->report->flags & RQ_WRITER_PER_FILE)
		return audit_run_many(a);
	return audit_run_reports(a);
}

static int cmd_audit(int argc, char **argv)
{
	/* the reports never read the recent ring: no copy of every placement into it */
	struct audit_args a = { .aopts = { .recent_capacity = RQ_RECENT_NONE },
				.report = &rq_writer_text };
	int ret;

	/* the files of -i and of the operands, in order */
	a.files = calloc((size_t)argc + 1, sizeof(*a.files));
	if (!a.files) {
		rq_error("audit: out of memory");
		return RQ_EXIT_ERROR;
	}
	if (audit_parse(&a, argc, argv, &ret))
		ret = audit_check_run(&a);
	free(a.files);
	return ret;
}
