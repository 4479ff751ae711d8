// SPDX-License-Identifier: GPL-2.0
/*
 * audit.c - `rqpath audit`: replay a trace.dat (or record one live first) and print
 * the report; --fail-on turns findings into an exit status for CI.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bsd/string.h>

#include "commands.h"
#include "escape.h"
#include "record.h"
#include "replay.h"
#include "audit_many.h"
#include "html.h"
#include "placements.h"
#include "report.h"
#include "timeline.h"

#define MAX_RULES 16

struct fail_rule {
	int finding;
	unsigned long long max;
};

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

/* 1 if a --fail-on rule tripped (each one says so on stderr), else 0. */
static int check_rules(const struct rq_analysis *an, void *ctx)
{
	const struct rules_ctx *rc = ctx;
	int tripped = 0;

	for (int i = 0; i < rc->n; i++) {
		unsigned long long n = an->findings[rc->rules[i].finding].count;

		if (n > rc->rules[i].max) {
			fprintf(stderr, "rqpath: --fail-on %s=%llu tripped: %llu found\n",
				rq_finding_ids[rc->rules[i].finding], rc->rules[i].max, n);
			tripped = 1;
		}
	}
	return tripped;
}

static void audit_usage(void)
{
	fprintf(stderr,
		"usage: rqpath audit FILE.dat [--format text|json|csv] [--fail-on RULE[=N]]...\n"
		"       rqpath audit --live --duration S [--format ...] [-- CMD ARGS...]\n"
		"RULE is one of needless-callback, offcpu-fork, idle-stacking, missed-idle;\n"
		"exit 1 when its count exceeds N (default 0).  --profile KEY=fixed|affected,...\n"
		"overrides the kernel profile (keys: exec-callback, idle-stack, fork-util).\n"
		"--placements csv|jsonl: every placement instead of the report; -o FILE: the\n"
		"output goes to FILE.  Several FILEs: --format jsonl, one JSON object per file.\n"
		"--threads N: threads reading the file (default: the CPUs available; the output\n"
		"is the same for any N).\n");
}

/* Record a live run into a private temporary file that is replayed, then removed. */
static int record_live(double duration, char **cmd, char *path, size_t pathlen, char *err,
		       size_t errlen)
{
	struct rq_record_opts ro = { 0 };
	struct rq_record_stats st;
	const char *tmp = getenv("TMPDIR");
	int fd, saved_stdout, ret;

	snprintf(path, pathlen, "%s/rqpath-audit-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	fd = mkstemp(path);
	if (fd < 0) {
		snprintf(err, errlen, "cannot create a temporary trace file in %s: %s",
			 tmp && *tmp ? tmp : "/tmp", strerror(errno));
		return -1;
	}
	close(fd);
	ro.output = path;
	ro.duration = duration;
	ro.cmd = cmd;
	ro.force = true;	/* the file is our own mkstemp() result */
	ro.quiet = !isatty(STDERR_FILENO);
	/* stdout carries the report: what the command prints goes to stderr meanwhile */
	fflush(stdout);
	saved_stdout = dup(STDOUT_FILENO);
	if (saved_stdout >= 0)
		dup2(STDERR_FILENO, STDOUT_FILENO);
	ret = rq_record_run(&ro, &st, err, errlen);
	if (saved_stdout >= 0) {
		dup2(saved_stdout, STDOUT_FILENO);
		close(saved_stdout);
	}
	if (ret)
		unlink(path);
	return ret ? -1 : 0;
}

int cmd_audit(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "profile", required_argument, NULL, 'P' },
		{ "live", no_argument, NULL, 'l' },
		{ "duration", required_argument, NULL, 'd' },
		{ "placements", required_argument, NULL, 'p' },
		{ "output", required_argument, NULL, 'o' },
		{ "threads", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct fail_rule rules[MAX_RULES];
	int nrules = 0, opt, ret = RQ_EXIT_OK;
	enum rq_format fmt = RQ_FMT_TEXT;
	struct rq_analysis_opts aopts = { 0 };
	struct rq_analysis *an;
	bool live = false;
	double duration = 0;
	char **cmd = NULL;
	char err[512], tmpfile[4096] = "";
	const char *file = NULL, *output = NULL;
	int placements = -1, nfiles = 0;
	bool jsonl = false, html = false, perfetto = false;
	struct rq_perfetto pf = { 0 };
	struct rq_html hp = { 0 };
	char **files = NULL;
	struct rq_placements_out pout;
	FILE *dst = stdout;
	char *end;

	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "f:F:P:ld:p:o:T:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = RQ_FMT_TEXT;
			else if (!strcmp(optarg, "json"))
				fmt = RQ_FMT_JSON;
			else if (!strcmp(optarg, "csv"))
				fmt = RQ_FMT_CSV;
			else if (!strcmp(optarg, "jsonl"))
				jsonl = true;
			else if (!strcmp(optarg, "html"))
				html = true;
			else if (!strcmp(optarg, "perfetto"))
				perfetto = true;
			else {
				rq_error("audit: unknown format '%s' (text, json, jsonl, csv, html or "
					 "perfetto)", optarg);
				return RQ_EXIT_ERROR;
			}
			break;
		case 'F':
			if (nrules == MAX_RULES || parse_rule(optarg, &rules[nrules])) {
				rq_error("audit: bad --fail-on '%s': RULE[=N] with RULE one of "
					 "needless-callback, offcpu-fork, idle-stacking, missed-idle",
					 optarg);
				return RQ_EXIT_ERROR;
			}
			nrules++;
			break;
		case 'P':
			aopts.profile_override = optarg;
			break;
		case 'l':
			live = true;
			break;
		case 'd':
			duration = strtod(optarg, &end);
			if (end == optarg || *end || duration <= 0) {
				rq_error("audit: --duration takes a number of seconds > 0");
				return RQ_EXIT_ERROR;
			}
			break;
		case 'p':
			if (!strcmp(optarg, "csv"))
				placements = RQ_PLACEMENTS_CSV;
			else if (!strcmp(optarg, "jsonl"))
				placements = RQ_PLACEMENTS_JSONL;
			else {
				rq_error("audit: unknown placements format '%s' (csv or jsonl)",
					 optarg);
				return RQ_EXIT_ERROR;
			}
			break;
		case 'o':
			output = optarg;
			break;
		case 'T': {
			long n = strtol(optarg, &end, 10);

			if (end == optarg || *end || n < 1 || n > 1024) {
				rq_error("audit: --threads takes a number of threads, 1 to 1024");
				return RQ_EXIT_ERROR;
			}
			rq_replay_set_threads((int)n);
			break;
		}
		case 'h':
			audit_usage();
			return RQ_EXIT_OK;
		default:
			rq_error("audit: unknown or incomplete option '%s'; see 'rqpath help audit'",
				 argv[optind - 1]);
			return RQ_EXIT_ERROR;
		}
	}
	/* GNU getopt moved the operands to the end: the FILE, or after --live the CMD */
	if (live && optind < argc)
		cmd = &argv[optind];
	else if (optind < argc) {
		files = &argv[optind];
		nfiles = argc - optind;
		file = argv[optind++];
	}
	if (!live && nfiles > 1 && !jsonl) {
		rq_error("audit: several trace files need --format jsonl (one object per file; "
			 "a command after -- goes with --live)");
		return RQ_EXIT_ERROR;
	}
	if ((html || perfetto) && placements >= 0) {
		rq_error("audit: --placements replaces the report: not with --format %s",
			 html ? "html" : "perfetto");
		return RQ_EXIT_ERROR;
	}
	if (jsonl && (live || placements >= 0)) {
		rq_error("audit: --format jsonl is for trace files, without --live or "
			 "--placements");
		return RQ_EXIT_ERROR;
	}
	if (live && file) {
		rq_error("audit: give either a FILE or --live, not both");
		return RQ_EXIT_ERROR;
	}
	if (!live && !file) {
		audit_usage();
		rq_error("audit: no trace file given (or use --live --duration S)");
		return RQ_EXIT_ERROR;
	}
	if (live && duration <= 0 && !cmd) {
		rq_error("audit: --live needs --duration S or a command after --");
		return RQ_EXIT_ERROR;
	}
	if (aopts.profile_override) {
		struct rq_profile probe;

		rq_profile_from_release(&probe, NULL);
		if (rq_profile_override(&probe, aopts.profile_override, err, sizeof(err))) {
			rq_error("audit: %s", err);
			return RQ_EXIT_ERROR;
		}
	}
	if (jsonl) {
		struct audit_many_job job = { .profile = aopts.profile_override,
					      .check = nrules ? check_rules : NULL };
		struct rules_ctx rc = { rules, nrules };

		job.ctx = &rc;
		if (output) {
			dst = fopen(output, "w");
			if (!dst) {
				rq_escape_c(output, strlen(output), err, sizeof(err));
				rq_error("audit: cannot write %s: %s", err, strerror(errno));
				return RQ_EXIT_ERROR;
			}
		}
		ret = audit_many(files, nfiles, &job, dst);
		if (dst != stdout && fclose(dst)) {
			rq_error("audit: cannot write the output: %s", strerror(errno));
			ret = RQ_EXIT_ERROR;
		}
		return ret;
	}
	if (live) {
		if (record_live(duration, cmd, tmpfile, sizeof(tmpfile), err, sizeof(err))) {
			rq_error("audit: %s", err);
			return RQ_EXIT_ERROR;
		}
		file = tmpfile;
	}

	an = rq_analysis_new(&aopts);
	if (!an) {
		rq_error("audit: out of memory");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (output) {
		dst = fopen(output, "w");
		if (!dst) {
			rq_escape_c(output, strlen(output), err, sizeof(err));
			rq_error("audit: cannot write %s: %s", err, strerror(errno));
			dst = stdout;
			ret = RQ_EXIT_ERROR;
			goto out;
		}
	}
	/* --placements: the output is every placement, streamed as the trace is read */
	if (placements >= 0)
		rq_placements_start(&pout, dst, placements, an);
	else if (perfetto ? rq_perfetto_start(&pf, dst, an) : html && rq_html_start(&hp, an)) {
		rq_error("audit: out of memory");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (rq_replay_file(file, an, isatty(STDERR_FILENO), err, sizeof(err))) {
		char esc[1024];

		rq_escape_c(file, strlen(file), esc, sizeof(esc));
		rq_error("%s: %s", esc, err);
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (live)
		strlcpy(an->source, "live", sizeof(an->source));
	if (placements >= 0 ? rq_placements_end(&pout) :
	    perfetto ? rq_perfetto_end(&pf) :
	    html ? rq_html_write(dst, &hp) : rq_report_write(dst, an, fmt)) {
		rq_error("audit: cannot write the report: %s", strerror(errno));
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (nrules) {
		struct rules_ctx rc = { rules, nrules };

		if (check_rules(an, &rc))
			ret = RQ_EXIT_TRIPPED;
	}
out:
	if (dst != stdout && fclose(dst) && ret != RQ_EXIT_ERROR) {
		rq_error("audit: cannot write the output: %s", strerror(errno));
		ret = RQ_EXIT_ERROR;
	}
	rq_html_free(&hp);
	rq_runs_free(&pf.runs);
	rq_analysis_free(an);
	if (tmpfile[0])
		unlink(tmpfile);
	return ret;
}
