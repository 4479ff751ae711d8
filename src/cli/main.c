// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - rqpath front end: one table of subcommands, like trace-cmd's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "escape.h"
#include "msg.h"

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);

static const struct cli_command cli_help = {
	.name = "help",
	.fn = cmd_help,
	.operands = "[COMMAND]",
	.summary = "this text, or one command's usage and options",
};

static const struct cli_command cli_version = {
	.name = "--version",
	.fn = cmd_version,
	.summary = "print the version",
};

/* In the order of rqpath(1)'s SYNOPSIS (tests/golden/t_cli.sh compares them). */
static const struct cli_command *const commands[] = {
	&cli_live, &cli_replay, &cli_record, &cli_audit, &cli_diff, &cli_explain, &cli_why,
	&cli_topology,
	&cli_workload, &cli_completion,
	&cli_help, &cli_version,
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct cli_command *const *cli_commands(size_t *n)
{
	*n = NR_COMMANDS;
	return commands;
}

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

int cli_stop(const struct cli_parser *p, int key)
{
	if (key == CLI_HELP) {
		cli_print_help(stdout, p->cmd);
		return RQ_EXIT_OK;
	}
	if (key == CLI_SAID)
		return RQ_EXIT_ERROR;	/* the command said why already */
	rq_error("%s", p->err);
	return RQ_EXIT_ERROR;
}

bool rq_is_stdout(const char *path)
{
	return !path || !strcmp(path, "-");
}

/*
 * Whether path is (a name of) one of the inputs: the same file, by device and inode, as
 * the path itself or, for a link, what it points to.  A report written there would
 * replace the recording it was made from.
 */
static bool output_is_input(const char *path, char *const *inputs, int ninputs,
			    const char **which)
{
	struct stat out[2], in;
	int nout = 0;

	if (lstat(path, &out[nout]) == 0)
		nout++;
	if (stat(path, &out[nout]) == 0)
		nout++;
	for (int i = 0; i < ninputs; i++) {
		if (!inputs[i] || stat(inputs[i], &in) < 0)
			continue;
		for (int j = 0; j < nout; j++)
			if (out[j].st_dev == in.st_dev && out[j].st_ino == in.st_ino) {
				*which = inputs[i];
				return true;
			}
	}
	return false;
}

FILE *cli_output_open(struct cli_output *o, const char *cmd, const char *path, bool force,
		      char *const *inputs, int ninputs)
{
	char err[1024];
	mode_t mask = umask(0);
	const char *which;
	int fd;

	umask(mask);
	memset(o, 0, sizeof(*o));
	o->out.fd = -1;
	if (rq_is_stdout(path)) {
		o->f = stdout;
		return o->f;
	}
	if (output_is_input(path, inputs, ninputs, &which)) {
		char eout[512], ein[512];

		rq_escape_c(path, strlen(path), eout, sizeof(eout));
		rq_escape_c(which, strlen(which), ein, sizeof(ein));
		if (!strcmp(path, which))
			rq_error("%s: -o %s is one of the command's inputs; rqpath never writes "
				 "over its input (even with --force)", cmd, eout);
		else
			rq_error("%s: -o %s is the same file as the input %s; rqpath never "
				 "writes over its input (even with --force)", cmd, eout, ein);
		return NULL;
	}
	/*
	 * An existing report is replaced only with --force (as record's output); a report
	 * names tasks and their command lines as the trace does: 0600, narrowed by umask
	 */
	if (rq_outfile_open(&o->out, path, RQ_OUT_FORCE_OFFERED |
			    (force ? RQ_OUT_REPLACE | RQ_OUT_FORCE : 0),
			    RQ_TRACE_FILE_MODE & ~mask, err, sizeof(err))) {
		rq_error("%s: %s", cmd, err);
		return NULL;
	}
	fd = fcntl(o->out.fd, F_DUPFD_CLOEXEC, 3);
	o->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!o->f) {
		rq_error("%s: cannot write %s: %s", cmd, o->out.ename, strerror(errno));
		if (fd >= 0)
			close(fd);
		rq_outfile_abort(&o->out);
		return NULL;
	}
	o->file = true;
	return o->f;
}

int cli_output_close(struct cli_output *o, const char *cmd, bool ok)
{
	char err[1024];
	int ret = 0;

	if (!o->f)
		return ok ? 0 : -1;
	if (!o->file) {
		if (fflush(o->f) && ok) {
			rq_error("%s: cannot write the output: %s", cmd, strerror(errno));
			ret = -1;
		}
		o->f = NULL;
		return ret;
	}
	if (fclose(o->f) && ok) {
		rq_error("%s: cannot write %s: %s", cmd, o->out.ename, strerror(errno));
		ok = false;
		ret = -1;
	}
	o->f = NULL;
	if (!ok) {
		rq_outfile_abort(&o->out);	/* whatever was at the path stays */
		return -1;
	}
	if (rq_outfile_commit(&o->out, err, sizeof(err))) {
		rq_error("%s: %s", cmd, err);
		return -1;
	}
	return ret;
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

static const struct cli_command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	if (!strcmp(name, "-V"))
		return find_command("--version");
	if (!strcmp(name, "-h") || !strcmp(name, "--help"))
		return find_command("help");
	return NULL;
}

static void usage(FILE *f)
{
	char line[1024];

	for (size_t i = 0; i < NR_COMMANDS; i++) {
		cli_synopsis(commands[i], line, sizeof(line));
		fprintf(f, "%s rqpath %s\n", i ? "      " : "usage:", line);
	}
	fprintf(f, "\nWhere did the scheduler put each task, which select_task_rq() path chose\n"
		   "that CPU, and was the choice wasteful?  Without a command: rqpath live;\n"
		   "'rqpath FILE.dat' (or -i FILE.dat) is rqpath replay FILE.dat.\n\n"
		   "commands:\n");
	for (size_t i = 0; i < NR_COMMANDS; i++)
		fprintf(f, "  %-10s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n'rqpath help COMMAND' or 'rqpath COMMAND --help': its options.\n"
		   "exit status: 0 ok, 1 a --fail-on rule tripped, 2 error.\n"
		   "See rqpath(1) and rqpath-paths(7).\n");
}

/* rqpath help [COMMAND [SUBCOMMAND]] */
static int cmd_help(int argc, char **argv)
{
	const struct cli_command *c;
	char esc[256];

	if (argc < 2) {
		usage(stdout);
		return RQ_EXIT_OK;
	}
	c = find_command(argv[1]);
	if (c && argc > 2) {
		rq_escape_c(argv[2], strlen(argv[2]), esc, sizeof(esc));
		c = cli_find_sub(c, argv[2]);
		if (!c) {
			rq_error("no '%s' in '%s'; try 'rqpath help %s'", esc, argv[1], argv[1]);
			return RQ_EXIT_ERROR;
		}
	} else if (!c) {
		rq_escape_c(argv[1], strlen(argv[1]), esc, sizeof(esc));
		rq_error("no command '%s'; try 'rqpath help'", esc);
		return RQ_EXIT_ERROR;
	}
	cli_print_help(stdout, c);
	return RQ_EXIT_OK;
}

static int cmd_version(int argc, char **argv)
{
	printf("rqpath %s\n", RQPATH_VERSION);
	return RQ_EXIT_OK;
}

/* A name that is a file to open: it exists and is no directory. */
static bool names_a_file(const char *name)
{
	struct stat st;

	return stat(name, &st) == 0 && !S_ISDIR(st.st_mode);
}

const char *rq_default_input(void)
{
	return names_a_file("trace.dat") ? "trace.dat" : NULL;
}

/*
 * The command argv[1] names, as trace-cmd and perf take it: a command; an option, which
 * is live's (rqpath alone is live) but -i/--input, which opens a trace; or a file, which
 * is replayed (`rqpath trace.dat`).  *shift: 1 when argv[1] is the command's name,
 * 0 when it is the command's first argument.  NULL when it is none of these.
 */
static const struct cli_command *pick_command(const char *arg, int *shift)
{
	const struct cli_command *c = find_command(arg);

	*shift = 1;
	if (c)
		return c;
	*shift = 0;
	if (!strncmp(arg, "-i", 2) || !strncmp(arg, "--input", 7))
		return &cli_replay;
	if (arg[0] == '-' && arg[1])
		return &cli_live;
	if (names_a_file(arg))
		return &cli_replay;
	return NULL;
}

int main(int argc, char **argv)
{
	const struct cli_command *c;
	char *live_argv[] = { "live", NULL }, esc[256], **cargv;
	int ret, shift;

	/* `rqpath audit … | head` must end quietly: a closed pipe is an ordinary end. */
	signal(SIGPIPE, SIG_DFL);
	rq_msg_set_sink(print_message, NULL);
	if (argc < 2)
		return cli_live.fn(1, live_argv);
	c = pick_command(argv[1], &shift);
	if (!c) {
		struct stat st;

		rq_escape_c(argv[1], strlen(argv[1]), esc, sizeof(esc));
		if (stat(argv[1], &st) == 0)
			rq_error("'%s' is a directory, not a trace file; try 'rqpath help'", esc);
		else
			rq_error("unknown command '%s', and no such file; try 'rqpath help'", esc);
		return RQ_EXIT_ERROR;
	}
	if (shift) {
		ret = c->fn(argc - 1, argv + 1);
	} else {
		/* the command's own argv: its name first, as if it had been typed */
		cargv = calloc((size_t)argc + 1, sizeof(*cargv));
		if (!cargv) {
			rq_error("out of memory");
			return RQ_EXIT_ERROR;
		}
		cargv[0] = (char *)c->name;
		memcpy(cargv + 1, argv + 1, (size_t)(argc - 1) * sizeof(*cargv));
		ret = c->fn(argc, cargv);
		free(cargv);
	}
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
