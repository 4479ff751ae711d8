// SPDX-License-Identifier: GPL-2.0
/*
 * why.c - `rqpath why PID [--at T] [FILE]`: the TUI detail view's facts of a task's
 * placements as text (views/detail.c makes them for both).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "escape.h"
#include "tui_main.h"

static int cmd_why(int argc, char **argv);

enum { OPT_AT = 256 };

static const struct cli_option why_options[] = {
	{ "at", OPT_AT, CLI_STRING, "S", 0, 0, 0,
	  "only the placement nearest S seconds after the trace's first record" },
	{ "input", 'i', CLI_STRING, "FILE.dat", 0, 0, CLI_IN_LEAD,
	  "the trace, as the FILE.dat operand (default: trace.dat here)" },
	CLI_TOPOLOGY_OPTION(CLI_TOPOLOGY_HELP),
	CLI_NO_TRUTH_OPTION(CLI_NO_TRUTH_HELP),
	CLI_OUTPUT_OPTION(0, CLI_OUTPUT_HELP),
	{ NULL },
};

const struct cli_command cli_why = {
	.name = "why",
	.fn = cmd_why,
	.lead = "PID",
	.operands = "[[-i] FILE.dat]",
	.summary = "why task PID landed where it did: the detail view's facts as text",
	.description =
		"Every placement of task PID in FILE.dat (or the one nearest --at S): the path\n"
		"and kernel function, the CPUs at that instant, the records it rests on, the\n"
		"verdicts, as the TUI's detail view shows them.  Exit 2 when the trace has no\n"
		"placement of PID.",
	.options = why_options,
};

/* What `rqpath why` was told. */
struct why_args {
	struct cli_trace_opts t;	/* --topology, --no-truth, -o (opts.h) */
	const char *file;	/* -i FILE or the operand */
	bool at_given;		/* --at S */
	double at;
};

/* why's own options (cli_option_fn) */
static int why_option(struct cli_parser *p, int key, void *ctx)
{
	struct why_args *a = ctx;
	char esc[256], *end;

	switch (key) {
	case OPT_AT:
		errno = 0;
		a->at = strtod(p->arg, &end);
		if (errno || end == p->arg || *end || !(a->at >= 0)) {
			rq_escape_c(p->arg, strlen(p->arg), esc, sizeof(esc));
			rq_error("why: --at wants seconds >= 0 from the trace's first record, "
				 "not '%s'", esc);
			return -1;
		}
		a->at_given = true;
		return 1;
	case 'i':
		if (a->file) {
			rq_error("why: one FILE at most; try 'rqpath why --help'");
			return -1;
		}
		a->file = p->arg;
		return 1;
	}
	return 0;
}

static int cmd_why(int argc, char **argv)
{
	struct why_args a = { 0 };
	const char *pidarg = NULL;
	struct cli_output outf;
	struct cli_parser p;
	char err[1280], esc[256], *end;
	long pid;
	FILE *out;
	int rc;

	cli_parser_init(&p, &cli_why, argc, argv);
	rc = cli_parse_options(&p, &a.t, why_option, &a);
	if (rc != CLI_END)
		return cli_stop(&p, rc);
	for (int i = p.optind; i < argc; i++) {
		if (!pidarg) {
			pidarg = argv[i];
		} else if (!a.file) {
			a.file = argv[i];
		} else {
			rq_error("why: one PID and one FILE at most; try 'rqpath why --help'");
			return RQ_EXIT_ERROR;
		}
	}
	if (!pidarg) {
		rq_error("why: which task? 'rqpath why PID [FILE.dat]'");
		return RQ_EXIT_ERROR;
	}
	errno = 0;
	pid = strtol(pidarg, &end, 10);
	if (errno || end == pidarg || *end || pid < 0 || pid > 0x7fffffff) {
		rq_escape_c(pidarg, strlen(pidarg), esc, sizeof(esc));
		rq_error("why: PID wants a task's pid, not '%s'", esc);
		return RQ_EXIT_ERROR;
	}
	if (!a.file)
		a.file = rq_default_input();
	if (!a.file) {
		rq_error("why: no trace file given and no trace.dat here");
		return RQ_EXIT_ERROR;
	}
	{
		char *inputs[] = { (char *)a.file };

		/* no --force: why never replaces a file, nor writes over its trace */
		out = cli_output_open(&outf, "why", a.t.output, false, inputs, 1);
	}
	if (!out)
		return RQ_EXIT_ERROR;
	rc = tui_why(a.file, a.t.topology, a.t.no_truth, (int)pid, a.at_given, a.at, out, err,
		     sizeof(err));
	if (rc)
		rq_error("%s", err);
	if (cli_output_close(&outf, "why", rc == 0))
		return RQ_EXIT_ERROR;
	return rc ? RQ_EXIT_ERROR : RQ_EXIT_OK;
}
