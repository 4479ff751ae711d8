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

enum { OPT_AT = 256, OPT_TOPOLOGY, OPT_NO_TRUTH };

static const struct cli_option why_options[] = {
	{ "at", OPT_AT, CLI_STRING, "S", 0, 0, 0,
	  "only the placement nearest S seconds after the trace's first record" },
	{ "input", 'i', CLI_STRING, "FILE.dat", 0, 0, CLI_IN_LEAD,
	  "the trace, as the FILE.dat operand (default: trace.dat here)" },
	{ "topology", OPT_TOPOLOGY, CLI_STRING, "SPEC|FILE", 0, 0, 0,
	  "the LLC/SMT/node groups and CPU capacities of the traced machine" },
	{ "no-truth", OPT_NO_TRUTH, CLI_FLAG, NULL, 0, 0, 0,
	  "ignore the kernel's state recorded through BPF: the tracepoint model alone" },
	{ "output", 'o', CLI_STRING, "FILE", 0, 0, CLI_SHORT,
	  "write to FILE instead of stdout (- : stdout); only a regular file is replaced" },
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

static int cmd_why(int argc, char **argv)
{
	const char *file = NULL, *topology = NULL, *output = NULL, *pidarg = NULL;
	bool no_truth = false, at_given = false;
	struct cli_output outf;
	struct cli_parser p;
	char err[1280], esc[256], *end;
	double at = 0;
	long pid;
	FILE *out;
	int opt, rc;

	cli_parser_init(&p, &cli_why, argc, argv);
	while ((opt = cli_next(&p)) != CLI_END) {
		switch (opt) {
		case OPT_AT:
			errno = 0;
			at = strtod(p.arg, &end);
			if (errno || end == p.arg || *end || !(at >= 0)) {
				rq_escape_c(p.arg, strlen(p.arg), esc, sizeof(esc));
				rq_error("why: --at wants seconds >= 0 from the trace's first record, "
					 "not '%s'", esc);
				return RQ_EXIT_ERROR;
			}
			at_given = true;
			break;
		case 'i':
			if (file) {
				rq_error("why: one FILE at most; try 'rqpath why --help'");
				return RQ_EXIT_ERROR;
			}
			file = p.arg;
			break;
		case OPT_TOPOLOGY:
			topology = p.arg;
			break;
		case OPT_NO_TRUTH:
			no_truth = true;
			break;
		case 'o':
			output = p.arg;
			break;
		default:
			return cli_stop(&p, opt);
		}
	}
	for (int i = p.optind; i < argc; i++) {
		if (!pidarg) {
			pidarg = argv[i];
		} else if (!file) {
			file = argv[i];
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
	if (!file)
		file = rq_default_input();
	if (!file) {
		rq_error("why: no trace file given and no trace.dat here");
		return RQ_EXIT_ERROR;
	}
	{
		char *inputs[] = { (char *)file };

		/* no --force: why never replaces a file, nor writes over its trace */
		out = cli_output_open(&outf, "why", output, false, inputs, 1);
	}
	if (!out)
		return RQ_EXIT_ERROR;
	rc = tui_why(file, topology, no_truth, (int)pid, at_given, at, out, err, sizeof(err));
	if (rc)
		rq_error("%s", err);
	if (cli_output_close(&outf, "why", rc == 0))
		return RQ_EXIT_ERROR;
	return rc ? RQ_EXIT_ERROR : RQ_EXIT_OK;
}
