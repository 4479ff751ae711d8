// SPDX-License-Identifier: GPL-2.0
/*
 * interactive.c - `rqpath live` and `rqpath replay`: their options, then the TUI
 * (views/tui.c) through its two entry points.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "child.h"
#include "commands.h"
#include "analysis.h"
#include "escape.h"
#include "tui_main.h"

static int cmd_replay(int argc, char **argv);
static int cmd_live(int argc, char **argv);

enum { OPT_COMPARE = 257 };

static const struct cli_option replay_options[] = {
	{ "input", 'i', CLI_STRING, "FILE.dat", 0, 0, CLI_IN_LEAD,
	  "the trace to open (default: trace.dat in the current directory)" },
	CLI_TOPOLOGY_OPTION(CLI_TOPOLOGY_HELP),
	CLI_NO_TRUTH_OPTION(CLI_NO_TRUTH_HELP),
	{ "compare", OPT_COMPARE, CLI_FLAG, NULL, 0, 0, CLI_IN_LEAD,
	  "the files before it are BASE, the files after it NEW: the compare view" },
	CLI_FILTER_OPTIONS,
	{ NULL },
};

const struct cli_command cli_replay = {
	.name = "replay",
	.fn = cmd_replay,
	.operands = "[[-i] FILE.dat | BASE.dat... --compare NEW.dat...]",
	.summary = "open a trace.dat (rqpath record, trace-cmd record/extract) in the TUI",
	.description =
		"Open a trace.dat in the TUI (trace.dat when no file is given; 'rqpath\n"
		"FILE.dat' alone does the same); press ? inside for the keys.  With --compare,\n"
		"BASE against NEW as rqpath diff compares them (several runs a side), and\n"
		"the first file of each side to drill into.",
	.options = replay_options,
	.flags = CLI_FILE_FIRST,
};

#define MAX_COMPARE_RUNS 64
static char SEP[] = "\001--compare";

enum { OPT_BUFFER_KB = 256, OPT_MODE };

static const struct cli_option live_options[] = {
	CLI_DURATION_OPTION(0, "quit after S seconds of recording, as q does (the -o FILE "
			    "complete)"),
	{ "buffer-kb", OPT_BUFFER_KB, CLI_INT, "N", 1, 4 * 1024 * 1024, 0,
	  "per-CPU ring buffer size in KB (default 64 MB / CPUs, 4096-32768)" },
	CLI_OUTPUT_OPTION(0, "keep the recording in FILE (else a temporary file, removed at the "
			  "end)"),
	CLI_FORCE_OPTION(CLI_NESTED, "replace an existing FILE"),
	{ "mode", OPT_MODE, CLI_MODE, "MODE", 0, 0, CLI_NESTED,
	  "FILE's permission bits in octal (default 0600)" },
	CLI_NO_BPF_OPTION(0, "no kernel truth: do not load the BPF programs (the tracepoints "
			  "alone)"),
	{ NULL },
};

const struct cli_command cli_live = {
	.name = "live",
	.fn = cmd_live,
	.summary = "attach to this system: TUI over a private tracefs instance (root)",
	.description =
		"Attach to this system (root): the TUI over a private tracefs instance.\n"
		"With -o the recording is kept in FILE (a trace.dat for rqpath replay\n"
		"or trace-cmd report).",
	.options = live_options,
	.flags = CLI_DEFAULT,
};

/* The -i FILE of replay, and how many were given. */
struct replay_inputs {
	const char *input;
	int ninput;
};

/* replay's own options (cli_option_fn): -i, and --compare only between the files */
static int replay_option(struct cli_parser *p, int key, void *ctx)
{
	struct replay_inputs *in = ctx;

	if (key == OPT_COMPARE) {
		rq_error("replay: --compare once, between the BASE and the NEW files");
		return -1;
	}
	if (key != 'i')
		return 0;
	in->input = p->arg;
	in->ninput++;
	return 1;
}

static int cmd_replay(int argc, char **argv)
{
	static struct cli_trace_opts t;	/* the TUI's analyses read its filter */
	struct replay_inputs in = { NULL, 0 };
	const char *topology, *input;
	struct cli_parser p;
	char err[2048];
	int rc, sep = -1, nbase, nnew, ninput;
	bool no_truth;

	memset(&t, 0, sizeof(t));
	/*
	 * BASE... --compare NEW...: the first --compare becomes an operand that getopt keeps
	 * in place among the files (as diff's "--"); no file name can be SEP.
	 */
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			break;
		if (!strcmp(argv[i], "--compare")) {
			argv[i] = SEP;
			break;
		}
	}
	cli_parser_init(&p, &cli_replay, argc, argv);
	rc = cli_parse_options(&p, &t, replay_option, &in);
	if (rc != CLI_END)
		return cli_stop(&p, rc);
	topology = t.topology;
	no_truth = t.no_truth;
	input = in.input;
	ninput = in.ninput;
	tui_set_filter(rq_filter_active(&t.filter) ? &t.filter : NULL);
	for (int i = p.optind; i < argc; i++)
		if (argv[i] == SEP)
			sep = i;
	if (sep < 0) {
		ninput += argc - p.optind;
		if (argc > p.optind)
			input = argv[p.optind];
		if (ninput > 1) {
			rq_error("replay: one FILE.dat (several go with BASE.dat... --compare "
				 "NEW.dat...); try 'rqpath help replay'");
			return RQ_EXIT_ERROR;
		}
		if (!input)
			input = rq_default_input();
		if (!input) {
			rq_error("replay: needs a FILE.dat (no trace.dat here); try 'rqpath help "
				 "replay'");
			return RQ_EXIT_ERROR;
		}
		if (!strcmp(input, "-")) {
			rq_error("replay: a trace cannot be read from standard input; save it "
				 "to a file first");
			return RQ_EXIT_ERROR;
		}
		if (tui_replay(input, topology, no_truth, err, sizeof(err))) {
			rq_error("%s", err);
			return RQ_EXIT_ERROR;
		}
		return RQ_EXIT_OK;
	}
	if (input) {
		rq_error("replay: -i opens one file; BASE... --compare NEW... takes no -i");
		return RQ_EXIT_ERROR;
	}
	nbase = sep - p.optind;
	nnew = argc - sep - 1;
	if (nbase < 1 || nnew < 1 || nbase > MAX_COMPARE_RUNS || nnew > MAX_COMPARE_RUNS) {
		rq_error("replay: --compare needs 1 to %d trace files on each side (base %d, "
			 "new %d)", MAX_COMPARE_RUNS, nbase, nnew);
		return RQ_EXIT_ERROR;
	}
	if (tui_compare((const char *const *)&argv[p.optind], nbase,
			(const char *const *)&argv[sep + 1], nnew, topology, no_truth, err,
			sizeof(err))) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}

/* live's own options (cli_option_fn) */
static int live_option(struct cli_parser *p, int key, void *ctx)
{
	struct tui_live_opts *opts = ctx;

	switch (key) {
	case OPT_BUFFER_KB:
		opts->buffer_kb = (int)p->num;
		return 1;
	case OPT_MODE:
		opts->mode = (mode_t)p->num;
		return 1;
	}
	return 0;
}

static int cmd_live(int argc, char **argv)
{
	struct tui_live_opts opts = { 0 };
	struct cli_trace_opts t = { 0 };
	struct cli_parser p;
	char err[2048];
	int ret;

	cli_parser_init(&p, &cli_live, argc, argv);
	ret = cli_parse_options(&p, &t, live_option, &opts);
	if (ret != CLI_END)
		return cli_stop(&p, ret);
	opts.output = t.output;
	opts.force = t.force;
	opts.no_bpf = t.no_bpf;
	opts.duration = t.duration;
	if (p.optind < argc) {
		rq_escape_c(argv[p.optind], strlen(argv[p.optind]), err, sizeof(err));
		rq_error("live: unexpected argument '%s'; try 'rqpath help live'", err);
		return RQ_EXIT_ERROR;
	}
	if (opts.output && !strcmp(opts.output, "-")) {
		rq_error("live: -o - would send the recording to the TUI's terminal; give a "
			 "file name");
		return RQ_EXIT_ERROR;
	}
	if (geteuid() != 0) {
		rq_error("live: needs root to record scheduler events (tracefs); run it with "
			 "sudo, or open a recording with 'rqpath replay FILE'");
		return RQ_EXIT_ERROR;
	}
	/* the TUI turns the stop signals into its quit; a full file only ends the recording */
	cli_catch_stop_signals();
	ret = tui_live(&opts, err, sizeof(err));
	cli_restore_signals();
	if (ret) {
		rq_error("%s", err);
		return RQ_EXIT_ERROR;
	}
	return RQ_EXIT_OK;
}
