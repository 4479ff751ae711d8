// SPDX-License-Identifier: GPL-2.0
/*
 * record.c - `rqpath record`: the options, then rq_record_run() from the library.
 */
#include <errno.h>
#include <fcntl.h>
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

enum { OPT_BUFFER_KB = 256, OPT_FILE_VERSION, OPT_USER, OPT_SYSCALLS, OPT_FORCE, OPT_MODE,
	OPT_NO_BPF, OPT_BPF_STATS, OPT_PRESERVE_ENV };

static const struct cli_option record_options[] = {
	{ "output", 'o', CLI_STRING, "FILE", 0, 0, CLI_REQUIRED | CLI_SHORT,
	  "the trace.dat to write (-: standard output, once the recording ends)" },
	{ "duration", 'd', CLI_SECONDS, "S", 0, 0, 0,
	  "stop after S seconds (else when CMD exits, or on SIGINT/SIGTERM/SIGHUP)" },
	{ "buffer-kb", OPT_BUFFER_KB, CLI_INT, "N", 1, 4 * 1024 * 1024, 0,
	  "per-CPU ring buffer size in KB (default 64 MB / CPUs, 4096-32768)" },
	{ "force", OPT_FORCE, CLI_FLAG, NULL, 0, 0, 0, "replace an existing FILE" },
	{ "mode", OPT_MODE, CLI_MODE, "MODE", 0, 0, 0,
	  "FILE's permission bits in octal (default 0600: every task's name is in it)" },
	{ "file-version", OPT_FILE_VERSION, CLI_CHOICE, "6|7", 0, 0, 0,
	  "trace.dat version to write (default 6)" },
	{ "quiet", 'q', CLI_FLAG, NULL, 0, 0, 0,
	  "no progress line, no warnings, no summary on stderr (errors still)" },
	{ "syscalls", OPT_SYSCALLS, CLI_FLAG, NULL, 0, 0, 0,
	  "also record the sched_set* syscalls: exact attribute changes, slower syscalls" },
	{ "no-bpf", OPT_NO_BPF, CLI_FLAG, NULL, 0, 0, 0,
	  "no kernel truth: do not load the BPF programs (the tracepoints alone)" },
	{ "bpf-stats", OPT_BPF_STATS, CLI_FLAG, NULL, 0, 0, 0,
	  "measure the truth programs' own cost (kernel BPF run-time statistics)" },
	{ "user", OPT_USER, CLI_STRING, "NAME", 0, 0, 0,
	  "run CMD as NAME (default: the user who ran sudo, else root)" },
	{ "preserve-env", OPT_PRESERVE_ENV, CLI_FLAG, NULL, 0, 0, 0,
	  "CMD run as another user keeps rqpath's environment (else that user's, as su -)" },
	{ NULL },
};

static int cmd_record(int argc, char **argv);

/*
 * The truth programs' cost as the kernel measured it: one line, each program that ran
 * with its runs and mean time per run (only where run-time statistics were on).
 */
static void print_truth_costs(const struct rq_record_stats *st)
{
	if (!st->nr_truth_costs)
		return;
	fprintf(stderr, "rqpath: truth cost (kernel BPF statistics):");
	for (int i = 0; i < st->nr_truth_costs; i++) {
		const struct rq_truth_prog_cost *c = &st->truth_costs[i];

		fprintf(stderr, "%s %s %llu runs %.2f us/run", i ? ";" : "", c->name,
			(unsigned long long)c->runs, (double)c->ns / 1000.0 / (double)c->runs);
	}
	fprintf(stderr, "\n");
}

/* Copy the finished recording at fd to stdout (record -o -). */
static int copy_to_stdout(int fd)
{
	char buf[1 << 16];
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return -1;
	fflush(stdout);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(STDOUT_FILENO, buf + off, (size_t)(n - off));

			if (w < 0 && errno == EINTR)
				continue;
			if (w < 0)
				return -1;
			off += w;
		}
	}
	return 0;
}

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
	bool preserve_env = false;
	int opt, ret, fd = -1, saved_stdout = -1;
	bool to_stdout;

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
		case OPT_FORCE:
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
		case OPT_PRESERVE_ENV:
			preserve_env = true;
			break;
		case OPT_SYSCALLS:
			o.syscalls = true;
			break;
		case OPT_MODE:
			o.mode = (mode_t)p.num;
			break;
		case OPT_NO_BPF:
			o.no_bpf = true;
			break;
		case OPT_BPF_STATS:
			o.bpf_stats = true;
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
	if (cli_child_user(&child, user, preserve_env, err, sizeof(err)) < 0) {
		rq_error("record: %s", err);
		return RQ_EXIT_ERROR;
	}
	child.foreground = true;
	o.cmd = cli_child_init(&child, cmd);
	if (!o.cmd && o.duration <= 0 && !isatty(STDIN_FILENO) && !o.quiet)
		fprintf(stderr, "rqpath: recording until SIGINT/SIGTERM (no --duration, no CMD)\n");

	/*
	 * -o -: the trace goes to stdout once written (the writer seeks, a pipe cannot), from
	 * a file without a name; meanwhile what CMD prints goes to stderr, not into the trace.
	 */
	to_stdout = rq_is_stdout(o.output);
	if (to_stdout) {
		if (isatty(STDOUT_FILENO)) {
			rq_error("record: -o - writes a binary trace to standard output, which is "
				 "a terminal; redirect it or give a file name");
			return RQ_EXIT_ERROR;
		}
		o.output = NULL;
		o.output_fd = &fd;
		fflush(stdout);
		saved_stdout = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
		if (saved_stdout < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			rq_error("record: cannot set stdout aside: %s", strerror(errno));
			return RQ_EXIT_ERROR;
		}
	}
	/* every signal that would end rqpath ends the recording instead: no instance left */
	cli_catch_stop_signals();
	o.stop = &cli_stop_signal;
	ret = rq_record_run(&o, &st, err, sizeof(err));
	cli_restore_signals();
	if (to_stdout) {
		dup2(saved_stdout, STDOUT_FILENO);
		close(saved_stdout);
		if (ret == 0 && copy_to_stdout(fd)) {
			snprintf(err, sizeof(err), "record: cannot write the trace to standard "
				 "output: %s", strerror(errno));
			ret = -1;
		}
		if (fd >= 0)
			close(fd);
	}
	if (ret < 0) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	if (to_stdout)
		snprintf(name, sizeof(name), "standard output");
	else
		rq_escape_c(o.output, strlen(o.output), name, sizeof(name));
	if (!o.quiet) {
		fprintf(stderr, "rqpath: recorded %llu events", (unsigned long long)st.events);
		if (st.truth_records)
			fprintf(stderr, " (+%llu truth records)",
				(unsigned long long)st.truth_records);
		fprintf(stderr, ", %llu lost events, %llu bytes in %s\n",
			(unsigned long long)st.lost_events, (unsigned long long)st.bytes, name);
		fprintf(stderr, "rqpath: counts:");
		for (int t = 1; t < RQ_EV__COUNT; t++)
			if (st.by_type[t] && t != RQ_EV_LOST)
				fprintf(stderr, " %s=%llu", rq_event_name(t),
					(unsigned long long)st.by_type[t]);
		fprintf(stderr, " other=%llu\n", (unsigned long long)st.by_type[RQ_EV_OTHER]);
		if (st.out_of_order)
			fprintf(stderr, "rqpath: warning: %llu events were handed out of time "
				"order\n", (unsigned long long)st.out_of_order);
		/* where each attribute came from: the kernel's own state, or the model alone */
		if (st.truth_on)
			fprintf(stderr, "rqpath: sources: events=tracefs attributes=markers "
				"truth=bpf (%llu records, %llu dropped, %llu missed, %llu bytes)\n",
				(unsigned long long)st.truth_records,
				(unsigned long long)st.truth_drops,
				(unsigned long long)st.truth_misses,
				(unsigned long long)st.truth_bytes);
		else
			fprintf(stderr, "rqpath: sources: events=tracefs attributes=markers "
				"truth=none (%s)\n", st.truth_why);
		print_truth_costs(&st);
	}
	/* the recording is fine, but a command that failed fails the run (a CI gate) */
	if (cli_child_failed(&child, err, sizeof(err))) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
