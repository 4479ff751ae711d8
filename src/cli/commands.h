/* SPDX-License-Identifier: GPL-2.0 */
/*
 * commands.h - the subcommands (src/cli/); main.c dispatches through one table of them.
 * Each returns an exit status (enum rq_exit) and never calls exit().
 */
#ifndef RQPATH_COMMANDS_H
#define RQPATH_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "opts.h"

enum rq_exit {
	RQ_EXIT_OK = 0,		/* success, no --fail-on rule tripped */
	RQ_EXIT_TRIPPED = 1,	/* a --fail-on rule tripped */
	RQ_EXIT_ERROR = 2,	/* usage, bad input, missing privilege or tracefs */
};

/* Each command: its option table, usage line and help (opts.h), and its function. */
extern const struct cli_command cli_audit;	/* cli/audit.c */
extern const struct cli_command cli_explain;	/* cli/explain.c */
extern const struct cli_command cli_record;	/* cli/record.c */
extern const struct cli_command cli_topology;	/* cli/topology.c */
extern const struct cli_command cli_workload;	/* cli/workload.c */
extern const struct cli_command cli_live;	/* cli/interactive.c */
extern const struct cli_command cli_replay;	/* cli/interactive.c */
extern const struct cli_command cli_diff;	/* cli/diff.c */
extern const struct cli_command cli_completion;	/* cli/complete.c */

/* Every command, in the order of rqpath(1)'s SYNOPSIS (main.c); *n of them. */
const struct cli_command *const *cli_commands(size_t *n);

/*
 * A key the command's option loop does not handle itself: CLI_HELP prints its help and
 * gives exit status 0, CLI_ERROR says p->err and gives 2.
 */
int cli_stop(const struct cli_parser *p, int key);
/* -o FILE means stdout when FILE is "-" (or not given), as in perf and trace-cmd. */
bool rq_is_stdout(const char *path);
/* -o FILE opened for writing (stdout when rq_is_stdout()), or NULL after one error line. */
FILE *rq_open_output(const char *cmd, const char *path);
/*
 * The input file of replay and audit when none is given: "trace.dat" when it exists in
 * the current directory (as trace-cmd report), else NULL.
 */
const char *rq_default_input(void);

/* Print "rqpath: <msg>" on stderr (one line, the user-facing error format). */
void rq_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
