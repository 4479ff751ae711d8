/* SPDX-License-Identifier: GPL-2.0 */
/*
 * commands.h - the subcommands (src/cli/); main.c dispatches through one table.
 * Each returns an exit status (enum rq_exit) and never calls exit().
 */
#ifndef RQPATH_COMMANDS_H
#define RQPATH_COMMANDS_H

enum rq_exit {
	RQ_EXIT_OK = 0,		/* success, no --fail-on rule tripped */
	RQ_EXIT_TRIPPED = 1,	/* a --fail-on rule tripped */
	RQ_EXIT_ERROR = 2,	/* usage, bad input, missing privilege or tracefs */
};

int cmd_audit(int argc, char **argv);	/* cli/audit.c */
int cmd_explain(int argc, char **argv);	/* cli/explain.c */
int cmd_diff(int argc, char **argv);	/* cli/diff.c */
int cmd_record(int argc, char **argv);	/* cli/record.c */
int cmd_workload(int argc, char **argv);	/* cli/workload.c */
int cmd_live(int argc, char **argv);	/* cli/interactive.c */
int cmd_replay(int argc, char **argv);	/* cli/interactive.c */

/* Print "rqpath: <msg>" on stderr (one line, the user-facing error format). */
void rq_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
