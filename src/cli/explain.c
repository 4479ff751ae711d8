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
	CLI_TOPOLOGY_OPTION(CLI_TOPOLOGY_HELP),
	CLI_NO_TRUTH_OPTION(CLI_NO_TRUTH_HELP),
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

/* What `rqpath explain` was told. */
struct explain_args {
	struct cli_trace_opts t;	/* --topology, --no-truth, the filters (opts.h) */
	const char *file;	/* -i FILE or the operand */
	bool brief;		/* -b */
};

/* explain's own options (cli_option_fn) */
static int explain_option(struct cli_parser *p, int key, void *ctx)
{
	struct explain_args *a = ctx;

	switch (key) {
	case 'b':
		a->brief = true;
		return 1;
	case 'i':
		if (a->file) {
			rq_error("explain: one FILE at most; try 'rqpath explain --help'");
			return -1;
		}
		a->file = p->arg;
		return 1;
	}
	return 0;
}

/* The counts of FILE's placements: a new analysis of it, or NULL after the error line. */
static struct rq_analysis *explain_analysis(const char *file,
					    const struct rq_analysis_opts *aopts)
{
	struct rq_analysis *an = rq_analysis_new(aopts);
	char err[512], name[1024];

	if (!an) {
		rq_error("explain: out of memory");
		return NULL;
	}
	if (rq_replay_file(file, an, 0, err, sizeof(err))) {
		rq_escape_c(file, strlen(file), name, sizeof(name));
		if (rq_analysis_error(an)[0])
			rq_escape_c(rq_analysis_error(an), strlen(rq_analysis_error(an)), err,
				    sizeof(err));
		rq_error("%s: %s", name, err);
		rq_analysis_free(an);
		return NULL;
	}
	return an;
}

static int cmd_explain(int argc, char **argv)
{
	struct explain_args a = { 0 };
	struct rq_analysis *an = NULL;
	struct rq_analysis_opts aopts = { 0 };
	struct cli_parser p;
	int rc;

	/* options may come before or after the FILE, as with audit */
	cli_parser_init(&p, &cli_explain, argc, argv);
	rc = cli_parse_options(&p, &a.t, explain_option, &a);
	if (rc != CLI_END)
		return cli_stop(&p, rc);
	cli_trace_analysis(&a.t, &aopts);
	if (aopts.filter && p.optind >= argc && !a.file) {
		rq_error("explain: -p, --comm, -C, --from and --to choose placements of a "
			 "FILE; give one");
		return RQ_EXIT_ERROR;
	}
	if (argc - p.optind + (a.file != NULL) > 1) {
		rq_error("explain: one FILE at most; try 'rqpath explain --help'");
		return RQ_EXIT_ERROR;
	}
	if (p.optind < argc)
		a.file = argv[p.optind];
	if (a.file) {
		an = explain_analysis(a.file, &aopts);
		if (!an)
			return RQ_EXIT_ERROR;
	}
	rq_teach_write(stdout, an, locale_utf8(), a.brief);
	if (an)
		rq_analysis_free(an);
	if (fflush(stdout) || ferror(stdout)) {
		rq_error("explain: write error: %s", strerror(errno));
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
