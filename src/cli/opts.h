/* SPDX-License-Identifier: GPL-2.0 */
/*
 * opts.h - one option table per command, read by getopt_long for parsing and by the
 * help printer for the usage line (the SYNOPSIS of rqpath(1)), `--help` and
 * `rqpath help CMD`.  Values are checked here (integers, seconds, choices), so every
 * command refuses a bad value with the same kind of line.
 */
#ifndef RQPATH_CLI_OPTS_H
#define RQPATH_CLI_OPTS_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum cli_type {
	CLI_FLAG,		/* no value */
	CLI_STRING,		/* any value, in p->arg */
	CLI_INT,		/* an integer in [min, max], in p->num */
	CLI_SECONDS,		/* seconds > 0 (and <= max when max > 0), in p->secs */
	CLI_CHOICE,		/* one of the words of arg ("text|json|csv"), its index in p->num */
	CLI_MODE,		/* permission bits in octal, 1 to 0777 (as chmod's), in p->num */
};

/* cli_option.flags */
#define CLI_REQUIRED	0x01	/* the synopsis shows it without brackets */
#define CLI_REPEAT	0x02	/* may be given several times: "[--x V]..." */
#define CLI_NESTED	0x04	/* the synopsis shows it inside the previous option's brackets */
#define CLI_IN_LEAD	0x08	/* the synopsis shows it in the command's lead text */
#define CLI_SHORT	0x10	/* the synopsis shows the short form (-o FILE) */
#define CLI_HIDDEN	0x20	/* internal: in neither the synopsis nor --help */

struct cli_option {
	const char *name;	/* long name without "--" */
	int key;		/* short option letter, or a code > 255 for a long-only one */
	enum cli_type type;
	const char *arg;	/* the value as the user sees it: "N", "FILE", "text|json|csv" */
	long min, max;		/* CLI_INT: the range; CLI_SECONDS: max (0: none) */
	unsigned int flags;
	const char *help;	/* one line for --help */
};

/* cli_command.flags */
#define CLI_IN_ORDER	0x01	/* the first operand ends the options (a command follows) */
#define CLI_DEFAULT	0x02	/* what `rqpath` alone runs: "[name]" in the synopsis */
#define CLI_FILE_FIRST	0x04	/* what `rqpath FILE` and `rqpath -i FILE` run: "[name]" too */

struct cli_command {
	const char *name;	/* "record", "workload spawn", "--version" */
	int (*fn)(int argc, char **argv);
	const char *lead;	/* synopsis text before the options, or NULL */
	const char *operands;	/* synopsis text after the options, or NULL */
	const char *summary;	/* one line for `rqpath help` */
	const char *description;	/* the paragraph of --help (NULL: the summary) */
	const struct cli_option *options;	/* ends with a NULL name; NULL: none */
	unsigned int flags;
	const struct cli_command *subcommands;	/* ends with a NULL name; NULL: none */
};

/*
 * The placement filters of audit, explain and replay (and so of every export), spelled
 * as trace-cmd and perf spell them: -p/--pid, --comm, -C/--cpu, --from/--to seconds.
 * A table's rows; cli_filter_option() takes their keys.
 */
enum { CLI_OPT_COMM = 0x300, CLI_OPT_FROM, CLI_OPT_TO };
#define CLI_FILTER_OPTIONS \
	{ "pid", 'p', CLI_STRING, "PID[,PID...]", 0, 0, CLI_SHORT, \
	  "only the placements of these tasks (pids, comma-separated)" }, \
	{ "comm", CLI_OPT_COMM, CLI_STRING, "NAME", 0, 0, 0, \
	  "only the placements of tasks of that name (as the trace has it)" }, \
	{ "cpu", 'C', CLI_STRING, "LIST", 0, 0, CLI_SHORT, \
	  "only the placements onto these CPUs (0,2-3)" }, \
	{ "from", CLI_OPT_FROM, CLI_STRING, "S", 0, 0, 0, \
	  "only the placements from S seconds after the trace's first record on" }, \
	{ "to", CLI_OPT_TO, CLI_STRING, "S", 0, 0, 0, \
	  "only the placements up to S seconds after the trace's first record" }

struct rq_filter;
struct cli_parser;
/*
 * A filter option (key of CLI_FILTER_OPTIONS) into f: 1 taken, 0 not a filter's key,
 * -1 a bad value (the line is in p->err).
 */
int cli_filter_option(struct cli_parser *p, int key, struct rq_filter *f);

#define CLI_MAX_OPTIONS 24
#define CLI_HELP 'h'		/* cli_next(): -h or --help (every command has it) */
#define CLI_END 0		/* cli_next(): no more options; operands from p->optind */
#define CLI_ERROR (-1)		/* cli_next(): bad option or value; the line is in p->err */

struct cli_parser {
	const struct cli_command *cmd;
	int argc;
	char **argv;
	int optind;		/* after CLI_END: the first operand */
	bool dashdash;		/* after CLI_END: "--" came right before the operands */
	const struct cli_option *opt;	/* the option just returned */
	const char *arg;	/* its value as given */
	long num;		/* CLI_INT: the value; CLI_CHOICE: the index of the word */
	double secs;		/* CLI_SECONDS: the value */
	char err[512];		/* after CLI_ERROR: one line, "CMD: ..." */
	struct option longopts[CLI_MAX_OPTIONS + 2];
	char shortopts[3 * CLI_MAX_OPTIONS + 4];
};

/* Start parsing argv (argv[0] is the command name).  -1 if the table is too big. */
int cli_parser_init(struct cli_parser *p, const struct cli_command *cmd, int argc,
		    char **argv);
/* The next option's key, CLI_HELP, CLI_END or CLI_ERROR. */
int cli_next(struct cli_parser *p);

/* The usage line without "rqpath ": "record -o FILE [--duration S] ...". */
void cli_synopsis(const struct cli_command *c, char *buf, size_t size);
/* `rqpath CMD --help`: usage line, description, the options (and subcommands). */
void cli_print_help(FILE *f, const struct cli_command *c);
/* The subcommand of c called name, or NULL. */
const struct cli_command *cli_find_sub(const struct cli_command *c, const char *name);
/* Word number i of a "a|b|c" list into buf; false when there is none. */
bool cli_choice_word(const char *list, int i, char *buf, size_t size);

#endif
