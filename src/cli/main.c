// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - rqpath front end: one table of subcommands, like trace-cmd's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>

#include "commands.h"
#include "escape.h"
#include "msg.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
	const char *summary;
};

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct command commands[] = {
	{ "live", cmd_live, "live [--buffer-kb N] [-o FILE [--force]]",
	  "attach to this system: TUI over a private tracefs instance (root)" },
	{ "replay", cmd_replay, "replay FILE.dat",
	  "open a trace.dat (rqpath record, trace-cmd record/extract) in the TUI" },
	{ "record", cmd_record,
	  "record -o FILE [--duration S] [--buffer-kb N] [--force] [--file-version 6|7] [-- CMD ...]",
	  "record the scheduler events and task attributes into a trace.dat (root)" },
	{ "audit", cmd_audit,
	  "audit [FILE | --live --duration S [-- CMD ...]] [--format text|json|csv]\n"
	  "             [--fail-on RULE[=N]]... [--profile KEY=VAL,...]\n"
	  "             [--placements csv|jsonl] [-o FILE]",
	  "batch report: placements by path and the four findings; exit 1 if a rule trips" },
	{ "diff", cmd_diff,
	  "diff BASE.dat NEW.dat [--format text|json|csv] [-o FILE] [--fail-on RULE[=N[%]]]...\n"
	  "             [--profile KEY=VAL,...]  |  diff [OPTIONS] BASE... -- NEW...",
	  "before and after: per path and finding rates, delays, the change of each" },
	{ "explain", cmd_explain, "explain [--brief] [FILE]",
	  "the select_task_rq() decision tree as text, with counts from FILE" },
	{ "workload", cmd_workload, "workload spawn|execl|idle-stack|wake-llc [OPTIONS]",
	  "built-in reproducers of each pathology" },
	{ "help", cmd_help, "help [COMMAND]", "this text, or one command's usage" },
	{ "--version", cmd_version, "--version", "print the version" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

void rq_error(const char *fmt, ...)
{
	char msg[2048], safe[4096];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* whatever a caller put in (argv, file names), no control byte reaches stderr */
	fprintf(stderr, "rqpath: %s\n", rq_escape_controls(msg, safe, sizeof(safe)));
}

/* The library's warnings and progress lines: stderr, in the same escaped form. */
static void print_message(enum rq_msg_kind kind, const char *text, void *data)
{
	char safe[4096];

	if (kind == RQ_MSG_PROGRESS) {
		if (text)
			fprintf(stderr, "\rrqpath: %s\033[K",
				rq_escape_controls(text, safe, sizeof(safe)));
		else
			fputs("\r\033[K", stderr);
		return;
	}
	fprintf(stderr, "rqpath: warning: %s\n", rq_escape_controls(text, safe, sizeof(safe)));
}

static const struct command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	if (!strcmp(name, "-V"))
		return find_command("--version");
	if (!strcmp(name, "-h") || !strcmp(name, "--help"))
		return find_command("help");
	return NULL;
}

static void usage(FILE *f)
{
	fprintf(f, "usage: rqpath [COMMAND [ARGS]]\n\n"
		   "Where did the scheduler put each task, which select_task_rq() path chose\n"
		   "that CPU, and was the choice wasteful?  Without a command: rqpath live.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\nexit status: 0 ok, 1 a --fail-on rule tripped, 2 error.\n"
		   "See rqpath(1) and rqpath-paths(7).\n");
}

static int cmd_help(int argc, char **argv)
{
	const struct command *c;

	if (argc < 2) {
		usage(stdout);
		return RQ_EXIT_OK;
	}
	c = find_command(argv[1]);
	if (!c) {
		rq_error("no command '%s'; try 'rqpath help'", argv[1]);
		return RQ_EXIT_ERROR;
	}
	printf("usage: rqpath %s\n\n%s\n", c->usage, c->summary);
	return RQ_EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
	printf("rqpath %s\n", RQPATH_VERSION);
	return RQ_EXIT_OK;
}

int main(int argc, char **argv)
{
	const struct command *c;
	char *live_argv[] = { "live", NULL };
	int ret;

	/* `rqpath audit … | head` must end quietly: a closed pipe is an ordinary end. */
	signal(SIGPIPE, SIG_DFL);
	rq_msg_set_sink(print_message, NULL);
	if (argc < 2)
		return cmd_live(1, live_argv);
	c = find_command(argv[1]);
	if (!c) {
		rq_error("unknown command '%s'; try 'rqpath help'", argv[1]);
		return RQ_EXIT_ERROR;
	}
	ret = c->fn(argc - 1, argv + 1);
	/*
	 * Output that could not be written (a full disk, /dev/full) is an error too,
	 * reported here unless the command already said what went wrong.
	 */
	if ((fflush(stdout) || ferror(stdout)) && ret != RQ_EXIT_ERROR) {
		rq_error("cannot write the output: %s", strerror(errno ? errno : EIO));
		ret = RQ_EXIT_ERROR;
	}
	return ret;
}
