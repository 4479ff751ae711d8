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

#include "outfile.h"

#include "opts.h"

enum rq_exit {
	RQ_EXIT_OK = 0,		/* success, no --fail-on rule tripped */
	RQ_EXIT_TRIPPED = 1,	/* a --fail-on rule tripped */
	RQ_EXIT_ERROR = 2,	/* usage, bad input, missing privilege or tracefs */
};

/* Each command: its option table, usage line and help (opts.h), and its function. */
extern const struct cli_command cli_audit;	/* cli/audit.c */
extern const struct cli_command cli_explain;	/* cli/explain.c */
extern const struct cli_command cli_why;	/* cli/why.c */
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
 * gives exit status 0, CLI_ERROR says p->err and gives 2, CLI_SAID (the line was said)
 * gives 2.
 */
int cli_stop(const struct cli_parser *p, int key);
/* -o FILE means stdout when FILE is "-" (or not given), as in perf and trace-cmd. */
bool rq_is_stdout(const char *path);
/*
 * The input file of replay and audit when none is given: "trace.dat" when it exists in
 * the current directory (as trace-cmd report), else NULL.
 */
const char *rq_default_input(void);
/*
 * -o FILE: the one way a command writes a report (outfile.h: beside FILE, renamed into
 * place by cli_output_close(); never through a symlink, a device or FIFO only with
 * force, written as it is, a symlink with force replaced, never a directory).  NULL or
 * "-": stdout.  An existing FILE is replaced only with force; FILE that is one of
 * the command's inputs (the same device and inode) is refused, force or not.  The
 * stream, or NULL after one error line.
 */
struct cli_output {
	FILE *f;
	bool file;		/* f is the temporary file of out, not stdout */
	struct rq_outfile out;
};
FILE *cli_output_open(struct cli_output *o, const char *cmd, const char *path, bool force,
		      char *const *inputs, int ninputs);
/*
 * ok: complete the file (renamed to its path); !ok (the command failed): remove it,
 * leaving whatever was at the path.  0, or -1 after one error line (write error).
 */
int cli_output_close(struct cli_output *o, const char *cmd, bool ok);

/* Print "rqpath: <msg>" on stderr (one line, the user-facing error format). */
void rq_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
