// SPDX-License-Identifier: GPL-2.0
/*
 * diff.c - `rqpath diff BASE.dat NEW.dat` and `rqpath diff BASE... -- NEW...`: audit each
 * trace, compare the sides (src/output/diff.c) and print the table; --fail-on gates on the NEW
 * side's increase.
 */
#include <errno.h>
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

static int audit_one(const char *file, const char *profile, const char *topology,
		     struct rq_diff_run *run)
{
	struct rq_analysis_opts aopts = { .profile_override = profile, .topology = topology };
	char err[2048];

	if (rq_diff_run_file(run, file, &aopts, isatty(STDERR_FILENO), err, sizeof(err))) {
		rq_error("%s", err);
		return -1;
	}
	return 0;
}

static int cmd_diff(int argc, char **argv);

/* the short forms diff has always accepted */
enum { OPT_FAIL_ON = 'F', OPT_PROFILE = 'P', OPT_TOPOLOGY = 256, OPT_FORCE };

static const struct cli_option diff_options[] = {
	{ "format", 'f', CLI_CHOICE, "text|json|csv|html", 0, 0, 0,
	  "output format (default text)" },
	{ "output", 'o', CLI_STRING, "FILE", 0, 0, CLI_SHORT,
	  "write to FILE instead of stdout (- : stdout); only a regular file is replaced" },
	{ "force", OPT_FORCE, CLI_FLAG, NULL, 0, 0, CLI_NESTED,
	  "-o FILE may be a device or FIFO (written as it is) or a symlink (replaced)" },
	{ "fail-on", OPT_FAIL_ON, CLI_STRING, "RULE[=N[%]]", 0, 0, CLI_REPEAT,
	  "exit 1 when RULE's rate grew by more than N/s (or N % of the base)" },
	{ "profile", OPT_PROFILE, CLI_STRING, "KEY=VAL,...", 0, 0, 0,
	  "override the kernel profile of every trace" },
	{ "topology", OPT_TOPOLOGY, CLI_STRING, "SPEC|FILE", 0, 0, 0,
	  "the LLC/SMT/node groups and CPU capacities, for every trace" },
	{ NULL },
};

const struct cli_command cli_diff = {
	.name = "diff",
	.fn = cmd_diff,
	.lead = "BASE.dat NEW.dat | BASE.dat... -- NEW.dat...",
	.summary = "before and after: per path and finding rates, delays, the change of each",
	.description =
		"Audit each trace and compare the NEW side with the BASE side, per path and\n"
		"finding: rates, shares, counts, queue delay, min/median/max per side.  RULE is\n"
		"a finding or path id (or all): exit 1 when its rate per second on the NEW\n"
		"side grew by more than N per second (or N % of the base), default 0, and the\n"
		"change is outside the noise.",
	.options = diff_options,
};

static int cmd_diff(int argc, char **argv)
{
	static const enum rq_diff_format formats[] = {
		RQ_DIFF_TEXT, RQ_DIFF_JSON, RQ_DIFF_CSV, RQ_DIFF_HTML,
	};
	struct cli_parser p;
	struct diff_rule rules[MAX_RULES];
	int nrules = 0, opt, first, ret = RQ_EXIT_OK, sep = -1, nbase, nnew;
	enum rq_diff_format fmt = RQ_DIFF_TEXT;
	const char *profile = NULL, *output = NULL, *topology = NULL;
	bool force = false;
	struct rq_diff_run *runs = NULL;
	struct rq_diff d = { 0 };
	char **base, **new;
	struct cli_output outf = { 0 };
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
	cli_parser_init(&p, &cli_diff, argc, argv);
	while ((opt = cli_next(&p)) != CLI_END) {
		switch (opt) {
		case 'f':
			fmt = formats[p.num];
			break;
		case OPT_FAIL_ON:
			if (nrules == MAX_RULES || parse_rule(p.arg, &rules[nrules])) {
				rq_error("diff: bad --fail-on '%s': RULE[=N[%%]] with RULE a finding "
					 "or path id (offcpu-fork, missed-idle, fork-moved, ...)", p.arg);
				return RQ_EXIT_ERROR;
			}
			nrules++;
			break;
		case OPT_PROFILE:
			profile = p.arg;
			break;
		case OPT_TOPOLOGY:
			topology = p.arg;
			break;
		case 'o':
			output = p.arg;
			break;
		case OPT_FORCE:
			force = true;
			break;
		default:
			return cli_stop(&p, opt);
		}
	}
	first = p.optind;
	for (int i = first; i < argc; i++)
		if (argv[i] == SEP) {
			sep = i;
			break;
		}
	if (sep >= 0) {
		base = &argv[first];
		nbase = sep - first;
		new = &argv[sep + 1];
		nnew = argc - sep - 1;
	} else {
		nbase = nnew = 1;
		if (argc - first != 2) {
			rq_error("diff: give BASE.dat NEW.dat, or BASE... -- NEW... (%d file%s given)",
				 argc - first, argc - first == 1 ? "" : "s");
			return RQ_EXIT_ERROR;
		}
		base = &argv[first];
		new = &argv[first + 1];
	}
	if (nbase < 1 || nnew < 1 || nbase > MAX_RUNS || nnew > MAX_RUNS) {
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
		if (audit_one(i < nbase ? base[i] : new[i - nbase], profile, topology, &runs[i])) {
			ret = RQ_EXIT_ERROR;
			goto out;
		}
	if (rq_diff_compute(&d, runs, nbase, runs + nbase, nnew)) {
		rq_error("diff: out of memory");
		ret = RQ_EXIT_ERROR;
		goto out;
	}
	dst = cli_output_open(&outf, "diff", output, force);
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
	if (cli_output_close(&outf, "diff", ret != RQ_EXIT_ERROR))
		ret = RQ_EXIT_ERROR;
	rq_diff_free(&d);
	free(runs);
	return ret;
}
