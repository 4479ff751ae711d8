// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - `rqpath diff BASE.dat NEW.dat` and `rqpath diff BASE... -- NEW...`: audit each
 * trace, compare the sides (src/diff.c) and print the table; --fail-on gates on the NEW
 * side's increase.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "diff.h"
#include "escape.h"
#include "replay.h"

#define MAX_RULES 16
#define MAX_RUNS 64
static char SEP[] = "\001--";

struct diff_rule {
	char id[48];
	double max;		/* the increase allowed */
	bool pct;		/* max is a percentage of the base median */
};

static void diff_usage(void)
{
	fprintf(stderr,
		"usage: rqpath diff BASE.dat NEW.dat [--format text|json|csv|html] [-o FILE]\n"
		"                   [--fail-on RULE[=N[%%]]]... [--profile KEY=VAL,...]\n"
		"       rqpath diff [OPTIONS] BASE1.dat BASE2.dat ... -- NEW1.dat NEW2.dat ...\n"
		"RULE is a finding or path id: exit 1 when its rate per second on the NEW side\n"
		"grew by more than N per second (or N %% of the base), default 0, and the change\n"
		"is outside the noise.\n");
}

static int parse_rule(const char *arg, struct diff_rule *r)
{
	const char *eq = strchr(arg, '=');
	size_t n = eq ? (size_t)(eq - arg) : strlen(arg);
	bool known = false;
	char *end;

	if (!n || n >= sizeof(r->id))
		return -1;
	memcpy(r->id, arg, n);
	r->id[n] = '\0';
	for (int i = 0; i < RQ_FIND__COUNT; i++)
		known |= !strcmp(r->id, rq_finding_ids[i]);
	for (int i = 0; i < RQ_PATH__COUNT; i++)
		known |= !strcmp(r->id, rq_paths[i].id);
	known |= !strcmp(r->id, "all");
	if (!known)
		return -1;
	r->max = 0;
	r->pct = false;
	if (eq) {
		errno = 0;
		r->max = strtod(eq + 1, &end);
		if (end == eq + 1 || errno || r->max < 0 || isnan(r->max))
			return -1;
		if (*end == '%') {
			r->pct = true;
			end++;
		}
		if (*end)
			return -1;
	}
	return 0;
}

static int audit_one(const char *file, const char *profile, struct rq_diff_run *run)
{
	struct rq_analysis_opts aopts = { .profile_override = profile };
	struct rq_analysis *an = rq_analysis_new(&aopts);
	char err[512], esc[1024];

	if (!an) {
		rq_error("diff: out of memory");
		return -1;
	}
	if (rq_replay_file(file, an, isatty(STDERR_FILENO), err, sizeof(err))) {
		rq_escape_c(file, strlen(file), esc, sizeof(esc));
		rq_error("%s: %s", esc, err);
		rq_analysis_free(an);
		return -1;
	}
	rq_diff_run_from(run, an);
	rq_analysis_free(an);
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "profile", required_argument, NULL, 'P' },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct diff_rule rules[MAX_RULES];
	int nrules = 0, opt, ret = RQ_EXIT_OK, sep = -1, nbase, nnew;
	enum rq_diff_format fmt = RQ_DIFF_TEXT;
	const char *profile = NULL, *output = NULL;
	struct rq_diff_run *runs = NULL;
	struct rq_diff d = { 0 };
	char **base, **new;
	FILE *dst = stdout;
	char err[512];

	/*
	 * BASE... -- NEW...: the first "--" becomes an operand that getopt keeps in place
	 * among the files (it moves operands after the options, in order), so options may
	 * come anywhere.  No file name can be SEP: it holds a control byte.
	 */
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--")) {
			argv[i] = SEP;
			break;
		}
	optind = 1;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "f:F:P:o:h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'f':
			if (!strcmp(optarg, "text"))
				fmt = RQ_DIFF_TEXT;
			else if (!strcmp(optarg, "json"))
				fmt = RQ_DIFF_JSON;
			else if (!strcmp(optarg, "csv"))
				fmt = RQ_DIFF_CSV;
			else if (!strcmp(optarg, "html"))
				fmt = RQ_DIFF_HTML;
			else {
				rq_error("diff: unknown format '%s' (text, json, csv or html)", optarg);
				return RQ_EXIT_ERROR;
			}
			break;
		case 'F':
			if (nrules == MAX_RULES || parse_rule(optarg, &rules[nrules])) {
				rq_error("diff: bad --fail-on '%s': RULE[=N[%%]] with RULE a finding "
					 "or path id (offcpu-fork, missed-idle, fork-moved, ...)", optarg);
				return RQ_EXIT_ERROR;
			}
			nrules++;
			break;
		case 'P':
			profile = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case 'h':
			diff_usage();
			return RQ_EXIT_OK;
		default:
			rq_error("diff: unknown or incomplete option '%s'; see 'rqpath help diff'",
				 argv[optind - 1]);
			return RQ_EXIT_ERROR;
		}
	}
	for (int i = optind; i < argc; i++)
		if (argv[i] == SEP) {
			sep = i;
			break;
		}
	if (sep >= 0) {
		base = &argv[optind];
		nbase = sep - optind;
		new = &argv[sep + 1];
		nnew = argc - sep - 1;
	} else {
		nbase = nnew = 1;
		if (argc - optind != 2) {
			diff_usage();
			rq_error("diff: give BASE.dat NEW.dat, or BASE... -- NEW... (%d file%s given)",
				 argc - optind, argc - optind == 1 ? "" : "s");
			return RQ_EXIT_ERROR;
		}
		base = &argv[optind];
		new = &argv[optind + 1];
	}
	if (nbase < 1 || nnew < 1 || nbase > MAX_RUNS || nnew > MAX_RUNS) {
		diff_usage();
		rq_error("diff: each side needs 1 to %d trace files (base %d, new %d)", MAX_RUNS,
			 nbase, nnew);
		return RQ_EXIT_ERROR;
	}
	if (profile) {
		struct rq_profile probe;

		rq_profile_from_release(&probe, NULL);
		if (rq_profile_override(&probe, profile, err, sizeof(err))) {
			rq_error("diff: %s", err);
			return RQ_EXIT_ERROR;
		}
	}
	runs = calloc((size_t)(nbase + nnew), sizeof(*runs));
	if (!runs) {
		rq_error("diff: out of memory");
		return RQ_EXIT_ERROR;
	}
	for (int i = 0; i < nbase + nnew; i++)
		if (audit_one(i < nbase ? base[i] : new[i - nbase], profile, &runs[i])) {
			ret = RQ_EXIT_ERROR;
			goto out;
		}
	if (rq_diff_compute(&d, runs, nbase, runs + nbase, nnew)) {
		rq_error("diff: out of memory");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	dst = rq_open_output("diff", output);
	if (!dst) {
		dst = stdout;
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	if (rq_diff_write(dst, &d, fmt)) {
		rq_error("diff: cannot write the output: %s", strerror(errno));
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	for (int i = 0; i < nrules; i++) {
		const struct rq_diff_row *r = rq_diff_find_rate(&d, rules[i].id);
		double grew, allowed;

		if (!r)
			continue;	/* a path seen in no trace: 0 on both sides */
		grew = r->change;
		allowed = rules[i].pct ? rules[i].max * r->base.median / 100.0 : rules[i].max;
		if (r->verdict == RQ_DIFF_CHANGED && grew > 0 && grew > allowed) {
			fprintf(stderr, "rqpath: --fail-on %s=%g%s tripped: %s per second %.1f -> "
				"%.1f (%+.1f)\n", rules[i].id, rules[i].max, rules[i].pct ? "%" : "",
				rules[i].id, r->base.median, r->new.median, grew);
			ret = RQ_EXIT_TRIPPED;
		}
	}
out:
	if (dst != stdout && fclose(dst) && ret != RQ_EXIT_ERROR) {
		rq_error("diff: cannot write the output: %s", strerror(errno));
		ret = RQ_EXIT_ERROR;
	}
	rq_diff_free(&d);
	free(runs);
	return ret;
}
