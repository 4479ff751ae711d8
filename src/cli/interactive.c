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

enum { OPT_TOPOLOGY = 257, OPT_COMPARE, OPT_NO_TRUTH };

static const struct cli_option replay_options[] = {
	{ "input", 'i', CLI_STRING, "FILE.dat", 0, 0, CLI_IN_LEAD,
	  "the trace to open (default: trace.dat in the current directory)" },
	{ "topology", OPT_TOPOLOGY, CLI_STRING, "SPEC|FILE", 0, 0, 0,
	  "the LLC/SMT/node groups and CPU capacities of the traced machine" },
	{ "no-truth", OPT_NO_TRUTH, CLI_FLAG, NULL, 0, 0, 0,
	  "ignore the kernel's state recorded through BPF: the tracepoint model alone" },
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

enum { OPT_BUFFER_KB = 256, OPT_FORCE, OPT_MODE, OPT_NO_BPF };

static const struct cli_option live_options[] = {
	{ "duration", 'd', CLI_SECONDS, "S", 0, 0, 0,
	  "quit after S seconds of recording, as q does (the -o FILE complete)" },
	{ "buffer-kb", OPT_BUFFER_KB, CLI_INT, "N", 1, 4 * 1024 * 1024, 0,
	  "per-CPU ring buffer size in KB (default 64 MB / CPUs, 4096-32768)" },
	{ "output", 'o', CLI_STRING, "FILE", 0, 0, CLI_SHORT,
	  "keep the recording in FILE (else a temporary file, removed at the end)" },
	{ "force", OPT_FORCE, CLI_FLAG, NULL, 0, 0, CLI_NESTED, "replace an existing FILE" },
	{ "mode", OPT_MODE, CLI_MODE, "MODE", 0, 0, CLI_NESTED,
	  "FILE's permission bits in octal (default 0600)" },
	{ "no-bpf", OPT_NO_BPF, CLI_FLAG, NULL, 0, 0, 0,
	  "no kernel truth: do not load the BPF programs (the tracepoints alone)" },
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

static int cmd_replay(int argc, char **argv)
{
	const char *topology = NULL, *input = NULL;
	bool no_truth = false;
	static struct rq_filter filter;	/* the TUI's analyses read it while it runs */
	struct cli_parser p;
	char err[2048];
	int opt, sep = -1, nbase, nnew, ninput = 0, fo;

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
	while ((opt = cli_next(&p)) != CLI_END) {
		if (opt == OPT_COMPARE) {
			rq_error("replay: --compare once, between the BASE and the NEW files");
			return RQ_EXIT_ERROR;
		}
		if (opt == OPT_TOPOLOGY) {
			topology = p.arg;
		} else if (opt == OPT_NO_TRUTH) {
			no_truth = true;
		} else if (opt == 'i') {
			input = p.arg;
			ninput++;
		} else if ((fo = cli_filter_option(&p, opt, &filter)) <= 0) {
			return cli_stop(&p, fo < 0 ? CLI_ERROR : opt);
		}
	}
	tui_set_filter(rq_filter_active(&filter) ? &filter : NULL);
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

static int cmd_live(int argc, char **argv)
{
	struct tui_live_opts opts = { 0 };
	struct cli_parser p;
	char err[2048];
	int opt, ret;

	cli_parser_init(&p, &cli_live, argc, argv);
	while ((opt = cli_next(&p)) != CLI_END) {
		switch (opt) {
		case OPT_BUFFER_KB:
			opts.buffer_kb = (int)p.num;
			break;
		case 'o':
			opts.output = p.arg;
			break;
		case OPT_FORCE:
			opts.force = true;
			break;
		case OPT_MODE:
			opts.mode = (mode_t)p.num;
			break;
		case OPT_NO_BPF:
			opts.no_bpf = true;
			break;
		case 'd':
			opts.duration = p.secs;
			break;
		default:
			return cli_stop(&p, opt);
		}
	}
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
