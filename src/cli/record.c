// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - `rqpath record`: the options, then rq_record_run() from the library.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "commands.h"
#include "escape.h"
#include "opts.h"
#include "record.h"

enum { OPT_BUFFER_KB = 256, OPT_FILE_VERSION, OPT_USER, OPT_SYSCALLS, OPT_MODE };

static const struct cli_option record_options[] = {
	{ "output", 'o', CLI_STRING, "FILE", 0, 0, CLI_REQUIRED | CLI_SHORT,
	  "the trace.dat to write" },
	{ "duration", 'd', CLI_SECONDS, "S", 0, 0, 0,
	  "stop after S seconds (else when CMD exits, or on SIGINT/SIGTERM/SIGHUP)" },
	{ "buffer-kb", OPT_BUFFER_KB, CLI_INT, "N", 1, 4 * 1024 * 1024, 0,
	  "per-CPU ring buffer size in KB (default 64 MB / CPUs, 4096-32768)" },
	{ "force", 'f', CLI_FLAG, NULL, 0, 0, 0, "replace an existing FILE" },
	{ "mode", OPT_MODE, CLI_MODE, "MODE", 0, 0, 0,
	  "FILE's permission bits in octal (default 0600: every task's name is in it)" },
	{ "file-version", OPT_FILE_VERSION, CLI_CHOICE, "6|7", 0, 0, 0,
	  "trace.dat version to write (default 6)" },
	{ "quiet", 'q', CLI_FLAG, NULL, 0, 0, 0,
	  "no progress line, no warnings, no summary on stderr (errors still)" },
	{ "syscalls", OPT_SYSCALLS, CLI_FLAG, NULL, 0, 0, 0,
	  "also record the sched_set* syscalls: exact attribute changes, slower syscalls" },
	{ "user", OPT_USER, CLI_STRING, "NAME", 0, 0, 0,
	  "run CMD as NAME (default: the user who ran sudo, else root)" },
	{ NULL },
};

static int cmd_record(int argc, char **argv);

const struct cli_command cli_record = {
	.name = "record",
	.fn = cmd_record,
	.operands = "[-- CMD ARGS...]",
	.summary = "record the scheduler events and task attributes into a trace.dat (root)",
	.description =
		"Record the scheduler events, and each task's affinity and policy, into FILE (a\n"
		"trace.dat for rqpath audit or replay, or trace-cmd report), through a private\n"
		"tracefs instance (root).  With CMD: run it and stop when it exits; CMD's\n"
		"failure (non-zero exit, killed by a signal) makes rqpath exit 2.",
	.options = record_options,
	.flags = CLI_IN_ORDER,
};

static int cmd_record(int argc, char **argv)
{
	struct rq_record_opts o = { 0 };
	struct rq_record_stats st;
	struct cli_child child = { 0 };
	char **cmd = NULL;
	struct cli_parser p;
	char err[1024], name[PATH_MAX * 4];
	const char *user = NULL;
	int opt, ret;

	cli_parser_init(&p, &cli_record, argc, argv);
	while ((opt = cli_next(&p)) != CLI_END) {
		switch (opt) {
		case 'o':
			o.output = p.arg;
			break;
		case 'd':
			o.duration = p.secs;
			break;
		case OPT_BUFFER_KB:
			o.buffer_kb = (int)p.num;
			break;
		case 'f':
			o.force = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case OPT_FILE_VERSION:
			o.file_version = p.num ? 7 : 6;
			break;
		case OPT_USER:
			user = p.arg;
			break;
		case OPT_SYSCALLS:
			o.syscalls = true;
			break;
		case OPT_MODE:
			o.mode = (mode_t)p.num;
			break;
		default:
			return cli_stop(&p, opt);
		}
	}
	if (p.optind < argc) {
		if (!p.dashdash) {
			rq_escape_c(argv[p.optind], strlen(argv[p.optind]), name, sizeof(name));
			rq_error("record: unexpected argument '%s'; a command to run goes after --",
				 name);
			return RQ_EXIT_ERROR;
		}
		cmd = argv + p.optind;
	}
	if (!o.output) {
		rq_error("record needs an output file: rqpath record -o FILE [-- CMD ...]");
		return RQ_EXIT_ERROR;
	}
	/* the command runs as the user who ran sudo (or --user), on the terminal */
	if (cli_child_user(&child, user, err, sizeof(err)) < 0) {
		rq_error("record: %s", err);
		return RQ_EXIT_ERROR;
	}
	child.foreground = true;
	o.cmd = cli_child_init(&child, cmd);
	if (!o.cmd && o.duration <= 0 && !isatty(STDIN_FILENO) && !o.quiet)
		fprintf(stderr, "rqpath: recording until SIGINT/SIGTERM (no --duration, no CMD)\n");

	/* every signal that would end rqpath ends the recording instead: no instance left */
	cli_catch_stop_signals();
	o.stop = &cli_stop_signal;
	ret = rq_record_run(&o, &st, err, sizeof(err));
	cli_restore_signals();
	if (ret < 0) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	rq_escape_c(o.output, strlen(o.output), name, sizeof(name));
	if (!o.quiet) {
		fprintf(stderr, "rqpath: recorded %llu events, %llu lost events, %llu bytes in %s\n",
			(unsigned long long)st.events, (unsigned long long)st.lost_events,
			(unsigned long long)st.bytes, name);
		fprintf(stderr, "rqpath: counts:");
		for (int t = 1; t < RQ_EV__COUNT; t++)
			if (st.by_type[t] && t != RQ_EV_LOST)
				fprintf(stderr, " %s=%llu", rq_event_name(t),
					(unsigned long long)st.by_type[t]);
		fprintf(stderr, " other=%llu\n", (unsigned long long)st.by_type[RQ_EV_OTHER]);
	}
	/* the recording is fine, but a command that failed fails the run (a CI gate) */
	if (cli_child_failed(&child, err, sizeof(err))) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
