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
#include "recorder.h"

enum { OPT_BUFFER_KB = 256, OPT_FILE_VERSION, OPT_MODE, OPT_BPF_STATS };

static const struct cli_option record_options[] = {
	CLI_OUTPUT_OPTION(CLI_REQUIRED,
			  "the trace.dat to write (-: standard output, once the recording ends)"),
	CLI_DURATION_OPTION(0, "stop after S seconds (else when CMD exits, or on "
			    "SIGINT/SIGTERM/SIGHUP)"),
	{ "buffer-kb", OPT_BUFFER_KB, CLI_INT, "N", 1, 4 * 1024 * 1024, 0,
	  "per-CPU ring buffer size in KB (default 64 MB / CPUs, 4096-32768)" },
	CLI_FORCE_OPTION(0, "replace an existing FILE"),
	{ "mode", OPT_MODE, CLI_MODE, "MODE", 0, 0, 0,
	  "FILE's permission bits in octal (default 0600: every task's name is in it)" },
	{ "file-version", OPT_FILE_VERSION, CLI_CHOICE, "6|7", 0, 0, 0,
	  "trace.dat version to write (default 6)" },
	{ "quiet", 'q', CLI_FLAG, NULL, 0, 0, 0,
	  "no progress line, no warnings, no summary on stderr (errors still)" },
	CLI_SYSCALLS_OPTION(0, "also record the sched_set* syscalls: exact attribute changes, "
			    "slower syscalls"),
	CLI_NO_BPF_OPTION(0, "no kernel truth: do not load the BPF programs (the tracepoints "
			  "alone)"),
	{ "bpf-stats", OPT_BPF_STATS, CLI_FLAG, NULL, 0, 0, 0,
	  "measure the truth programs' own cost (kernel BPF run-time statistics)" },
	CLI_USER_OPTION(0, "run CMD as NAME (default: the user who ran sudo, else root)"),
	CLI_PRESERVE_ENV_OPTION(0, "CMD run as another user keeps rqpath's environment (else "
				"that user's, as su -)"),
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

/* What `rqpath record` was told. */
struct record_args {
	struct cli_trace_opts t;	/* -o, -d, --force, --user, ... (opts.h) */
	struct rq_record_opts o;	/* t's, and record's own */
	char **cmd;		/* the command after --, or NULL */
};

/* record's own options (cli_option_fn) */
static int record_option(struct cli_parser *p, int key, void *ctx)
{
	struct record_args *a = ctx;

	switch (key) {
	case OPT_BUFFER_KB:
		a->o.buffer_kb = (int)p->num;
		return 1;
	case 'q':
		a->o.quiet = true;
		return 1;
	case OPT_FILE_VERSION:
		a->o.file_version = p->num ? 7 : 6;
		return 1;
	case OPT_MODE:
		a->o.mode = (mode_t)p->num;
		return 1;
	case OPT_BPF_STATS:
		a->o.bpf_stats = true;
		return 1;
	}
	return 0;
}

/*
 * The options and the command after --.  false when the command ends here with *status
 * (--help, a bad option or operand, no -o).
 */
static bool record_parse(struct record_args *a, int argc, char **argv, int *status)
{
	char name[PATH_MAX * 4];
	struct cli_parser p;
	int r;

	cli_parser_init(&p, &cli_record, argc, argv);
	r = cli_parse_options(&p, &a->t, record_option, a);
	if (r != CLI_END) {
		*status = cli_stop(&p, r);
		return false;
	}
	*status = RQ_EXIT_ERROR;
	if (p.optind < argc) {
		if (!p.dashdash) {
			rq_escape_c(argv[p.optind], strlen(argv[p.optind]), name, sizeof(name));
			rq_error("record: unexpected argument '%s'; a command to run goes after --",
				 name);
			return false;
		}
		a->cmd = argv + p.optind;
	}
	if (!a->t.output) {
		rq_error("record needs an output file: rqpath record -o FILE [-- CMD ...]");
		return false;
	}
	a->o.output = a->t.output;
	a->o.duration = a->t.duration;
	a->o.force = a->t.force;
	a->o.syscalls = a->t.syscalls;
	a->o.no_bpf = a->t.no_bpf;
	return true;
}

/*
 * -o -: the trace goes to stdout once written (the writer seeks, a pipe cannot), from a
 * file without a name (*fd); meanwhile what CMD prints goes to stderr, not into the
 * trace.  The saved stdout, or -1 after the error line.
 */
static int stdout_set_aside(struct rq_record_opts *o, int *fd)
{
	int saved;

	if (isatty(STDOUT_FILENO)) {
		rq_error("record: -o - writes a binary trace to standard output, which is "
			 "a terminal; redirect it or give a file name");
		return -1;
	}
	o->output = NULL;
	o->output_fd = fd;
	fflush(stdout);
	saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (saved < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		rq_error("record: cannot set stdout aside: %s", strerror(errno));
		return -1;
	}
	return saved;
}

/* stdout back, and the recording at fd copied to it when ret is 0: ret, or -1 (err). */
static int stdout_put_back(int saved, int fd, int ret, char *err, size_t errlen)
{
	dup2(saved, STDOUT_FILENO);
	close(saved);
	if (ret == 0 && copy_to_stdout(fd)) {
		snprintf(err, errlen, "record: cannot write the trace to standard output: %s",
			 strerror(errno));
		ret = -1;
	}
	if (fd >= 0)
		close(fd);
	return ret;
}

/* The summary on stderr: the counts, the sources, the truth's costs. */
static void print_summary(const struct rq_record_stats *st, const char *name)
{
	fprintf(stderr, "rqpath: recorded %llu events", (unsigned long long)st->events);
	if (st->truth_records)
		fprintf(stderr, " (+%llu truth records)", (unsigned long long)st->truth_records);
	fprintf(stderr, ", %llu lost events, %llu bytes in %s\n",
		(unsigned long long)st->lost_events, (unsigned long long)st->bytes, name);
	fprintf(stderr, "rqpath: counts:");
	for (int t = 1; t < RQ_EV__COUNT; t++)
		if (st->by_type[t] && t != RQ_EV_LOST)
			fprintf(stderr, " %s=%llu", rq_event_name(t),
				(unsigned long long)st->by_type[t]);
	fprintf(stderr, " other=%llu\n", (unsigned long long)st->by_type[RQ_EV_OTHER]);
	if (st->out_of_order)
		fprintf(stderr, "rqpath: warning: %llu events were handed out of time order\n",
			(unsigned long long)st->out_of_order);
	/* where each attribute came from: the kernel's own state, or the model alone */
	if (st->truth_on)
		fprintf(stderr, "rqpath: sources: events=tracefs attributes=markers truth=bpf "
			"(%llu records, %llu dropped, %llu missed, %llu bytes)\n",
			(unsigned long long)st->truth_records,
			(unsigned long long)st->truth_drops,
			(unsigned long long)st->truth_misses,
			(unsigned long long)st->truth_bytes);
	else
		fprintf(stderr, "rqpath: sources: events=tracefs attributes=markers truth=none "
			"(%s)\n", st->truth_why);
	print_truth_costs(st);
}

static int cmd_record(int argc, char **argv)
{
	struct record_args a = { 0 };
	struct rq_record_stats st;
	struct cli_child child = { 0 };
	char err[1024], name[PATH_MAX * 4];
	int ret, fd = -1, saved_stdout = -1;
	bool to_stdout;

	if (!record_parse(&a, argc, argv, &ret))
		return ret;
	/* the command runs as the user who ran sudo (or --user), on the terminal */
	if (cli_child_user(&child, a.t.user, a.t.preserve_env, err, sizeof(err)) < 0) {
		rq_error("record: %s", err);
		return RQ_EXIT_ERROR;
	}
	child.foreground = true;
	a.o.cmd = cli_child_init(&child, a.cmd);
	if (!a.o.cmd && a.o.duration <= 0 && !isatty(STDIN_FILENO) && !a.o.quiet)
		fprintf(stderr, "rqpath: recording until SIGINT/SIGTERM (no --duration, no CMD)\n");
	to_stdout = rq_is_stdout(a.o.output);
	if (to_stdout) {
		saved_stdout = stdout_set_aside(&a.o, &fd);
		if (saved_stdout < 0)
			return RQ_EXIT_ERROR;
	}
	/* every signal that would end rqpath ends the recording instead: no instance left */
	cli_catch_stop_signals();
	a.o.stop = &cli_stop_signal;
	ret = rq_record_run(&a.o, &st, err, sizeof(err));
	cli_restore_signals();
	if (to_stdout)
		ret = stdout_put_back(saved_stdout, fd, ret, err, sizeof(err));
	if (ret < 0) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	if (to_stdout)
		snprintf(name, sizeof(name), "standard output");
	else
		rq_escape_c(a.o.output, strlen(a.o.output), name, sizeof(name));
	if (!a.o.quiet)
		print_summary(&st, name);
	/* the recording is fine, but a command that failed fails the run (a CI gate) */
	if (cli_child_failed(&child, err, sizeof(err))) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
