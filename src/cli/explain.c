// SPDX-License-Identifier: GPL-2.0
/*
 * explain.c - `rqpath explain`: the decision tree (teach.c) as text, with counts from a
 * trace when one is given.
 */
#include <errno.h>
#include <langinfo.h>
#include <locale.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "analysis.h"
#include "commands.h"
#include "escape.h"
#include "replay.h"
#include "teach.h"

static bool locale_utf8(void)
{
	const char *cs;

	setlocale(LC_CTYPE, "");
	cs = nl_langinfo(CODESET);
	return cs && (!strcasecmp(cs, "UTF-8") || !strcasecmp(cs, "utf8"));
}

static int cmd_explain(int argc, char **argv);

static const struct cli_option explain_options[] = {
	{ "input", 'i', CLI_STRING, "FILE.dat", 0, 0, CLI_IN_LEAD,
	  "the trace whose counts to show (none: the tree alone, even with a trace.dat here)" },
	{ "brief", 'b', CLI_FLAG, NULL, 0, 0, 0, "the tree only, without the explanations" },
	{ "topology", 256, CLI_STRING, "SPEC|FILE", 0, 0, 0,
	  "the LLC/SMT/node groups and CPU capacities of the traced machine" },
	{ "no-truth", 257, CLI_FLAG, NULL, 0, 0, 0,
	  "ignore the kernel's state recorded through BPF: the tracepoint model alone" },
	CLI_FILTER_OPTIONS,
	{ NULL },
};

const struct cli_command cli_explain = {
	.name = "explain",
	.fn = cmd_explain,
	.operands = "[[-i] FILE.dat]",
	.summary = "the select_task_rq() decision tree as text, with counts from FILE",
	.description =
		"The select_task_rq() decision tree as text; with FILE, the counts of its\n"
		"placements at each step.",
	.options = explain_options,
};

static int cmd_explain(int argc, char **argv)
{
	const char *file = NULL;
	bool brief = false;
	struct rq_analysis *an = NULL;
	struct rq_analysis_opts aopts = { 0 };
	struct rq_filter filter = { 0 };
	struct cli_parser p;
	char err[512];
	int opt, fo;

	/* options may come before or after the FILE, as with audit */
	cli_parser_init(&p, &cli_explain, argc, argv);
	while ((opt = cli_next(&p)) != CLI_END) {
		switch (opt) {
		case 'b':
			brief = true;
			break;
		case 'i':
			if (file) {
				rq_error("explain: one FILE at most; try 'rqpath explain --help'");
				return RQ_EXIT_ERROR;
			}
			file = p.arg;
			break;
		case 256:	/* --topology */
			aopts.topology = p.arg;
			break;
		case 257:	/* --no-truth */
			aopts.no_truth = true;
			break;
		default:
			fo = cli_filter_option(&p, opt, &filter);
			if (fo > 0)
				break;
			return cli_stop(&p, fo < 0 ? CLI_ERROR : opt);
		}
	}
	if (rq_filter_active(&filter)) {
		if (p.optind >= argc && !file) {
			rq_error("explain: -p, --comm, -C, --from and --to choose placements of a "
				 "FILE; give one");
			return RQ_EXIT_ERROR;
		}
		aopts.filter = &filter;
	}
	if (argc - p.optind + (file != NULL) > 1) {
		rq_error("explain: one FILE at most; try 'rqpath explain --help'");
		return RQ_EXIT_ERROR;
	}
	if (p.optind < argc)
		file = argv[p.optind];
	if (file) {
		an = rq_analysis_new(&aopts);
		if (!an) {
			rq_error("explain: out of memory");
			return RQ_EXIT_ERROR;
		}
		if (rq_replay_file(file, an, 0, err, sizeof(err))) {
			char name[1024];

			rq_escape_c(file, strlen(file), name, sizeof(name));
			if (rq_analysis_error(an)[0])
				rq_escape_c(rq_analysis_error(an), strlen(rq_analysis_error(an)), err,
					    sizeof(err));
			rq_error("%s: %s", name, err);
			rq_analysis_free(an);
			return RQ_EXIT_ERROR;
		}
	}
	rq_teach_write(stdout, an, locale_utf8(), brief);
	if (an)
		rq_analysis_free(an);
	if (fflush(stdout) || ferror(stdout)) {
		rq_error("explain: write error: %s", strerror(errno));
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
