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

#include "analysis.h"

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
enum { CLI_OPT_COMM = 0x300, CLI_OPT_FROM, CLI_OPT_TO, CLI_OPT_TOPOLOGY, CLI_OPT_NO_TRUTH,
	CLI_OPT_FORCE, CLI_OPT_USER, CLI_OPT_PRESERVE_ENV, CLI_OPT_SYSCALLS, CLI_OPT_NO_BPF };
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

struct cli_parser;
/*
 * A filter option (key of CLI_FILTER_OPTIONS) into f: 1 taken, 0 not a filter's key,
 * -1 a bad value (the line is in p->err).
 */
int cli_filter_option(struct cli_parser *p, int key, struct rq_filter *f);

/*
 * The options several commands share, parsed by one function (cli_parse_options()) into
 * one struct cli_trace_opts: the analysis (--profile, --topology, --no-truth and the
 * placement filters), the report (-o FILE, --force) and a recording (-d S, --user,
 * --preserve-env, --syscalls, --no-bpf).  Each command's table lists those it takes, with
 * its own help line; the rows below give the name, key and value of each.
 */
#define CLI_OPT_PROFILE 'P'
#define CLI_OPT_OUTPUT 'o'
#define CLI_OPT_DURATION 'd'
#define CLI_PROFILE_OPTION(help) \
	{ "profile", CLI_OPT_PROFILE, CLI_STRING, "KEY=VAL,...", 0, 0, 0, help }
#define CLI_TOPOLOGY_OPTION(help) \
	{ "topology", CLI_OPT_TOPOLOGY, CLI_STRING, "SPEC|FILE", 0, 0, 0, help }
#define CLI_NO_TRUTH_OPTION(help) \
	{ "no-truth", CLI_OPT_NO_TRUTH, CLI_FLAG, NULL, 0, 0, 0, help }
#define CLI_OUTPUT_OPTION(flags, help) \
	{ "output", CLI_OPT_OUTPUT, CLI_STRING, "FILE", 0, 0, CLI_SHORT | (flags), help }
#define CLI_FORCE_OPTION(flags, help) \
	{ "force", CLI_OPT_FORCE, CLI_FLAG, NULL, 0, 0, flags, help }
#define CLI_DURATION_OPTION(flags, help) \
	{ "duration", CLI_OPT_DURATION, CLI_SECONDS, "S", 0, 0, flags, help }
#define CLI_USER_OPTION(flags, help) \
	{ "user", CLI_OPT_USER, CLI_STRING, "NAME", 0, 0, flags, help }
#define CLI_PRESERVE_ENV_OPTION(flags, help) \
	{ "preserve-env", CLI_OPT_PRESERVE_ENV, CLI_FLAG, NULL, 0, 0, flags, help }
#define CLI_SYSCALLS_OPTION(flags, help) \
	{ "syscalls", CLI_OPT_SYSCALLS, CLI_FLAG, NULL, 0, 0, flags, help }
#define CLI_NO_BPF_OPTION(flags, help) \
	{ "no-bpf", CLI_OPT_NO_BPF, CLI_FLAG, NULL, 0, 0, flags, help }
/* the help lines most commands give them */
#define CLI_TOPOLOGY_HELP "the LLC/SMT/node groups and CPU capacities of the traced machine"
#define CLI_NO_TRUTH_HELP \
	"ignore the kernel's state recorded through BPF: the tracepoint model alone"
#define CLI_OUTPUT_HELP \
	"write to FILE instead of stdout (- : stdout); only a regular file is replaced"
#define CLI_FORCE_HELP \
	"-o FILE may be a device or FIFO (written as it is) or a symlink (replaced)"

struct cli_trace_opts {
	/* the analysis */
	const char *profile;	/* --profile KEY=VAL,... (cli_trace_check()) */
	const char *topology;	/* --topology SPEC|FILE */
	bool no_truth;		/* --no-truth */
	struct rq_filter filter;	/* -p, --comm, -C, --from, --to */
	/* the report */
	const char *output;	/* -o FILE */
	bool force;		/* --force */
	/* a recording */
	double duration;	/* -d S (0: not given) */
	const char *user;	/* --user NAME */
	bool preserve_env;	/* --preserve-env */
	bool syscalls;		/* --syscalls */
	bool no_bpf;		/* --no-bpf */
};

/*
 * What cli_parse_options() hands a command for each option: the shared ones after they
 * are stored (so that it may check how they combine), the others for it to take.  1: it
 * took the key; 0: not one of its keys (the shared ones need not be); -1: it refused the
 * value and said why (rq_error()).
 */
typedef int cli_option_fn(struct cli_parser *p, int key, void *ctx);

#define CLI_SAID (-2)		/* cli_parse_options(): the command's fn said why it stopped */

/*
 * Parse every option of p's command (cli_parser_init() done): the shared ones into t (its
 * contents before are the defaults), each one through fn(p, key, ctx) too (fn NULL: the
 * shared ones alone).  CLI_END: the operands are from p->optind on; else what to stop
 * with (cli_stop()): CLI_HELP, CLI_ERROR (the line in p->err), or CLI_SAID.
 */
int cli_parse_options(struct cli_parser *p, struct cli_trace_opts *t, cli_option_fn *fn,
		      void *ctx);
/* The analysis options of t: profile, topology, no-truth, and the filter when it is set. */
void cli_trace_analysis(const struct cli_trace_opts *t, struct rq_analysis_opts *o);
/* --profile read against the default profile: 0, or -1 with the line in err. */
int cli_trace_check(const struct cli_trace_opts *t, char *err, size_t errlen);

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
