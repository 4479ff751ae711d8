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
#include "session.h"
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

/* FILE read to its end into a new analysis (its placements' counts), or NULL after the error. */
static struct rq_session *explain_session(const char *file,
					  const struct rq_analysis_opts *aopts)
{
	struct rq_session *s = rq_session_open_file(file, aopts, 0);

	if (!s) {
		rq_error("explain: out of memory");
		return NULL;
	}
	if (rq_session_run(s, NULL) == RQ_PUMP_ERROR) {
		rq_error("%s", rq_session_error(s));
		rq_session_close(s);
		return NULL;
	}
	return s;
}

static int cmd_explain(int argc, char **argv)
{
	struct explain_args a = { 0 };
	struct rq_session *s = NULL;
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
		s = explain_session(a.file, &aopts);
		if (!s)
			return RQ_EXIT_ERROR;
	}
	rq_teach_write(stdout, s ? rq_session_analysis(s) : NULL, locale_utf8(), a.brief);
	rq_session_close(s);
	if (fflush(stdout) || ferror(stdout)) {
		rq_error("explain: write error: %s", strerror(errno));
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
