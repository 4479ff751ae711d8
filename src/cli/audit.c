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
#include "live.h"
#include "replay.h"
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

/* The settings of a live audit. */
struct live_opts {
	double duration;
	char **cmd;
	const char *user;
	bool preserve_env;	/* --preserve-env: CMD keeps rqpath's environment */
	bool syscalls;
	bool no_bpf;		/* --no-bpf: no kernel truth */
	const char *keep;	/* --keep FILE: the recording is written there too */
};

/*
 * Record this system and analyse the records as they are read (an is a sink of the
 * recorder's pump: each record decoded once).  The recording goes to --keep's file, or
 * to one that never has a name (O_TMPFILE) and is dropped.  While it runs, stdout is the
 * command's stderr: out (the report's stream) must not be stdout itself.  *cmd_failed:
 * 1 and msg when the command failed on its own.
 */
static int record_live(const struct live_opts *lo, struct rq_analysis *an, int *cmd_failed,
		       char *msg, size_t msglen, char *err, size_t errlen)
{
	struct rq_record_opts ro = { 0 };
	struct rq_record_stats st;
	struct cli_child child = { 0 };
	int saved_stdout, ret, fd = -1;

	*cmd_failed = 0;
	ro.output = lo->keep;
	ro.output_fd = lo->keep ? NULL : &fd;	/* a file without a name, closed at once */
	ro.duration = lo->duration;
	ro.quiet = !isatty(STDERR_FILENO);
	ro.syscalls = lo->syscalls;
	ro.no_bpf = lo->no_bpf;
	if (cli_child_user(&child, lo->user, lo->preserve_env, err, errlen) < 0)
		return -1;
	child.foreground = true;
	ro.cmd = cli_child_init(&child, lo->cmd);
	ro.stop = &cli_stop_signal;
	/* stdout carries the report: what the command prints goes to stderr meanwhile */
	fflush(stdout);
	saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved_stdout >= 0)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	cli_catch_stop_signals();
	ret = rq_record_analyse(&ro, &st, an, err, errlen);
	cli_restore_signals();
	/* quiet (stderr no terminal) kept the recorder's line: why there is no truth */
	if (ret == 0 && ro.quiet && !st.truth_on && !lo->no_bpf)
		fprintf(stderr, "rqpath: sources: events=tracefs attributes=markers truth=none "
			"(%s)\n", st.truth_why);
	if (saved_stdout >= 0) {
		dup2(saved_stdout, STDOUT_FILENO);
		close(saved_stdout);
	}
	if (fd >= 0)
		close(fd);
	*cmd_failed = ret == 0 && cli_child_failed(&child, msg, msglen);
	return ret ? -1 : 0;
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
 */
static int audit_one(const char *file, bool many, const struct rq_analysis_opts *aopts,
		     const struct live_opts *lo, const struct rq_writer_ops *ops, FILE *dst,
		     const struct fail_rule *rules, int nrules, bool sep, char *tripped,
		     size_t tsize)
{
	struct rq_analysis_opts o = *aopts;
	struct rq_analysis *an;
	struct rq_writer w = { 0 };
	char err[512], cmd_msg[512] = "";
	int cmd_failed = 0, ret = RQ_EXIT_OK;
	struct rules_ctx rc = { rules, nrules };

	if (!file)
		o.source_name = "live";
	an = rq_analysis_new(&o);
	if (!an) {
		rq_error("audit: out of memory");
		return RQ_EXIT_ERROR;
	}
	if (sep)
		fputc('\n', dst);
	/* --placements: the output is every placement, streamed as the trace is read */
	if (rq_writer_begin(&w, ops, dst, an)) {
		rq_error("audit: out of memory");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (!file) {
		if (record_live(lo, an, &cmd_failed, cmd_msg, sizeof(cmd_msg), err,
				sizeof(err))) {
			rq_error("audit: %s", err);
			ret = RQ_EXIT_ERROR;
			goto out;
		}
	} else if (rq_replay_file(file, an, isatty(STDERR_FILENO), err, sizeof(err))) {
		char esc[1024];

		rq_escape_c(file, strlen(file), esc, sizeof(esc));
		if (rq_analysis_error(an)[0])
			rq_escape_c(rq_analysis_error(an), strlen(rq_analysis_error(an)), err,
				    sizeof(err));
		rq_error("%s: %s", esc, err);
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	/* the rules first: the JSON report names the tripped ones */
	if (nrules && check_rules(an, many ? file : NULL, &rc, tripped, tsize))
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
	rq_analysis_free(an);
	return ret;
}

static int cmd_audit(int argc, char **argv);

/*
 * -F -P -l -T: the short forms audit has always accepted; -p is --pid now (as in
 * trace-cmd and perf), --placements has its long name only
 */
enum { OPT_FAIL_ON = 'F', OPT_PROFILE = 'P', OPT_LIVE = 'l', OPT_PLACEMENTS = 270,
	OPT_THREADS = 'T', OPT_USER = 256, OPT_SYSCALLS,
	OPT_TOPOLOGY, OPT_KEEP, OPT_FORCE, OPT_NO_TRUTH, OPT_NO_BPF, OPT_PRESERVE_ENV, OPT_PERFETTO_RAW };

static const struct cli_option audit_options[] = {
	{ "input", 'i', CLI_STRING, "FILE.dat", 0, 0, CLI_IN_LEAD | CLI_REPEAT,
	  "a trace to audit, as the FILE.dat operands (default: trace.dat here)" },
	{ "live", OPT_LIVE, CLI_FLAG, NULL, 0, 0, CLI_IN_LEAD,
	  "record this system first (root), then audit the recording" },
	{ "duration", 'd', CLI_SECONDS, "S", 0, 0, CLI_IN_LEAD,
	  "with --live: record S seconds (else until CMD exits)" },
	{ "user", OPT_USER, CLI_STRING, "NAME", 0, 0, CLI_IN_LEAD,
	  "with --live: run CMD as NAME (default: the user who ran sudo, else root)" },
	{ "preserve-env", OPT_PRESERVE_ENV, CLI_FLAG, NULL, 0, 0, CLI_IN_LEAD,
	  "with --live: CMD run as another user keeps rqpath's environment" },
	{ "syscalls", OPT_SYSCALLS, CLI_FLAG, NULL, 0, 0, CLI_IN_LEAD,
	  "with --live: also record the sched_set* syscalls (exact, slower syscalls)" },
	{ "no-bpf", OPT_NO_BPF, CLI_FLAG, NULL, 0, 0, CLI_IN_LEAD,
	  "with --live: no kernel truth (do not load the BPF programs)" },
	{ "keep", OPT_KEEP, CLI_STRING, "FILE", 0, 0, CLI_IN_LEAD,
	  "with --live: also write the recording to FILE (a new file; its audit is the same)" },
	{ "format", 'f', CLI_CHOICE, "text|json|jsonl|csv|html|perfetto", 0, 0, 0,
	  "report format (default text; jsonl: one object per FILE)" },
	{ "perfetto-raw", OPT_PERFETTO_RAW, CLI_FLAG, NULL, 0, 0, 0,
	  "the perfetto format with its packets not deflated, for protoc's raw decoding" },
	{ "fail-on", OPT_FAIL_ON, CLI_STRING, "RULE[=N]", 0, 0, CLI_REPEAT,
	  "exit 1 when finding RULE proves more than N (default 0) or was not judged; "
	  "RULE:possible: the unproven; RULE:judged-ok: not judged passes" },
	{ "profile", OPT_PROFILE, CLI_STRING, "KEY=VAL,...", 0, 0, 0,
	  "override the kernel profile: exec-callback, idle-stack, fork-util = fixed|affected, "
	  "delay-dequeue = on|off" },
	{ "topology", OPT_TOPOLOGY, CLI_STRING, "SPEC|FILE", 0, 0, 0,
	  "the LLC/SMT/node groups and CPU capacities of the traced machine (rqpath topology)" },
	{ "no-truth", OPT_NO_TRUTH, CLI_FLAG, NULL, 0, 0, 0,
	  "ignore the kernel's state recorded through BPF (rqpath:truth): the tracepoint "
	  "model alone" },
	{ "placements", OPT_PLACEMENTS, CLI_CHOICE, "csv|jsonl", 0, 0, 0,
	  "every placement instead of the report" },
	{ "output", 'o', CLI_STRING, "FILE", 0, 0, CLI_SHORT,
	  "write to FILE instead of stdout (- : stdout); only a regular file is replaced" },
	{ "force", OPT_FORCE, CLI_FLAG, NULL, 0, 0, CLI_NESTED,
	  "-o FILE may be a device or FIFO (written as it is) or a symlink (replaced)" },
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

static int cmd_audit(int argc, char **argv)
{
	struct fail_rule rules[MAX_RULES];
	int nrules = 0, opt, first, ret = RQ_EXIT_OK;
	/* the reports never read the recent ring: no copy of every placement into it */
	struct rq_analysis_opts aopts = { .recent_capacity = RQ_RECENT_NONE };
	bool live = false, force = false;
	struct live_opts lo = { 0 };
	char err[512];
	const char *file = NULL, *output = NULL;
	int nfiles = 0, fo;
	bool threads_given = false, perfetto_raw = false;
	struct rq_filter filter = { 0 };
	const char *live_only = NULL;	/* an option that needs --live, given */
	char tripped[512] = "";
	/* the report (--format) and, instead of it, the placements (--placements) */
	const struct rq_writer_ops *report = &rq_writer_text, *placements = NULL;
	char **files = NULL, word[32], name[48];
	struct cli_output outf = { 0 };
	FILE *dst = stdout, *copy = NULL;
	struct cli_parser p;

	/* the files of -i and of the operands, in order */
	files = calloc((size_t)argc + 1, sizeof(*files));
	if (!files) {
		rq_error("audit: out of memory");
		return RQ_EXIT_ERROR;
	}
	cli_parser_init(&p, &cli_audit, argc, argv);
	while ((opt = cli_next(&p)) != CLI_END) {
		switch (opt) {
		case 'i':
			files[nfiles++] = (char *)p.arg;
			break;
		case 'f':
			/* the writer of the word's name (writer.h's table) */
			cli_choice_word(p.opt->arg, (int)p.num, word, sizeof(word));
			report = rq_writer_find(word);
			if (!report) {
				rq_error("audit: --format %s has no writer", word);
				ret = RQ_EXIT_ERROR;
				goto out;
			}
			break;
		case OPT_PERFETTO_RAW:
			perfetto_raw = true;
			break;
		case OPT_FAIL_ON:
			if (nrules == MAX_RULES || parse_rule(p.arg, &rules[nrules])) {
				rq_error("audit: bad --fail-on '%s': RULE[=N] with RULE one "
					 "of %s (add :possible for the unproven ones, :judged-ok "
					 "to pass a finding not judged)", p.arg,
					 rq_finding_id_list());
				ret = RQ_EXIT_ERROR;
				goto out;
			}
			nrules++;
			break;
		case OPT_PROFILE:
			aopts.profile_override = p.arg;
			break;
		case OPT_TOPOLOGY:
			aopts.topology = p.arg;
			break;
		case OPT_NO_TRUTH:
			aopts.no_truth = true;
			break;
		case OPT_LIVE:
			live = true;
			break;
		case 'd':
			lo.duration = p.secs;
			break;
		case OPT_PLACEMENTS:
			cli_choice_word(p.opt->arg, (int)p.num, word, sizeof(word));
			snprintf(name, sizeof(name), "placements-%s", word);
			placements = rq_writer_find(name);
			if (!placements) {
				rq_error("audit: --placements %s has no writer", word);
				ret = RQ_EXIT_ERROR;
				goto out;
			}
			break;
		case 'o':
			output = p.arg;
			break;
		case OPT_FORCE:
			force = true;
			break;
		case OPT_THREADS:
			rq_replay_set_threads((int)p.num);
			threads_given = true;
			break;
		case OPT_USER:
			lo.user = p.arg;
			break;
		case OPT_PRESERVE_ENV:
			lo.preserve_env = true;
			break;
		case OPT_SYSCALLS:
			lo.syscalls = true;
			break;
		case OPT_KEEP:
			lo.keep = p.arg;
			break;
		case OPT_NO_BPF:
			lo.no_bpf = true;
			break;
		default:
			fo = cli_filter_option(&p, opt, &filter);
			if (fo > 0)
				break;
			ret = cli_stop(&p, fo < 0 ? CLI_ERROR : opt);
			goto out;
		}
		if (p.opt && (p.opt->flags & CLI_IN_LEAD) && opt != 'i' && opt != OPT_LIVE)
			live_only = p.opt->name;
	}
	if (rq_filter_active(&filter))
		aopts.filter = &filter;
	first = p.optind;
	/* getopt moved the operands to the end: the FILEs, or after --live the CMD */
	if (live && first < argc)
		lo.cmd = &argv[first];
	else
		for (int i = first; i < argc; i++)
			files[nfiles++] = argv[i];
	if (!live && !nfiles && rq_default_input())
		files[nfiles++] = (char *)rq_default_input();
	file = nfiles ? files[0] : NULL;
	if (!live && live_only) {
		rq_error("audit: --%s goes with --live (it sets up a recording)", live_only);
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (perfetto_raw) {
		if (report != &rq_writer_text && report != &rq_writer_perfetto) {
			rq_error("audit: --perfetto-raw is --format perfetto uncompressed: not with "
				 "--format %s", report->name);
			ret = RQ_EXIT_ERROR;
			goto out;
		}
		report = &rq_writer_perfetto_raw;
	}
	if (!live && nfiles > 1 && !(report->flags & RQ_WRITER_PER_FILE) &&
	    (report != &rq_writer_text || placements)) {
		rq_error("audit: several trace files: one report each in text or with --format "
			 "jsonl (one object per file; a command after -- goes with --live)");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if ((report->flags & RQ_WRITER_STREAM) && placements) {
		rq_error("audit: --placements replaces the report: not with --format %s",
			 report->name);
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if ((report->flags & RQ_WRITER_PER_FILE) && (live || placements)) {
		rq_error("audit: --format jsonl is for trace files, without --live or "
			 "--placements");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (live && file) {
		rq_error("audit: give either a FILE or --live, not both");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (!live && !file) {
		rq_error("audit: no trace file given and no trace.dat here (or use --live "
			 "--duration S)");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (live && lo.duration <= 0 && !lo.cmd) {
		rq_error("audit: --live needs --duration S or a command after --");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (aopts.profile_override) {
		struct rq_profile probe;

		rq_profile_from_release(&probe, NULL);
		if (rq_profile_override(&probe, aopts.profile_override, err, sizeof(err))) {
			rq_error("audit: %s", err);
			ret = RQ_EXIT_ERROR;
			goto out;
		}
	}
	if (report->flags & RQ_WRITER_PER_FILE) {
		struct audit_many_job job = { .ops = report, .profile = aopts.profile_override,
					      .topology = aopts.topology,
					      .no_truth = aopts.no_truth,
					      .filter = aopts.filter,
					      .check = nrules ? check_rules : NULL };
		struct rules_ctx rc = { rules, nrules };

		job.ctx = &rc;
		dst = cli_output_open(&outf, "audit", output, force, files, nfiles);
		if (!dst) {
			dst = stdout;
			ret = RQ_EXIT_ERROR;
			goto out;
		}
		/* the workers use the CPUs already: one reading thread each, unless told */
		if (nfiles > 1 && !threads_given)
			rq_replay_set_threads(1);
		ret = audit_many(files, nfiles, &job, dst);
		goto out;
	}
	if (lo.keep && !live) {
		rq_error("audit: --keep FILE goes with --live");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (lo.keep && !strcmp(lo.keep, "-")) {
		rq_error("audit: --keep - : standard output carries the report; give a file name");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	/* the report goes beside -o FILE and takes its name only once complete */
	dst = cli_output_open(&outf, "audit", output, force, files, nfiles);
	if (dst == stdout && live)
		dst = copy = stdout_copy();
	if (!dst) {
		if (live && rq_is_stdout(output))
			rq_error("audit: cannot copy stdout: %s", strerror(errno));
		dst = stdout;
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	/* several files (text): one report each, in order, the worst exit status */
	for (int fi = 0; fi < (live ? 1 : nfiles); fi++) {
		int r = audit_one(live ? NULL : files[fi], nfiles > 1, &aopts, &lo, placements ?
				  placements : report, dst, rules, nrules, fi > 0, tripped,
				  sizeof(tripped));

		if (r > ret)
			ret = r;
	}
out:
	if (copy) {
		if (fclose(copy) && ret != RQ_EXIT_ERROR) {
			rq_error("audit: cannot write the output: %s", strerror(errno));
			ret = RQ_EXIT_ERROR;
		}
	} else if (cli_output_close(&outf, "audit", ret != RQ_EXIT_ERROR)) {
		ret = RQ_EXIT_ERROR;
	}
	free(files);
	return ret;
}
