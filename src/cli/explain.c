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

int cmd_explain(int argc, char **argv)
{
	const char *file = NULL;
	bool brief = false;
	struct rq_analysis *an = NULL;
	char err[512];
	int i;

	/* options may come before or after the FILE, as with audit */
	for (i = 1; i < argc; i++) {
		bool operand = false;

		if (!strcmp(argv[i], "--brief") || !strcmp(argv[i], "-b")) {
			brief = true;
		} else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			printf("usage: rqpath explain [--brief] [FILE]\n\n"
			       "The select_task_rq() decision tree as text; with FILE, the counts of "
			       "its placements\nat each step. --brief prints the tree only.\n");
			return RQ_EXIT_OK;
		} else if (!strcmp(argv[i], "--") && i + 1 < argc) {
			operand = true;
			i++;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			char esc[256];

			rq_escape_c(argv[i], strlen(argv[i]), esc, sizeof(esc));
			rq_error("explain: unknown option '%s'; try 'rqpath explain --help'", esc);
			return RQ_EXIT_ERROR;
		} else {
			operand = true;
		}
		if (!operand)
			continue;
		if (file) {
			rq_error("explain: one FILE at most; try 'rqpath explain --help'");
			return RQ_EXIT_ERROR;
		}
		file = argv[i];
	}
	if (file) {
		an = rq_analysis_new(NULL);
		if (!an) {
			rq_error("explain: out of memory");
			return RQ_EXIT_ERROR;
		}
		if (rq_replay_file(file, an, 0, err, sizeof(err))) {
			char name[1024];

			rq_escape_c(file, strlen(file), name, sizeof(name));
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
